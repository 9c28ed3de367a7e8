"""Simulation: many rounds of bots under a variant, statistics, comparisons and reports.

The work unit is a *match* (the variant's ``match.rounds`` rounds with dealer rotation and
连庄 streaks, :class:`zhuoji.match.Match`).  Match ``m`` of a run with seed ``S`` has its own
seed derived from ``(S, m)``, and so have its agents, so a match plays the same wherever it
runs: in this process, in a pool of worker processes, or on a Ray cluster.  Results come
back in match order and every statistic is built from integer sums, so a run's results do
not depend on the worker count or the backend (only its timing does).

Modules:

- :mod:`zhuoji.sim.runner` — :class:`SimSpec`, seeds, one match → :class:`RoundRecord` list;
- :mod:`zhuoji.sim.backends` — serial, local process pool and Ray execution, in match order;
- :mod:`zhuoji.sim.stats` — per-block integer sums, summaries, paired bootstrap comparisons;
- :mod:`zhuoji.sim.storage` — SQLite store of runs and per-round summaries;
- :mod:`zhuoji.sim.report` — text tables, the HTML comparison report with PNG charts;
- :mod:`zhuoji.sim.split` — ``compare``'s split of a money change into the rule at fixed
  play (A's rounds replayed and settled under B) and the players adapting;
- :mod:`zhuoji.sim.cli` — ``zhuoji simulate``, ``zhuoji compare``, ``zhuoji stats``.

The user documentation is ``docs/simulation.md`` (definitions of every statistic and of the
confidence intervals) and ``docs/scaling.md`` (running on a Ray cluster).
"""

from __future__ import annotations

from typing import Any

__all__ = ["RoundRecord", "SimSpec", "simulate"]


def __getattr__(name: str) -> Any:
    # lazy: ``zhuoji --help`` imports zhuoji.sim.cli, which should not pull in numpy
    if name in __all__:
        from zhuoji.sim import runner

        return getattr(runner, name)
    raise AttributeError(name)
