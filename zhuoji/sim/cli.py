"""``zhuoji simulate``, ``zhuoji compare`` and ``zhuoji stats`` (see ``docs/simulation.md``).

::

    zhuoji simulate --variant guiyang --rounds 20000 --seed 1 [--workers K] [--json] [--out runs.sqlite]
    zhuoji compare guiyang guiyang-weile --rounds 20000 --report reports/cmp
    zhuoji compare guiyang guiyang --set-b settle.chickens.chongfeng.multiplier=3
    zhuoji compare --from-db runs.sqlite 1 2
    zhuoji stats runs.sqlite [--run ID] [--json]

``--out`` takes a SQLite file (any name; ``.sqlite`` by convention) or, for ``simulate``, a
``.json`` file that receives the ``--json`` document.  Heavy imports (numpy, tqdm,
matplotlib, ray) happen inside the handlers so ``zhuoji --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zhuoji.cli import at_least, check_output_dir, check_output_file, variant_options
from zhuoji.errors import ZhuojiError

if TYPE_CHECKING:
    from zhuoji.sim.records import SimSpec
    from zhuoji.sim.runner import SimResult
    from zhuoji.sim.split import EffectSplit, SplitRun
    from zhuoji.sim.stats import Comparison


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {value}")
    return value


def _sim_options(p: argparse.ArgumentParser, *, variant: bool) -> None:
    if variant:
        variant_options(p, default="guiyang")
    p.add_argument("--rounds", type=at_least(1), default=1000, help="rounds to play (default 1000)")
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="run seed; the same seed gives the same results (default 0)",
    )
    p.add_argument(
        "--agents",
        default="greedy",
        help="bot names, one for every seat or comma-separated per seat: greedy,greedy,random,greedy",
    )
    p.add_argument(
        "--match-rounds",
        type=at_least(1),
        metavar="N",
        help="rounds per match (default: the variant's match.rounds)",
    )
    p.add_argument(
        "--workers", type=at_least(1), help="worker processes (default: every available CPU)"
    )
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes or a Ray cluster",
    )
    p.add_argument("--address", help="Ray cluster address (default: start a local Ray instance)")
    p.add_argument(
        "--ray-ship-code",
        action="store_true",
        help="send this zhuoji package to the Ray workers (runtime_env py_modules) instead of "
        "relying on it being installed there",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is off anyway without a terminal)",
    )
    p.add_argument(
        "--session",
        type=at_least(1),
        default=100,
        metavar="N",
        help="rounds in a session for the bankroll view: the spread of a player's result "
        "over N rounds (default 100)",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def configure(subparsers: Any) -> None:
    """Add ``simulate``, ``compare`` and ``stats`` to the ``zhuoji`` command."""
    p = subparsers.add_parser(
        "simulate", help="bots play many rounds (as matches); statistics of a variant"
    )
    _sim_options(p, variant=True)
    p.add_argument(
        "--out", metavar="FILE", help="store the run: a SQLite file, or a .json file for the report"
    )
    p.add_argument(
        "--name", help="a name for the stored run (default: none; runs also have numeric ids)"
    )
    p.set_defaults(handler=cmd_simulate)

    p = subparsers.add_parser(
        "compare",
        help="two variants (or one with and without overrides) on the same seeds and bots",
    )
    p.add_argument("a", help="variant A (with --from-db: a stored run id or name)")
    p.add_argument("b", help="variant B (with --from-db: a stored run id or name)")
    p.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="override on both sides"
    )
    p.add_argument(
        "--set-a", action="append", default=[], metavar="KEY=VALUE", help="override on A"
    )
    p.add_argument(
        "--set-b", action="append", default=[], metavar="KEY=VALUE", help="override on B"
    )
    _sim_options(p, variant=False)
    p.add_argument(
        "--from-db",
        metavar="FILE",
        help="compare two runs stored in this SQLite file (no simulation)",
    )
    p.add_argument("--out", metavar="FILE", help="store both runs in this SQLite file")
    p.add_argument("--report", metavar="DIR", help="write an HTML report with charts into DIR")
    p.add_argument(
        "--bootstrap",
        type=at_least(1),
        default=1000,
        metavar="N",
        help="bootstrap replicates (default 1000)",
    )
    p.add_argument(
        "--level", type=_level, default=0.95, help="interval level, between 0 and 1 (default 0.95)"
    )
    p.add_argument(
        "--all",
        action="store_true",
        help="list every statistic, not only the changes whose interval excludes 0",
    )
    p.add_argument(
        "--no-split",
        dest="split",
        action="store_false",
        help="do not split the money changes into the rule at fixed play and the players "
        "adapting (skips replaying A's rounds under B and, for bots other than greedy, "
        "the two greedy arms)",
    )
    p.set_defaults(handler=cmd_compare)

    p = subparsers.add_parser(
        "stats", help="statistics of runs stored by simulate/compare --out (no re-simulation)"
    )
    p.add_argument("file", help="SQLite results file")
    p.add_argument("--run", metavar="ID", help="a run id or name (default: list the stored runs)")
    p.add_argument(
        "--session",
        type=at_least(1),
        default=100,
        metavar="N",
        help="rounds in a session for the bankroll view (default 100)",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(handler=cmd_stats)


# ------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------


def _spec(args: argparse.Namespace, variant: str, overrides: list[str]) -> SimSpec:
    from zhuoji.sim.records import SimSpec

    agents = tuple(a.strip() for a in args.agents.split(",") if a.strip())
    if not agents:
        raise ZhuojiError("--agents: no agent named")
    return SimSpec(
        variant=variant,
        overrides=tuple(overrides),
        agents=agents,
        rounds=args.rounds,
        seed=args.seed,
        match_rounds=args.match_rounds,
    )


def _workers(args: argparse.Namespace) -> int:
    from zhuoji.sim.backends import available_cpus

    return int(args.workers if args.workers is not None else available_cpus())


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse unwritable --out/--report paths before anything is simulated."""
    if getattr(args, "out", None):
        check_output_file(args.out, "--out")
    if getattr(args, "report", None):
        check_output_dir(args.report, "--report")


