"""Reports: the text of ``simulate``/``stats``/``compare`` and the HTML comparison report.

The HTML report (``zhuoji compare … --report DIR``) is one ``index.html`` with PNG charts
made by matplotlib (Agg backend, no display needed):

- ``swing.png`` — the distribution of per-round swing on both sides, and its tail;
- ``items.png`` — points moved per round stacked by ledger item, and each item's change in
  points per round B − A with its interval;
- ``patterns.png`` — each main pattern's share of wins on both sides (log scale: 平胡 dominates);
- ``outcomes.png`` — B − A with intervals for outcome rates and per-seat points;
- ``bankroll.png`` — the spread of a player's result over a session of N rounds
  (:mod:`zhuoji.sim.bankroll`).

Charts label items, patterns and outcomes in Chinese with a CJK font: the Noto Sans CJK SC
file that the ``sim`` extra installs (package ``mplfonts``; used by path, not imported), else
one found on the system; without either they fall back to pinyin codes and English, and the
report says so.
"""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from zhuoji.columns import table
from zhuoji.rules.catalog import item_label
from zhuoji.sim.behaviour import awareness_note, behaviour_lines
from zhuoji.sim.records import KINDS
from zhuoji.sim.runner import SimResult
from zhuoji.sim.stats import KIND_LABELS, PERCENTILES, Comparison, Row, swing_histogram

if TYPE_CHECKING:
    from zhuoji.sim.split import EffectSplit, SplitRow

# ------------------------------------------------------------------------------------
# text
# ------------------------------------------------------------------------------------


def pct(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.{digits}f}%"


def num(x: float | None, digits: int = 2, sign: bool = False) -> str:
    if x is None or math.isnan(x):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def describe_run(s: dict[str, Any]) -> str:
    agents = s["agents"]
    who = f"{agents[0]}×{len(agents)}" if len(set(agents)) == 1 else ",".join(agents)
    sets = "".join(f" --set {o}" for o in s["overrides"])
    return (
        f"{s['variant']}{sets}: {s['rounds']} rounds in {s['matches']} matches of {s['match_rounds']}, "
        f"seed {s['seed']}, agents {who}"
    )


def render_summary(s: dict[str, Any]) -> str:
    """The text report of one run (``simulate``, ``stats --run``)."""
    lines = [f"zhuoji simulate: {describe_run(s)}"]
    where = f"run {s['run_id']}, " if s.get("run_id") is not None else ""
    lines.append(
        f"{where}{s['backend']} backend, {s['workers']} worker(s): {s['elapsed_s']:.1f} s, "
        f"{s['rounds_per_s']:.0f} rounds/s"
    )
    lines.append("")
    lines.append("per seat (points per round):")
    rows = [["seat", "agent", "mean", "std. dev.", "wins", "deal-ins", "total"]]
    for seat in s["seats"]:
        rows.append(
            [
                str(seat["seat"]),
                str(seat["agent"]),
                num(seat["mean"], 3, sign=True),
                num(seat["std"], 2),
                pct(seat["win_rate"]),
                pct(seat["dealin_rate"]),
                f"{seat['total']:+d}",
            ]
        )
    lines += table(rows, right=[False, False, True, True, True, True, True])
    lines.append("")
    lines.append(
        f"outcomes (share of rounds; {s['wins']} wins, {num(s['wins'] / max(1, s['rounds']), 3)} winners per round):"
    )
    lines += table(
        [
            [KIND_LABELS[k], str(s["outcomes"][k]["count"]), pct(s["outcomes"][k]["rate"], 2)]
            for k in KINDS
        ],
        right=[False, True, True],
    )
    lines.append("")
    lines.append(f"main pattern of each win (share of {s['wins']} wins):")
    lines += table(
        [
            [p, f"{v['name']} {v['name_en']}".strip(), str(v["count"]), pct(v["share"], 2)]
            for p, v in s["patterns"].items()
        ]
        or [["(no wins)"]],
        right=[False, False, True, True],
    )
    pm = s["points_moved"]
    lines.append("")
    lines.append(
        f"ledger items (share of {pm['total']} points moved; {num(pm['per_round'])} per round, "
        f"net {num(pm['net_per_round'])} per round):"
    )
    lines += table(
        [
            [
                i,
                f"{v['label']} {v['label_en']}",
                str(v["points"]),
                pct(v["share"], 2),
                f"{num(v['per_round'], 3)}/round",
            ]
            for i, v in s["items"].items()
        ]
        or [["(no payments)"]],
        right=[False, False, True, True, True],
    )
    sw = s["swing"]
    lines.append("")
    lines.append("swing = max over seats of |seat total| in a round:")
    lines.append(
        f"  mean {num(sw['mean'])}, "
        + ", ".join(f"p{q} {num(sw[f'p{q}'], 0)}" for q in PERCENTILES)
        + f", max {num(sw['max'], 0)}"
    )
    mp = s["max_payout"]
    if mp:
        lines.append(
            f"largest single payout: {mp['amount']} ({mp['item']} {mp['label']}: {mp['detail']}) "
            f"in round {mp['round'] + 1}"
        )
    rl = s["round_length"]
    lines.append(
        f"round length: {num(rl['actions'], 1)} actions, {num(rl['discards'], 1)} discards (turns) per round; "
        f"mean 连庄 streak {num(s['streak_mean'], 3)}"
    )
    lines += behaviour_lines(s)
    if s.get("bankroll"):
        lines.append(describe_bankroll(s["bankroll"]))
    return "\n".join(lines)


