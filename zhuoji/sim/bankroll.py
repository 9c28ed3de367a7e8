"""The bankroll view: how a player's result over a session of N rounds is spread.

A session's result is the sum of N rounds' results, and rounds are not independent (the
dealer keeps the deal on a win, streak bonuses grow), so the spread uses the *long-run*
variance per round, estimated from the run's blocks of consecutive whole matches:

    σ²_LR = Σ_b (S_b − μ·n_b)² / Σ_b n_b

where ``S_b`` is a seat's total over block ``b`` of ``n_b`` rounds and ``μ`` the seat's
mean per round.  Over N rounds the result is then approximately normal with mean ``N·μ``
and standard deviation ``σ_LR·√N`` (central limit theorem; the reports say so).  With
identical bots at every seat ``μ ≈ 0``, and the view answers the table operator's question:
how far up or down does a player end an evening of N rounds under these rules?
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from zhuoji.sim.stats import Accumulator

#: percentiles of the session result shown in the reports
SESSION_PERCENTILES = (5, 25, 50, 75, 95)


def seat_spread(acc: Accumulator, seat: int) -> tuple[float, float]:
    """(mean per round, long-run standard deviation per round) of one seat."""
    n = acc.total("n")
    if n == 0:
        return math.nan, math.nan
    mean = acc.total(f"seat{seat}.sum") / n
    sq = 0.0
    key = f"seat{seat}.sum"
    for block in acc.blocks:
        sq += (block.get(key, 0) - mean * block.get("n", 0)) ** 2
    return mean, math.sqrt(sq / n)


def session(acc: Accumulator, rounds: int) -> dict[str, Any]:
    """Each seat's result over a session of ``rounds`` rounds, and all seats pooled (the
    mean of the seats' means and the root mean square of their spreads)."""
    seats = []
    for s in range(acc.players):
        mean, sd = seat_spread(acc, s)
        seats.append({"seat": s, **_distribution(mean, sd, rounds)})
    means = [seat_spread(acc, s) for s in range(acc.players)]
    pooled_mean = sum(m for m, _ in means) / len(means)
    pooled_sd = math.sqrt(sum(sd * sd for _, sd in means) / len(means))
    return {
        "rounds": rounds,
        "method": "normal approximation, long-run variance from blocks of whole matches",
        "seats": seats,
        "any_seat": _distribution(pooled_mean, pooled_sd, rounds),
    }


def _distribution(mean: float, sd: float, rounds: int) -> dict[str, Any]:
    if math.isnan(mean) or math.isnan(sd):
        return {"mean": math.nan, "sd": math.nan, "p_down": math.nan} | {
            f"p{q}": math.nan for q in SESSION_PERCENTILES
        }
    mu, sigma = mean * rounds, sd * math.sqrt(rounds)
    out: dict[str, Any] = {"mean": mu, "sd": sigma}
    if sigma == 0:
        out |= {f"p{q}": mu for q in SESSION_PERCENTILES}
        out["p_down"] = 1.0 if mu < 0 else 0.0
        return out
    dist = NormalDist(mu, sigma)
    out |= {f"p{q}": dist.inv_cdf(q / 100) for q in SESSION_PERCENTILES}
    out["p_down"] = dist.cdf(0.0)
    return out


def describe(view: dict[str, Any]) -> str:
    """One line: ``over 100 rounds a player ends between −61 and +61 points 9 times in 10``."""
    d = view["any_seat"]
    if math.isnan(d["sd"]):
        return f"bankroll over {view['rounds']} rounds: n/a (no rounds)"
    return (
        f"bankroll over a session of {view['rounds']} rounds (any seat): 90% end between "
        f"{d['p5']:+.0f} and {d['p95']:+.0f} points, half between {d['p25']:+.0f} and "
        f"{d['p75']:+.0f} (s.d. {d['sd']:.0f}; normal approximation)"
    )
