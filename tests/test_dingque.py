"""定缺 and 换三张 (issue 12 §3; CITIES.md "Common mechanisms" 6 and 10): actions, the
start-of-round phase, the win/claim rules under 定缺, the 通行证 parameters, settlement
after a draw (查花猪, 查大叫: golden cases in ``tests/dingque/``), the bots and replays.

Sources: CITIES.md 捉鸡 with 定缺 and 三丁拐 (GA ``Table_GY_TWO`` "cannot claim or win
holding the void suit"; FW setting idx 27–28 换三张/换四张; ZA pass "on the first discard";
安顺 FW ``EnableKongTXZ=false``), the public Sichuan implementations the variant fields cite
(a ``HuansanzhangState`` server: three tiles of one suit, random direction; gofishing-game
``sichuan.go`` ``Award()``: 查花猪 and 查大叫).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import goldenlib  # tests/golden/goldenlib.py, on the path by conftest.py
import pytest
from conformance.walls import stack

from zhuoji import eventlog
from zhuoji import tiles as T
from zhuoji.actions import Action, ActionKind
from zhuoji.agents.base import RandomAgent, choose_start, make_agent, play_round
from zhuoji.engine import Phase, Round
from zhuoji.errors import IllegalActionError, ScenarioError
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind, WinHow
from zhuoji.roundend import build, parse, settle_file
from zhuoji.rules.win import PassParams, WinCheck, may_win_pass, void_suit_clear
from zhuoji.variant_io import load_variant

HERE = Path(__file__).parent
VARIANT = HERE / "variants" / "dingque-3p.yaml"
DINGQUE_3P = load_variant(VARIANT)
GUIYANG = load_variant("guiyang")
DINGQUE_4P = load_variant("guiyang", {"dingque": {}})


def legal(r: Round, seat: int) -> list[str]:
    return [str(a) for a in r.legal_actions(seat)]


def do(r: Round, *actions: str) -> None:
    for text in actions:
        r.apply(Action.parse(text))


# ---------------------------------------------------------------------------------------
# actions
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "tile", "label"),
    [
        ("0 que m", ActionKind.QUE, 0, "定缺 万"),
        ("3 que p", ActionKind.QUE, 2, "定缺 筒"),
        ("1 exchange 5s", ActionKind.EXCHANGE, T.parse_one("5s"), "换牌 五条 (5s)"),
    ],
)
def test_start_actions_round_trip(text: str, kind: ActionKind, tile: int, label: str) -> None:
    a = Action.parse(text)
    assert (a.kind, a.tile, str(a), a.label()) == (kind, tile, text, label)


@pytest.mark.parametrize("text", ["0 que 5m", "0 que", "0 que z"])
def test_que_names_a_suit(text: str) -> None:
    with pytest.raises(IllegalActionError, match=r"定缺 names a suit: 'SEAT que m\|s\|p'"):
        Action.parse(text)


# ---------------------------------------------------------------------------------------
# 定缺 in play
# ---------------------------------------------------------------------------------------

# seat 1 waits on 3m for 大对子 (a pattern above 平胡: a 通行证) but holds 3m itself;
# seat 2 waits on 3m for 清大对 and holds no 筒
HANDS = [
    "3m468m1357p246889s",  # dealer: discards 3m first
    "111s555s999s222s3m",
    "111m222m444m555m3m",
    "66799m1479p3567s",
]
QUE = ("0 que s", "1 que m", "2 que p", "3 que p")


def dingque_round() -> Round:
    return Round(DINGQUE_4P, wall=stack(DINGQUE_4P, HANDS), dealer=0)


def test_dingque_is_simultaneous_and_hidden() -> None:
    r = dingque_round()
    assert r.phase is Phase.DINGQUE and r.to_act() == [0, 1, 2, 3]
    assert legal(r, 2) == ["2 que m", "2 que s", "2 que p"]
    do(r, "0 que s")
    assert r.observe(0).void_suit(0) == 1  # one's own choice
    assert r.observe(1).void_suit(0) is None  # nobody else's until all have chosen
    assert r.observation(1)["void_suits"] == [None, None, None, None]
    assert r.observation(0)["void_suits"] == ["s", None, None, None]
    assert r.observation(1)["to_act"] == [1]  # who is still choosing is not told
    log_size = len(r.log)
    with pytest.raises(IllegalActionError, match="seat 0 is not to act now"):
        do(r, "0 que m")
    assert len(r.log) == log_size and r.observe(0).void_suit(0) == 1
    do(r, *QUE[1:])
    assert r.phase is Phase.TURN and r.current == 0
    for seat in range(4):
        assert r.observation(seat)["void_suits"] == ["s", "m", "p", "p"]


def test_no_win_holding_the_void_suit() -> None:
    """GA Table_GY_TWO: a player cannot win while holding his void suit.  Seat 1 holds 3m,
    his void suit, so 3m cannot complete his 大对子; seat 2 (void 筒, holding none) wins."""
    r = dingque_round()
    do(r, *QUE, "0 discard 3m")
    assert legal(r, 1) == []
    assert legal(r, 2) == ["2 hu 3m", "2 pass"]
    do(r, "2 hu 3m")
    assert r.end is not None and [(w.seat, w.how) for w in r.end.wins] == [(2, WinHow.DISCARD)]
    assert [s.void_suit for s in r.end.seats] == [1, 0, 2, 2]
    assert r.end.ready is not None and r.end.ready[1] is False  # waits on nothing
    plain = Round(GUIYANG, wall=stack(GUIYANG, HANDS), dealer=0)
    do(plain, "0 discard 3m")
    assert legal(plain, 1) == ["1 hu 3m", "1 pass"]  # without 定缺 the same hand wins


PENG_HANDS = [
    "3m468m1357p246889s",
    "33m111s555s999s22s",  # void 万: the 3m pung is barred unless meld_void
    "111m222m444m555m6m",
    "66799m1479p3567s",
]


@pytest.mark.parametrize(("meld_void", "offered"), [(False, []), (True, ["1 peng 3m", "1 pass"])])
def test_meld_void(meld_void: bool, offered: list[str]) -> None:
    rs = load_variant("guiyang", {"dingque": {"meld_void": meld_void}})
    r = Round(rs, wall=stack(rs, PENG_HANDS), dealer=0)
    do(r, *QUE, "0 discard 3m")
    if offered:
        assert legal(r, 1) == offered
    else:  # no claim window at all: seat 1 simply draws
        assert r.phase is Phase.TURN and r.current == 1 and r.observe(1).drawn >= 0


@pytest.mark.parametrize(("meld_void", "kong"), [(False, False), (True, True)])
def test_no_concealed_kong_of_the_void_suit(meld_void: bool, kong: bool) -> None:
    rs = load_variant("guiyang", {"dingque": {"meld_void": meld_void}})
    hands = ["8888m46m1357p2469s", *HANDS[1:]]
    r = Round(rs, wall=stack(rs, hands), dealer=0)
    do(r, "0 que m", *QUE[1:])
    assert ("0 angang 8m" in legal(r, 0)) is kong


@pytest.mark.parametrize(("first", "discards"), [(True, "1357p"), (False, "3468m24689s1357p")])
def test_discard_void_first(first: bool, discards: str) -> None:
    rs = load_variant("guiyang", {"dingque": {"discard_void_first": first}, "baoting": None})
    r = Round(rs, wall=stack(rs, HANDS), dealer=0)
    do(r, "0 que p", *QUE[1:])
    assert T.format(sorted({a.tile for a in r.legal_actions(0)})) == discards


def test_no_baoting_while_holding_the_void_suit() -> None:
    """报听 is a promise to win: a hand holding its void suit cannot (FW canTingOrBaoTing
    skips such waits).  The dealer's 123m678m789m33s23p + 9p is ready after 9p in shape."""
    hands = ["123m678m789m33s23p9p", *HANDS[1:]]
    plain = Round(GUIYANG, wall=stack(GUIYANG, hands), dealer=0)
    assert "0 declare 9p" in legal(plain, 0)
    for suit in "msp":
        r = Round(DINGQUE_4P, wall=stack(DINGQUE_4P, hands), dealer=0)
        do(r, f"0 que {suit}", *QUE[1:])
        assert not [a for a in legal(r, 0) if "declare" in a]


