"""Statistics of a run, and of the difference between two runs, from integer sums.

Every round adds integers to the sums of its *block* (a run of consecutive matches; at most
``max_blocks`` blocks per run): points per seat and their squares, outcome counts, pattern
counts, ledger points by item, points moved, swing and its histogram, round length.  Every
statistic is a function of these sums (:data:`Sums`), so

- a run's numbers are exact and independent of how its matches were spread over workers;
- a *bootstrap* replicate is the same function of re-weighted block sums: resample the
  blocks with replacement (multinomial weights), multiply, evaluate.  Blocks are whole
  matches, the independent unit of a run (rounds inside a match share the dealer and
  streak), so the intervals account for that dependence.

Comparisons are *paired* when both sides played the same matches (same seed, rounds and
match length): one set of weights resamples the same blocks on both sides, so the luck of
the deal that both sides share cancels in the difference.  Otherwise the sides are
resampled independently.  Intervals are percentile intervals (default 95 %, 1000
replicates, seeded: the same inputs give the same interval).  Definitions of every
statistic: ``docs/simulation.md``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from zhuoji.rules.catalog import item_label
from zhuoji.sim import behaviour
from zhuoji.sim.records import KINDS, RoundRecord

FloatArray = npt.NDArray[np.float64]

#: swing percentiles reported
PERCENTILES = (50, 90, 95, 99)

KIND_LABELS = {
    "draw": "荒庄 draw",
    "self_draw": "自摸 self-draw",
    "discard": "点炮 win on a discard",
    "rob_kong": "抢杠 robbing a kong",
    "multi": "一炮多响 several winners",
}

SWING_DEFINITION = (
    "swing of a round = the largest absolute per-seat total, max_s |total_s| "
    "(what the round's biggest winner or loser moved)"
)


@dataclass
class MaxPayout:
    amount: int
    item: str
    detail: str
    round: int


def _key(known: dict[str, str], prefix: str, name: str) -> str:
    """``prefix + name``, made once per name and then looked up (see ``Accumulator``)."""
    key = known.get(name)
    if key is None:
        key = known[name] = prefix + name
    return key


class Accumulator:
    """Integer sums of a run's rounds, per block of consecutive matches.

    Add rounds in any order: sums commute; only the largest payout keeps the first round
    (lowest index) that reached it."""

    def __init__(self, players: int, matches: int, *, max_blocks: int = 2000) -> None:
        self.players = players
        self.matches = matches
        self.block_size = max(1, -(-matches // max_blocks))
        nblocks = -(-matches // self.block_size)
        # plain dicts, not Counters: a Counter's ``c[k] += v`` costs about five times a dict's
        # ``c[k] = c.get(k, 0) + v``, and a simulation adds some thirty counts a round; a key
        # never added is absent (read it with ``block(b, key)`` or ``.get(key, 0)``)
        self.blocks: list[dict[str, int]] = [{} for _ in range(nblocks)]
        self.swing_hist: list[dict[int, int]] = [{} for _ in range(nblocks)]
        self.max_payout: MaxPayout | None = None
        self.rounds = 0
        #: each seat's keys, made once: (sum, sum of squares, wins, deal-ins)
        self._seat_keys = [
            (f"seat{s}.sum", f"seat{s}.sq", f"seat{s}.wins", f"seat{s}.dealins")
            for s in range(players)
        ]
        #: the block keys of outcome kinds, patterns, ledger items and behaviour counts, by
        #: name, made once: a key joined anew each round is a new string hashed anew
        self._kind_keys = {k: "kind." + k for k in KINDS}
        self._pattern_keys: dict[str, str] = {}
        self._item_keys: dict[str, str] = {}

    def add(self, rec: RoundRecord) -> None:
        b = rec.match // self.block_size
        c = self.blocks[b]
        get = c.get  # a block is a plain dict: ``c[k] = get(k, 0) + v`` is its ``+=``
        c["n"] = get("n", 0) + 1
        keys = self._seat_keys
        net = swing = 0  # RoundRecord.net and .swing, read in this one pass
        for s, t in enumerate(rec.totals):
            k_sum, k_sq = keys[s][0], keys[s][1]
            c[k_sum] = get(k_sum, 0) + t
            c[k_sq] = get(k_sq, 0) + t * t
            if t > 0:
                net += t
            if abs(t) > swing:
                swing = abs(t)
        wins = rec.wins
        for seat, how, src in wins:
            k = keys[seat][2]
            c[k] = get(k, 0) + 1
            if how == "discard" and src is not None:
                k = keys[src][3]
                c[k] = get(k, 0) + 1
        k = _key(self._kind_keys, "kind.", rec.kind)
        c[k] = get(k, 0) + 1
        c["wins"] = get("wins", 0) + len(wins)
        for p in rec.patterns:
            k = _key(self._pattern_keys, "pattern.", p)
            c[k] = get(k, 0) + 1
        gross = 0
        for item, amount in rec.items:
            k = _key(self._item_keys, "item.", item)
            c[k] = get(k, 0) + amount
            gross += amount
        c["gross"] = get("gross", 0) + gross
        c["net"] = get("net", 0) + net
        c["swing"] = get("swing", 0) + swing
        hist = self.swing_hist[b]
        hist[swing] = hist.get(swing, 0) + 1
        c["actions"] = get("actions", 0) + rec.actions
        c["discards"] = get("discards", 0) + rec.discards
        c["streak"] = get("streak", 0) + rec.streak
        behaviour.add_counts(c, rec.behaviour)
        m = self.max_payout
        if rec.max_payout and (
            m is None
            or rec.max_payout > m.amount
            or (rec.max_payout == m.amount and rec.index < m.round)
        ):
            self.max_payout = MaxPayout(rec.max_payout, rec.max_item, rec.max_detail, rec.index)
        self.rounds += 1

    def extend(self, records: Iterable[RoundRecord]) -> None:
        for r in records:
            self.add(r)

    # --- views ------------------------------------------------------------------------

    def keys(self) -> set[str]:
        out: set[str] = set()
        for c in self.blocks:
            out.update(c)
        return out

    def total(self, key: str) -> int:
        return sum(c.get(key, 0) for c in self.blocks)

    def swing_values(self) -> set[int]:
        out: set[int] = set()
        for h in self.swing_hist:
            out.update(h)
        return out

    def matrix(self, keys: list[str]) -> FloatArray:
        """Block sums, one row per block, one column per key."""
        return np.array(
            [[c.get(k, 0) for k in keys] for c in self.blocks], dtype=np.float64
        ).reshape(len(self.blocks), len(keys))

    def hist_matrix(self, values: list[int]) -> FloatArray:
        return np.array(
            [[h.get(v, 0) for v in values] for h in self.swing_hist], dtype=np.float64
        ).reshape(len(self.swing_hist), len(values))

    def patterns(self) -> list[str]:
        """Pattern ids seen, most frequent first."""
        counts = {k[8:]: self.total(k) for k in self.keys() if k.startswith("pattern.")}
        return sorted(counts, key=lambda p: (-counts[p], p))

    def items(self) -> list[str]:
        """Ledger item codes seen, most points first."""
        counts = {k[5:]: self.total(k) for k in self.keys() if k.startswith("item.")}
        return sorted(counts, key=lambda i: (-counts[i], i))


class Sums:
    """Column sums (one value per bootstrap replicate, or one for the point estimate)."""

    def __init__(
        self, cols: Mapping[str, FloatArray], values: FloatArray, hist: FloatArray
    ) -> None:
        self.cols = cols
        self.values = values  # swing values, ascending
        self.hist = hist  # replicates × values
        self.size = hist.shape[0]

    def __getitem__(self, key: str) -> FloatArray:
        col = self.cols.get(key)
        return col if col is not None else np.zeros(self.size)

    def quantile(self, q: float) -> FloatArray:
        """Nearest-rank quantile of the swing histogram: the smallest value with at least
        ``q·n`` rounds at or below it."""
        if not len(self.values):
            return np.full(self.size, np.nan)
        cum = self.hist.cumsum(axis=1)
        n = cum[:, -1:]
        idx = np.argmax(cum >= q * n - 1e-9, axis=1)
        out: FloatArray = self.values[idx].astype(np.float64)
        out[n[:, 0] == 0] = np.nan
        return out

    def maximum(self) -> FloatArray:
        if not len(self.values):
            return np.full(self.size, np.nan)
        nz = self.hist > 0
        idx = len(self.values) - 1 - np.argmax(nz[:, ::-1], axis=1)
        out: FloatArray = self.values[idx].astype(np.float64)
        out[~nz.any(axis=1)] = np.nan
        return out


def _div(a: FloatArray, b: FloatArray) -> FloatArray:
    out = np.full(np.broadcast(a, b).shape, np.nan)
    np.divide(a, b, out=out, where=b != 0)
    return out


def _std(s: Sums, seat: int) -> FloatArray:
    n = s["n"]
    x, xx = s[f"seat{seat}.sum"], s[f"seat{seat}.sq"]
    var = _div(xx - _div(x * x, n), n - 1)
    return np.sqrt(np.maximum(var, 0.0))


@dataclass(frozen=True)
class Stat:
    """One statistic: a key, its group and label, and how it follows from the sums."""

    key: str
    group: str
    label: str
    fn: Callable[[Sums], FloatArray]
    unit: str = ""  # "%" for rates and shares (shown ×100), else points, actions …
    ci: bool = True  # False where a bootstrap interval means nothing (the maximum)


def _ratio(num: str, den: str) -> Callable[[Sums], FloatArray]:
    return lambda s: _div(s[num], s[den])


def _scaled_ratio(num: str, den: str, scale: float) -> Callable[[Sums], FloatArray]:
    return lambda s: _div(s[num], s[den] * scale)


def _std_of(seat: int) -> Callable[[Sums], FloatArray]:
    return lambda s: _std(s, seat)


def _quantile(q: float) -> Callable[[Sums], FloatArray]:
    return lambda s: s.quantile(q)


def catalog(
    players: int,
    patterns: Iterable[str],
    items: Iterable[str],
    pattern_names: Mapping[str, tuple[str, str]] | None = None,
) -> list[Stat]:
    """Every statistic reported, in report order."""
    names = pattern_names or {}
    out: list[Stat] = []
    for s in range(players):
        out.append(
            Stat(
                f"seat{s}.mean",
                "seats",
                f"seat {s} points per round (mean)",
                _ratio(f"seat{s}.sum", "n"),
            )
        )
        out.append(
            Stat(f"seat{s}.std", "seats", f"seat {s} points per round (std. dev.)", _std_of(s))
        )
        out.append(
            Stat(
                f"seat{s}.win_rate",
                "seats",
                f"seat {s} wins per round",
                _ratio(f"seat{s}.wins", "n"),
                "%",
            )
        )
        out.append(
            Stat(
                f"seat{s}.dealin_rate",
                "seats",
                f"seat {s} deal-ins per round",
                _ratio(f"seat{s}.dealins", "n"),
                "%",
            )
        )
    for k in KINDS:
        out.append(Stat(f"rate.{k}", "outcomes", KIND_LABELS[k], _ratio(f"kind.{k}", "n"), "%"))
    out.append(Stat("wins_per_round", "outcomes", "winners per round", _ratio("wins", "n")))
    for p in patterns:
        zh, en = names.get(p, (p, ""))
        label = f"{zh} {en}".strip() if zh != p else p
        out.append(
            Stat(
                f"pattern.{p}",
                "patterns",
                f"{label} (share of wins)",
                _ratio(f"pattern.{p}", "wins"),
                "%",
            )
        )
    for i in items:
        zh, en = item_label(i)
        out.append(
            Stat(
                f"share.{i}",
                "items",
                f"{i} {zh} (share of points moved)",
                _ratio(f"item.{i}", "gross"),
                "%",
            )
        )
        out.append(
            Stat(
                f"per_round.{i}", "items", f"{i} {zh} (points per round)", _ratio(f"item.{i}", "n")
            )
        )
    out.append(
        Stat(
            "moved.gross",
            "moved",
            "points moved per round (all ledger entries)",
            _ratio("gross", "n"),
        )
    )
    out.append(
        Stat(
            "moved.net",
            "moved",
            "net points moved per round (sum of winners' totals)",
            _ratio("net", "n"),
        )
    )
    out.append(Stat("swing.mean", "swing", "swing (mean)", _ratio("swing", "n")))
    for q in PERCENTILES:
        out.append(Stat(f"swing.p{q}", "swing", f"swing p{q}", _quantile(q / 100)))
    out.append(Stat("swing.max", "swing", "swing (max)", lambda x: x.maximum(), ci=False))
    out.append(Stat("length.actions", "length", "actions per round", _ratio("actions", "n")))
    out.append(
        Stat("length.discards", "length", "discards (turns) per round", _ratio("discards", "n"))
    )
    out.append(
        Stat(
            "length.streak",
            "length",
            "连庄 streak at the start of a round (mean)",
            _ratio("streak", "n"),
        )
    )
    for key, label, unit, num, den, scale in behaviour.stat_specs(players):
        out.append(Stat(key, "behaviour", label, _scaled_ratio(num, den, scale), unit))
    return out


def _sums(x: FloatArray, keys: list[str], h: FloatArray, values: FloatArray, w: FloatArray) -> Sums:
    sx = w @ x
    return Sums({k: sx[:, j] for j, k in enumerate(keys)}, values, w @ h)


def _point(acc: Accumulator, keys: list[str], values: list[int]) -> Sums:
    x, h = acc.matrix(keys), acc.hist_matrix(values)
    return _sums(x, keys, h, np.array(values), np.ones((1, x.shape[0])))


def point_estimates(acc: Accumulator, stats: list[Stat]) -> dict[str, float]:
    keys = sorted(acc.keys())
    values = sorted(acc.swing_values())
    s = _point(acc, keys, values)
    return {st.key: float(st.fn(s)[0]) for st in stats}


# ------------------------------------------------------------------------------------
# one run
# ------------------------------------------------------------------------------------


def summarize(
    acc: Accumulator,
    *,
    agents: Iterable[str] = (),
    pattern_names: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The report of one run as plain data (the ``--json`` body without run settings)."""
    names = pattern_names or {}
    pats, items = acc.patterns(), acc.items()
    stats = catalog(acc.players, pats, items, names)
    v = point_estimates(acc, stats)
    agents = list(agents)
    n = acc.rounds
    kinds = {k: acc.total(f"kind.{k}") for k in KINDS}
    gross = acc.total("gross")
    wins = acc.total("wins")
    mp = acc.max_payout
    return {
        "rounds": n,
        "matches": acc.matches,
        "seats": [
            {
                "seat": s,
                "agent": agents[s] if s < len(agents) else None,
                "total": acc.total(f"seat{s}.sum"),
                "mean": v[f"seat{s}.mean"],
                "std": v[f"seat{s}.std"],
                "win_rate": v[f"seat{s}.win_rate"],
                "dealin_rate": v[f"seat{s}.dealin_rate"],
            }
            for s in range(acc.players)
        ],
        "outcomes": {k: {"count": kinds[k], "rate": v[f"rate.{k}"]} for k in KINDS},
        "draw_rate": v["rate.draw"],
        "win_rate": 1.0 - v["rate.draw"] if n else math.nan,
        "wins": wins,
        "patterns": {
            p: {
                "name": names.get(p, (p, ""))[0],
                "name_en": names.get(p, (p, ""))[1],
                "count": acc.total(f"pattern.{p}"),
                "share": v[f"pattern.{p}"],
            }
            for p in pats
        },
        "items": {
            i: {
                "label": item_label(i)[0],
                "label_en": item_label(i)[1],
                "points": acc.total(f"item.{i}"),
                "share": v[f"share.{i}"],
                "per_round": v[f"per_round.{i}"],
            }
            for i in items
        },
        "points_moved": {
            "total": gross,
            "per_round": v["moved.gross"],
            "net_per_round": v["moved.net"],
        },
        "swing": {
            "definition": SWING_DEFINITION,
            "mean": v["swing.mean"],
            **{f"p{q}": v[f"swing.p{q}"] for q in PERCENTILES},
            "max": v["swing.max"],
            "histogram": {str(k): c for k, c in sorted(swing_histogram(acc).items())},
        },
        "max_payout": None
        if mp is None
        else {
            "amount": mp.amount,
            "item": mp.item,
            "label": item_label(mp.item)[0],
            "detail": mp.detail,
            "round": mp.round,
        },
        "round_length": {
            "actions": v["length.actions"],
            "discards": v["length.discards"],
            "definition": "actions: every action applied (discards, kongs, claims and passes); "
            "discards: turns that ended with a discard",
        },
        "streak_mean": v["length.streak"],
        "behaviour": {
            st.key.split(".", 1)[1]: {"label": st.label, "unit": st.unit, "value": v[st.key]}
            for st in stats
            if st.group == "behaviour"
        },
    }


