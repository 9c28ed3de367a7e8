"""``compare``'s split of an effect: the rule at fixed play and the players adapting.

A comparison of rules A and B played by the same bots moves a statistic by

    Δ = S_B(π_B) − S_A(π_A)

where ``S_R(π)`` is the statistic of rounds played by the bots under π and settled by the
rules R, and π_A, π_B are the bots' play under each rule.  The A arm's rounds — the same
deals, the same actions, the same dealers and streaks — replayed under B's rules and
settled by them give ``S_B(π_A)``, so the difference splits exactly:

    Δ = [S_B(π_A) − S_A(π_A)]  +  [S_B(π_B) − S_B(π_A)]
          rule at fixed play        players adapting

The first term is what the rule change does to the money of rounds played as they were
played under A; the second is what the bots' change of play does once B pays.  Payout-blind
bots (greedy) do not adapt to a payout change, so for them the second term is zero; the
split is of interest for bots that price payouts (``expert``).  The same matches are
resampled on all three sides (the paired bootstrap of :func:`zhuoji.sim.stats.compare`, one
seed), so each replicate's two terms add up to its Δ and each term has its interval.

A's actions replay under B only when B leaves them legal and offers no seat an answer A
did not (a rule that changes play itself: what may be claimed or won, the deal).  Then the
fixed-play arm is not built: the rounds that replay would be a biased subset.  ``compare``
then says how many did not replay and reports only the greedy reference — both arms played
by greedy bots, Δ_greedy = S_B(π_B^greedy) − S_A(π_A^greedy) — which it reports beside the
split in every case where the chosen bots are not greedy (docs/simulation.md, "The split of
an effect").
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from zhuoji.actions import Action
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.errors import ZhuojiError
from zhuoji.match import Match
from zhuoji.observation import Observation
from zhuoji.ruleset import Ruleset
from zhuoji.sim import backends
from zhuoji.sim.records import RoundRecord, SimSpec
from zhuoji.sim.runner import (
    SimResult,
    agent_seed,
    match_seed,
    pattern_names,
    plan,
    record_round,
    ruleset_for,
)
from zhuoji.sim.stats import Accumulator, Comparison, Row, Stat, compare

#: a resolved A spec, B's spec (its rules settle A's play), first match, one past the last
SplitTask = tuple[SimSpec, SimSpec, int, int]
#: A's record of a round, and the same round replayed under B (None: it did not replay)
Pair = tuple[RoundRecord, RoundRecord | None]


class _Taped:
    """An agent whose actions are written down in the order the round applied them
    (:func:`~zhuoji.autoplay.play_round` applies each answer as soon as it is given)."""

    __slots__ = ("agent", "name", "tape")

    def __init__(self, agent: object, tape: list[Action]) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", "")
        self.tape = tape

    def act(self, obs: Observation) -> Action:
        a: Action = self.agent.act(obs)  # type: ignore[attr-defined]
        self.tape.append(a)
        return a


def replay(r: Round, tape: list[Action], ruleset: Ruleset, dealer: int | None) -> Round | None:
    """Round ``r`` (finished) replayed action by action under ``ruleset``, built as ``r``
    was — the same seed, ``dealer`` as given to it (None: drawn from the seed, as a match's
    first round does), streak, wind and weekday — so the same wall and dice where the rules
    deal alike.  None when they do not deal alike, an action is refused, or the round is
    not over when the tape ends (the rules changed what may be done)."""
    try:
        b = Round(
            ruleset,
            seed=r.seed,
            dealer=dealer,
            streak=r.streak,
            round_wind=r.round_wind,
            weekday=r.weekday,
        )
        if b.wall.tiles != r.wall.tiles:
            return None
        for a in tape:
            b.apply(a)
    except ZhuojiError:  # another table (seats, tiles), or an action B refuses
        return None
    return b if b.is_terminal() else None


def play_match_split(spec: SimSpec, settle_as: SimSpec, m: int) -> list[Pair]:
    """Match ``m`` of the resolved ``spec`` as :func:`~zhuoji.sim.runner.play_match` plays
    it, each round also replayed under ``settle_as``'s rules."""
    rs = ruleset_for(spec)
    rs_b = ruleset_for(settle_as)
    mseed = match_seed(spec.seed, m)
    tape: list[Action] = []
    agents = [
        _Taped(make_agent(name, agent_seed(mseed, seat)), tape)
        for seat, name in enumerate(spec.agents)
    ]
    out: list[Pair] = []
    first = m * spec.length
    match = Match(rs, seed=mseed, rounds=spec.match_length(m))
    for i, r in enumerate(match.rounds()):
        dealer = match.dealer  # as the match gave it to this round (None: the first)
        tape.clear()
        play_round(r, agents)
        rec = record_round(r, rs, index=first + i, match=m, round_in_match=i)
        b = replay(r, tape, rs_b, dealer)
        rec_b = (
            None if b is None else record_round(b, rs_b, index=first + i, match=m, round_in_match=i)
        )
        out.append((rec, rec_b))
    return out


