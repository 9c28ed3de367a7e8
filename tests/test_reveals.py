"""Chicken reveals during play (``zhuoji/reveals.py``, ``deal.start_reveal``) and the weekday.

The tracker cases follow FW ``chiken/chiken_test.go`` (前后鸡, 滚筒鸡) on a 20-tile wall: the
first reveal is the top tile of the third stack from the end, index len−6 = 14.  One
difference is the wall's, not the reveal's: FW takes a replacement from the end top tile
first (106, 107, 104 …), ``Wall.draw_tail`` the bottom one first (107, 106, 105 …), so the
tile at 14 goes with the sixth tail draw here and the fifth in FW.
"""

from __future__ import annotations

import datetime

import pytest
from conformance.walls import stack

from zhuoji import eventlog
from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.match import Match, seed_weekday, today_weekday
from zhuoji.outcome import Reveal, RevealAt, RevealStatus
from zhuoji.reveals import RevealTracker
from zhuoji.rules.chickens import chicken_marks
from zhuoji.variant import DealSection, StartReveal
from zhuoji.variant_io import load_variant
from zhuoji.wall import Wall

TWENTY = list(range(20))  # tile kinds 0..19 stand for FW's 1..20: position i holds kind i


def _tracker(on_kong: str, **kw: object) -> tuple[RevealTracker, Wall]:
    wall = Wall(TWENTY)
    return RevealTracker(StartReveal(stack=3, on_kong=on_kong, **kw), wall), wall  # type: ignore[arg-type]


def test_qianhou_start_is_the_third_stack_from_the_end_and_is_lost_when_drawn() -> None:
    t, wall = _tracker("move")
    assert t.start() == 14  # FW 「fbIndex != 14 || fbTile != 15」: index 14
    wall.deal(14)  # FW ForwardDrawMulti(1) then (13): positions 0..13
    assert t.counting() == [14]
    wall.draw_head()  # position 14
    assert t.counting() == []
    assert t.final() == (Reveal(14, RevealAt.START, RevealStatus.DRAWN),)


def test_qianhou_lost_to_replacement_draws() -> None:
    t, wall = _tracker("move")
    t.start()
    for _ in range(5):
        wall.draw_tail()  # 19, 18, 17, 16, 15
    assert t.counting() == [14]
    wall.draw_tail()  # 14
    assert t.counting() == []


def test_qianhou_moves_one_stack_and_closes_the_old_reveal() -> None:
    t, _wall = _tracker("move")
    t.start()
    assert t.on_kong() == 12
    assert t.on_kong() == 10
    assert t.counting() == [10]
    assert [(r.tile, r.at, r.status) for r in t.final()] == [
        (14, RevealAt.START, RevealStatus.CLOSED),
        (12, RevealAt.KONG, RevealStatus.CLOSED),
        (10, RevealAt.KONG, RevealStatus.OPEN),
    ]


def test_qianhou_keeps_moving_past_a_drawn_position() -> None:
    """FW ``GenChikenFB``: ``fbIndex -= 2`` at every kong, shown or not."""
    t, wall = _tracker("move")
    t.start()
    wall.deal(13)  # positions 0..12
    assert t.on_kong() is None  # 12 is drawn: nothing shown, 14 closed
    assert t.counting() == []
    assert t.on_kong() is None  # 10


def test_gundong_accumulates_reveals() -> None:
    t, wall = _tracker("add")
    t.start()
    t.on_kong()
    t.on_kong()  # FW 「连滚3次」 → {14: 15, 12: 13, 10: 11}
    assert t.counting() == [14, 12, 10]
    for _ in range(6):
        wall.draw_tail()  # 19 … 14 (FW: five draws take 14)
    assert t.counting() == [12, 10]
    wall.deal(11)  # FW 「前面抓11张」: positions 0..10
    assert t.counting() == [12]


def test_gundong_adds_nothing_past_a_drawn_position() -> None:
    """FW ``AppendChikenTumbling``: the next index is the last shown one − 2; a drawn one
    adds nothing, and the next kong tries the same position again."""
    t, wall = _tracker("add")
    t.start()
    wall.deal(13)
    assert t.on_kong() is None
    assert t.on_kong() is None
    assert t.counting() == [14]


def test_a_kept_reveal_survives_its_draw() -> None:
    """DS §13: 开局翻鸡 「不移出」 — with lost_when_drawn false a drawn reveal still counts."""
    t, wall = _tracker("stay", lost_when_drawn=False)
    t.start()
    assert t.on_kong() is None
    wall.deal(15)
    assert t.counting() == [14]
    final = t.final()
    assert final == (Reveal(14, RevealAt.START, RevealStatus.DRAWN),)
    rule = StartReveal(stack=3, on_kong="stay", lost_when_drawn=False)
    assert DealSection(start_reveal=rule).counting(final) == list(final)
    assert DealSection().counting(final) == []


# ---------------------------------------------------------------------------------------
# in play: the dealer's concealed kong moves the reveal; logged, recorded, replayed
# ---------------------------------------------------------------------------------------