def swing_histogram(acc: Accumulator) -> Counter[int]:
    out: Counter[int] = Counter()
    for h in acc.swing_hist:
        out.update(h)
    return out


# ------------------------------------------------------------------------------------
# two runs
# ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One statistic on both sides, the difference B − A and its interval."""

    stat: Stat
    a: float
    b: float
    diff: float
    lo: float
    hi: float

    @property
    def significant(self) -> bool:
        """The interval excludes zero."""
        return self.stat.ci and not math.isnan(self.lo) and (self.lo > 0 or self.hi < 0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.stat.key,
            "group": self.stat.group,
            "label": self.stat.label,
            "unit": self.stat.unit,
            "a": _clean(self.a),
            "b": _clean(self.b),
            "diff": _clean(self.diff),
            "ci": [_clean(self.lo), _clean(self.hi)] if self.stat.ci else None,
            "significant": self.significant,
        }


def _clean(x: float) -> float | None:
    return None if math.isnan(x) else x


@dataclass(frozen=True)
class Comparison:
    rows: list[Row]
    paired: bool
    reps: int
    level: float
    blocks: int
    block_size: int

    def row(self, key: str) -> Row:
        return next(r for r in self.rows if r.stat.key == key)

    def method(self) -> str:
        how = (
            "paired (the same blocks resampled on both sides)"
            if self.paired
            else "unpaired (sides resampled independently)"
        )
        return (
            f"{self.level:.0%} percentile bootstrap over {self.blocks} blocks of {self.block_size} "
            f"match(es), {self.reps} replicates, {how}"
        )