def run_split_chunk(task: SplitTask) -> list[Pair]:
    """Worker entry point: matches ``[start, stop)`` of A, each round also settled by B."""
    spec, settle_as, start, stop = task
    out: list[Pair] = []
    for m in range(start, stop):
        out.extend(play_match_split(spec, settle_as, m))
    return out


@dataclass
class SplitRun:
    """The A arm (as :func:`~zhuoji.sim.runner.simulate` returns it), its rounds settled by
    B (``fixed``: None when some did not replay) and how many did not replay."""

    result: SimResult
    fixed: Accumulator | None
    unreplayed: int


def simulate_split(
    spec: SimSpec,
    settle_as: SimSpec,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    ship_code: bool = False,
    progress: bool = False,
    desc: str | None = None,
    on_records: Callable[[list[RoundRecord]], None] | None = None,
    ruleset: Ruleset | None = None,
) -> SplitRun:
    """Run the A arm as :func:`~zhuoji.sim.runner.simulate` does (the same records, so the
    same statistics and stored rows), and settle each of its rounds by ``settle_as``'s
    rules as well."""
    from zhuoji.sim import runner

    ruleset = ruleset or spec.ruleset()
    spec = spec.resolve(ruleset)
    rs_b = settle_as.ruleset()
    settle_as = settle_as.resolve(rs_b)
    runner._RULESETS[(spec.variant, spec.overrides)] = ruleset  # forked workers inherit them
    runner._RULESETS[(settle_as.variant, settle_as.overrides)] = rs_b
    acc = Accumulator(ruleset.players, spec.matches)
    fixed = Accumulator(ruleset.players, spec.matches)
    tasks = [(spec, settle_as, start, stop) for _, start, stop in plan(spec, workers)]
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    unreplayed = 0
    start_t = time.perf_counter()
    results = backends.execute(
        run_split_chunk,
        tasks,
        backend=backend,
        workers=workers,
        address=address,
        ship_code=ship_code,
    )
    bar = tqdm(
        total=spec.rounds,
        unit="round",
        desc=desc or spec.variant,
        file=sys.stderr,
        disable=not progress,
        dynamic_ncols=True,
        smoothing=0.1,
    )
    try:
        for pairs in results:
            records = [a for a, _ in pairs]
            acc.extend(records)
            for _, b in pairs:
                if b is None:
                    unreplayed += 1
                else:
                    fixed.add(b)
            if on_records is not None:
                on_records(records)
            bar.update(len(records))
    finally:
        bar.close()
        close = getattr(results, "close", None)
        if close is not None:
            close()
    elapsed = time.perf_counter() - start_t
    result = SimResult(spec, acc, elapsed, workers, backend, pattern_names(ruleset))
    return SplitRun(result, fixed if unreplayed == 0 else None, unreplayed)


# ------------------------------------------------------------------------------------
# the split of each money statistic
# ------------------------------------------------------------------------------------