DEALER_KONG = [
    "9999m123m456p789s1p",  # the dealer konged 9m, then the replacement 1p wins (杠开)
    "1m2m3m4m5m6m7m8m1s2s3s4s5s",
    "1m2m3m4m5m6m7m8m1s2s3s4s5s",
    "6s7s8s2p3p4p5p6p7p8p9p2s3s",
]


def _kong_round(on_kong: str) -> Round:
    rs = load_variant("guiyang", {"deal.start_reveal": {"stack": 3, "on_kong": on_kong}})
    # position 102 (third stack from the end) and 100 (the next stack toward the head)
    wall = stack(rs, DEALER_KONG, tail="1p", at={102: "3p", 100: "5s"}, dealer=0)
    r = Round(rs, wall=wall, dealer=0, weekday=4)
    r.apply(Action.parse("0 angang 9m"))
    r.apply(Action.parse("0 hu 1p"))
    return r


@pytest.mark.parametrize(
    ("on_kong", "statuses", "chickens"),
    [
        ("move", ["closed", "open"], {"6s"}),  # 前后鸡: only 5s counts, 3p closed
        ("add", ["open", "open"], {"4p", "6s"}),  # 滚筒鸡: both count
    ],
)
def test_kong_reveals_in_play(on_kong: str, statuses: list[str], chickens: set[str]) -> None:
    r = _kong_round(on_kong)
    shown = [e for e in r.log if e["type"] == "reveal"]
    assert shown == [
        {"type": "reveal", "at": "start", "tile": "3p"},
        {"type": "reveal", "at": "kong", "tile": "5s"},
    ]
    assert r.end is not None and r.ledger is not None
    win = r.end.reveal
    assert win is not None
    assert r.end.reveals[:2] == tuple(
        Reveal(T.parse_one(t), at, RevealStatus(s))
        for t, at, s in zip(["3p", "5s"], [RevealAt.START, RevealAt.KONG], statuses, strict=True)
    )
    assert r.end.reveals[2] == Reveal(win, RevealAt.WIN)
    end_event = r.log[-1]
    assert end_event["reveals"] == [
        {"tile": "3p", "at": "start", "status": statuses[0]},
        {"tile": "5s", "at": "kong", "status": statuses[1]},
    ]
    # what the in-play reveals make (幺鸡 is permanent; the after-win reveal adds its own)
    in_play = [t for t in r.open_reveals() if t != win]
    marks = chicken_marks(r.ruleset, in_play)
    assert {T.TILE_TEXT[k] for k in marks} == chickens | {"1s"}
    replayed = eventlog.replay(eventlog.parse(eventlog.dumps(r.log)))
    assert replayed.end == r.end
    assert replayed.ledger is not None and replayed.ledger.totals() == r.ledger.totals()


def test_observation_shows_the_open_reveals() -> None:
    rs = load_variant("guiyang", {"deal.start_reveal": {"stack": 3, "on_kong": "move"}})
    wall = stack(rs, DEALER_KONG, tail="1p", at={102: "3p", 100: "5s"}, dealer=0)
    r = Round(rs, wall=wall, dealer=0)
    assert r.observation(1)["reveals"] == ["3p"]
    r.apply(Action.parse("0 angang 9m"))
    assert r.observation(1)["reveals"] == ["5s"]
    assert r.open_reveals() == [T.parse_one("5s")]


def test_no_start_reveal_logs_nothing_new() -> None:
    """Variants without deal.start_reveal log as before (older logs keep replaying)."""
    r = Round(load_variant("guiyang"), seed=5)
    assert not any(e["type"] == "reveal" for e in r.log)
    assert r.observation(0)["reveals"] == []


# ---------------------------------------------------------------------------------------
# 星期鸡: the weekday comes from the table or match and is logged
# ---------------------------------------------------------------------------------------


def test_weekday_is_logged_and_replayed() -> None:
    r = _kong_round("move")
    assert r.log[0]["weekday"] == 4
    replayed = eventlog.replay(eventlog.parse(eventlog.dumps(r.log)))
    assert replayed.end is not None and replayed.end.weekday == 4


def test_a_match_takes_its_weekday_from_its_seed_by_default() -> None:
    """Issue 25: a seeded match pays the same on any day; only served tables take the
    calendar's (``today_weekday``)."""
    rs = load_variant("guiyang")
    assert today_weekday() == datetime.date.today().isoweekday()
    days = {seed: next(Match(rs, seed=seed, rounds=1).rounds()).weekday for seed in range(40)}
    assert days == {seed: seed_weekday(seed) for seed in range(40)}
    assert set(days.values()) == set(range(1, 8))
    assert [seed_weekday(s) for s in range(7)] == [5, 6, 4, 4, 6, 4, 5]  # the same everywhere
    assert next(Match(rs, seed=1, rounds=1, weekday=7).rounds()).log[0]["weekday"] == 7


def test_weekday_out_of_range() -> None:
    with pytest.raises(ZhuojiError, match="weekday 8 is out of range 1-7"):
        Round(load_variant("guiyang"), seed=1, weekday=8)
