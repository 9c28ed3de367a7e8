"""``Round.observation``: what a seat is shown, built from per-state shared parts (the
server builds every seat's view after each change), must equal what the seat's
:class:`~zhuoji.observation.Observation` says, field by field, at every step of played
rounds — with concealed kongs face down to the others, 定缺 picks unseen until everyone
chose, claim windows, wilds, 换三张 and flowers set aside."""

from __future__ import annotations

import random
from typing import Any

import pytest

from zhuoji import tiles as T
from zhuoji.agents.base import make_agent
from zhuoji.engine import Phase, Round
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import builtin_names, load_variant


def _meld(m: Meld, hidden: bool) -> str:
    if hidden and m.kind is MeldKind.GANG_CONCEALED:
        return f"{m.kind.value} ????"
    source = f" from {m.source}" if m.source is not None else ""
    return f"{m.kind.value} {T.format(m.tiles)}{source}"


def expected(r: Round, seat: int) -> dict[str, Any]:
    """The observation spelled out from the seat's Observation, nothing shared or cached."""
    o = Observation(r, seat)
    text = T.TILE_TEXT
    window = r.phase in (Phase.CLAIM, Phase.ROB)
    ended = r.end is not None
    voids = [o.void_suit(s) for s in range(r.players)]
    return {
        "seat": seat,
        "phase": o.phase,
        "to_act": r.to_act() if r.phase is Phase.TURN else [s for s in r.to_act() if s == seat],
        "dealer": o.dealer,
        "streak": o.streak,
        "hand": T.format(T.to_tiles(o.hand)),
        "drawn": text[o.drawn] if o.drawn >= 0 else None,
        "melds": [
            [_meld(m, not ended and s != seat) for m in o.melds(s)] for s in range(r.players)
        ],
        "discards": [{"seat": a, "tile": text[t], "claimed_by": c} for a, t, c in o.discards],
        "declared": [
            r.seats[s].declared.value if o.declared(s) else None  # type: ignore[union-attr]
            for s in range(r.players)
        ],
        "void_suits": [T.SUIT_LETTERS[v] if v is not None else None for v in voids],
        "exchange": {
            "given": T.format(o.exchange_given),
            "received": T.format(o.exchange_received),
            "direction": o.exchange_direction,
        }
        if r.ruleset.variant.exchange is not None
        else None,
        "concealed_counts": [o.concealed_count(s) for s in range(r.players)],
        "wall": o.wall_left,
        "wild": text[o.wild] if o.wild is not None else None,
        "wild_indicator": text[o.wild_indicator] if o.wild_indicator is not None else None,
        "claim_tile": text[o.claim_tile] if window else None,
        "claim_from": o.claim_source if window else None,
        "legal_actions": [str(a) for a in o.legal],
        "reveal": text[r.end.reveal] if r.end and r.end.reveal is not None else None,
        "reveals": [text[t] for t in o.reveals],
        "result": r.result_summary() if r.end else None,
        **(
            {"flowers": [o.flowers(s) for s in range(r.players)]}
            if r.ruleset.variant.tiles.flowers
            else {}
        ),
    }


def _rulesets() -> list[Ruleset]:
    return [
        load_variant("guiyang"),
        load_variant("guiyang", {"dingque": {}, "exchange": {}}),
        load_variant("luan"),  # a wild
        load_variant("sandingguai"),  # three players
        load_variant("qianxi"),  # flowers set aside (补花)
    ]


@pytest.mark.parametrize("ruleset", _rulesets(), ids=lambda r: r.variant.name)
def test_observation_matches_the_seat_observation_at_every_step(ruleset: Ruleset) -> None:
    rng = random.Random(11)
    kongs = game = 0
    while game < 6 or (not kongs and game < 80):  # on until a face-down kong was shown
        game += 1
        r = Round(ruleset, seed=game)
        agents = [make_agent("greedy" if (game + s) % 2 else "random", game * 10 + s)
                  for s in range(r.players)]  # fmt: skip
        while True:
            for seat in range(r.players):
                assert r.observation(seat) == expected(r, seat), (game, seat, len(r.log))
            if r.is_terminal():
                break
            seat = rng.choice(r.to_act())
            r.apply(agents[seat].act(Observation(r, seat)))
        kongs += sum(m.kind is MeldKind.GANG_CONCEALED for st in r.seats for m in st.melds)
    assert kongs  # the face-down kongs were exercised


