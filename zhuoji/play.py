"""``zhuoji play``: a human plays a round or a match against bots in the terminal.

::

    zhuoji play --variant guiyang [--seat N] [--seed S] [--rounds R] [--agent greedy]

Before each of the player's decisions the table is shown (through rich: colour where the
terminal supports it, CJK-aware column widths): the round, the dealer, 连庄 streak and wall
count; the 宝牌 wild tile where the variant has one; one row per seat, named the same way
everywhere — ``seat 1 (南, you)``, ``seat 0 (东庄)`` — with its tiles in hand, melds (and
whom each claim came from), discards (``*`` marks one another seat claimed) and 报听 flag;
the player's hand in notation and in Chinese, the drawn tile apart and chickens marked
(``鸡``, ``金鸡``); the waits (听) with the copies of each still unseen when the hand is
ready, or, in its turn, which discards would leave it ready (:mod:`zhuoji.hints`); the
discard being answered in a claim window; then a numbered menu of the legal actions
(:meth:`zhuoji.actions.Action.label`).  The answer is a menu number, or a tile in notation
(``5m``) for the plain discard of that tile — the prompt says so; ``h`` shows the help,
``q`` leaves.  Anything else is refused and the question asked again: nothing changes until
a legal action is chosen.  When only one action is legal (a declared, frozen hand
discarding its draw) it is played without asking unless ``--ask-always`` is given.

Bots' actions are printed as they happen (their passes are not: a pass would tell which
claims they could have made; nor are their 换三张 picks and 定缺 choices, which stay hidden
until every seat has chosen: then the exchange's direction and the tiles received, and
every seat's void suit, are printed; the table shows each seat's void suit, 缺万).  At the
end of each round the result, the revealed 翻鸡 tile with the chickens it made, in words
(:mod:`zhuoji.explain`), and the itemized settlement (:func:`zhuoji.report.render_ledger`)
are printed; a match adds the running totals.

Input may come from a pipe: each answer is echoed, and when the input ends before the game
does the game stops with a message on stderr and exit status 1 (``q`` likewise stops it,
with status 0).  The seed is printed so a game can be played again.  ``NO_COLOR`` turns
colour off; so does output that is not a terminal.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind
from zhuoji.agents.base import Agent, agent_names, make_agent
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.explain import chicken_rules
from zhuoji.hints import Mark, discard_waits, marks_now, waits_left
from zhuoji.match import Match
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.report import SEAT_NAMES, describe_end, render_ledger
from zhuoji.rules.chickens import chicken_marks
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import load_variant

if TYPE_CHECKING:  # rich is imported when a game starts, so `zhuoji --help` stays fast
    from rich.console import Console
    from rich.text import Text

HELP = """\
answer with the number of an action, or type a tile in notation (5m, 1s, 9p, 1z…) to discard it;
  h  this help and the table again
  q  leave the game
