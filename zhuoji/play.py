"""``zhuoji play``: a human plays a round or a match against bots in the terminal.

::

    zhuoji play --variant guiyang [--seat N] [--seed S] [--rounds R] [--agent greedy]

Before each of the player's decisions the table is shown: the round, dealer, 连庄 streak
and wall count; the 宝牌 wild tile where the variant has one; every seat's melds,
discards and 报听 flag; the player's hand in notation and in Chinese (the drawn tile
apart); the discard being answered in a claim window; then a numbered menu of the legal
actions (:meth:`zhuoji.actions.Action.label`).  The answer is a menu number, or a tile in
notation (``5m``) for the plain discard of that tile; ``h`` shows the help, ``q`` leaves.
Anything else is refused and the question asked again: nothing changes until a legal
action is chosen.  When only one action is legal (a declared, frozen hand discarding its
draw) it is played without asking unless ``--ask-always`` is given.

Bots' actions are printed as they happen (their passes are not: a pass would tell which
claims they could have made; nor are their 换三张 picks and 定缺 choices, which stay hidden
until every seat has chosen: then the exchange's direction and the tiles received, and
every seat's void suit, are printed).  At the end of each round the result, the revealed 翻鸡
tile and the itemized settlement (:func:`zhuoji.report.render_ledger`) are printed; a
match adds the running totals.

Input may come from a pipe: each answer is echoed, and when the input ends before the game
does the game stops with a message on stderr and exit status 1 (``q`` likewise stops it,
with status 0).  The seed is printed so a game can be played again.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind
from zhuoji.agents.base import Agent, agent_names, make_agent
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.match import Match
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.report import SEAT_NAMES, describe_end, render_ledger
from zhuoji.variant import Ruleset, load_variant

HELP = """\
answer with the number of an action, or a tile in notation (5m, 1s, 9p, 1z…) to discard it;
  h  this help and the table again
  q  leave the game
