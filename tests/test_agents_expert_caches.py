"""The expert bot's speed-ups answer exactly as the plain computations they replace (issue
16, goal 4): the remembered improving tiles (:mod:`zhuoji.agents.expert_memo`), the Markov
chain's tables (:func:`zhuoji.agents.expert_value._future`) and the context facts
(:func:`zhuoji.agents.expert_value.hand_context`), each against a straightforward reference
on random hands and inputs."""

from __future__ import annotations

import random
from functools import cache

import pytest

from zhuoji import hand as H
from zhuoji import tiles as T
from zhuoji.actions import Action
from zhuoji.agents.analysis import HandAnalyzer, TableView
from zhuoji.agents.base import make_agent, play_round
from zhuoji.agents.expert_memo import MemoAnalyzer
from zhuoji.agents.expert_value import (
    _MAX_T,
    CONTEXT_FACTS,
    DRAW_READY,
    DRAW_UNREADY,
    OTHER_READY,
    OTHER_UNREADY,
    READY_FIT,
    WIN_DISCARD,
    WIN_SELF,
    Evaluator,
    HandState,
    Profile,
    _future,
    _outlook,
    _round200,
    context_facts_reader,
    context_reader,
    counted_tiles,
    hand_context,
    hazard_profile,
    outlook,
    pairs_target,
    pungs_target,
    read_facts,
    table_value,
    typical_rates,
)
from zhuoji.engine import Round
from zhuoji.hand import Form
from zhuoji.observation import Observation
from zhuoji.outcome import Meld, MeldKind
from zhuoji.ruleset import Ruleset
from zhuoji.variant_io import load_variant


def _hand(rng: random.Random, n: int) -> list[int]:
    c = [0] * T.NUM_KINDS
    while sum(c) < n:
        k = rng.randrange(T.NUM_KINDS)
        if c[k] < 4:
            c[k] += 1
    return c


@pytest.mark.parametrize("variant", ["luan", "guiyang", "jinyou"])
def test_remembered_improving_tiles_answer_as_the_analysis(variant: str) -> None:
    """The same hand asked under other live counts (a kind gone, fewer copies) gets the
    analysis's own answer each time: the live counts are no part of what is kept."""
    ruleset = load_variant(variant)
    rng = random.Random(16)
    wild = 31 if variant == "luan" else None  # 六安: a drawn indicator makes one kind wild
    rules = ruleset.hand_rules(wild)
    plain, memo = HandAnalyzer(rules), MemoAnalyzer(rules)
    # with wild tiles every discard of a hand is one kernel call, as the plain analysis's
    assert memo.batch_wild is plain.batch_wild is (wild is not None)
    for _ in range(60):
        c = _hand(rng, 13)
        for _ in range(3):
            live = [max(0, 4 - c[k] - rng.choice((0, 0, 1, 2, 4))) for k in range(T.NUM_KINDS)]
            assert memo.ukeire(c, live) == plain.ukeire(c, live)
        assert memo.distance(c) == plain.distance(c)
        c14 = list(c)
        c14[c.index(min(c))] += 1  # a fourteenth tile
        assert memo.distance(c14) == plain.distance(c14)
        c14 = list(c)
        c14[rng.randrange(T.NUM_KINDS)] += 1  # a drawn tile, of any kind
        if max(c14) <= 4:
            kinds = [k for k in range(T.NUM_KINDS) if c14[k]]  # a discard is a tile held
            assert memo.options(c14, kinds, live) == plain.options(c14, kinds, live)