tiles: m 万 characters, s 条 bamboo, p 筒 dots, z honors (1z–7z 东南西北中发白)
marks: 鸡 a chicken, 金鸡 a golden chicken; * a discard another seat claimed;
       听 the tiles that complete your hand, with how many copies you have not seen"""

#: the question, with the tile answer offered when a plain discard is among the choices
PROMPT = "choose [1-{n}]: "
PROMPT_TILE = "choose [1-{n}] or type a tile like 5m to {what}: "

#: suit letter → colour of its tiles (万 red, 条 green, 筒 blue, honours magenta)
SUIT_STYLE = {"m": "red", "s": "green", "p": "blue", "z": "magenta"}


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
        from rich.console import Console

        self.ruleset = ruleset
        self.seat = seat
        self.agent = agent
        self.seed = seed
        self.ask_always = ask_always
        self.read = read
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.console: Console = Console(file=self.out, highlight=False, emoji=False)
        n = ruleset.players
        self.bots: dict[int, Agent] = {
            s: make_agent(agent, seed * 16 + s) for s in range(n) if s != seat
        }
        self.round_no = 0
        self.rounds = 0
        self.marks: dict[int, Mark] = chicken_marks(ruleset)

    def say(self, text: str | Text = "", style: str | None = None) -> None:
        self.console.print(text, style=style, markup=False)
        self.out.flush()

    # --- the game ------------------------------------------------------------------------

    def run(self, rounds: int) -> int:
        rs = self.ruleset
        kind = "round" if rounds == 1 else f"match of {rounds} rounds"
        self.say(
            f"zhuoji play: {rs.variant.title} ({rs.name}), a {kind}, you are seat {self.seat}, "
            f"{self.agent} bots, seed {self.seed}"
        )
        self.say("answer with a menu number, or type a tile like 5m to discard it; h for help")
        match = Match(rs, seed=self.seed, rounds=rounds)
        try:
            for i, r in enumerate(match.rounds(), 1):
                self.play_round(r, i, rounds)
                self.settlement(r)
                if i < rounds:
                    self.say("match totals 累计: " + self._totals(match.totals))
                    self.ask("press Enter for the next round: ")
            if rounds > 1:
                self.say("\nmatch over 比赛结束. totals 累计: " + self._totals(match.totals))
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
        self.marks = chicken_marks(r.ruleset)
        self.say("")
        self.console.rule(
            f"round {index}/{rounds}: dealer {self.name(r.dealer, r.dealer)}, streak 连庄 {r.streak}",
            style="bold",
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
                    self.say(f"  {self.name(s, r.dealer)}: {action.label()}", style="dim")
                if phase is not r.phase and phase.value in ("exchange", "dingque"):
                    self.start_phase_done(Observation(r, self.seat), phase.value)

    def start_phase_done(self, obs: Observation, closed: str) -> None:
        """换三张 / 定缺 closed: what every seat may now know."""
        if closed == "exchange":
            given, got = obs.exchange_given, obs.exchange_received
            line = self._text(
                f"换三张 done, passed to the {obs.exchange_direction} seat: you passed "
            )
            line.append_text(self.tiles_text(given))
            line.append(", received ")
            line.append_text(self.tiles_text(got))
            self.say(line)
        else:
            voids = [obs.void_suit(s) for s in range(obs.players)]
            if any(v is not None for v in voids):
                self.say(
                    "定缺 void suits: "
                    + "  ".join(
                        f"{self.name(s, obs.dealer)} 缺{T.suit_name(v)}"
                        for s, v in enumerate(voids)
                        if v is not None
                    )
                )

    def settlement(self, r: Round) -> None:
        assert r.end is not None and r.ledger is not None
        end = r.end
        self.say("")
        self.console.rule("round over 本局结束", style="bold")
        self.say("\n".join(describe_end(end)))
        rules = chicken_rules(r.ledger)
        if rules:
            marks = chicken_marks(r.ruleset, end.reveals, end.weekday)
            line = self._text("chickens 鸡: ")
            for i, rule in enumerate(rules):
                if i:
                    line.append(" · ")
                line.append_text(self.tile_text(rule.tile, marks))
                line.append(f" {rule.zh}")
            self.say(line)
        self.say("settlement 结算:", style="bold")
        self.say(render_ledger(r.ledger, end))
        mine = r.ledger.totals()[self.seat]
        self.say(
            f"this round 本局: {self.name(self.seat, end.dealer)} {mine:+d}",
            style="bold green" if mine > 0 else "bold red" if mine < 0 else "bold",
        )

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
            can_type = any(_typed(a) for a in legal)
            what = "pass it on" if obs.phase == "exchange" else "discard it"
            prompt = PROMPT_TILE if can_type else PROMPT
            answer = self.ask(prompt.format(n=len(legal), what=what)).strip()
            action, problem = parse_answer(answer, legal)
            if action is not None:
                self.say(f"→ {action.label()}", style="bold")
                return action
            if problem == "help":
                self.say(HELP)
                self.show(obs)
                self.menu(legal)
            elif problem == "quit":
                raise Quit
            else:
                self.say(problem, style="yellow")

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
            style = {
                ActionKind.HU: "bold red",
                ActionKind.PASS: "dim",
                ActionKind.DISCARD: "yellow" if a.declare else "",
            }.get(a.kind, "bold green")
            self.say(f"  {i:>2}. {a.label()}", style=style or None)

    def name(self, seat: int, dealer: int) -> str:
        """``seat 1 (南, you)``, ``seat 0 (东庄)``: the seat number, its wind (庄 for the
        dealer) and, for the player's own seat, "you" — the same everywhere."""
        wind = SEAT_NAMES[(seat - dealer) % self.ruleset.players]  # 门风: the dealer sits East
        tags = [wind + ("庄" if seat == dealer else "")]
        if seat == self.seat:
            tags.append("you")
        return f"seat {seat} ({', '.join(tags)})"

    # --- drawing -------------------------------------------------------------------------

    def _text(self, text: str = "", style: str = "") -> Text:
        """A rich Text starting with ``text`` in ``style`` (what is appended keeps its own)."""
        from rich.text import Text

        out = Text()
        out.append(text, style=style or None)
        return out

    def tile_text(self, kind: int, marks: dict[int, Mark] | None = None) -> Text:
        """``5m`` in its suit's colour; a chicken is followed by 鸡 (金鸡 for a golden one)."""
        code = T.text(kind)
        out = self._text(code, SUIT_STYLE[code[1]])
        mark = (self.marks if marks is None else marks).get(kind)
        if mark == "golden":
            out.append("金鸡", style="bold black on yellow")
        elif mark == "chicken":
            out.append("鸡", style="bold yellow")
        return out

    def tiles_text(self, kinds: Sequence[int], marks: dict[int, Mark] | None = None) -> Text:
        out = self._text()
        for i, k in enumerate(kinds):
            if i:
                out.append(" ")
            out.append_text(self.tile_text(k, marks))
        return out

    def show(self, obs: Observation) -> None:
        """The table as this seat sees it."""
        from rich import box
        from rich.table import Table

        n = obs.players
        claim = obs.claim_tile
        self.marks = marks_now(obs)  # reveals during play (前后鸡 …) may make chickens
        self.say("")
        self.console.rule(
            f"round {self.round_no}/{self.rounds} · {obs.ruleset.variant.title} · "
            f"wall 牌墙 {obs.wall_left} left",
            style="cyan",
        )
        if obs.wild is not None:
            self.say(f"宝牌 wild: {_tile(obs.wild)}")
        discards: list[Text] = [self._text() for _ in range(n)]
        for by, tile, claimed in obs.discards:
            cell = discards[by]
            if cell.plain:
                cell.append(" ")
            if claimed is not None:
                cell.append(T.text(tile) + "*", style="dim strike")
            else:
                cell.append_text(self.tile_text(tile))
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=False, show_edge=False)
        table.add_column("seat 座位", no_wrap=True)
        table.add_column("hand", justify="right")
        table.add_column("melds 副露")
        table.add_column("discards 弃牌 (* claimed)")
        for s in range(n):
            who = self._text(self.name(s, obs.dealer), "bold" if s == self.seat else "")
            if obs.declared(s):
                who.append(" 报听", style="magenta")
            void = obs.void_suit(s)
            if void is not None:
                who.append(f" 缺{T.suit_name(void)}", style="cyan")
            melds = self._text()
            for m in obs.melds(s):
                if melds.plain:
                    melds.append(" ")
                melds.append_text(self.meld_text(m, s, obs))
            table.add_row(who, str(obs.concealed_count(s)), melds or "-", discards[s] or "-")
        self.console.print(table)
        self.show_hand(obs)
        if obs.phase == "exchange":
            given = obs.exchange_given
            line = self._text("换三张: pick the tiles to pass on, one at a time", "bold")
            if given:
                line.append(" (so far ")
                line.append_text(self.tiles_text(given))
                line.append(")")
            self.say(line)
        elif obs.phase == "dingque":
            self.say(
                "定缺: choose the suit you will void; you cannot win while holding it", style="bold"
            )
        if claim >= 0:
            src = obs.claim_source if obs.claim_source >= 0 else None
            what = "discarded" if obs.phase == "claim" else "adds a kong with"
            giver = self.name(src, obs.dealer) if src is not None else "a player"
            line = self._text(f"{giver} {what} ", "bold")
            line.append_text(self.tile_text(claim))
            line.append(f" {T.name(claim)}: your answer?", style="bold")
            self.say(line)

    def show_hand(self, obs: Observation) -> None:
        hand = list(obs.hand)
        drawn = obs.drawn if obs.phase == "turn" else -1
        if drawn >= 0:
            hand[drawn] -= 1
        kinds = T.to_tiles(hand)
        line = self._text("your hand 手牌: ", "bold")
        line.append_text(self.tiles_text(kinds))
        if drawn >= 0:
            line.append("  + drew 摸 ")
            line.append_text(self.tile_text(drawn))
        self.say(line)
        self.say(
            "               " + T.names(kinds) + (f"  + {T.name(drawn)}" if drawn >= 0 else ""),
            style="dim",
        )
        waits = waits_left(obs)
        if waits:
            line = self._text("听 waits: ", "bold magenta")
            for i, (w, left) in enumerate(waits):
                if i:
                    line.append(" · ")
                line.append_text(self.tile_text(w))
                line.append(f" {T.name(w)} ({left} left)")
            self.say(line)
        hints = discard_waits(obs) if obs.legal else {}
        if hints:
            line = self._text("discards that leave you ready 打出即听: ", "magenta")
            for i, (tile, ws) in enumerate(sorted(hints.items())):
                if i:
                    line.append(" | ")
                line.append_text(self.tile_text(tile))
                line.append(" → ")
                for j, (w, left) in enumerate(ws):
                    if j:
                        line.append(" ")
                    line.append(f"{T.text(w)}({left})")
            self.say(line)

    def meld_text(self, m: Meld, owner: int, obs: Observation) -> Text:
        """``[5m 5m 5m 碰←seat 2 (西)]``; another seat's concealed kong stays face down."""
        if m.kind is MeldKind.GANG_CONCEALED and owner != self.seat and obs.phase != "end":
            return self._text("[暗杠 ????]", "dim")
        out = self._text("[")
        out.append_text(self.tiles_text(m.tiles))
        out.append(" " + _MELD_CN[m.kind])
        if m.source is not None:
            out.append("←" + self.name(m.source, obs.dealer), style="dim")
        out.append("]")
        return out

    def _totals(self, totals: Sequence[int]) -> str:
        return "  ".join(
            f"seat {s}{' (you)' if s == self.seat else ''} {t:+d}" for s, t in enumerate(totals)
        )