# ---------------------------------------------------------------------------------------
# 换三张
# ---------------------------------------------------------------------------------------

EXCHANGE_HANDS = [
    "123456789m11s159p",  # dealer: his 14th tile, 9p, goes away
    "13579m2468s3579p",
    "2468m13579s2468p",
    "3456m234s111678p",
]
PICKS = [
    ("0 exchange 1p", "0 exchange 5p", "0 exchange 9p"),
    ("1 exchange 2s", "1 exchange 4s", "1 exchange 6s"),
    ("2 exchange 2m", "2 exchange 4m", "2 exchange 6m"),
    ("3 exchange 2s", "3 exchange 3s", "3 exchange 4s"),
]


def exchange_round(direction: str, dice: list[tuple[int, int]] | None = None) -> Round:
    rs = load_variant("guiyang", {"exchange": {"direction": direction}})
    return Round(rs, wall=stack(rs, EXCHANGE_HANDS), dealer=0, dice=dice)


def pick_all(r: Round) -> None:
    for step in range(3):
        for seat in (0, 1, 2, 3):
            do(r, PICKS[seat][step])


@pytest.mark.parametrize(
    ("direction", "dice", "shown", "receives_from"),
    [
        ("next", None, "next", {0: 3, 1: 0, 2: 1, 3: 2}),
        ("previous", None, "previous", {0: 1, 1: 2, 2: 3, 3: 0}),
        ("opposite", None, "opposite", {0: 2, 1: 3, 2: 0, 3: 1}),
        ("random", [(1, 2)], "next", {0: 3, 1: 0, 2: 1, 3: 2}),  # 3 % 3 = 0
        ("random", [(3, 1)], "opposite", {0: 2, 1: 3, 2: 0, 3: 1}),  # 4 % 3 = 1
        ("random", [(2, 3)], "previous", {0: 1, 1: 2, 2: 3, 3: 0}),  # 5 % 3 = 2
    ],
)
def test_exchange_directions(
    direction: str, dice: list[tuple[int, int]] | None, shown: str, receives_from: dict[int, int]
) -> None:
    r = exchange_round(direction, dice)
    dealt = [list(st.hand) for st in r.seats]
    pick_all(r)
    assert r.exchange_direction == shown
    assert [e for e in r.log if e["type"] == "exchange"] == [
        {"type": "exchange", "direction": shown}
    ]
    assert [e["dice"] for e in r.log if e["type"] == "dice"] == ([list(dice[0])] if dice else [])
    for seat, source in receives_from.items():
        want = list(dealt[seat])
        for a in PICKS[seat]:
            want[Action.parse(a).tile] -= 1
        for a in PICKS[source]:
            want[Action.parse(a).tile] += 1
        assert r.seats[seat].hand == want
        assert r.observe(seat).exchange_received == tuple(
            Action.parse(a).tile for a in PICKS[source]
        )
    assert r.phase is Phase.TURN


