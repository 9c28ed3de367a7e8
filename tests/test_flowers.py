"""补花 and flowers (``tiles.flowers``, ``settle.flowers``; issue 25): the wall, the deal, the
draw and its replacement, the after-win reveal, the event log, the observation, the round-end
checks, the 补花鸡 payment and its price, and qianxi's revisions.

CITIES.md 黔西 tiles: 「the server has 补花 and a 红花 chicken item, so probably flower tiles
drawn and replaced (inf.)」.  The golden case ``tests/golden/qianxi/04`` works a payment by
hand; these tests hold the engine's part and the checks.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from conformance.walls import stack

from zhuoji import eventlog, roundend
from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.agents.base import make_agent, play_round
from zhuoji.contract.pricing import Decision
from zhuoji.engine import Round
from zhuoji.errors import ScenarioError, VariantError, ZhuojiError
from zhuoji.observation import Observation
from zhuoji.rules.flowers import FlowerPricer
from zhuoji.settle import settle
from zhuoji.variant_io import load_variant

GOLDEN = Path(__file__).resolve().parent / "golden" / "qianxi"

#: seat 1 waits on 5p (123456789m 123p 5p); the dealer's hands leave no claim but seat 3's
HANDS = [
    "2578m11369s258p1f9s",  # the dealer: a flower among his 13, then his 14th, 9s
    "123456789m1235p",
    "134679m2458s369p",
    "258m2346799s147p",
]


def qianxi() -> Round:
    """The docs/event-log.md example: the dealer's dealt flower is replaced by 8s (the last
    tile); seat 1 draws a flower, then its replacement 5p (the one before), and wins."""
    rs = load_variant("qianxi")
    return Round(rs, wall=stack(rs, HANDS, "1f", tail="8s5p"), dealer=0)


def test_qianxi_plays_112_tiles_with_four_flowers() -> None:
    v = load_variant("qianxi").variant
    assert v.revision == 3 and v.tiles.flowers == 4 and v.tiles.wall_size == 112
    assert "flowers" in {b.name for b in load_variant("qianxi").stages}


def test_a_dealt_flower_is_set_aside_and_replaced_from_the_back() -> None:
    r = qianxi()
    assert [st.flowers for st in r.seats] == [1, 0, 0, 0]
    assert r.seats[0].hand[T.parse_one("8s")] == 1  # his replacement, the wall's last tile
    assert sum(r.seats[0].hand) == 14
    deal = next(e for e in r.log if e["type"] == "deal")
    assert deal["flowers"] == [1, 0, 0, 0]


def test_a_drawn_flower_is_set_aside_and_its_replacement_drawn() -> None:
    r = qianxi()
    r.apply(Action.parse("0 discard 9s"))
    r.apply(Action.parse("3 pass"))
    assert r.seats[1].flowers == 1 and r.seats[1].drawn == T.parse_one("5p")
    assert [str(a) for a in r.legal_actions(1)][-1] == "1 hu 5p"
    events = [e for e in r.log if e["type"] in ("draw", "flower")]
    assert events == [
        {"type": "draw", "seat": 1, "tile": "1f", "replacement": False},
        {"type": "flower", "seat": 1},
        {"type": "draw", "seat": 1, "tile": "5p", "replacement": False},  # no kong before
    ]
    r.apply(Action.parse("1 hu 5p"))
    assert r.end is not None and not r.end.gangkai  # a flower's replacement is no 杠开
    assert [s.flowers for s in r.end.seats] == [1, 1, 0, 0]
    items = sorted((e.payer, e.payee, e.amount) for e in r.ledger.entries if e.item == "ji.buhua")
    assert items == [(0, 1, 1), (2, 1, 1), (3, 1, 1)]  # the dealer is not ready: nothing
    replayed = eventlog.replay(eventlog.parse(eventlog.dumps(list(r.log))))
    assert replayed.returns() == r.returns()


def test_the_after_win_reveal_passes_over_a_flower() -> None:
    """A flower has no rank: 翻鸡 turns the next tile (a reading, docs/variants.md)."""
    rs = load_variant("qianxi")
    # the filler's two other flowers come right after the head draws
    r = Round(rs, wall=stack(rs, HANDS, "1f", tail="8s5p"), dealer=0)
    for text in ("0 discard 9s", "3 pass"):
        r.apply(Action.parse(text))
    assert r.wall.peek_head() == T.FLOWER
    r.apply(Action.parse("1 hu 5p"))
    assert r.end is not None and r.end.reveal not in (None, T.FLOWER)
    assert r.end.reveal == r.wall.peek_head(T.FLOWER)


def test_no_tile_left_to_replace_a_flower_draws_the_round() -> None:
    """The wall's last tile is a flower: its drawer sets it aside, no tile is left to replace
    it, and the round is drawn."""
    rs = load_variant("guiyang", {"tiles.flowers": 1})
    hands = [
        "123m456m789m123s5p9p",
        "123p456p789p22s9s7m",
        "11m22m33m44s55s6p7p9m",
        "5m6m7m7s8s9s1p1m3p4p6s8m2p",
    ]
    r = Round(rs, wall=stack(rs, hands, tail="1f"), dealer=0)
    while not r.is_terminal():  # every seat throws what it drew (or its first tile), no win
        seat = r.to_act()[0]
        legal = [a for a in r.legal_actions(seat) if "hu" not in str(a)]
        drawn = r.seats[seat].drawn
        r.apply(
            next((a for a in legal if str(a).endswith("pass")), None)
            or next((a for a in legal if a.tile == drawn and not a.declare), legal[0])
        )
    assert r.end is not None and r.end.is_draw and r.wall.live() == 0
    assert [e["type"] for e in r.log][-3:] == ["draw", "flower", "end"]
    drawer = r.log[-2]["seat"]
    assert r.log[-3] == {"type": "draw", "seat": drawer, "tile": "1f", "replacement": False}
    assert r.seats[drawer].flowers == 1


@pytest.mark.parametrize("seed", range(6))
def test_played_rounds_hold_no_flower_and_replay(seed: int) -> None:
    rs = load_variant("qianxi")
    r = Round(rs, seed=seed)
    play_round(r, [make_agent("greedy" if s % 2 else "random", seed * 4 + s) for s in range(4)])
    aside = sum(st.flowers for st in r.seats)
    in_wall = sum(1 for i, t in enumerate(r.wall.tiles) if t == T.FLOWER and not r.wall.taken[i])
    assert aside + in_wall == 4
    assert all(len(st.hand) == T.NUM_KINDS for st in r.seats)
    flowers = sum(1 for e in r.log if e["type"] == "flower")
    dealt = next(e for e in r.log if e["type"] == "deal")["flowers"]
    assert flowers + sum(dealt) == aside
    assert eventlog.replay(eventlog.parse(eventlog.dumps(list(r.log)))).returns() == r.returns()
    assert r.end is not None
    again = roundend.build(roundend.parse(roundend.to_data(r.end, "qianxi")), rs)
    assert settle(rs, again).totals() == r.returns()


def test_every_seat_sees_the_flowers_set_aside() -> None:
    r = qianxi()
    for seat in range(4):
        assert r.observation(seat)["flowers"] == [1, 0, 0, 0]
        assert Observation(r, seat).flowers(0) == 1
    plain = Round(load_variant("guiyang"), seed=1)
    assert "flowers" not in plain.observation(0)  # no flowers: the view is as before


def test_a_stacked_wall_with_a_flower_too_many_is_refused() -> None:
    rs = load_variant("qianxi")
    wall = stack(rs, HANDS, "1f")
    wall[wall.index(T.parse_one("9m"))] = T.FLOWER
    with pytest.raises(ZhuojiError, match=r"flower 5 \(1f\); the variant has 4 \(tiles.flowers\)"):
        Round(rs, wall=wall, dealer=0)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"wild": {}}, "flowers with a 宝牌 wild"),
        ({"deal.start_reveal": {"stack": 3, "on_kong": "move"}}, "with a start-of-round reveal"),
    ],
)
def test_flowers_with_a_wild_or_a_start_reveal_are_refused(
    overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(VariantError) as err:
        load_variant("qianxi", overrides)
    assert any(message in str(p) and "tiles.flowers" in str(p) for p in err.value.problems)


# ---------------------------------------------------------------------------------------
# round-end files
# ---------------------------------------------------------------------------------------


def _golden() -> dict[str, object]:
    import yaml

    data = yaml.safe_load((GOLDEN / "04_buhua_flowers.yaml").read_text(encoding="utf-8"))
    data.pop("expected")
    return data


def _refusal(data: dict[str, object], variant: str = "qianxi") -> str:
    with pytest.raises(ScenarioError) as err:
        roundend.build(roundend.parse(data), load_variant(variant))
    return str(err.value)


def test_round_end_refuses_impossible_flowers() -> None:
    data = _golden()
    too_many = copy.deepcopy(data)
    too_many["seats"][0]["flowers"] = 1  # type: ignore[index]
    assert _refusal(too_many).startswith(
        "round-end: seats: 5 flowers set aside in all; the set has 4 (tiles.flowers: 4;"
    )
    held = copy.deepcopy(data)
    held["seats"][0]["hand"] = "1f5m7m8m9m1p2p4p9p3s5s7s8s"  # type: ignore[index]
    assert _refusal(held) == (
        "round-end: seats[0].hand: a flower (1f) is never held: it is set aside when drawn "
        "(补花); give it in the seat's flowers"
    )
    none = copy.deepcopy(data)
    assert _refusal(none, "qianxi@2").startswith(
        "round-end: seats[1].flowers: 1 flower(s) set aside in a variant without flowers "
        "(tiles.flowers: 0;"
    )
    discarded = copy.deepcopy(data)
    discarded["discards"] = [{"seat": 0, "tile": "1f"}]
    assert "discards.0.tile" in _refusal(discarded) or "discards[0].tile" in _refusal(discarded)


def test_round_end_files_write_and_read_flowers() -> None:
    r = qianxi()
    for text in ("0 discard 9s", "3 pass", "1 hu 5p"):
        r.apply(Action.parse(text))
    assert r.end is not None
    data = roundend.to_data(r.end, "qianxi")
    assert [s.get("flowers", 0) for s in data["seats"]] == [1, 1, 0, 0]
    end = roundend.build(roundend.parse(data), load_variant("qianxi"))
    assert settle(load_variant("qianxi"), end).totals() == r.returns()


# ---------------------------------------------------------------------------------------
# qianxi's revisions: @2 (no flowers) settles as it did
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["01_yinji_mantang", "02_dandiao_baoji_everyone"])
def test_pinned_qianxi_2_settles_its_cases_as_before(case: str) -> None:
    import yaml

    data = yaml.safe_load((GOLDEN / f"{case}.yaml").read_text(encoding="utf-8"))
    expected = data.pop("expected")
    old = load_variant("qianxi@2")
    assert old.variant.tiles.flowers == 0 and old.variant.tiles.wall_size == 108
    assert "flowers" not in {b.name for b in old.stages}
    for rs in (old, load_variant("qianxi")):
        end = roundend.build(roundend.parse(data), rs)
        assert settle(rs, end).totals() == expected["totals"]


# ---------------------------------------------------------------------------------------
# the price
# ---------------------------------------------------------------------------------------


def _decision(flowers: int, ready_opponents: float = 1.0) -> Decision:
    return Decision(
        seat=1,
        players=4,
        dealer=0,
        streak=0,
        weekday=1,
        reveals=(),
        table=(),
        live=[4] * T.NUM_KINDS,
        unseen=100,
        declared=[False] * 4,
        own_melds=(),
        wild=None,
        claim_source=-1,
        p_ready=[0.0] * 4,
        ready_opponents=ready_opponents,
        typical_loss=1.0,
        other_self_draw_share=0.5,
        flowers=flowers,
    )


def test_the_bots_price_the_flowers_as_settlement_pays_them() -> None:
    """Held flowers are worth ``flowers × value`` from each chicken payer at the ends where
    the seat collects chickens (a win, or another's win while ready), nothing otherwise —
    the golden case: seat 2's two flowers earn 2 from each of three."""
    rs = load_variant("qianxi")
    found = [p for p in rs.pricing.pricers if isinstance(p, FlowerPricer)]
    assert len(found) == 1
    seat = found[0].decide(_decision(2))
    assert seat.held((), (), -1) == (6.0, 6.0, 0.0, 0.0, 0.0)
    assert found[0].decide(_decision(0)).held((), (), -1) == (0.0, 0.0, 0.0, 0.0, 0.0)
    unready_payers = load_variant("qianxi", {"settle.chickens.payers": "unready"})
    p = next(p for p in unready_payers.pricing.pricers if isinstance(p, FlowerPricer))
    assert p.decide(_decision(1, ready_opponents=1.0)).held((), (), -1)[0] == 2.0
    assert not any(isinstance(p, FlowerPricer) for p in load_variant("qianxi@2").pricing.pricers)


def test_flower_words_in_both_languages() -> None:
    r = qianxi()
    for text in ("0 discard 9s", "3 pass", "1 hu 5p"):
        r.apply(Action.parse(text))
    from zhuoji.contract.ledger import words

    assert r.ledger is not None
    entry = next(e for e in r.ledger.entries if e.item == "ji.buhua")
    said = words(entry.rule, entry.item, entry.fact)
    assert "补花" in said.zh and "红花 ×1" in said.zh
    assert "flower" in said.en


# ---------------------------------------------------------------------------------------
# every shipped variant with flowers added: play, replay, round-end round trip
# ---------------------------------------------------------------------------------------


def _flowered() -> list[str]:
    from zhuoji.variant_io import builtin_names

    out = []
    for name in builtin_names():
        v = load_variant(name).variant
        if v.wild is None and v.deal.start_reveal is None:
            out.append(name)
    return out


@pytest.mark.parametrize("name", _flowered())
def test_any_variant_with_flowers_plays_replays_and_settles_its_round_end(name: str) -> None:
    """``tiles.flowers`` on every shipped variant that may have them (8, the most: more
    flower draws), with 补花鸡: rounds of random and greedy play replay from their logs
    alone and their round ends settle to the same ledger."""
    overrides = {"tiles.flowers": 8, "settle.flowers": {}}
    rs = load_variant(name, overrides)
    for seed in range(2):
        r = Round(rs, seed=seed)
        agents = [
            make_agent("random" if s % 2 else "greedy", seed * 4 + s) for s in range(r.players)
        ]
        play_round(r, agents)
        assert r.end is not None
        assert sum(st.flowers for st in r.seats) <= 8
        log = eventlog.parse(eventlog.dumps(list(r.log)))
        assert eventlog.replay(log).returns() == r.returns()
        data = roundend.to_data(r.end, name)
        again = roundend.build(roundend.parse(data), rs)
        assert settle(rs, again).totals() == r.returns()