tiles: m 万 characters, s 条 bamboo (1s 幺鸡), p 筒 dots, z honors (1z–7z 东南西北中发白)"""


class Quit(Exception):
    """The player asked to leave (``q``)."""


class InputEnded(Exception):
    """Standard input ended before the game did."""


def configure(subparsers: Any) -> None:
    """Add ``play`` to the ``zhuoji`` command."""
    p = subparsers.add_parser("play", help="play a round or a match against bots in the terminal")
    p.add_argument(
        "--variant",
        "-v",
        default="guiyang",
        help="shipped variant name or a variant file (default guiyang)",
    )
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="override a rule (repeatable)"
    )
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    p.add_argument(
        "--seed", type=int, default=None, help="seed of the match (default: random, printed)"
    )
    p.add_argument(
        "--rounds", type=int, default=1, help="rounds to play; more than one is a match (default 1)"
    )
    p.add_argument("--agent", default="greedy", help="bot for the other seats (default greedy)")
    p.add_argument(
        "--ask-always", action="store_true", help="ask even when only one action is legal"
    )
    p.set_defaults(handler=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    ruleset = load_variant(args.variant, args.set or None)
    n = ruleset.players
    if not 0 <= args.seat < n:
        raise ZhuojiError(f"seat {args.seat} is out of range 0-{n - 1} for {ruleset.name}")
    if args.rounds < 1:
        raise ZhuojiError(f"--rounds must be at least 1, not {args.rounds}")
    if args.agent not in agent_names():
        raise ZhuojiError(f"unknown agent {args.agent!r}; known: {', '.join(agent_names())}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    game = TerminalGame(ruleset, args.seat, args.agent, seed, ask_always=args.ask_always)
    return game.run(args.rounds)


class TerminalGame:
    """The play loop: bots in every seat but ``seat``, whose actions come from ``read``."""

    def __init__(
        self,
        ruleset: Ruleset,
        seat: int,
        agent: str,
        seed: int,
        *,
        ask_always: bool = False,
        read: Callable[[str], str] = input,
        out: TextIO | None = None,
        err: TextIO | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.agent = agent
        self.seed = seed
        self.ask_always = ask_always
        self.read = read
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        n = ruleset.players
        self.bots: dict[int, Agent] = {
            s: make_agent(agent, seed * 16 + s) for s in range(n) if s != seat
        }
        self.round_no = 0
        self.rounds = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    # --- the game ------------------------------------------------------------------------

    def run(self, rounds: int) -> int:
        rs = self.ruleset
        kind = "round" if rounds == 1 else f"match of {rounds} rounds"
        self.say(
            f"zhuoji play: {rs.variant.title} ({rs.name}), a {kind}, you are seat {self.seat}, "
            f"{self.agent} bots, seed {self.seed}"
        )
        self.say("type h for help")
        match = Match(rs, seed=self.seed, rounds=rounds)
        try:
            for i, r in enumerate(match.rounds(), 1):
                self.play_round(r, i, rounds)
                self.settlement(r)
                if i < rounds:
                    self.say("match totals 累计: " + _totals(match.totals))
                    self.ask("press Enter for the next round: ")
            if rounds > 1:
                self.say("\nmatch over 比赛结束. totals 累计: " + _totals(match.totals))
        except InputEnded:
            print(
                "\nzhuoji play: input ended before the game was over; game abandoned",
                file=self.err,
                flush=True,
            )
            return 1
        except Quit:
            self.say("you left the game 退出")
            return 0
        except KeyboardInterrupt:
            print("\nzhuoji play: interrupted", file=self.err, flush=True)
            return 130
        return 0

    def play_round(self, r: Round, index: int, rounds: int) -> None:
        self.round_no, self.rounds = index, rounds
        self.say(
            f"\n=== round {index}/{rounds}: dealer seat {r.dealer}, streak 连庄 {r.streak} ==="
        )
        if r.wild is not None:
            self.say(f"宝牌 wild: {_tile(r.wild)}  (indicator {_tile(r.wild_indicator)})")
        while not r.is_terminal():
            acting = r.to_act()
            order = ([self.seat] if self.seat in acting else []) + [
                s for s in acting if s != self.seat
            ]
            for s in order:
                if r.is_terminal() or s not in r.to_act():
                    break
                obs = Observation(r, s)
                action = self.choose(obs) if s == self.seat else self.bots[s].act(obs)
                phase = r.phase
                r.apply(action)
                if s != self.seat and action.kind not in _UNSHOWN:
                    self.say(f"  {self.name(s, r.dealer)}: {action.label()}")
                if phase is not r.phase and phase.value in ("exchange", "dingque"):
                    self.start_phase_done(Observation(r, self.seat), phase.value)

    def start_phase_done(self, obs: Observation, closed: str) -> None:
        """换三张 / 定缺 closed: what every seat may now know."""
        if closed == "exchange":
            given, got = obs.exchange_given, obs.exchange_received
            self.say(
                f"换三张 done, passed to the {obs.exchange_direction} seat: you passed "
                f"{T.format(given)} ({T.names(given)}), received {T.format(got)} ({T.names(got)})"
            )
        else:
            voids = [obs.void_suit(s) for s in range(obs.players)]
            if any(v is not None for v in voids):
                self.say(
                    "定缺 void suits: "
                    + "  ".join(
                        f"seat {s} {T.suit_name(v)}" for s, v in enumerate(voids) if v is not None
                    )
                )

    def settlement(self, r: Round) -> None:
        assert r.end is not None and r.ledger is not None
        self.say("\n--- round over 本局结束 ---")
        self.say("\n".join(describe_end(r.end)))
        self.say("settlement 结算:")
        self.say(render_ledger(r.ledger, r.end))

    # --- the human seat ------------------------------------------------------------------

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) == 1 and not self.ask_always:
            self.show(obs)
            self.say(f"only one choice: {legal[0].label()}")
            return legal[0]
        self.show(obs)
        self.menu(legal)
        while True:
            answer = self.ask(f"choose [1-{len(legal)}]: ").strip()
            action, problem = parse_answer(answer, legal)
            if action is not None:
                self.say(f"→ {action.label()}")
                return action
            if problem == "help":
                self.say(HELP)
                self.show(obs)
                self.menu(legal)
            elif problem == "quit":
                raise Quit
            else:
                self.say(problem)

    def ask(self, prompt: str) -> str:
        try:
            text = self.read(prompt)
        except EOFError:
            raise InputEnded from None
        if not sys.stdin.isatty():
            self.say(text)  # echo piped answers so the transcript reads as a dialogue
        return text

    def menu(self, legal: Sequence[Action]) -> None:
        for i, a in enumerate(legal, 1):
            self.say(f"  {i:>2}. {a.label()}")

    def name(self, seat: int, dealer: int) -> str:
        wind = SEAT_NAMES[(seat - dealer) % len(SEAT_NAMES)]
        who = "you" if seat == self.seat else self.agent
        return f"seat {seat} ({who}, {wind}{'庄' if seat == dealer else ''})"

    def show(self, obs: Observation) -> None:
        """The table as this seat sees it."""
        n = obs.players
        claim = obs.claim_tile
        self.say("")
        head = (
            f"--- round {self.round_no}/{self.rounds} · {obs.ruleset.variant.title} · "
            f"dealer seat {obs.dealer} · wall 牌墙 {obs.wall_left} left ---"
        )
        self.say(head)
        if obs.wild is not None:
            self.say(f"宝牌 wild: {_tile(obs.wild)}")
        discards: list[list[str]] = [[] for _ in range(n)]
        for by, tile, claimed in obs.discards:
            discards[by].append(T.text(tile) + ("*" if claimed is not None else ""))
        for s in range(n):
            flags = " 报听" if obs.declared(s) else ""
            void = obs.void_suit(s)
            flags += f" 缺{T.suit_name(void)}" if void is not None else ""
            melds = " ".join(_meld(m) for m in obs.melds(s)) or "-"
            self.say(
                f"{self.name(s, obs.dealer)}{flags}  hand {obs.concealed_count(s)}  melds 副露: {melds}"
            )
            self.say(f"    discards 弃牌: {' '.join(discards[s]) or '-'}")
        self.say("    (* = claimed by another seat)")
        hand = list(obs.hand)
        drawn = obs.drawn if obs.phase == "turn" else -1
        if drawn >= 0:
            hand[drawn] -= 1
        tiles = T.to_tiles(hand)
        line = f"your hand 手牌: {T.format(tiles)}"
        if drawn >= 0:
            line += f"  + drew 摸 {T.text(drawn)}"
        self.say(line)
        self.say(
            f"               {T.names(tiles)}" + (f"  + {T.name(drawn)}" if drawn >= 0 else "")
        )
        if obs.phase == "exchange":
            given = obs.exchange_given
            self.say(
                "换三张: pick the tiles to pass on, one at a time"
                + (f" (so far {T.format(given)})" if given else "")
            )
        elif obs.phase == "dingque":
            self.say("定缺: choose the suit you will void; you cannot win while holding it")
        if claim >= 0:
            src = obs.discards[-1][0] if obs.phase == "claim" and obs.discards else None
            what = "discarded" if obs.phase == "claim" else "adds a kong with"
            who = f"seat {src}" if src is not None else "a player"
            self.say(f"{who} {what} {_tile(claim)}: your answer?")


#: bots' actions not printed: a pass tells which claims were possible; 换三张 and 定缺
#: choices are hidden until every seat has chosen
_UNSHOWN = (ActionKind.PASS, ActionKind.EXCHANGE, ActionKind.QUE)


def parse_answer(answer: str, legal: Sequence[Action]) -> tuple[Action | None, str]:
    """An action for a menu answer, or None and what was wrong ("help"/"quit" for those)."""
    if not answer:
        return None, f"please enter a number from 1 to {len(legal)}"
    low = answer.lower()
    if low in ("h", "help", "?"):
        return None, "help"
    if low in ("q", "quit", "exit"):
        return None, "quit"
    if answer.isdigit():
        i = int(answer)
        if 1 <= i <= len(legal):
            return legal[i - 1], ""
        return None, f"not a choice: {answer}; enter a number from 1 to {len(legal)}"
    try:
        tile = T.parse_one(answer)
    except ZhuojiError:
        return None, f"not a choice: {answer!r}; enter a number from 1 to {len(legal)} (h for help)"
    plain = [
        a
        for a in legal
        if a.tile == tile
        and ((a.kind is ActionKind.DISCARD and not a.declare) or a.kind is ActionKind.EXCHANGE)
    ]
    if plain:
        return plain[0], ""
    return None, f"you cannot discard {_tile(tile)} now; enter a number from 1 to {len(legal)}"


def _tile(kind: int | None) -> str:
    if kind is None:
        return "?"
    return f"{T.name(kind)} ({T.text(kind)})"


def _meld(m: Meld) -> str:
    tag = {
        MeldKind.CHI: "吃",
        MeldKind.PENG: "碰",
        MeldKind.GANG_EXPOSED: "点杠",
        MeldKind.GANG_CONCEALED: "暗杠",
        MeldKind.GANG_ADDED: "补杠",
    }[m.kind]
    return f"[{T.format(m.tiles)} {tag}]"


def _totals(totals: Sequence[int]) -> str:
    return "  ".join(f"seat {s} {t:+d}" for s, t in enumerate(totals))
