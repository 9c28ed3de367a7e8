"""The mechanisms the catalog left out, second half (issue 25, deliverable 3): QQ's 热炮 kong
paid to the winner, FW 查缺 after wins, DS automatic 报叫, 满鸡算清一色, 爬坡鸡.

Each key's default changes nothing (every other variant settles as before: the pins, the
golden cases and the determinism fingerprints); these tests hold what each key does beyond
its golden cases (``tests/golden/guiyang-qq/04``, ``sandingguai/03``–``04`` …): the engine's
part, the pricers, the round-end checks and the words.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conformance.walls import stack

from zhuoji import deadkeys, roundend
from zhuoji.actions import Action
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.outcome import Declaration, Meld, MeldKind
from zhuoji.variant_io import load_variant


def legal(r: Round, seat: int) -> list[str]:
    return [str(a) for a in r.legal_actions(seat)]


def do(r: Round, *actions: str) -> None:
    for text in actions:
        r.apply(Action.parse(text))


# ---------------------------------------------------------------------------------------
# DS automatic 报叫 (baoting.automatic; dushan)
# ---------------------------------------------------------------------------------------

#: the dealer is ready after discarding 9p or 5p; seat 1 after his first draw (9p)
HANDS = [
    "111m456m789m123s5p9p",
    "234p567p345s66s99m",
    "11p22p33p77s88s99s4m",
    "2m3m5m6m7s8s1p4p6p7p8p3s7s",
]
DRAWS = "9p4s9m1m8p8m2m6m6s"


def test_automatic_baojiao_leaves_no_undeclared_ready_first_discard() -> None:
    """DS §6 「你打出自己的第一张牌之后，如果这时已经听牌，就自动报叫」: a first discard that
    leaves the hand ready declares it; the player has no plain version of it."""
    chosen = load_variant("guiyang")
    auto = load_variant("guiyang", {"baoting.automatic": True})
    r = Round(chosen, wall=stack(chosen, HANDS, DRAWS), dealer=0)
    assert {"0 declare 9p", "0 discard 9p", "0 declare 5p", "0 discard 5p"} <= set(legal(r, 0))
    r = Round(auto, wall=stack(auto, HANDS, DRAWS), dealer=0)
    first = legal(r, 0)
    assert {"0 declare 9p", "0 declare 5p"} <= set(first)
    assert "0 discard 9p" not in first and "0 discard 5p" not in first
    assert "0 discard 1s" in first  # a discard that leaves the hand unready stays plain
    do(r, "0 declare 9p")
    assert r.seats[0].declared is Declaration.HARD
    assert "1 declare 9p" in legal(r, 1) and "1 discard 9p" not in legal(r, 1)
    do(r, "1 declare 9p")
    # seat 2 was ready from the start: every first discard that keeps him ready declares
    second = legal(r, 2)
    assert any(a.startswith("2 declare") for a in second)
    assert "2 discard 4m" not in second
    do(r, "2 discard 1p")  # breaks his seven pairs: not ready, not declared
    assert r.seats[2].declared is None
    do(r, "3 discard 9m", "1 pass")
    # only the first discard: later ready discards are plain
    do(r, "0 discard 1m", "1 discard 8p")
    assert not any(a.startswith("2 declare") for a in legal(r, 2))


def test_dushan_declares_automatically() -> None:
    dushan = load_variant("dushan")
    assert dushan.variant.baoting is not None and dushan.variant.baoting.automatic
    assert load_variant("dushan@2").variant.baoting.automatic is False  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------
# QQ's 热炮: the kong behind it paid to the winner (settle.burn.repao.kong_to_winner)
# ---------------------------------------------------------------------------------------

QQ_REPAO = {
    "variant": "guiyang-qq",
    "dealer": 0,
    "seats": [
        {"hand": "1m7m8m9m2p4p5p6p7p2s3s5s9s"},
        {"hand": "1m2m6m7m1p2p6p7p9p4s5s8s9s"},
        {
            "hand": "1m8m9m1p2p4p7p2s3s9s",
            "melds": [{"kind": "gang_added", "tile": "6s", "from": 1}],
        },
        {"hand": "222m444m777s33p99p"},
    ],
    "discards": [{"seat": 2, "tile": "3p", "claimed_by": 3, "after_kong": True}],
    "result": {"wins": [{"seat": 3, "how": "discard", "from": 2}], "tile": "3p", "kong_tile": "6s"},
    "reveal": "4m",
}


def _settle(
    data: dict[str, object], overrides: dict[str, object] | None = None
) -> list[tuple[int, int, int, str]]:
    _, _, ledger = roundend.settle_file(roundend.parse(data), overrides=overrides)
    return sorted((e.payer, e.payee, e.amount, e.item) for e in ledger.entries)


@pytest.mark.parametrize(
    ("kind", "kong_from", "paid"),
    [("gang_added", 1, 3), ("gang_concealed", None, 6), ("gang_exposed", 1, 1)],
)
def test_repao_kong_paid_as_its_dou_kind(kind: str, kong_from: int | None, paid: int) -> None:
    """CITIES.md 贵阳 common 热炮 「QQ: that kong void and paid to the winner as its dou kind
    (闷6/转弯3/点1 after ÷10) plus the discard payment」."""
    meld: dict[str, object] = {"kind": kind, "tile": "6s"}
    if kong_from is not None:
        meld["from"] = kong_from
    data = {
        **QQ_REPAO,
        "seats": [
            *QQ_REPAO["seats"][:2],
            {**QQ_REPAO["seats"][2], "melds": [meld]},
            QQ_REPAO["seats"][3],
        ],
    }  # type: ignore[index]
    assert _settle(data) == sorted([(2, 3, 5, "hu.pattern"), (2, 3, paid, "burn.kong")])
    # off (guiyang-qq@1, 百度's reading): the discarder's dou are only burnt, +1 for 热炮
    assert _settle({**data, "variant": "guiyang-qq@1"}) == [
        (2, 3, 1, "hu.repao"),
        (2, 3, 5, "hu.pattern"),
    ]


def test_repao_kong_to_winner_needs_the_kong_named() -> None:
    """A 热炮 discarder with two kongs: which one is paid to the winner must be named."""
    two = {
        **QQ_REPAO,
        "seats": [
            *QQ_REPAO["seats"][:2],  # type: ignore[index]
            {
                "hand": "1m8m9m1p2p4p7p",
                "melds": [
                    {"kind": "gang_added", "tile": "6s", "from": 1},
                    {"kind": "gang_concealed", "tile": "3m"},
                ],
            },
            QQ_REPAO["seats"][3],  # type: ignore[index]
        ],
    }
    with pytest.raises(ZhuojiError, match=r"result\.kong_tile: the 热炮 discarder"):
        _settle({**two, "result": {**QQ_REPAO["result"], "kong_tile": None}})  # type: ignore[dict-item]
    assert (2, 3, 3, "burn.kong") in _settle(two)  # named: the 转弯豆 of 6s
    # without kong_to_winner nothing needs naming
    _settle(
        {**two, "result": {**QQ_REPAO["result"], "kong_tile": None}},
        {"settle.burn.repao.kong_to_winner": False},
    )  # type: ignore[dict-item]


def test_repao_kong_words_and_price() -> None:
    rs = load_variant("guiyang-qq")
    _, _, ledger = roundend.settle_file(roundend.parse(QQ_REPAO))
    entry = next(e for e in ledger.entries if e.item == "burn.kong")
    zh, en = entry.words().sentence()
    assert "转弯豆" in zh and "1×3" in zh and "added kong" in en and "热" not in en
    # the bots: a 热炮 deal-in costs the mean kong value on top (guiyang's dou 2/1/1: (6+1+3)/3)
    share = rs.pricing.share(
        1, self_draw=False, winner_dealer=False, payer_dealer=False, streak=0, repao=True
    )
    plain = rs.pricing.share(1, self_draw=False, winner_dealer=False, payer_dealer=False, streak=0)
    assert share - plain == pytest.approx(10 / 3)
    guiyang = load_variant("guiyang")
    assert guiyang.pricing.share(
        1, self_draw=False, winner_dealer=False, payer_dealer=False, streak=0, repao=True
    ) == guiyang.pricing.share(
        1, self_draw=False, winner_dealer=False, payer_dealer=False, streak=0
    )


# ---------------------------------------------------------------------------------------
# FW 查缺 after wins (settle.huazhu.after_wins, payees)
# ---------------------------------------------------------------------------------------

CHAQUE_WIN = {
    "variant": "sandingguai",
    "dealer": 0,
    "seats": [
        {"hand": "5m8m1p2p3p6p9p3s4s6s7s8s9s", "void_suit": "m"},
        {"hand": "234m567m234s678s9s", "void_suit": "p"},
        {"hand": "1m2m3m4m6m7m9m1p2p4p5p7p8p", "void_suit": "s"},
    ],
    "result": {"wins": [{"seat": 1, "how": "self_draw"}], "tile": "9s"},
    "reveal": "6p",
}


def test_chaque_after_wins_and_its_payees() -> None:
    """CITIES.md 三丁拐 查缺 「a player still holding his void suit at the end pays the others
    per tile」; FW chaQue pays the ready players not burnt, after wins too."""
    now = _settle(CHAQUE_WIN)
    assert (0, 1, 2, "huazhu") in now and not any(e[3] == "huazhu" and e[1] == 2 for e in now)
    # the old reading (after a draw only): nothing after this win
    assert not any(e[3] == "huazhu" for e in _settle({**CHAQUE_WIN, "variant": "sandingguai@2"}))
    # after wins, paid to every player who is no 花猪
    others = _settle(CHAQUE_WIN, {"settle.huazhu.payees": "others"})
    assert {(0, 1, 2, "huazhu"), (0, 2, 2, "huazhu")} <= set(others)


def test_chaque_words_say_when() -> None:
    _, _, ledger = roundend.settle_file(roundend.parse(CHAQUE_WIN))
    entry = next(e for e in ledger.entries if e.item == "huazhu")
    zh, en = entry.words().sentence()
    assert "一局结束时" in zh and "ready players only" in en


# ---------------------------------------------------------------------------------------
# 满鸡算清一色 (settle.manji; jinsha) and 爬坡鸡 (settle.papo; a jinsha room option)
# ---------------------------------------------------------------------------------------

MANJI = {
    "variant": "jinsha",
    "dealer": 0,
    "seats": [
        {"hand": "1m3m7m9m2p4p8p3p5p2s4s7s9s"},
        {"hand": "2m4m8m9m1p3p6p7p3s5s8s8s9s"},
        {"hand": "1m2m4m7m8m1p9p5p6s7s8s3s4s"},
        {"hand": "666m678m234p567s9p"},
    ],
    "result": {"wins": [{"seat": 3, "how": "self_draw"}], "tile": "9p"},
    "reveal": "5m",
}


def test_manji_needs_a_revealed_chicken_and_is_paid_by_the_wins_payers() -> None:
    """CITIES.md 金沙 「满鸡 counts as 清一色」: four copies of a chicken the reveal made."""
    paid = [e for e in _settle(MANJI) if e[3] == "hu.manji"]
    assert paid == [(0, 3, 10, "hu.manji"), (1, 3, 10, "hu.manji"), (2, 3, 10, "hu.manji")]
    # the reveal 4m makes 5m (and 4m): four 6m are no 满鸡
    assert not any(e[3] == "hu.manji" for e in _settle({**MANJI, "reveal": "4m"}))
    # off in revision 2, and in every variant that does not list it
    assert not any(e[3] == "hu.manji" for e in _settle({**MANJI, "variant": "jinsha@2"}))
    # on a discard only the discarder pays
    disc = {
        **MANJI,
        "discards": [{"seat": 1, "tile": "9p", "claimed_by": 3}],
        "result": {"wins": [{"seat": 3, "how": "discard", "from": 1}], "tile": "9p"},
    }
    assert [e for e in _settle(disc, {"may_win": None}) if e[3] == "hu.manji"] == [
        (1, 3, 10, "hu.manji")
    ]


def test_manji_and_papo_words_and_pricers() -> None:
    _, _, ledger = roundend.settle_file(roundend.parse(MANJI))
    manji = next(e for e in ledger.entries if e.item == "hu.manji")
    zh, en = manji.words().sentence()
    assert "六万" in zh and "6 characters" in en
    _, _, ledger = roundend.settle_file(roundend.parse(MANJI), overrides={"settle.papo": {}})
    papo = next(e for e in ledger.entries if e.item == "ji.papo")
    assert papo.amount == 4 * 6
    zh, en = papo.words().sentence()
    assert "4×6×1" in zh and "4 × 6 × 1" in en
    # what they are worth to a bot: 爬坡鸡 per held copy (rank × value × 1/27), 满鸡 for a kong
    rs = load_variant("jinsha", {"settle.papo": {}})
    papo_pricer = next(p for p in rs.pricing.pricers if type(p).__name__ == "PapoPricer")
    values = papo_pricer.hold_values()
    assert values is not None and values[8] == pytest.approx(9 / 27) and values[27] == 0.0
    manji_pricer = next(p for p in rs.pricing.pricers if type(p).__name__ == "ManjiPricer")
    kong = (Meld(MeldKind.GANG_CONCEALED, 5),)
    assert manji_pricer.held([0] * 34, kong, -1)[0] == pytest.approx(10 * 2 * 2 / 27)
    assert manji_pricer.held([0] * 34, (), -1) == (0.0, 0.0, 0.0, 0.0, 0.0)
    assert not any(
        type(p).__name__ in ("PapoPricer", "ManjiPricer")
        for p in load_variant("guiyang").pricing.pricers
    )


def test_papo_and_manji_without_chickens_are_dead_keys(tmp_path: Path) -> None:
    path = tmp_path / "nochickens.yaml"
    path.write_text(
        "name: nochickens\nextends: guiyang\nsettle:\n  chickens: null\n  papo: {}\n  manji: {}\n",
        encoding="utf-8",
    )
    found = deadkeys.warnings(path)
    assert any("settle.papo" in line for line in found), found
    assert any("settle.manji" in line for line in found), found


def test_kong_to_winner_is_refused_on_rob_kong_and_dead_without_a_voided_kong(
    tmp_path: Path,
) -> None:
    """A robbed kong was never made (seed 000 16) 「点炮玩家的转弯豆不成立」): only the 热炮
    burn takes kong_to_winner; and it is a dead key where the 热炮 voids no kong."""
    with pytest.raises(ZhuojiError, match=r"settle\.burn\.rob_kong\.kong_to_winner: unknown key"):
        load_variant("guiyang", {"settle.burn.rob_kong": {"dou": "all", "kong_to_winner": True}})
    path = tmp_path / "dk.yaml"
    path.write_text(
        "name: dk\nextends: guiyang-qq\nsettle:\n  burn:\n"
        "    repao: {chickens: false, dou: none, kong_to_winner: true}\n",
        encoding="utf-8",
    )
    found = deadkeys.warnings(path)
    assert any("settle.burn.repao.kong_to_winner" in line for line in found), found
