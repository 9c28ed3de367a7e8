"""Round-end files: every reveal in order, and every winner on one discard (zhuoji/roundend.py)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from zhuoji import roundend
from zhuoji.errors import ScenarioError
from zhuoji.outcome import Reveal, RevealAt, RevealStatus
from zhuoji.tiles import parse_one
from zhuoji.variant_io import load_variant

GUIYANG = load_variant("guiyang")
QIANHOU = load_variant("guiyang", {"deal.start_reveal": {"stack": 3, "on_kong": "move"}})
GUNTONG = load_variant("guiyang", {"deal.start_reveal": {"stack": 3, "on_kong": "add"}})

ROUND: dict[str, Any] = {
    "dealer": 0,
    "seats": [
        {"hand": "123m456m789m1p2p3p5s"},  # seat 0 self-draws 5s
        {"hand": "1199m2288s337p46p"},
        {"hand": "147m258s369p2s", "melds": [{"kind": "gang_concealed", "tile": "7s"}]},
        {"hand": "235m678m33s45s678p"},
    ],
    "result": {"wins": [{"seat": 0, "how": "self_draw"}], "tile": "5s"},
}


def _build(data: dict[str, Any], rs: Any = QIANHOU) -> Any:
    return roundend.build(roundend.parse(data), rs)


def _with(**top: Any) -> dict[str, Any]:
    data = copy.deepcopy(ROUND)
    data.update(top)
    return data


def test_reveals_in_order() -> None:
    end = _build(
        _with(
            reveals=[
                {"tile": "5p", "at": "start", "status": "closed"},
                {"tile": "8p", "at": "kong"},
                {"tile": "9s"},
            ]
        )
    )
    assert end.reveals == (
        Reveal(parse_one("5p"), RevealAt.START, RevealStatus.CLOSED),
        Reveal(parse_one("8p"), RevealAt.KONG, RevealStatus.OPEN),
        Reveal(parse_one("9s"), RevealAt.WIN, RevealStatus.OPEN),
    )
    assert end.reveal == parse_one("9s")


def test_single_reveal_of_older_files() -> None:
    end = _build(_with(reveal="9s"), GUIYANG)
    assert end.reveals == (Reveal(parse_one("9s")),)


@pytest.mark.parametrize(
    ("top", "message"),
    [
        (
            {"reveal": "9s", "reveals": [{"tile": "5p"}]},
            "round-end: reveal: only one tile is revealed after the win",
        ),
        (
            {"reveals": [{"tile": "5p", "status": "drawn"}]},
            "round-end: reveals[0].status: the tile revealed after the win is open",
        ),
        (
            # 7p: one each in seats 1 and 3; three open reveals (滚筒鸡) make five
            {
                "variant": "guntong",
                "reveals": [
                    {"tile": "7p", "at": "start"},
                    {"tile": "7p", "at": "kong"},
                    {"tile": "7p", "at": "kong"},
                ],
            },
            "round-end: reveals[2].tile: 7p cannot be in the wall: all four copies are already "
            "in hands, melds, discards or earlier reveals",
        ),
        (
            {"reveals": [{"tile": "5p", "at": "kong"}], "variant": "guiyang"},
            "round-end: reveals[0].at: variant guiyang reveals no tile during play "
            "(deal.start_reveal)",
        ),
        (
            {"reveals": [{"tile": "0p"}]},
            "round-end: reveals[0].tile: '0p' is not a tile (write it like 5m, 1s, 9p or 7z)",
        ),
    ],
)
def test_bad_reveals(top: dict[str, Any], message: str) -> None:
    rs = {"guiyang": GUIYANG, "guntong": GUNTONG}.get(top.pop("variant", ""), QIANHOU)
    if rs is GUIYANG:
        top["variant"] = "guiyang"
    with pytest.raises(ScenarioError) as err:
        _build(_with(**top), rs)
    assert str(err.value) == message


@pytest.mark.parametrize(
    ("on_kong", "reveal", "message"),
    [
        (
            "stay",
            {"tile": "5p", "at": "kong"},
            "reveals[0].at: variant guiyang reveals nothing at a kong (deal.start_reveal.on_kong: stay)",
        ),
        (
            "add",
            {"tile": "5p", "at": "start", "status": "closed"},
            "reveals[0].status: only 前后鸡 closes a reveal (deal.start_reveal.on_kong: move)",
        ),
    ],
)
def test_reveals_the_variant_does_not_make(
    on_kong: str, reveal: dict[str, str], message: str
) -> None:
    rs = load_variant("guiyang", {"deal.start_reveal": {"stack": 1, "on_kong": on_kong}})
    with pytest.raises(ScenarioError) as err:
        _build(_with(reveals=[reveal]), rs)
    assert str(err.value) == f"round-end: {message}"


def test_drawn_reveal_needs_no_copy_in_the_wall() -> None:
    """All four 3p are in hands: a drawn reveal of 3p is one of them."""
    data = _with(reveals=[{"tile": "3p", "at": "start", "status": "drawn"}])
    assert _build(data).reveals[0].status is RevealStatus.DRAWN
    data["reveals"][0]["status"] = "open"
    with pytest.raises(ScenarioError, match="3p cannot be in the wall"):
        _build(data)


THREE_WINNERS: dict[str, Any] = {
    "variant": "guiyang",
    "dealer": 3,
    "seats": [
        {"hand": "11m33m22p99p6p55s77s"},
        {"hand": "444m99m66p222s888s"},
        {"hand": "2689m1348p34569s"},
        {"hand": "55m45p789p123s", "melds": [{"kind": "gang_concealed", "tile": "7m"}]},
    ],
    "discards": [{"seat": 2, "tile": "6p", "claimed_by": 0}],
    "result": {
        "wins": [
            {"seat": 0, "how": "discard", "from": 2},
            {"seat": 1, "how": "discard", "from": 2},
            {"seat": 3, "how": "discard", "from": 2},
        ],
        "tile": "6p",
    },
}


def test_every_winner_on_one_discard_is_recorded() -> None:
    end = roundend.build(roundend.parse(THREE_WINNERS), GUIYANG)
    assert [w.seat for w in end.wins] == [0, 1, 3]
    assert {w.source for w in end.wins} == {2}
    assert end.discards[0].claimed_by == 0


def test_a_won_on_discard_names_a_winner() -> None:
    data = copy.deepcopy(THREE_WINNERS)
    data["discards"][0]["claimed_by"] = 2  # the discarder itself did not win
    with pytest.raises(ScenarioError) as err:
        roundend.build(roundend.parse(data), GUIYANG)
    assert str(err.value) == (
        "round-end: discards[0].claimed_by: a discard taken without a meld was won on, but seat 2 "
        "did not win on seat 2's 6p (give the meld as claim, or list the win in result.wins)"
    )
    data["discards"][0]["claimed_by"] = 3  # any winner may be named as the one who takes it
    assert roundend.build(roundend.parse(data), GUIYANG).discards[0].claimed_by == 3