def _signed(x: float, digits: int) -> str:
    """``x`` with a sign and ``digits`` decimals; more for a small non-zero value, so a
    difference that is real but tiny does not print as ``-0.00``."""
    while digits < 6 and x != 0 and abs(x) < 0.5 * 10**-digits:
        digits += 1
    return f"{x:+.{digits}f}"


def _fmt(row: Row, x: float, diff: bool = False) -> str:
    if math.isnan(x):
        return "n/a"
    if row.stat.unit == "%":
        return f"{_signed(100 * x, 2)}pp" if diff else f"{100 * x:.2f}%"
    return _signed(x, 3) if diff else f"{x:.3f}"


def _ci(row: Row) -> str:
    if not row.stat.ci or math.isnan(row.lo):
        return "n/a"
    if row.stat.unit == "%":
        return f"[{_signed(100 * row.lo, 2)}, {_signed(100 * row.hi, 2)}]"
    return f"[{_signed(row.lo, 3)}, {_signed(row.hi, 3)}]"


GROUP_TITLES = {
    "outcomes": "outcomes (share of rounds)",
    "seats": "per seat",
    "patterns": "main pattern (share of wins)",
    "items": "ledger items",
    "moved": "points moved",
    "swing": "swing (max |seat total| per round)",
    "length": "round length",
    "behaviour": "behaviour (how the bots played)",
}


def _rows_table(rows: list[Row], level: float, note: str | None = None) -> list[str]:
    """Statistics by group: A, B, B − A and the interval; ``note`` goes under the outcome
    group's title (outside the aligned columns)."""
    cells: list[list[str]] = [["statistic", "A", "B", "B − A", f"{level:.0%} CI"]]
    group = None
    at = -1
    for r in rows:
        if r.stat.group != group:
            group = r.stat.group
            cells.append([GROUP_TITLES.get(group, group)])
            if group == "outcomes":
                at = len(cells)
        cells.append(
            ["  " + r.stat.label, _fmt(r, r.a), _fmt(r, r.b), _fmt(r, r.diff, True), _ci(r)]
        )
    out = table(cells, right=[False, True, True, True, True], indent="  ")
    if note and at >= 0:
        out.insert(len(out) - len(cells) + at, "    " + note)
    return out


