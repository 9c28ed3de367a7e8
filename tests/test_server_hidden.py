"""Hidden information in claim and rob windows, checked against the true state after
every event of many rounds.

A seat with no option in a window must see exactly what it would see had nobody been able
to answer (the round as it stood before the discard or kong that opened it), and the
``seq`` it is shown counts only public events: never the answers of a window (only the
claim or win that took effect).  The checker plays ``ZHUOJI_HIDDEN_ROUNDS`` rounds
(default 200) of bots through the server's own view code (:meth:`Table.view`), one event
at a time — the finest a server ever publishes — and after every event compares each
seat's view with the truth:

* a seat without an option sees the view recorded before the opening action, field for
  field (phase, to_act, claim tile, seq, wall, counts, discards, …);
* no view shows a window (``claim``/``rob``, ``claim_tile``, ``claim_from``) to a seat that
  has no option in it, and ``to_act`` in a window never names another seat;
* every ``seq`` equals a count of public events kept by the checker itself;
* a view shows its own hand exactly and never another seat's concealed tiles or the wall.

The fixed-length window (``claim_window_ms``) is checked on the real app: every discard
is followed by the same pause before anyone without an option sees anything, whether or
not somebody could claim, so thinking time tells nothing.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from zhuoji import tiles as T
from zhuoji.actions import ActionKind
from zhuoji.actions import make as make_action
from zhuoji.agents.base import make_agent
from zhuoji.engine import Phase, Round
from zhuoji.observation import Observation
from zhuoji.variant_io import load_variant

pytest.importorskip("sqlalchemy")
from zhuoji.server import store as S
from zhuoji.server.rounds import new_round
from zhuoji.server.tables import Table, round_view

ROUNDS = int(os.environ.get("ZHUOJI_HIDDEN_ROUNDS", "200"))
ROUND_KEYS = ("phase", "to_act", "seq", "hand", "drawn", "melds", "discards", "declared",
              "concealed_counts", "wall", "claim_tile", "claim_from", "legal", "wild")  # fmt: skip


class _Rules:
    def describe(self, variant: str, overrides: Any) -> dict[str, Any]:
        return {"variant": variant}


def _table(r: Round, players: int, kind: str = "bot") -> Table:
    row = S.TableRow(
        "tcheck", "check", "2026-01-01", 1, 1, "operator", 0, 0,
        seats=[S.SeatRow(s, kind, "greedy", f"bot {s}", None) for s in range(players)],
        rules=[S.RuleRow(1, 1, r.ruleset.name, {}, "2026-01-01")],
        rounds=[S.RoundRow(1, "live", r.ruleset.name, {}, 0, r.dealer, 0, 0, "2026-01-01")],
    )  # fmt: skip
    t = Table(row)
    t.current = r
    return t


def _part(view: dict[str, Any]) -> dict[str, Any]:
    return {k: view.get(k) for k in ROUND_KEYS}


#: turn actions after which the server opens a fixed-length window (zhuoji.server.play)
_OPENERS = (ActionKind.DISCARD, ActionKind.GANG_CONCEALED, ActionKind.GANG_ADDED)


def check_round(
    variant: str, seed: int, bots: list[str], *, timer: bool = False, fixed: bool = False
) -> dict[str, int]:
    """Play one round of bots through the table's view code and check every seat's view
    after every event (the module docstring).  ``timer``: every seat is a human's with a
    turn timer, so the views carry deadlines, and a seat a window hides must see, field for
    field and deadline included, its whole view from before the opening action.
    ``fixed``: a fixed-length claim window after every discard and kong, answers held until
    it ends (as :class:`zhuoji.server.play.Play` does), else the window lasts until every
    seat with an option has answered."""
    rng = random.Random(seed)
    ruleset = load_variant(variant)
    r = new_round(ruleset, seed, None, 0, 0)
    n = r.players
    table = _table(r, n, "human" if timer else "bot")
    table.clock.seconds = 30 if timer else None
    table.note_decisions()
    rules = _Rules()
    public = len(r.log)  # the checker's own count of public events
    before: dict[int, dict[str, Any]] = {}  # views before the action that opened a window
    whole_before: dict[int, dict[str, Any]] = {}  # the same, whole (timer: with deadlines)
    opener = -1
    answers: dict[int, ActionKind] = {}
    stats = {"events": 0, "windows": 0, "hidden_views": 0, "hidden_deadlines": 0}
    agents = [make_agent(bots[s % len(bots)], rng.randrange(2**32)) for s in range(n)]

    def answer(actor: int, action: Any) -> None:
        nonlocal public
        phase = r.phase
        logged = len(r.log)
        r.apply(action)
        new_events = len(r.log) - logged
        answers[actor] = action.kind
        public += new_events - 1  # the answer itself is not counted …
        if r.phase not in (Phase.CLAIM, Phase.ROB):  # … unless it took effect
            if r.end is not None:
                public += sum(1 for w in r.end.wins if w.seat in answers)
            elif phase is Phase.CLAIM and r.discards[-1].claimed_by in answers:
                public += 1

    while not r.is_terminal():
        w = table.window
        if w is not None and w.deadline is not None:  # a fixed window: answers are held
            waiting = [s for s in sorted(r.pending) if s in r.to_act() and s not in w.held]
            if r.phase in (Phase.CLAIM, Phase.ROB) and waiting:
                actor = rng.choice(waiting)
                w.held[actor] = agents[actor].act(Observation(r, actor))
            else:  # its end: the held answers, passes for the rest (Play._end_fixed)
                table.close_window()
                for s in sorted(r.pending) if r.phase in (Phase.CLAIM, Phase.ROB) else ():
                    if r.phase in (Phase.CLAIM, Phase.ROB) and s in r.to_act():
                        answer(s, w.held.get(s) or make_action(s, ActionKind.PASS))
        else:
            actor = r.to_act()[0] if r.phase is Phase.TURN else rng.choice(r.to_act())
            action = agents[actor].act(Observation(r, actor))
            if r.phase is Phase.TURN:
                before = {s: _part(round_view(r, s)) for s in range(n)}
                if timer:
                    whole_before = {s: table.view(s, rules) for s in range(n)}
                logged = len(r.log)
                r.apply(action)
                public += len(r.log) - logged
                if fixed and action.kind in _OPENERS:
                    table.open_window(logged, 1.0)
                    opener, answers = actor, {}
                    stats["windows"] += 1
                elif r.phase in (Phase.CLAIM, Phase.ROB):
                    opener, answers = actor, {}
                    stats["windows"] += 1
            else:
                answer(actor, action)
        table.note_decisions()
        table.sync_window()
        stats["events"] += 1
        in_window = r.phase in (Phase.CLAIM, Phase.ROB)
        w = table.window
        for s in range(n):
            v = table.view(s, rules)
            part = _part(v)
            has_option = in_window and s in r.pending
            if w is not None and s not in w.knows:
                expected = dict(before[s])
                if s == opener and fixed:  # it has acted: it waits like everyone else
                    expected.update(legal=[], to_act=[])
                assert part == expected, (variant, seed, s, part, expected)
                if timer:
                    whole = dict(whole_before[s])
                    if s == opener and fixed:
                        whole.update(legal=[], legal_actions=[], to_act=[], discard_waits={})
                    assert v == whole, (variant, seed, s, _diff(v, whole))
                    stats["hidden_deadlines"] += v["deadline_ms"] is not None
                stats["hidden_views"] += 1
                continue
            if not has_option and not (in_window and s == opener):
                assert v["phase"] not in ("claim", "rob") and v["claim_tile"] is None
            if in_window:
                assert set(v["to_act"]) <= {s}
            assert v["seq"] == public, (variant, seed, s, v["seq"], public)
            assert v["hand"] == T.format_counts(r.seats[s].hand)
            assert isinstance(v["wall"], int)
            if not r.is_terminal():
                text = json.dumps(
                    {
                        k: x
                        for k, x in v.items()
                        if k
                        not in (
                            "hand",
                            "hand_names",
                            "drawn",
                            "drawn_name",
                            "legal",
                            "legal_actions",
                            "waits",
                            "discard_waits",
                        )
                    }
                )
                assert r.log[0]["wall"] not in text
                for o in range(n):
                    if o != s and sum(r.seats[o].hand) >= 4:
                        assert T.format_counts(r.seats[o].hand) not in text
    return stats


def _diff(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}


def test_windows_hide_nothing_over_many_rounds() -> None:
    t0, c0 = time.perf_counter(), time.process_time()
    totals = {"events": 0, "windows": 0, "hidden_views": 0}
    variants = ["guiyang", "guiyang-weile", "liupanshui", "luan", "jinyou", "guiyang-shoushang"]
    for i in range(ROUNDS):
        stats = check_round(variants[i % len(variants)], 1000 + i, ["greedy", "random"])
        for k in totals:
            totals[k] += stats[k]
    print(f"\n{ROUNDS} rounds: {totals} in {time.perf_counter() - t0:.1f} s "
          f"(CPU {time.process_time() - c0:.1f} s)")  # fmt: skip
    assert totals["windows"] > ROUNDS  # windows happen: the check is not empty
    assert totals["hidden_views"] > ROUNDS


#: rounds of each timed check (each view is built whole, with its hints: slower)
TIMED_ROUNDS = int(os.environ.get("ZHUOJI_HIDDEN_TIMED_ROUNDS", "24"))


@pytest.mark.parametrize("fixed", [False, True], ids=["until-answered", "fixed-window"])
def test_windows_with_the_turn_timer_hide_nothing(fixed: bool) -> None:
    """With the turn timer every view carries a deadline: a seat a window hides must see
    the one it saw before the discard (issue 26: ``deadline_ms`` changed in every window,
    read from the live round), in both window modes."""
    totals = {"events": 0, "windows": 0, "hidden_views": 0, "hidden_deadlines": 0}
    variants = ["guiyang", "liupanshui", "jinyou", "guiyang-shoushang"]
    for i in range(TIMED_ROUNDS):
        stats = check_round(
            variants[i % len(variants)], 2000 + i, ["greedy", "random"], timer=True, fixed=fixed
        )
        for k in totals:
            totals[k] += stats[k]
    print(f"\n{TIMED_ROUNDS} timed rounds ({'fixed' if fixed else 'until answered'}): {totals}")
    assert totals["windows"] > TIMED_ROUNDS
    assert totals["hidden_deadlines"] > TIMED_ROUNDS  # frozen views do carry deadlines


# ---------------------------------------------------------------------------------------
# the fixed-length window, on the real app
# ---------------------------------------------------------------------------------------

fastapi = pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from zhuoji.server.app import create_app  # noqa: E402

OP = "hidden-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}


def test_fixed_window_shows_the_same_pause_after_every_discard(tmp_path: Path) -> None:
    window = 0.25
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", OP)) as c:
        t = c.post(
            "/api/tables",
            json={"seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}],
                  "seed": 21, "claim_window_ms": int(window * 1000)},
            headers=OPH,
        ).json()  # fmt: skip
        tid = t["id"]
        tokens = {int(s): {"Authorization": f"Bearer {tok}"} for s, tok in t["tokens"].items()}
        c.post(f"/api/tables/{tid}/rounds", headers=OPH)
        pauses: list[float] = []
        answered_windows = 0
        for _ in range(60):
            views = {
                s: c.get(f"/api/tables/{tid}/view", headers=h).json() for s, h in tokens.items()
            }
            if any(v["phase"] == "end" for v in views.values()):
                break
            actor = next((s for s, v in views.items() if v["legal"]), None)
            if actor is None:
                time.sleep(0.02)
                continue
            other = 2 - actor
            v = views[actor]
            legal = [a["action"] for a in v["legal"]]
            if v["phase"] in ("claim", "rob"):  # answer at once: the pause must not shrink
                answered_windows += 1
                c.post(
                    f"/api/tables/{tid}/actions", json={"action": legal[-1]}, headers=tokens[actor]
                )
                continue
            shown = len(v["discards"])  # the others see this discard only after the window
            sent = time.monotonic()
            r = c.post(
                f"/api/tables/{tid}/actions", json={"action": legal[0]}, headers=tokens[actor]
            )
            assert r.status_code == 200
            assert r.json()["view"]["legal"] == []  # the discarder waits like everyone else
            while True:
                now = c.get(f"/api/tables/{tid}/view", headers=tokens[other]).json()
                if now["phase"] in ("claim", "rob") or len(now["discards"]) > shown:
                    break
                time.sleep(0.01)
            if now["phase"] not in ("claim", "rob"):  # no option: it waited the whole window
                pauses.append(time.monotonic() - sent)
        assert len(pauses) >= 5
        assert min(pauses) >= window * 0.95, pauses
        assert max(pauses) < window + 1.0, pauses
