"""Playing a run: per-match seeds, one match → :class:`RoundRecord` list, the run driver.

Work is split by match index.  Match ``m`` of a run with seed ``S`` is played with
``Match(ruleset, seed=match_seed(S, m))`` (the engine derives each round's seed from it,
:func:`zhuoji.match.round_seed`) and agents ``make_agent(name, agent_seed(match_seed, seat))``
created fresh for the match.  The seeds are hashes (BLAKE2b) of the numbers, the same in
every process and on every machine, so which worker plays a match never matters.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zhuoji.agents.base import make_agent, play_round
from zhuoji.contract.ledger import Ledger
from zhuoji.engine import Round
from zhuoji.match import Match
from zhuoji.outcome import frozen_from
from zhuoji.ruleset import Ruleset
from zhuoji.sim import backends
from zhuoji.sim.behaviour import round_behaviour
from zhuoji.sim.records import RoundRecord, SimSpec
from zhuoji.sim.stats import Accumulator, summarize

Task = tuple[SimSpec, int, int]  # resolved spec, first match, one past the last match


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts' text (stable across processes, platforms, versions)."""
    digest = hashlib.blake2b(":".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def match_seed(run_seed: int, m: int) -> int:
    return derive_seed("zhuoji.sim.match", run_seed, m)


def agent_seed(mseed: int, seat: int) -> int:
    return derive_seed("zhuoji.sim.agent", mseed, seat)


_RULESETS: dict[tuple[str, tuple[str, ...]], Ruleset] = {}


def ruleset_for(spec: SimSpec) -> Ruleset:
    """The spec's ruleset, loaded once per process (workers play many chunks)."""
    key = (spec.variant, spec.overrides)
    if key not in _RULESETS:
        _RULESETS[key] = spec.ruleset()
    return _RULESETS[key]


def pattern_names(ruleset: Ruleset) -> dict[str, tuple[str, str]]:
    return {pid: (row.name, row.name_en) for pid, row in ruleset.variant.patterns.rows.items()}


def main_pattern(ledger: Ledger, seat: int) -> str:
    """The id of the main pattern ``seat`` won with, read from the ledger's entries (void
    ones too: a win paid by another player still names its hand): among the facts of kind
    ``win`` about ``seat`` that name a pattern row, the highest non-bonus fan (the first
    such on a tie, the hand's table order); ``none`` when no entry names one (a hand with
    no scoring component)."""
    best, best_fan = "none", -1
    for e in ledger.record:
        f = e.fact
        if f.kind != "win" or f.seat != seat or f.pattern is None or "bonus" in f.tags:
            continue
        fan = f.fan if f.fan is not None else 0
        if fan > best_fan:
            best, best_fan = f.pattern, fan
    return best


def record_round(
    r: Round, ruleset: Ruleset, *, index: int, match: int, round_in_match: int
) -> RoundRecord:
    """Summarize a finished round (its :class:`RoundEnd` and ledger)."""
    end, ledger = r.end, r.ledger
    if end is None or ledger is None:
        raise RuntimeError("record_round needs a finished round")
    patterns = tuple([main_pattern(ledger, w.seat) for w in end.wins]) if end.wins else ()
    totals, items, top = ledger.tally()  # one pass over the record
    # every field given, built as its ``__dict__`` (``frozen_from``: the frozen dataclass's
    # own ``__init__`` sets its 16 fields one ``object.__setattr__`` at a time, a sixth of
    # this function's cost; the record is equal to ``RoundRecord(**fields)``)
    return frozen_from(
        RoundRecord,
        {
            "index": index,
            "match": match,
            "round": round_in_match,
            "dealer": end.dealer,
            "streak": end.streak,
            "totals": tuple(totals),
            "wins": tuple((w.seat, w.how.value, w.source) for w in end.wins) if end.wins else (),
            "patterns": patterns,
            "items": tuple(sorted(items.items())) if items else (),
            "max_payout": top.amount if top else 0,
            "max_item": top.item if top else "",
            "max_detail": top.detail if top else "",
            # the engine's count (formatting the log to count it cost half the run)
            "actions": r.actions,
            "discards": len(end.discards),
            "tiles_left": end.tiles_left,
            "behaviour": round_behaviour(end, ruleset),
        },
    )


def play_match(spec: SimSpec, m: int, ruleset: Ruleset | None = None) -> list[RoundRecord]:
    """Play match ``m`` of a resolved spec; one record per round."""
    rs = ruleset or ruleset_for(spec)
    mseed = match_seed(spec.seed, m)
    agents = [make_agent(name, agent_seed(mseed, seat)) for seat, name in enumerate(spec.agents)]
    out = []
    first = m * spec.length
    for i, r in enumerate(Match(rs, seed=mseed, rounds=spec.match_length(m)).rounds()):
        play_round(r, agents)
        out.append(record_round(r, rs, index=first + i, match=m, round_in_match=i))
    return out


def run_chunk(task: Task) -> list[RoundRecord]:
    """Worker entry point: play matches ``[start, stop)`` of the spec."""
    spec, start, stop = task
    out: list[RoundRecord] = []
    for m in range(start, stop):
        out.extend(play_match(spec, m))
    return out


def plan(spec: SimSpec, workers: int) -> list[Task]:
    """Split a resolved spec's matches into tasks: enough for an even load (about 16 per
    worker), few enough to keep the per-task overhead small (at most 32 matches each)."""
    per = max(1, min(32, spec.matches // (max(1, workers) * 16)))
    return [(spec, s, min(s + per, spec.matches)) for s in range(0, spec.matches, per)]


@dataclass
class SimResult:
    """A finished run: its resolved spec, its sums, how it ran and how long it took."""

    spec: SimSpec
    acc: Accumulator
    elapsed_s: float
    workers: int
    backend: str
    pattern_names: dict[str, tuple[str, str]] = field(default_factory=dict)
    run_id: int | None = None

    @property
    def rounds_per_s(self) -> float:
        return self.acc.rounds / self.elapsed_s if self.elapsed_s > 0 else float("inf")

    def summary(self) -> dict[str, Any]:
        """Settings, timing and every statistic (the ``simulate --json`` document)."""
        return {
            "variant": self.spec.variant,
            "overrides": list(self.spec.overrides),
            "agents": list(self.spec.agents),
            "seed": self.spec.seed,
            "match_rounds": self.spec.match_rounds,
            "workers": self.workers,
            "backend": self.backend,
            "run_id": self.run_id,
            "elapsed_s": round(self.elapsed_s, 3),
            "rounds_per_s": round(self.rounds_per_s, 1),
            **summarize(self.acc, agents=self.spec.agents, pattern_names=self.pattern_names),
        }


def simulate(
    spec: SimSpec,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    ship_code: bool = False,
    progress: bool = False,
    desc: str | None = None,
    on_records: Callable[[list[RoundRecord]], None] | None = None,
    ruleset: Ruleset | None = None,
) -> SimResult:
    """Run a simulation; ``on_records`` receives each task's records in match order (the
    SQLite store uses it).  The result does not depend on ``workers`` or ``backend``.
    ``ruleset`` saves loading the variant again when the caller has it."""
    ruleset = ruleset or spec.ruleset()
    spec = spec.resolve(ruleset)
    _RULESETS[(spec.variant, spec.overrides)] = ruleset  # forked workers inherit it
    acc = Accumulator(ruleset.players, spec.matches)
    tasks = plan(spec, workers)
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    start = time.perf_counter()
    results = backends.execute(
        run_chunk, tasks, backend=backend, workers=workers, address=address, ship_code=ship_code
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
        for records in results:
            acc.extend(records)
            if on_records is not None:
                on_records(records)
            bar.update(len(records))
    finally:
        bar.close()
        close = getattr(results, "close", None)
        if close is not None:  # stop the workers when the caller's callback failed
            close()
    elapsed = time.perf_counter() - start
    return SimResult(spec, acc, elapsed, workers, backend, pattern_names(ruleset))