def is_money(stat: Stat) -> bool:
    """The statistics the split is reported for: points — each seat's mean, each ledger
    item per round, points moved (gross and net)."""
    k = stat.key
    return (
        (stat.group == "seats" and k.endswith(".mean"))
        or k.startswith("per_round.")
        or stat.group == "moved"
    )


@dataclass(frozen=True)
class SplitRow:
    """One money statistic: B − A, its part at fixed play and the players' adapting (None
    where A's rounds did not all replay under B), and B − A with greedy bots (None where
    the chosen bots are greedy: then ``total`` is that reference)."""

    total: Row
    fixed: Row | None
    adapting: Row | None
    greedy: Row | None

    @property
    def stat(self) -> Stat:
        return self.total.stat

    @property
    def significant(self) -> bool:
        """Some part's interval excludes 0 (parts may cancel in a total that does not)."""
        return any(r is not None and r.significant for r in self.parts())

    def parts(self) -> tuple[Row | None, ...]:
        return (self.total, self.fixed, self.adapting, self.greedy)


@dataclass(frozen=True)
class EffectSplit:
    """The split of every money statistic of a comparison (see the module docstring)."""

    rows: list[SplitRow]
    rounds: int
    unreplayed: int
    level: float

    @property
    def replayed(self) -> bool:
        return self.unreplayed == 0

    def as_dict(self) -> dict[str, Any]:
        def part(r: Row | None) -> dict[str, Any] | None:
            if r is None:
                return None
            d = r.as_dict()
            return {"diff": d["diff"], "ci": d["ci"], "significant": d["significant"]}

        return {
            "definition": "B - A = fixed (S_B(play under A) - S_A(play under A)) + adapting "
            "(S_B(play under B) - S_B(play under A)); greedy: B - A with greedy bots",
            "rounds": self.rounds,
            "unreplayed": self.unreplayed,
            "level": self.level,
            "rows": [
                {
                    "key": sr.stat.key,
                    "label": sr.stat.label,
                    "diff": part(sr.total)["diff"],  # type: ignore[index]
                    "fixed": part(sr.fixed),
                    "adapting": part(sr.adapting),
                    "greedy": part(sr.greedy),
                }
                for sr in self.rows
            ],
        }


def effect_split(
    cmp: Comparison,
    a: Accumulator,
    fixed: Accumulator | None,
    b: Accumulator,
    greedy: tuple[Accumulator, Accumulator] | None,
    *,
    unreplayed: int,
    reps: int,
    level: float,
    seed: int,
    pattern_names: Mapping[str, tuple[str, str]] | None = None,
) -> EffectSplit:
    """Split each money row of ``cmp`` (A against B): the fixed-play part compares A with
    A's rounds settled by B (``fixed``), the adapting part those with B; ``greedy`` are
    both arms played by greedy bots.  Every comparison is paired and uses ``seed``, so the
    same blocks are drawn in each replicate and the two parts add up to B − A."""

    def rows(x: Accumulator, y: Accumulator) -> dict[str, Row]:
        got = compare(x, y, reps=reps, level=level, seed=seed, pattern_names=pattern_names)
        return {r.stat.key: r for r in got.rows}

    fixed_rows = rows(a, fixed) if fixed is not None else {}
    adapting_rows = rows(fixed, b) if fixed is not None else {}
    greedy_rows = rows(*greedy) if greedy is not None else {}

    def pick(got: dict[str, Row], r: Row) -> Row | None:
        if not got:
            return None  # that comparison was not made
        # an item or pattern neither of its sides has: 0 on both, exactly
        return got.get(r.stat.key) or Row(r.stat, 0.0, 0.0, 0.0, 0.0, 0.0)

    out = [
        SplitRow(r, pick(fixed_rows, r), pick(adapting_rows, r), pick(greedy_rows, r))
        for r in cmp.rows
        if is_money(r.stat)
    ]
    return EffectSplit(out, a.rounds, unreplayed, level)