@cache
def _future_reference(
    cycles: int, d: int, t: int, prof: Profile, ws: float, wd: float, rates: tuple[float, ...]
) -> tuple[float, ...]:
    """The chain as a plain recursion (the model's own definition, see ``_future``)."""
    if cycles <= 0:
        out = [0.0] * 6
        out[DRAW_READY if d == 1 else DRAW_UNREADY] = 1.0
        return tuple(out)
    hazard = hazard_profile(*prof)[min(t, _MAX_T)]
    out = [0.0] * 6
    alive = 1.0
    if d == 1 and wd > 0:
        out[WIN_DISCARD] += wd
        alive -= wd
    out[OTHER_READY if d == 1 else OTHER_UNREADY] += alive * hazard
    alive *= 1.0 - hazard
    if d == 1:
        out[WIN_SELF] += alive * ws
        nxt = _future_reference(cycles - 1, 1, t + 1, prof, ws, wd, rates)
        stay = alive * (1.0 - ws)
        return tuple(o + stay * x for o, x in zip(out, nxt, strict=True))
    q = rates[min(d, len(rates) - 1)]
    up = _future_reference(cycles - 1, d - 1, t + 1, prof, ws, wd, rates)
    same = _future_reference(cycles - 1, d, t + 1, prof, ws, wd, rates)
    return tuple(o + alive * (q * a + (1.0 - q) * b) for o, a, b in zip(out, up, same, strict=True))


def _outlook_reference(
    cycles: int,
    d: int,
    q1: float,
    t: int,
    prof: Profile,
    ws: float,
    wd: float,
    rates: tuple[float, ...],
) -> tuple[float, ...]:
    """The first cycle with the hand's own improvement chance ``q1``, then the chain."""
    if cycles <= 0 or d == 1:
        return _future_reference(cycles, d, t, prof, ws, wd, rates)
    hz = hazard_profile(*prof)[t]
    out = [0.0] * 6
    out[OTHER_UNREADY] = hz
    alive = 1.0 - hz
    up = _future_reference(cycles - 1, d - 1, t + 1, prof, ws, wd, rates)
    same = _future_reference(cycles - 1, d, t + 1, prof, ws, wd, rates)
    return tuple(
        o + alive * (q1 * a + (1.0 - q1) * b) for o, a, b in zip(out, up, same, strict=True)
    )


def test_chain_tables_equal_the_recursion_bit_for_bit() -> None:
    """Tables grown by later, larger questions on the same diagonal still answer exactly."""
    rng = random.Random(4)
    prof: Profile = (3, 0, 1, 120, 160, READY_FIT)
    for _ in range(300):
        rates = typical_rates(rng.choice(("standard", "pairs", "suit")), rng.choice((40, 80)))
        ws, wd = rng.choice((0.05, 0.1)), rng.choice((0.0, 0.03))
        cycles, d, t = rng.randrange(0, 25), rng.randrange(1, 9), rng.randrange(0, 45)
        assert _future(cycles, d, t, prof, ws, wd, rates) == _future_reference(
            cycles, d, t, prof, ws, wd, rates
        )
        q1 = rng.choice((0.05, 0.2))
        assert _outlook(cycles, d, q1, min(t, _MAX_T), prof, ws, wd, rates) == (
            _outlook_reference(cycles, d, q1, min(t, _MAX_T), prof, ws, wd, rates)
        )