def _progress(args: argparse.Namespace) -> bool:
    return bool(sys.stderr.isatty() and not args.json and not args.no_progress)


def _run(
    args: argparse.Namespace,
    spec: SimSpec,
    *,
    out: str | None,
    name: str | None,
    desc: str | None = None,
    settle_as: SimSpec | None = None,
) -> tuple[SimResult, SplitRun | None]:
    """Simulate ``spec`` with the command's options, storing it when ``out`` is SQLite;
    with ``settle_as``, its rounds are also settled by that spec's rules (the split)."""
    from zhuoji.sim.runner import pattern_names, simulate
    from zhuoji.sim.split import simulate_split

    def play(on_records: Any = None) -> tuple[SimResult, SplitRun | None]:
        if settle_as is None:
            return simulate(spec, on_records=on_records, **kwargs), None
        split = simulate_split(spec, settle_as, on_records=on_records, **kwargs)
        return split.result, split

    ruleset = spec.ruleset()
    spec = spec.resolve(ruleset)
    workers = _workers(args)
    kwargs: dict[str, Any] = {
        "workers": workers,
        "backend": args.backend,
        "address": args.address,
        "ship_code": args.ray_ship_code,
        "progress": _progress(args),
        "desc": desc,
        "ruleset": ruleset,
    }
    if out is None or out.endswith(".json"):
        return play()
    from zhuoji.sim.storage import ResultStore

    with ResultStore(out) as store:
        run_id = store.start_run(
            spec,
            players=ruleset.players,
            pattern_names=pattern_names(ruleset),
            workers=workers,
            backend=args.backend,
            name=name,
        )
        result, split = play(lambda recs: store.add_rounds(run_id, recs))
        store.finish_run(run_id, result.elapsed_s)
    result.run_id = run_id
    return result, split


def _dump(data: Any) -> str:
    return json.dumps(_finite(data), ensure_ascii=False, indent=2)