def render_comparison(
    a: dict[str, Any], b: dict[str, Any], cmp: Comparison, *, every: bool = False
) -> str:
    """The text of ``compare``: first the changes whose interval excludes 0 (the ones the
    runs can tell apart), then, with ``every``, the statistics within their intervals.
    When no agent prices payouts, a note says so next to the outcome rows (on its own line
    when no outcome row is listed)."""
    lines = [f"A: {describe_run(a)}", f"B: {describe_run(b)}"]
    lines.append(f"intervals: {cmp.method()}")
    note = awareness_note([*a["agents"], *b["agents"]])
    sig = [r for r in cmp.rows if r.significant]
    rest = [r for r in cmp.rows if not r.significant]
    lines.append("")
    if sig:
        lines.append(f"changes whose {cmp.level:.0%} interval excludes 0 ({len(sig)}):")
        lines += _rows_table(sig, cmp.level, note)
        if any(r.stat.group == "outcomes" for r in sig):
            note = None  # placed
    else:
        lines.append(f"no statistic changes beyond its {cmp.level:.0%} interval")
    lines.append("")
    if every:
        lines.append(f"within their intervals ({len(rest)}):")
        lines += _rows_table(rest, cmp.level, note)
        if any(r.stat.group == "outcomes" for r in rest):
            note = None
    else:
        lines.append(f"{len(rest)} other statistics are within their intervals (--all lists them)")
    if note:
        lines.append(note)
    for side, s in (("A", a), ("B", b)):
        if s.get("bankroll"):
            lines.append(f"{side}: {describe_bankroll(s['bankroll'])}")
    return "\n".join(lines)
    return "\n".join(lines)


SPLIT_HEAD = (
    "split of the money changes: B − A = rule at fixed play + players adapting "
    '(docs/simulation.md, "The split of an effect")'
)


def render_split(split: EffectSplit, *, every: bool = False) -> list[str]:
    """The lines of ``compare``'s split (:mod:`zhuoji.sim.split`): for each money row whose
    total or any part has an interval excluding 0 (every money row with ``every``), B − A,
    its part at fixed play and the adapting part with their intervals, and B − A with
    greedy bots where the chosen bots are not greedy."""
    lines = [SPLIT_HEAD, *("  " + x for x in _split_notes(split))]
    rows = [sr for sr in split.rows if every or sr.significant]
    if not rows:
        lines.append(
            f"  no money statistic nor part of one changes beyond its {split.level:.0%} interval"
        )
        return lines
    cells: list[list[str]] = [_split_head(split)]
    for sr in rows:
        cells.append(["  " + sr.stat.label, *_split_cells(split, sr)])
    lines += table(cells, right=[False] + [True] * (len(cells[0]) - 1), indent="  ")
    return lines


def _has_greedy(split: EffectSplit) -> bool:
    return any(sr.greedy is not None for sr in split.rows)


def _split_notes(split: EffectSplit) -> list[str]:
    """What the split's columns are, and why fixed play is missing when it is."""
    if split.replayed:
        lines = [
            "fixed play: A's rounds (same deals and actions) settled by B's rules, less A; "
            "adapting: B less those"
        ]
    else:
        lines = [
            f"fixed play, adapting: n/a — {split.unreplayed} of {split.rounds} rounds of A's "
            "play are not legal under B (B changes play itself, not only payouts)"
        ]
    if _has_greedy(split):
        lines.append("greedy: B − A with greedy bots in both arms (they ignore payouts)")
    return lines


def _split_head(split: EffectSplit) -> list[str]:
    ci = f"{split.level:.0%} CI"
    head = ["statistic", "B − A", "fixed play", ci, "adapting", ci]
    return [*head, "greedy B − A", ci] if _has_greedy(split) else head


def _split_cells(split: EffectSplit, sr: SplitRow) -> list[str]:
    """B − A, then each part and its interval (``n/a`` for a part not made)."""
    out = [_fmt(sr.total, sr.total.diff, True)]
    parts = [sr.fixed, sr.adapting] + ([sr.greedy] if _has_greedy(split) else [])
    for part in parts:
        out += ["n/a", ""] if part is None else [_fmt(part, part.diff, True), _ci(part)]
    return out


def _split_html(split: EffectSplit) -> list[str]:
    """The split's section of the HTML report: every money row (see :func:`render_split`)."""
    e = html.escape
    parts = [
        "<h2>Split: the rule at fixed play and the players adapting</h2>",
        "<p class='note'>B − A = rule at fixed play + players adapting "
        "(<code>docs/simulation.md</code>, “The split of an effect”).<br>"
        + "<br>".join(e(x) for x in _split_notes(split))
        + "</p><table><tr>"
        + "".join(f"<th>{e(h)}</th>" for h in _split_head(split))
        + "</tr>",
    ]
    for sr in split.rows:
        cells = [sr.stat.label, *_split_cells(split, sr)]
        cls = " class='sig'" if sr.significant else ""
        parts.append(f"<tr{cls}>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
    parts.append("</table>")
    return parts


def describe_bankroll(view: dict[str, Any]) -> str:
    from zhuoji.sim.bankroll import describe

    return describe(view)


# ------------------------------------------------------------------------------------
# HTML + PNG
# ------------------------------------------------------------------------------------

COLORS = ("#4C72B0", "#DD8452")

#: CJK font families looked for on the system when the sim extra's font is not installed
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Microsoft YaHei",
    "PingFang SC",
    "SimHei",
    "Noto Sans CJK JP",
    "Noto Serif CJK SC",
)