#: bots' actions not printed: a pass tells which claims were possible; 换三张 and 定缺
#: choices are hidden until every seat has chosen
_UNSHOWN = (ActionKind.PASS, ActionKind.EXCHANGE, ActionKind.QUE)

_MELD_CN = {
    MeldKind.CHI: "吃",
    MeldKind.PENG: "碰",
    MeldKind.GANG_EXPOSED: "点杠",
    MeldKind.GANG_CONCEALED: "暗杠",
    MeldKind.GANG_ADDED: "补杠",
}


def _typed(a: Action) -> bool:
    """An action a typed tile chooses: a plain discard, or a 换三张 pick."""
    return (a.kind is ActionKind.DISCARD and not a.declare) or a.kind is ActionKind.EXCHANGE


def parse_answer(answer: str, legal: Sequence[Action]) -> tuple[Action | None, str]:
    """An action for a menu answer, or None and what was wrong ("help"/"quit" for those)."""
    if not answer:
        return None, f"please enter a number from 1 to {len(legal)}, or a tile like 5m"
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
        tile = T.parse_one(low)
    except ZhuojiError:
        return None, (
            f"not a choice: {answer!r}; enter a number from 1 to {len(legal)} "
            "or a tile like 5m (h for help)"
        )
    plain = [a for a in legal if a.tile == tile and _typed(a)]
    if plain:
        return plain[0], ""
    return None, f"you cannot discard {_tile(tile)} now; enter a number from 1 to {len(legal)}"


def _tile(kind: int | None) -> str:
    if kind is None:
        return "?"
    return f"{T.name(kind)} ({T.text(kind)})"


__all__ = ["TerminalGame", "cmd_play", "configure", "parse_answer"]