def _finite(x: Any) -> Any:
    """JSON has no NaN: statistics without data (a rate over zero wins) become null."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_finite(v) for v in x]
    return x


# ------------------------------------------------------------------------------------
# commands
# ------------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play rounds as matches across workers and report the statistics."""
    from zhuoji.sim import bankroll
    from zhuoji.sim.report import render_summary

    spec = _spec(args, args.variant, args.set)
    spec.resolve(spec.ruleset())  # a bad variant, override or agent stops here
    _check_outputs(args)
    result, _ = _run(args, spec, out=args.out, name=args.name)
    summary = result.summary()
    summary["bankroll"] = bankroll.session(result.acc, args.session)
    if args.out and args.out.endswith(".json"):
        Path(args.out).write_text(_dump(summary) + "\n", encoding="utf-8")
    if args.json:
        print(_dump(summary))
    else:
        print(render_summary(summary))
        if result.run_id is not None:
            print(f"stored as run {result.run_id} in {args.out}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """Simulate (or read) A and B and report every statistic side by side with B − A."""
    from zhuoji.sim.report import render_comparison, render_split, write_report
    from zhuoji.sim.runner import derive_seed
    from zhuoji.sim.stats import compare

    if args.from_db:
        from zhuoji.sim.storage import ResultStore, load_result

        if not Path(args.from_db).exists():
            raise ZhuojiError(f"--from-db {args.from_db}: no such results file")
        _check_outputs(args)
        with ResultStore(args.from_db, readonly=True) as store:
            ra, rb = load_result(store, args.a), load_result(store, args.b)
        split_run = None  # stored runs keep no actions to replay
    else:
        sa = _spec(args, args.a, [*args.set, *args.set_a])
        sb = _spec(args, args.b, [*args.set, *args.set_b])
        for spec in (sa, sb):  # both sides' rules, bots and paths are checked first
            spec.resolve(spec.ruleset())
        _check_outputs(args)
        settle_as = sb if args.split else None
        ra, split_run = _run(
            args, sa, out=args.out, name=None, desc=f"A {sa.label()}", settle_as=settle_as
        )
        rb, _ = _run(args, sb, out=args.out, name=None, desc=f"B {sb.label()}")
    same_deals = (
        ra.spec.seed == rb.spec.seed
        and ra.spec.rounds == rb.spec.rounds
        and ra.spec.match_rounds == rb.spec.match_rounds
    )
    seed = derive_seed("zhuoji.sim.bootstrap", ra.spec.seed, rb.spec.seed)
    names = {**ra.pattern_names, **rb.pattern_names}
    cmp = compare(
        ra.acc,
        rb.acc,
        reps=args.bootstrap,
        level=args.level,
        seed=seed,
        paired=same_deals,
        pattern_names=names,
    )
    split = None
    if split_run is not None:
        split = _split(args, cmp, ra, rb, split_run, seed, names)
    from zhuoji.sim import bankroll

    report_path = (
        write_report(args.report, ra, rb, cmp, session=args.session, split=split)
        if args.report
        else None
    )
    a_sum, b_sum = ra.summary(), rb.summary()
    a_sum["bankroll"] = bankroll.session(ra.acc, args.session)
    b_sum["bankroll"] = bankroll.session(rb.acc, args.session)
    if args.json:
        print(
            _dump(
                {
                    "a": a_sum,
                    "b": b_sum,
                    "method": cmp.method(),
                    "paired": cmp.paired,
                    "level": cmp.level,
                    "bootstrap": cmp.reps,
                    "rows": [r.as_dict() for r in cmp.rows],
                    "split": split.as_dict() if split is not None else None,
                    "report": str(report_path) if report_path else None,
                }
            )
        )
    else:
        print(render_comparison(a_sum, b_sum, cmp, every=args.all))
        if split is not None:
            print("\n".join(["", *render_split(split, every=args.all)]))
        if not cmp.paired:
            print(
                "note: the runs do not share seeds and match layout; the sides were resampled independently"
            )
        if report_path:
            print(f"report: {report_path}")
        if ra.run_id is not None and not args.from_db:
            print(f"stored as runs {ra.run_id} (A) and {rb.run_id} (B) in {args.out}")
    return 0


def _split(
    args: argparse.Namespace,
    cmp: Comparison,
    ra: SimResult,
    rb: SimResult,
    run: SplitRun,
    seed: int,
    names: dict[str, tuple[str, str]],
) -> EffectSplit:
    """The split of the money rows (:mod:`zhuoji.sim.split`); where the chosen bots are not
    all greedy, both arms are played again by greedy bots for the reference column."""
    from dataclasses import replace

    from zhuoji.sim.split import effect_split

    greedy = None
    if any(a != "greedy" for a in (*ra.spec.agents, *rb.spec.agents)):
        arms = []
        for side, spec in (("A", ra.spec), ("B", rb.spec)):
            g = replace(spec, agents=("greedy",))
            arms.append(_run(args, g, out=None, name=None, desc=f"{side} greedy")[0].acc)
        greedy = (arms[0], arms[1])
    return effect_split(
        cmp,
        ra.acc,
        run.fixed,
        rb.acc,
        greedy,
        unreplayed=run.unreplayed,
        reps=args.bootstrap,
        level=args.level,
        seed=seed,
        pattern_names=names,
    )


def cmd_stats(args: argparse.Namespace) -> int:
    """List the runs in a results file, or report one of them."""
    from zhuoji.columns import table
    from zhuoji.sim.report import render_summary
    from zhuoji.sim.storage import ResultStore, load_result

    if not Path(args.file).exists():
        raise ZhuojiError(f"{args.file}: no such results file")
    with ResultStore(args.file, readonly=True) as store:
        if args.run is None:
            runs = store.runs()
            if args.json:
                print(_dump({"runs": [r.as_dict() for r in runs]}))
                return 0
            rows = [
                [
                    "id",
                    "name",
                    "created",
                    "status",
                    "variant",
                    "overrides",
                    "agents",
                    "rounds",
                    "seed",
                    "time",
                    "version",
                ]
            ]
            for r in runs:
                rows.append(
                    [
                        str(r.id),
                        r.name or "",
                        r.created,
                        r.status,
                        r.spec.variant,
                        " ".join(r.spec.overrides) or "-",
                        ",".join(r.spec.agents),
                        f"{r.stored_rounds}/{r.spec.rounds}",
                        str(r.spec.seed),
                        f"{r.elapsed_s:.1f} s" if r.elapsed_s is not None else "-",
                        r.version or "-",
                    ]
                )
            print(f"{args.file}: {len(runs)} run(s)")
            print("\n".join(table(rows)))
            return 0
        result = load_result(store, args.run)
    from zhuoji.sim import bankroll

    summary = result.summary()
    summary["bankroll"] = bankroll.session(result.acc, args.session)
    if args.json:
        print(_dump(summary))
    else:
        print(render_summary(summary))
    return 0