def _context_reference(
    c: list[int], melds: tuple[Meld, ...], wild: int | None, seat_wind: int
) -> dict[str, object]:
    kinds = [k for k in range(T.NUM_KINDS) if c[k] and k != wild]
    meld_tiles = [t for m in melds for t in m.tiles]
    every = set(kinds) | set(meld_tiles)
    pungs = [k for k in kinds if c[k] >= 3] + [m.tile for m in melds if m.kind is not MeldKind.CHI]
    return {
        "missing_suit": len({k // 9 for k in every if k < 27}) < 3,
        "no_terminals": not any(T.is_terminal_or_honor(k) for k in every),
        "kan": sum(1 for k in kinds if c[k] >= 3),
        "dragon_pungs": sum(1 for k in pungs if k >= 31),
        "seat_wind_pung": 27 + seat_wind in pungs,
        "round_wind_pung": 27 in pungs,
        "wilds": c[wild] if wild is not None else 0,
    }


def test_chances_are_rounded_as_round_rounds_them() -> None:
    """The outlook's rounding to 1/200 in machine arithmetic is ``round``'s, ties to even."""
    rng = random.Random(4)
    xs = [rng.random() for _ in range(20000)] + [0.0, 0.9, 1.0, 1e-9]
    xs += [(k + 0.5) / 200 for k in range(400)] + [k / 400 for k in range(800)]
    for x in xs:
        assert _round200(x) == round(x * 200) / 200, x


@pytest.mark.parametrize("variant", ["guiyang", "luan"])
def test_a_decisions_outlook_is_the_kept_chains(variant: str) -> None:
    """:meth:`Evaluator._outlook`, which finds the chain's tables by shape once a decision,
    answers as :func:`outlook` with the decision's hazard profile and the shape's rates,
    asked in any order (tables grown by either are shared)."""
    ruleset = load_variant(variant)
    r = Round(ruleset, seed=11)
    ev = Evaluator(TableView(Observation(r, r.current)))
    rng = random.Random(8)
    for _ in range(400):
        shape = rng.choice(("standard", "pairs", "pungs", "suit", "lan"))
        rates = ev._rates.setdefault(shape, typical_rates(shape, ev.unseen_bucket))
        cycles, d, t = rng.randrange(-1, 20), rng.randrange(0, 10), rng.randrange(-2, 45)
        q1, ws, wd = rng.random() * 0.5, rng.random() * 0.3, rng.choice((0.0, rng.random() * 0.2))
        want = outlook(cycles, d, q1, t, ev.profile, ws, wd, rates)
        if rng.random() < 0.5:
            _empty_chains()
        assert ev._outlook(cycles, d, q1, t, ws, wd, shape) == want


def _empty_chains() -> None:
    from zhuoji.agents import expert_value

    expert_value._CHAINS.clear()


def test_context_facts_match_their_definitions() -> None:
    rng = random.Random(9)
    meld_sets = [
        (),
        (Meld(MeldKind.PENG, 31, 1),),
        (Meld(MeldKind.CHI, 0, 3, 1), Meld(MeldKind.GANG_CONCEALED, 28)),
        (Meld(MeldKind.GANG_EXPOSED, 18, 2),),
    ]
    for _ in range(400):
        melds = rng.choice(meld_sets)
        c = _hand(rng, 13 - 3 * len(melds))
        wild = rng.choice((None, 4, 31))
        seat_wind = rng.randrange(4)
        got = dict(
            hand_context(
                c,
                melds,
                wild=wild,
                dealer=False,
                declared=False,
                seat_wind=seat_wind,
                round_wind=0,
            )
        )
        for fact, want in _context_reference(c, melds, wild, seat_wind).items():
            assert got[fact] == want, fact


@pytest.mark.parametrize("variant", ["luan", "jinyou", "dushan", "guiyang", "zunyi"])
def test_the_context_reader_keeps_what_hand_context_gives(variant: str) -> None:
    """:class:`~zhuoji.agents.expert_value.ContextReader` works out only the facts the
    table's rows read, in one pass: the same tuple as :func:`hand_context` kept by
    :func:`context_reader`; and where it says the facts do not read the counts (or the
    melds), other counts (melds) give the same facts."""
    rs = load_variant(variant)
    reader = context_facts_reader(rs)
    keep = context_reader(rs)
    counted = counted_tiles(rs)
    rng = random.Random(17)
    meld_sets = [
        (),
        (Meld(MeldKind.PENG, 31, 1),),
        (Meld(MeldKind.CHI, 0, 3, 1), Meld(MeldKind.GANG_CONCEALED, 28)),
        (Meld(MeldKind.GANG_EXPOSED, 18, 2), Meld(MeldKind.PENG, 27, 3)),
        (Meld(MeldKind.GANG_ADDED, 8, 2),),
    ]
    for _ in range(600):
        melds = rng.choice(meld_sets)
        c = _hand(rng, 13 - 3 * len(melds))
        wild = rng.choice((None, 4, 31, 27))
        seat_wind = rng.randrange(4)
        dealer, declared = rng.random() < 0.5, rng.random() < 0.5
        want = keep(
            hand_context(
                c,
                melds,
                wild=wild,
                dealer=dealer,
                declared=declared,
                seat_wind=seat_wind,
                round_wind=0,
                counted=counted,
            )
        )
        got = reader.read(c, melds, -1 if wild is None else wild, dealer, declared, seat_wind)
        assert got == want
        assert [type(v) for _, v in got] == [type(v) for _, v in want]
        other = _hand(rng, 13 - 3 * len(melds))
        if not reader.hand:
            assert reader.read(other, melds, -1, dealer, declared, seat_wind) == reader.read(
                c, melds, -1, dealer, declared, seat_wind
            )
        if not reader.melds:
            assert reader.read(c, (), -1, dealer, declared, seat_wind) == reader.read(
                c, melds, -1, dealer, declared, seat_wind
            )


def test_pungs_target_reads_the_most_held_kinds_from_counts() -> None:
    """The best ``sets + 1`` kinds for pungs, read from how many kinds are held how often,
    are the sorted hand's first ``sets + 1``; the pungs and pairs targets' improving tiles
    (counted through byte tables) are the kinds their definitions name."""
    rng = random.Random(5)
    for _ in range(3000):
        c = _hand(rng, rng.randrange(0, 15))
        live = [rng.randrange(5) for _ in range(T.NUM_KINDS)]
        sets = rng.randrange(0, 5)
        held = sorted(c, reverse=True)[: sets + 1]
        cost = sum(3 - min(x, 3) for x in held) - (1 if held[-1] <= 2 else 0)
        low = max(1, held[-1])
        uke = sum(n for x, n in zip(c, live, strict=True) if low <= x <= 2)
        assert pungs_target(c, sets, live) == (cost, uke)
        for quads_as_two in (False, True):
            pairs = H.pairs_distance(c.count(1), c.count(2), c.count(3), c.count(4), quads_as_two)
            odd = sum(live[k] for k in range(T.NUM_KINDS) if c[k] in (1, 3))
            assert pairs_target(c, quads_as_two, live) == (pairs, odd)


def round_actions(ruleset: Ruleset, seed: int) -> list[str]:
    """Every action four experts take in one round."""
    out: list[str] = []
    agents = [make_agent("expert", 7 + s) for s in range(ruleset.players)]

    class Recording:
        def __init__(self, seat: int) -> None:
            self.name = agents[seat].name
            self.agent = agents[seat]

        def act(self, obs: Observation) -> Action:
            choice = self.agent.act(obs)
            out.append(f"{obs.seat}:{choice}")
            return choice

    play_round(Round(ruleset, seed=seed), [Recording(s) for s in range(ruleset.players)])
    return out


def _clear_expert_stores() -> None:
    """Empty every store the expert keeps across decisions."""
    from zhuoji.agents import expert_memo, expert_value

    expert_value._CONTEXTS.clear()
    expert_value._CHAINS.clear()
    for cached in (
        expert_value.table_value,
        expert_value.complete_shapes,
        expert_value.suit_target,
        expert_memo.memo_analyzer,
    ):
        cached.cache_clear()


@pytest.mark.parametrize("variant", ["luan", "jinyou", "liupanshui"])
def test_a_decision_does_not_depend_on_what_was_asked_before(variant: str) -> None:
    """Every store the expert keeps across decisions is keyed by all its answer depends on:
    a round played after others (other walls, 宝牌 and contexts in the stores) is played as
    it is with the stores empty."""
    ruleset = load_variant(variant)
    for seed in (11, 12, 13):
        round_actions(ruleset, seed)
    after_others = round_actions(ruleset, 14)
    _clear_expert_stores()
    assert round_actions(ruleset, 14) == after_others


def test_a_completed_hand_is_valued_with_its_rounds_wild_kind() -> None:
    """The best value of a completed hand is kept by its context, which reads the number of
    wild tiles held but not which kind is wild: the kept value is keyed by the kind too.
    Here 2p completes six pairs and 4p as seven pairs when 2p is the round's 宝牌, and
    nothing when 6p is: the same 13 tiles (neither held) give the same context facts."""
    ruleset = load_variant("luan")
    r = Round(ruleset, seed=3)
    _clear_expert_stores()
    c = [0] * T.NUM_KINDS
    for tile in ("2m", "2m", "4m", "4m", "7m", "7m", "4p", "3s", "3s", "6s", "6s", "9s", "9s"):
        c[T.parse_one(tile)] += 1
    two_p, six_p = T.parse_one("2p"), T.parse_one("6p")
    state = HandState(c, (), shanten=0, ukeire=4, waits=(two_p,))
    got: dict[int, set[tuple[float, float, float, float]]] = {}
    for order in ((two_p, six_p), (six_p, two_p)):
        _clear_expert_stores()
        for wild in order:
            ev = Evaluator(TableView(Observation(r, r.current)))
            ev.wild = wild
            ev.live[two_p] = 3
            got.setdefault(wild, set()).add(ev._ready_rates(state, ev._context(state), False))
    assert all(len(answers) == 1 for answers in got.values()), got
    assert got[two_p] != got[six_p]


@pytest.mark.parametrize("variant", ["luan", "jinyou", "zunyi", "jinsha"])
def test_a_context_keeps_every_fact_the_pattern_rows_read(variant: str) -> None:
    """Leaving out the facts no row reads changes no value (:func:`read_facts`)."""
    ruleset = load_variant(variant)
    reads = read_facts(ruleset)
    rng = random.Random(7)
    shapes = [
        (("form", Form.STANDARD),),
        (("form", Form.STANDARD), ("all_pungs", True), ("self_draw", True)),
        (("form", Form.SEVEN_PAIRS), ("one_suit", True)),
    ]
    for _ in range(150):
        melds = rng.choice(
            [(), (Meld(MeldKind.PENG, 31, 1),), (Meld(MeldKind.GANG_CONCEALED, 28),)]
        )
        c = _hand(rng, 13 - 3 * len(melds))
        full = hand_context(
            c,
            melds,
            wild=rng.choice((None, 4)),
            dealer=rng.random() < 0.5,
            declared=rng.random() < 0.5,
            seat_wind=rng.randrange(4),
            round_wind=0,
            counted=counted_tiles(ruleset),
        )
        kept = tuple(fact for fact in full if fact[0] in reads)
        for shape in shapes:
            assert table_value(ruleset, shape, kept) == table_value(ruleset, shape, full)


def test_context_facts_are_named_in_their_order() -> None:
    """:func:`context_reader` picks facts by their places in :data:`CONTEXT_FACTS`."""
    got = hand_context(
        [1] * 13 + [0] * (T.NUM_KINDS - 13),
        (),
        wild=None,
        dealer=False,
        declared=False,
        seat_wind=0,
        round_wind=0,
    )
    assert tuple(name for name, _ in got) == CONTEXT_FACTS
    for variant in ("luan", "jinyou", "guiyang"):
        ruleset = load_variant(variant)
        kept = context_reader(ruleset)(got)
        assert [name for name, _ in kept] == [n for n in CONTEXT_FACTS if n in read_facts(ruleset)]


def test_remembered_hands_are_bounded_over_every_analyzer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The analyzers of a table (one a wild kind) keep so many answers together, then start
    afresh, still answering as the analysis does."""
    monkeypatch.setattr(MemoAnalyzer, "kept", 50)
    ruleset = load_variant("luan")
    rng = random.Random(3)
    analyzers = [MemoAnalyzer(ruleset.hand_rules(w)) for w in (4, 13, 31)]
    live = [2] * T.NUM_KINDS
    for _ in range(120):
        c = _hand(rng, 13)
        for memo in analyzers:
            assert memo.ukeire(c, live) == HandAnalyzer(memo.rules).ukeire(c, live)
        held = sum(len(a._improving) + len(a._distance) for a in analyzers)
        assert held <= 50