def test_exchange_picks_one_suit_unseen() -> None:
    r = exchange_round("next")
    # seat 3 holds 3456m 234s 111678p: every suit has three tiles or more
    assert legal(r, 3) == [
        f"3 exchange {t}"
        for t in ("3m", "4m", "5m", "6m", "2s", "3s", "4s", "1p", "6p", "7p", "8p")
    ]
    do(r, "3 exchange 2s")
    assert legal(r, 3) == ["3 exchange 3s", "3 exchange 4s"]  # the same suit only
    seen = r.observation(1)
    assert seen["to_act"] == [1] and seen["exchange"]["given"] == ""
    assert r.observation(3)["exchange"]["given"] == "2s"
    assert r.observe(1).exchange_given == () and r.observe(3).exchange_given == (T.parse_one("2s"),)
    with pytest.raises(IllegalActionError):
        do(r, "3 exchange 5m")


def test_exchange_of_any_tiles() -> None:
    rs = load_variant("guiyang", {"exchange": {"same_suit": False, "tiles": 4}})
    r = Round(rs, wall=stack(rs, EXCHANGE_HANDS), dealer=0, dice=[(1, 1)])
    do(r, "1 exchange 1m", "1 exchange 2s")
    assert "1 exchange 3p" in legal(r, 1)


def test_the_dealer_wins_on_what_he_was_passed() -> None:
    """The dealer's 14th tile (9p) went away: he is complete, and a tile he received stands
    for the drawn one (天和 is on the initial hand as the exchange left it)."""
    r = exchange_round("next")
    pick_all(r)
    assert r.observe(0).drawn == T.parse_one("4s")
    assert "0 hu 4s" in legal(r, 0)