@pytest.mark.parametrize("variant", ["guiyang", "luan", "guiyang-dingque"])
def test_discard_count_counts_each_seats_table_discards(variant: str) -> None:
    """``discard_count`` (a counter kept by the engine) equals the seat's entries among the
    table's discards, claimed ones included, at every step."""
    ruleset = load_variant(variant)
    rng = random.Random(3)
    for game in range(4):
        r = Round(ruleset, seed=game)
        agents = [make_agent("random", game * 10 + s) for s in range(r.players)]
        while not r.is_terminal():
            obs = Observation(r, 0)
            for s in range(r.players):
                assert obs.discard_count(s) == sum(d[0] == s for d in obs.discards)
            seat = rng.choice(r.to_act())
            r.apply(agents[seat].act(Observation(r, seat)))


def _seen_recounted(r: Round, seat: int) -> list[int]:
    """What ``seen_counts`` must say, counted afresh: the seat's hand, every meld's tiles
    and the discards nobody claimed or won on."""
    seen = list(r.seats[seat].hand)
    for st in r.seats:
        for m in st.melds:
            for t in m.tiles:
                seen[t] += 1
    for d in r.discards:
        if d.claimed_by is None:
            seen[d.tile] += 1
    return seen


@pytest.mark.parametrize("variant", builtin_names())
def test_seen_counts_equal_a_fresh_count_at_every_step(variant: str) -> None:
    """``Observation.seen_counts`` and ``live_counts`` read the table's counts the engine
    keeps as discards, claims, kongs, robbed kongs and wins change them
    (``Round.table_seen``): at every step of played rounds, for every seat, they equal a
    count made afresh from the melds and discards."""
    ruleset = load_variant(variant)
    rng = random.Random(5)
    made: set[MeldKind] = set()
    for game in range(8):
        r = Round(ruleset, seed=game)
        agents = [make_agent("greedy" if (game + s) % 2 else "random", game * 10 + s)
                  for s in range(r.players)]  # fmt: skip
        while True:
            for seat in range(r.players):
                obs = Observation(r, seat)
                seen = _seen_recounted(r, seat)
                assert obs.seen_counts() == seen, (game, seat, len(r.log))
                # the live counts: the wall's copies less the seen ones, never below 0
                copies = [rng.choice([0, 4]) for _ in seen]
                live = [max(0, c - s) for c, s in zip(copies, seen, strict=True)]
                assert obs.live_counts(copies) == live, (game, seat, len(r.log))
            if r.is_terminal():
                break
            seat = rng.choice(r.to_act())
            r.apply(agents[seat].act(Observation(r, seat)))
        made.update(m.kind for st in r.seats for m in st.melds)
    assert MeldKind.PENG in made  # claims were exercised


def test_hand_text_writes_what_format_counts_writes() -> None:
    """A view's hand notation (written by the observation itself, compiled, since the
    server writes two new hands a change) is ``tiles.format_counts``'s text for every count
    array: hands of any size, and counts outside 0-4 (written tile by tile)."""
    from zhuoji import observation as O
    from zhuoji.observation import _hand_text

    assert (O._KINDS, O._COPIES, O._LETTERS) == (T.NUM_KINDS, T.COPIES, T.LETTERS)

    rng = random.Random(26)
    for _ in range(3000):
        c = [0] * T.NUM_KINDS
        for _ in range(rng.randint(0, 18)):
            k = rng.randrange(T.NUM_KINDS)
            if c[k] < T.COPIES:
                c[k] += 1
        assert _hand_text(c) == T.format_counts(c), c
    assert _hand_text([0] * T.NUM_KINDS) == ""
    over = [0] * T.NUM_KINDS
    over[3] = 5
    assert _hand_text(over) == T.format_counts(over) == "44444m"
    under = [1] * T.NUM_KINDS
    under[0] = -1
    assert _hand_text(under) == T.format_counts(under) == "23456789m123456789s123456789p1234567z"
    longer = [1] * (T.NUM_KINDS + 1)  # not a count array of the kinds: format_counts' text
    assert _hand_text(longer) == T.format_counts(longer)