def chinese_font() -> str | None:
    """A font family with Chinese glyphs, registered with matplotlib: the sim extra's
    Noto Sans CJK SC (found by path, so mplfonts itself is not imported), else the first of
    :data:`CJK_FAMILIES` on the system; None when there is none."""
    import importlib.util

    from matplotlib import font_manager

    spec = importlib.util.find_spec("mplfonts")
    if spec is not None and spec.origin:
        path = Path(spec.origin).parent / "fonts" / "NotoSansCJKsc-Regular.otf"
        if path.is_file():
            font_manager.fontManager.addfont(str(path))
            return str(font_manager.FontProperties(fname=str(path)).get_name())
    installed = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FAMILIES if name in installed), None)


def _short(s: dict[str, Any]) -> str:
    sets = " ".join(s["overrides"])
    return str(s["variant"]) + (f" [{sets}]" if sets else "")


def _plots(
    out: Path, a: SimResult, b: SimResult, sa: dict[str, Any], sb: dict[str, Any], cmp: Comparison
) -> tuple[list[tuple[str, str]], str | None]:
    """The charts, and the CJK font they were drawn with (None: pinyin fallback)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    font = chinese_font()
    rc: dict[str, Any] = (
        {"font.family": "sans-serif", "font.sans-serif": [font, "DejaVu Sans"]} if font else {}
    )
    with plt.rc_context(cast(Any, rc)):
        return _draw(out, a, b, sa, sb, cmp, chinese=font is not None), font


class _Charts:
    """What every chart of a comparison reads: the folder, the two runs and their summaries,
    the comparison, the labels' language."""

    def __init__(
        self,
        out: Path,
        a: SimResult,
        b: SimResult,
        sa: dict[str, Any],
        sb: dict[str, Any],
        cmp: Comparison,
        chinese: bool,
    ) -> None:
        self.out, self.a, self.b, self.sa, self.sb, self.cmp = out, a, b, sa, sb, cmp
        self.chinese = chinese
        self.na, self.nb = f"A: {_short(sa)}", f"B: {_short(sb)}"

    def _save(self, fig: Any, name: str, title: str) -> tuple[str, str]:
        """Lay ``fig`` out, write it to the folder as ``name`` and close it: (file, title)."""
        import matplotlib.pyplot as plt

        fig.tight_layout()
        fig.savefig(self.out / name, dpi=110)
        plt.close(fig)
        return (name, title)

    def item_name(self, i: str) -> str:
        zh, en = item_label(i)
        return f"{zh} {i}" if self.chinese else f"{i} ({en})"

    def _swing_chart(self) -> tuple[str, str]:
        """Swing per round: the distribution and its tail."""
        import matplotlib.pyplot as plt
        import numpy as np

        a = self.a
        b = self.b
        sa = self.sa
        sb = self.sb
        na = self.na
        nb = self.nb
        ha, hb = swing_histogram(a.acc), swing_histogram(b.acc)
        top = max([*ha, *hb, 1])
        xs = np.arange(0, top + 1)
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
        peak = 0.0
        for h, name, color in ((ha, na, COLORS[0]), (hb, nb, COLORS[1])):
            counts = np.array([h.get(int(x), 0) for x in xs], dtype=np.int64)
            n = max(1, int(counts.sum()))
            p = counts / n
            peak = max(peak, float(p.max()))
            ax1.step(xs, p, where="mid", color=color, label=name)
            at_least = n - np.concatenate(
                [[0], np.cumsum(counts)[:-1]]
            )  # rounds with swing ≥ x, exact
            ax2.step(
                xs,
                np.where(at_least > 0, at_least / n, np.nan),
                where="post",
                color=color,
                label=name,
            )
        cut = max(sa["swing"]["p99"], sb["swing"]["p99"])
        ax1.set_xlim(0, max(10, cut * 1.3))
        ax1.set_ylim(0, peak * 1.35)
        ax1.set_xlabel("swing = max |seat total| in a round (points)")
        ax1.set_ylabel("share of rounds")
        ax1.set_title("Swing distribution (to 1.3 × p99)")
        ax1.legend()
        ax2.set_yscale("log")
        ax2.set_xlabel("swing x (points)")
        ax2.set_ylabel("share of rounds with swing ≥ x")
        ax2.set_title("Swing tail")
        for q, style in ((50, ":"), (95, "--"), (99, "-.")):
            ax2.axvline(sa["swing"][f"p{q}"], color=COLORS[0], ls=style, lw=0.8)
            ax2.axvline(sb["swing"][f"p{q}"], color=COLORS[1], ls=style, lw=0.8)
        ax2.text(
            0.98,
            0.95,
            "vertical lines: p50 ⋯, p95 --, p99 -.",
            transform=ax2.transAxes,
            ha="right",
            va="top",
            fontsize=8,
        )
        ax2.legend(loc="lower left")
        return self._save(fig, "swing.png", "Swing per round: distribution and tail")

    def _items_chart(self) -> tuple[str, str]:
        """Ledger items: points per round, and the change B − A with its interval."""
        import matplotlib.pyplot as plt
        import numpy as np

        sa = self.sa
        sb = self.sb
        cmp = self.cmp
        item_name = self.item_name
        items = [r.stat.key[10:] for r in cmp.rows if r.stat.key.startswith("per_round.")]

        def biggest(i: str) -> float:
            return float(max(s["items"].get(i, {}).get("per_round", 0.0) for s in (sa, sb)))

        by_size = sorted(items, key=lambda i: -biggest(i))
        shown, rest = by_size[:9], by_size[9:]  # nine items and "other": ten distinct colours
        fig, (ax1, ax2) = plt.subplots(
            1, 2, figsize=(14, 5.5), gridspec_kw={"width_ratios": [1.3, 1]}
        )
        cmap = plt.get_cmap("tab10")
        for pos, s in enumerate((sa, sb)):
            left = 0.0
            for k, i in enumerate([*shown, "other"]):
                if i == "other":
                    v = sum(s["items"].get(x, {}).get("per_round", 0.0) for x in rest)
                    label = "other"
                else:
                    v = s["items"].get(i, {}).get("per_round", 0.0)
                    label = item_name(i)
                if v <= 0 and i == "other":
                    continue
                ax1.barh(
                    pos,
                    v,
                    left=left,
                    color=cmap(k % 10),
                    edgecolor="white",
                    label=label if pos == 0 else None,
                )
                if v > 0.04 * max(sa["points_moved"]["per_round"], sb["points_moved"]["per_round"]):
                    ax1.text(
                        left + v / 2,
                        pos,
                        f"{v:.1f}",
                        ha="center",
                        va="center",
                        fontsize=8,
                        color="white",
                    )
                left += v
            ax1.text(left, pos, f"  {left:.1f}", va="center", fontsize=9)
        ax1.set_yticks([0, 1], [f"A\n{_short(sa)}", f"B\n{_short(sb)}"])
        ax1.invert_yaxis()
        ax1.set_xlabel("points moved per round (sum of ledger entries)")
        ax1.set_title("Points moved per round, by ledger item")
        ax1.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=3)
        rows = [cmp.row(f"per_round.{i}") for i in items]
        ys = np.arange(len(rows))
        d = np.array([r.diff for r in rows])
        lo = np.array([r.lo for r in rows])
        hi = np.array([r.hi for r in rows])
        colors = ["#C44E52" if r.significant else "#999999" for r in rows]
        ax2.barh(ys, d, color=colors)
        ax2.errorbar(
            d,
            ys,
            xerr=[np.nan_to_num(d - lo), np.nan_to_num(hi - d)],
            fmt="none",
            ecolor="black",
            capsize=2,
            lw=0.8,
        )
        ax2.set_yticks(ys, [item_name(i) for i in items], fontsize=8)
        ax2.invert_yaxis()
        ax2.axvline(0, color="black", lw=0.8)
        ax2.set_xlabel(f"points per round: B − A ({cmp.level:.0%} interval)")
        ax2.set_title("Change in each item's points per round\n(red: the interval excludes 0)")
        return self._save(fig, "items.png", "Ledger items: points per round, and the change B − A")

    def _patterns_chart(self) -> tuple[str, str]:
        """Each win's main pattern, by share of wins."""
        import matplotlib.pyplot as plt
        import numpy as np

        a = self.a
        b = self.b
        sa = self.sa
        sb = self.sb
        cmp = self.cmp
        chinese = self.chinese
        na = self.na
        nb = self.nb
        pats = [r.stat.key[8:] for r in cmp.rows if r.stat.key.startswith("pattern.")]
        names = {**a.pattern_names, **b.pattern_names}
        fig, ax = plt.subplots(figsize=(10, 0.55 * len(pats) + 1.6))
        ys = np.arange(len(pats))
        va = np.array([sa["patterns"].get(p, {}).get("share", 0.0) for p in pats]) * 100
        vb = np.array([sb["patterns"].get(p, {}).get("share", 0.0) for p in pats]) * 100
        ax.barh(ys - 0.2, np.where(va > 0, va, np.nan), height=0.4, color=COLORS[0], label=na)
        ax.barh(ys + 0.2, np.where(vb > 0, vb, np.nan), height=0.4, color=COLORS[1], label=nb)
        for y, x in zip(ys - 0.2, va, strict=True):
            if x > 0:
                ax.text(x * 1.05, y, f"{x:.2f}%", va="center", fontsize=8)
        for y, x in zip(ys + 0.2, vb, strict=True):
            if x > 0:
                ax.text(x * 1.05, y, f"{x:.2f}%", va="center", fontsize=8)
        ax.set_xscale("log")
        ax.set_yticks(
            ys,
            [
                f"{names.get(p, (p, p))[0]} {p}"
                if chinese
                else f"{p} ({names.get(p, (p, p))[1] or p})"
                for p in pats
            ],
        )
        ax.invert_yaxis()
        ax.set_xlabel("share of wins (%, log scale)")
        ax.set_title(f"Main pattern of each win (A: {sa['wins']} wins, B: {sb['wins']} wins)")
        ax.set_xlim(right=max([*va, *vb, 1]) * 4)
        ax.legend(loc="lower right")
        return self._save(fig, "patterns.png", "Pattern frequencies")

    def _outcomes_chart(self) -> tuple[str, str]:
        """Forest plots of B − A: outcome rates (percentage points) and points."""
        import matplotlib.pyplot as plt
        import numpy as np

        cmp = self.cmp
        chinese = self.chinese
        rate_keys = [f"rate.{k}" for k in KINDS]
        point_keys = [
            r.stat.key for r in cmp.rows if r.stat.key.endswith(".mean") and r.stat.group == "seats"
        ]
        point_keys += ["moved.gross", "moved.net", "swing.mean", "swing.p95"]
        fig, axes = plt.subplots(
            1, 2, figsize=(13, 0.42 * max(len(rate_keys), len(point_keys)) + 1.6)
        )
        for ax, keys, unit in ((axes[0], rate_keys, "pp"), (axes[1], point_keys, "points")):
            rows = [cmp.row(k) for k in keys]
            ys = np.arange(len(rows))
            scale = 100.0 if unit == "pp" else 1.0
            d = np.array([r.diff for r in rows]) * scale
            lo = np.array([r.lo for r in rows]) * scale
            hi = np.array([r.hi for r in rows]) * scale
            colors = ["#C44E52" if r.significant else "black" for r in rows]
            for y, x, a_, b_, c in zip(ys, d, lo, hi, colors, strict=True):
                err = [[0.0 if math.isnan(a_) else x - a_], [0.0 if math.isnan(b_) else b_ - x]]
                ax.errorbar([x], [y], xerr=err, fmt="o", color=c, ecolor=c, capsize=3)
            ax.axvline(0, color="gray", lw=0.8)
            ticks = [r.stat.label for r in rows]
            for j, r in enumerate(rows):
                for kind, text in KIND_LABELS.items():
                    if r.stat.key == f"rate.{kind}":
                        ticks[j] = (text if chinese else text.split(" ", 1)[1]) + " rate"
            ax.set_yticks(ys, ticks, fontsize=8)
            ax.invert_yaxis()
            ax.set_xlabel(f"B − A ({unit}) with {cmp.level:.0%} interval")
        axes[0].set_title("Outcome rates (share of rounds)")
        axes[1].set_title("Points per round, swing")
        return self._save(
            fig,
            "outcomes.png",
            "Outcome rates, per-seat points, points moved and swing: B − A (red: the interval excludes 0)",
        )

    def _bankroll_chart(self) -> tuple[str, str] | None:
        """A player's result over a session (normal approximation with the long-run
        variance of whole matches); None when a run has no bankroll summary."""
        import matplotlib.pyplot as plt
        import numpy as np

        sa, sb = self.sa, self.sb
        if not (sa.get("bankroll") and sb.get("bankroll")):
            return None
        from statistics import NormalDist

        spread = [s["bankroll"]["any_seat"] for s in (sa, sb)]
        width_ = max((d["sd"] for d in spread if not math.isnan(d["sd"])), default=0.0)
        if width_ <= 0:
            return None
        fig, ax = plt.subplots(figsize=(10, 4.5))
        xs = np.linspace(-4 * width_, 4 * width_, 400)
        for d, name, color in zip(spread, (self.na, self.nb), COLORS, strict=True):
            if math.isnan(d["sd"]) or d["sd"] == 0:
                continue
            dist = NormalDist(d["mean"], d["sd"])
            ax.plot(xs, [dist.pdf(float(x)) for x in xs], color=color, label=name)
            for q, style in ((5, "--"), (95, "--"), (50, ":")):
                ax.axvline(d[f"p{q}"], color=color, ls=style, lw=0.8)
        ax.axvline(0, color="gray", lw=0.8)
        rounds = sa["bankroll"]["rounds"]
        ax.set_xlabel(f"a player's result after {rounds} rounds (points)")
        ax.set_ylabel("density")
        ax.set_title(
            f"Bankroll over a session of {rounds} rounds "
            "(any seat; dashed: 5% and 95%, dotted: median)"
        )
        ax.legend()
        return self._save(
            fig,
            "bankroll.png",
            "Bankroll: a player's result over a session (normal approximation with the "
            "long-run variance of whole matches)",
        )