def test_exchange_then_dingque_in_order() -> None:
    rs = load_variant("guiyang", {"exchange": {"direction": "next"}, "dingque": {}})
    r = Round(rs, wall=stack(rs, EXCHANGE_HANDS), dealer=0)
    assert r.phase is Phase.EXCHANGE
    pick_all(r)
    assert r.phase is Phase.DINGQUE
    do(r, "0 que p", "1 que s", "2 que m", "3 que p")
    assert r.phase is Phase.TURN
    do(r, "0 hu 4s")
    assert r.end is not None and r.end.seats[0].void_suit == 2


# ---------------------------------------------------------------------------------------
# the 通行证 (may_win.pass): CITIES.md mechanism 6
# ---------------------------------------------------------------------------------------


def check(**kw: object) -> WinCheck:
    base: dict[str, object] = {
        "seat": 1,
        "tile": 0,
        "how": WinHow.DISCARD,
        "has_kong": False,
        "declared": False,
        "source_declared": False,
        "repao": False,
        "base_fan": lambda: 1,
    }
    base.update(kw)
    return WinCheck(**base)  # type: ignore[arg-type]


EXPOSED = (Meld(MeldKind.GANG_EXPOSED, 4, 2),)
CONCEALED = (Meld(MeldKind.GANG_CONCEALED, 4),)


@pytest.mark.parametrize(
    ("params", "win", "allowed"),
    [
        ({}, check(), False),  # 平胡 1 < 2, no dou
        ({}, check(has_kong=True, melds=EXPOSED), True),
        ({"dou_kinds": ["concealed", "added"]}, check(has_kong=True, melds=EXPOSED), False),  # 安顺
        ({"dou_kinds": ["concealed", "added"]}, check(has_kong=True, melds=CONCEALED), True),
        ({"first_turn": True}, check(first_turn=True), True),  # ZA 丁拐 mode
        ({}, check(first_turn=True), False),
        ({"min_pattern_fan": 0}, check(base_fan=lambda: 0), True),  # 屁胡 allowed (FW)
        ({}, check(how=WinHow.SELF_DRAW), True),
    ],
)
def test_pass_parameters(params: dict[str, object], win: WinCheck, allowed: bool) -> None:
    assert may_win_pass(win, PassParams.model_validate(params)) is allowed


def test_void_suit_clear_reads_the_hand_and_melds() -> None:
    counts = tuple(T.counts("123m456m789m11s22s"))
    assert void_suit_clear(check(counts=counts, void_suit=2))
    assert not void_suit_clear(check(counts=counts, void_suit=0))
    assert not void_suit_clear(
        check(counts=counts, void_suit=2, melds=(Meld(MeldKind.PENG, T.parse_one("5p"), 0),))
    )
    assert void_suit_clear(check(counts=counts))  # no 定缺


# ---------------------------------------------------------------------------------------
# settlement after a draw: golden cases (tests/dingque/*.yaml)
# ---------------------------------------------------------------------------------------