@pytest.mark.parametrize("variant", ["guiyang", "luan", "qianxi"])
def test_seat_view_written_into_a_dict_keeps_its_keys_and_order(variant: str) -> None:
    """``seat_view(r, seat, into)`` (the server writes each seat's round into the dict it
    sends, after the table's facts) gives the dict's own keys first, in their places, then
    exactly the items of ``Round.observation`` in their order: the JSON the seat is sent is
    the same byte for byte."""
    from zhuoji.observation import seat_view

    ruleset = load_variant(variant)
    for game in range(3):
        r = Round(ruleset, seed=game)
        agents = [make_agent("greedy", game * 10 + s) for s in range(r.players)]
        while True:
            for seat in range(r.players):
                alone = r.observation(seat)
                head = {"table": "t1", "seat": seat, "can_ready": False}
                into = seat_view(r, seat, head)
                assert into is head
                want = [("table", "t1"), ("seat", seat), ("can_ready", False)]
                want += [(k, v) for k, v in alone.items() if k != "seat"]
                assert list(into.items()) == want, (variant, game, seat, len(r.log))
            if r.is_terminal():
                break
            seat = r.to_act()[0]
            r.apply(agents[seat].act(Observation(r, seat)))


def test_tile_count_is_the_sum_of_a_hand() -> None:
    """``tile_count`` (the compiled count the public view and the hints use instead of the
    builtin ``sum``) adds any count array as ``sum`` does, and a seat's concealed count is
    its hand's tiles at every step of a round."""
    from zhuoji.observation import tile_count

    rng = random.Random(31)
    for _ in range(500):
        c = [rng.randint(-1, 4) for _ in range(rng.choice((0, 1, T.NUM_KINDS)))]
        assert tile_count(c) == sum(c), c
    r = Round(load_variant("guiyang"), seed=4)
    agents = [make_agent("greedy", s) for s in range(r.players)]
    while not r.is_terminal():
        for s in range(r.players):
            obs = Observation(r, s)
            assert obs.concealed_count(s) == sum(r.seats[s].hand)
        seat = r.to_act()[0]
        r.apply(agents[seat].act(Observation(r, seat)))


def test_meld_texts_are_remembered_by_the_meld_itself() -> None:
    """A meld's text in the view is remembered by the meld object's identity: the same
    meld gives its text, another meld (even one equal to a forgotten one) its own, a hidden
    concealed kong its hidden text, and the cache, once full, starts again."""
    from zhuoji import observation as O

    O._MELD_TEXTS.clear()
    peng = Meld(MeldKind.PENG, T.parse_one("5m"), source=1)
    kong = Meld(MeldKind.GANG_CONCEALED, T.parse_one("7p"))
    assert O._meld_text_of(peng, True) == O._meld_text(peng) == "peng 555m from 1"
    assert O._meld_text_of(peng, True) == "peng 555m from 1"  # from the cache
    assert O._meld_text_of(kong, True) == "gang_concealed ????"
    assert O._meld_text_of(kong, False) == O._meld_text(kong) == "gang_concealed 7777p"
    other = Meld(MeldKind.CHI, T.parse_one("3s"), source=2, claimed=T.parse_one("4s"))
    assert O._meld_text_of(other, False) == O._meld_text(other)
    # a cached entry is only ever given to the meld it was made for
    O._MELD_TEXTS[(id(other), True)] = (peng, "not this meld's text")
    assert O._meld_text_of(other, True) == O._meld_text(other)
    for _ in range(4100):  # bounded: cleared when full, still right afterwards
        O._meld_text_of(Meld(MeldKind.PENG, 0, source=0), False)
    assert len(O._MELD_TEXTS) <= 4096
    assert O._meld_text_of(peng, False) == "peng 555m from 1"