def _draw(
    out: Path,
    a: SimResult,
    b: SimResult,
    sa: dict[str, Any],
    sb: dict[str, Any],
    cmp: Comparison,
    *,
    chinese: bool,
) -> list[tuple[str, str]]:
    """Draw every chart of a comparison into ``out``: (file, caption) of each."""
    charts = _Charts(out, a, b, sa, sb, cmp, chinese)
    drawn = (
        charts._swing_chart(),
        charts._items_chart(),
        charts._patterns_chart(),
        charts._outcomes_chart(),
        charts._bankroll_chart(),
    )
    return [figure for figure in drawn if figure is not None]


_CSS = """
body { font-family: system-ui, "Noto Sans CJK SC", "PingFang SC", sans-serif; margin: 2em auto;
       max-width: 1150px; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { padding: 3px 10px; border-bottom: 1px solid #eee; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.group td { font-weight: bold; background: #f4f4f4; text-align: left; }
tr.sig td { background: #fff4e5; }
.note { color: #555; font-size: 0.9em; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.5em 0; }
code { background: #f4f4f4; padding: 0 3px; }
"""


def write_report(
    out_dir: str | Path,
    a: SimResult,
    b: SimResult,
    cmp: Comparison,
    *,
    session: int = 100,
    split: EffectSplit | None = None,
) -> Path:
    """Write ``index.html`` and the PNGs into ``out_dir``; returns the HTML path.  With
    ``split``, a table of the money rows' split follows the main differences."""
    from zhuoji.sim.bankroll import session as bankroll_session

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sa, sb = a.summary(), b.summary()
    sa["bankroll"] = bankroll_session(a.acc, session)
    sb["bankroll"] = bankroll_session(b.acc, session)
    figs, font = _plots(out, a, b, sa, sb, cmp)
    e = html.escape
    parts = [
        "<!doctype html><html lang='zh'><head><meta charset='utf-8'>",
        f"<title>zhuoji compare: {e(_short(sa))} vs {e(_short(sb))}</title><style>{_CSS}</style></head><body>",
        f"<h1>zhuoji compare: A = {e(_short(sa))}, B = {e(_short(sb))}</h1>",
        "<h2>Runs</h2><table><tr><th></th><th>A</th><th>B</th></tr>",
    ]
    settings = [
        ("variant", sa["variant"], sb["variant"]),
        ("overrides", " ".join(sa["overrides"]) or "—", " ".join(sb["overrides"]) or "—"),
        ("agents", ",".join(sa["agents"]), ",".join(sb["agents"])),
        (
            "rounds (matches × length)",
            f"{sa['rounds']} ({sa['matches']} × {sa['match_rounds']})",
            f"{sb['rounds']} ({sb['matches']} × {sb['match_rounds']})",
        ),
        ("seed", str(sa["seed"]), str(sb["seed"])),
        ("run id", str(sa.get("run_id") or "—"), str(sb.get("run_id") or "—")),
        (
            "time",
            f"{sa['elapsed_s']:.1f} s ({sa['rounds_per_s']:.0f} rounds/s)",
            f"{sb['elapsed_s']:.1f} s ({sb['rounds_per_s']:.0f} rounds/s)",
        ),
    ]
    for k, x, y in settings:
        parts.append(f"<tr><td>{e(k)}</td><td>{e(x)}</td><td>{e(y)}</td></tr>")
    parts.append("</table>")
    parts.append(
        f"<p class='note'>Intervals: {e(cmp.method())}. Differences are B − A; rates and shares in "
        "percentage points (pp). Highlighted rows: the interval excludes 0. Definitions: "
        "<code>docs/simulation.md</code>.</p>"
    )
    note = awareness_note([*sa["agents"], *sb["agents"]])
    if note:
        parts.append(f"<p class='note'><b>{e(note)}</b></p>")
    if font is None:
        parts.append(
            "<p class='note'>No CJK font was found, so the charts label items and patterns in "
            "pinyin and English: <code>pip install 'zhuoji[sim]'</code> installs one.</p>"
        )
    sig = [r for r in cmp.rows if r.significant]
    parts.append("<h2>Main differences</h2>")
    if sig:
        parts.append(
            "<p class='note'>Up to four statistics per group whose interval excludes 0, largest "
            "change first; the full table is at the end.</p>"
        )
        for key, title in GROUP_TITLES.items():
            rows = sorted((r for r in sig if r.stat.group == key), key=lambda r: -abs(r.diff))
            if not rows:
                continue
            parts.append(f"<p><b>{e(title)}</b></p><ul>")
            for r in rows[:4]:
                parts.append(
                    f"<li>{e(r.stat.label)}: {e(_fmt(r, r.a))} → {e(_fmt(r, r.b))} "
                    f"(<b>{e(_fmt(r, r.diff, True))}</b>, CI {e(_ci(r))})</li>"
                )
            parts.append("</ul>")
    else:
        parts.append("<p>No statistic differs beyond its interval.</p>")
    if split is not None:
        parts += _split_html(split)
    for name, title in figs:
        parts.append(f"<h2>{e(title)}</h2><img src='{e(name)}' alt='{e(title)}'>")
    parts.append("<h2>Every statistic</h2><table>")
    parts.append(
        f"<tr><th>statistic</th><th>A</th><th>B</th><th>B − A</th><th>{cmp.level:.0%} CI</th></tr>"
    )
    group: str | None = None
    for r in cmp.rows:
        if r.stat.group != group:
            group = r.stat.group
            parts.append(
                f"<tr class='group'><td colspan='5'>{e(GROUP_TITLES.get(group, group))}</td></tr>"
            )
        cls = " class='sig'" if r.significant else ""
        parts.append(
            f"<tr{cls}><td>{e(r.stat.label)}</td><td>{e(_fmt(r, r.a))}</td><td>{e(_fmt(r, r.b))}</td>"
            f"<td>{e(_fmt(r, r.diff, True))}</td><td>{e(_ci(r))}</td></tr>"
        )
    parts.append("</table>")
    for s, side in ((sa, "A"), (sb, "B")):
        mp = s["max_payout"]
        if mp:
            parts.append(
                f"<p>Largest single payout in {side}: <b>{mp['amount']}</b> — {e(mp['item'])} {e(mp['label'])}: "
                f"{e(mp['detail'])} (round {mp['round']}).</p>"
            )
    parts.append("</body></html>")
    path = out / "index.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