CASES = sorted((HERE / "dingque").glob("*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_draw_settlement(path: Path) -> None:
    case = goldenlib.load_case(path)
    _, _, ledger = settle_file(parse(case.data, str(path)), str(VARIANT), list(case.overrides))
    missing, extra = goldenlib.entry_diff(case.expected.entries, goldenlib.entries_of(ledger))
    assert not missing and not extra, (sorted(missing.elements()), sorted(extra.elements()))
    assert ledger.totals() == list(case.expected.totals)
    assert (ledger.next_dealer, ledger.next_streak) == (
        case.expected.next_dealer,
        case.expected.next_streak,
    )


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_quotes_are_verbatim(path: Path) -> None:
    sources = HERE.parent / "docs" / "sources"
    texts = [p.read_text(encoding="utf-8") for p in sorted((sources / "seeds").glob("*.txt"))]
    texts += [(sources / name).read_text(encoding="utf-8") for name in ("RULES.md", "CITIES.md")]
    flat = re.sub(r"\s+", " ", "\n".join(texts))
    case = goldenlib.load_case(path)
    assert case.quotes()
    for quote in case.quotes():
        assert re.sub(r"\s+", " ", quote) in flat, quote


def test_huazhu_and_dajiao_only_after_a_draw() -> None:
    """A won round: neither 查花猪 nor 查大叫, even with a 花猪 at the table."""
    data = {
        "dealer": 0,
        "seats": [
            {"hand": "11m123s456s789s12p", "void_suit": "m"},
            {"hand": "123456789s11s55s", "void_suit": "p"},
            {"hand": "1479m258p3678p99p", "void_suit": "s"},
        ],
        "result": {"wins": [{"seat": 1, "how": "self_draw"}], "tile": "9s"},
        "reveal": "2p",
    }
    _, _, ledger = settle_file(parse(data), str(VARIANT))
    assert not {"huazhu", "dajiao"} & {e.item for e in ledger.entries}


@pytest.mark.parametrize(
    ("seat", "change", "message"),
    [
        (
            0,
            {"void_suit": None},
            "seats[0].void_suit: variant dingque-3p plays 定缺: give each seat's void suit",
        ),
        (
            1,
            {"void_suit": "s"},
            "result.wins[0].seat: seat 1 holds its void suit (s) and cannot win (定缺)",
        ),
    ],
)
def test_round_end_void_suits_are_checked(
    seat: int, change: dict[str, object], message: str
) -> None:
    seats = [
        {"hand": "11m123s456s789s12p", "void_suit": "m"},
        {"hand": "123456789s11s55s", "void_suit": "p"},
        {"hand": "1479m258p3678p99p", "void_suit": "s"},
    ]
    seats[seat] = {**seats[seat], **change}
    data = {
        "dealer": 0,
        "seats": seats,
        "result": {"wins": [{"seat": 1, "how": "self_draw"}], "tile": "9s"},
    }
    with pytest.raises(ScenarioError) as err:
        build(parse(data), DINGQUE_3P)
    assert str(err.value) == f"round-end: {message}"


def test_round_end_void_suit_needs_dingque() -> None:
    data = {
        "dealer": 0,
        "seats": [{"hand": "1112345678999m", "void_suit": "p"}] + [{"hand": "1112345678999s"}] * 3,
    }
    data["seats"][0]["hand"] = "111234567899m1s"
    with pytest.raises(ScenarioError, match=r"seats\[0\]\.void_suit: variant guiyang has no 定缺"):
        build(parse(data), GUIYANG)


# ---------------------------------------------------------------------------------------
# bots, whole rounds, replays
# ---------------------------------------------------------------------------------------


def test_bots_void_the_weakest_suit() -> None:
    """The shared heuristic: the suit with the fewest (then least useful) tiles."""
    r = dingque_round()
    obs = Observation(r, 3)  # 66799m 1479p 3567s: four tiles each; 万 and 筒 are looser
    assert str(choose_start(obs)) == "3 que p"
    for name in ("greedy", "cautious"):
        assert str(make_agent(name, 1).act(obs)) == "3 que p"
    assert RandomAgent(1).act(obs) in r.legal_actions(3)


def test_bots_pass_on_their_weakest_suit() -> None:
    r = exchange_round("next")
    obs = Observation(r, 1)  # 13579m 2468s 3579p: loose everywhere, 条 holds the fewest
    picked = str(choose_start(obs))
    assert picked.startswith("1 exchange") and picked.endswith("s")


@pytest.mark.parametrize("agent", ["random", "greedy", "cautious"])
def test_bots_play_whole_rounds_that_replay(agent: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(6):
        r = Round(DINGQUE_3P, seed=seed)
        play_round(r, [make_agent(agent, seed * 3 + s) for s in range(3)])
        assert r.end is not None and r.ledger is not None
        for w in r.end.wins:
            assert not r.end.seats[w.seat].void_tiles()
            assert T.suit_of(r.end.win_tile or 0) != r.end.seats[w.seat].void_suit
        events = eventlog.parse(eventlog.dumps(r.log))
        again = eventlog.replay(events, DINGQUE_3P)
        assert again.end == r.end and again.ledger is not None
        assert again.ledger.entries == r.ledger.entries
        seen.update(e["type"] for e in r.log)
    assert seen["exchange"] == 6 and seen["action"] > 6 * 12