def compare(
    a: Accumulator,
    b: Accumulator,
    *,
    reps: int = 1000,
    level: float = 0.95,
    seed: int = 0,
    paired: bool = True,
    pattern_names: Mapping[str, tuple[str, str]] | None = None,
) -> Comparison:
    """Every statistic of A and B, B − A, and a bootstrap interval for B − A.

    ``paired`` is honoured only when both sides have the same block layout (same matches
    and block size): then one weight vector per replicate resamples both."""
    paired = (
        paired
        and a.matches == b.matches
        and a.block_size == b.block_size
        and len(a.blocks) == len(b.blocks)
    )
    pats = _merge_order(a.patterns(), b.patterns())
    items = _merge_order(a.items(), b.items())
    players = max(a.players, b.players)
    stats = catalog(players, pats, items, pattern_names)
    keys = sorted(a.keys() | b.keys())
    values = sorted(a.swing_values() | b.swing_values())
    xa, xb = a.matrix(keys), b.matrix(keys)
    ha, hb = a.hist_matrix(values), b.hist_matrix(values)
    vals = np.array(values)
    pa = _sums(xa, keys, ha, vals, np.ones((1, xa.shape[0])))
    pb = _sums(xb, keys, hb, vals, np.ones((1, xb.shape[0])))
    est_a = {st.key: float(st.fn(pa)[0]) for st in stats}
    est_b = {st.key: float(st.fn(pb)[0]) for st in stats}
    diffs: dict[str, list[FloatArray]] = {st.key: [] for st in stats}
    rng = np.random.default_rng(seed)
    ga, gb = xa.shape[0], xb.shape[0]
    done = 0
    chunk = max(1, min(reps, 2_000_000 // max(ga, gb)))  # weights held at once: ≤ 16 MB
    while done < reps:
        k = min(chunk, reps - done)
        wa = rng.multinomial(ga, np.full(ga, 1.0 / ga), size=k).astype(np.float64)
        wb = wa if paired else rng.multinomial(gb, np.full(gb, 1.0 / gb), size=k).astype(np.float64)
        sa, sb = _sums(xa, keys, ha, vals, wa), _sums(xb, keys, hb, vals, wb)
        for st in stats:
            if st.ci:
                diffs[st.key].append(st.fn(sb) - st.fn(sa))
        done += k
    alpha = (1.0 - level) / 2
    rows = []
    for st in stats:
        lo = hi = math.nan
        if st.ci and diffs[st.key]:
            d = np.concatenate(diffs[st.key])
            d = d[~np.isnan(d)]
            if len(d):
                lo, hi = (float(x) for x in np.quantile(d, [alpha, 1 - alpha]))
        rows.append(Row(st, est_a[st.key], est_b[st.key], est_b[st.key] - est_a[st.key], lo, hi))
    return Comparison(rows, paired, reps, level, max(ga, gb), max(a.block_size, b.block_size))


def _merge_order(a: list[str], b: list[str]) -> list[str]:
    return a + [x for x in b if x not in a]
