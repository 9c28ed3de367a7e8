"""The ``zhuoji`` command.

Every command that reports has ``--json``.  Bad input prints one clear error to stderr and
exits with status 2 (1 for ``variants validate`` finding problems).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from zhuoji import eventlog, hand, roundend, tiles
from zhuoji.agents.base import make_agent, play_round
from zhuoji.errors import ZhuojiError
from zhuoji.match import Match
from zhuoji.report import describe_end, render_ledger, settlement_json
from zhuoji.variant import Ruleset, load_variant

Handler = Callable[[argparse.Namespace], int]

#: optional dependencies → the extra that installs them (pyproject.toml)
_EXTRA_OF = {
    "numpy": "sim",
    "matplotlib": "sim",
    "tqdm": "sim",
    "ray": "ray",
    "fastapi": "server",
    "uvicorn": "server",
    "sqlalchemy": "server",
    "websockets": "server",
    "pettingzoo": "env",
    "gymnasium": "env",
    "psycopg": "postgres",
}
_COMMANDS: dict[str, Handler] = {}

#: modules that add their own subcommands with ``configure(subparsers)``; each parser sets
#: ``handler`` with ``set_defaults`` (play, simulate/compare/stats, serve)
FEATURE_MODULES = ("zhuoji.play", "zhuoji.sim.cli", "zhuoji.server.cli")


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    if getattr(args, "json", False):
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(text)


def cmd_hand(args: argparse.Namespace) -> int:
    """Analyse one hand: forms, waits, shanten, decompositions."""
    c = tiles.counts(args.tiles)
    rules = hand.HandRules(
        forms=frozenset(hand.Form(f) for f in args.forms.split(",")),
        wild=hand.Wild(tiles.parse_one(args.wild)) if args.wild else None,
    )
    n = sum(c)
    data: dict[str, Any] = {"hand": tiles.format_counts(c), "tiles": n}
    lines = [f"hand   {tiles.format_counts(c)}  ({tiles.names(tiles.to_tiles(c))})"]
    if n % 3 == 2:
        forms = rules.win_forms(c)
        data["complete"] = bool(forms)
        data["forms"] = [f.value for f in forms]
        lines.append(f"complete: {'yes, ' + ', '.join(data['forms']) if forms else 'no'}")
        decs = rules.decompositions(c) if forms else []
        data["decompositions"] = [[repr(g) for g in d.groups] for d in decs]
        for d in decs:
            lines.append(
                f"  {d.form.value:12} " + " ".join(tiles.format(g.tiles) for g in d.groups)
            )
    else:
        w = rules.waits(c)
        data["waits"] = [tiles.format([t]) for t in w]
        lines.append(
            "waits: " + (" ".join(f"{tiles.format([t])} {tiles.name(t)}" for t in w) or "none")
        )
    data["shanten"] = rules.shanten(c)
    lines.append(f"shanten: {data['shanten']}")
    _emit(args, data, "\n".join(lines))
    return 0


_COMMANDS["hand"] = cmd_hand


def _ruleset(args: argparse.Namespace, default: str | None = None) -> Ruleset:
    name = getattr(args, "variant", None) or default
    if name is None:
        raise ZhuojiError("no variant given (use --variant NAME or PATH)")
    return load_variant(name, getattr(args, "set", None) or None)


def cmd_demo(args: argparse.Namespace) -> int:
    """Play a short match between bots and print every round's itemized settlement."""
    ruleset = _ruleset(args, "guiyang")
    agents = [make_agent(args.agent, args.seed * 10 + i) for i in range(ruleset.players)]
    match = Match(ruleset, seed=args.seed, rounds=args.rounds)
    out_rounds = []
    if not args.json:
        print(
            f"zhuoji demo: {ruleset.variant.title} ({ruleset.name}), {args.rounds} rounds, {args.agent} bots"
        )
    log_dir = Path(args.log_dir) if args.log_dir else None
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    for i, r in enumerate(match.rounds(), 1):
        play_round(r, agents)
        assert r.end is not None and r.ledger is not None
        if log_dir is not None:
            eventlog.write(r, log_dir / f"round-{i}.jsonl")
        if args.json:
            out_rounds.append(settlement_json(r.ledger, r.end))
            continue
        print(f"\n=== round {i}: dealer seat {r.dealer}, streak {r.streak} ===")
        print("\n".join(describe_end(r.end)))
        print(render_ledger(r.ledger, r.end))
    if args.json:
        print(
            json.dumps(
                {"variant": ruleset.name, "rounds": out_rounds, "totals": match.totals},
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        print(
            "\nmatch totals: " + "  ".join(f"seat {s} {t:+d}" for s, t in enumerate(match.totals))
        )
    return 0


def cmd_variants(args: argparse.Namespace) -> int:
    from zhuoji.variants_cmd import run

    return run(args)


def cmd_settle(args: argparse.Namespace) -> int:
    """Settle a round-end file with the same code the engine uses."""
    ruleset, end, ledger = roundend.settle_file(
        roundend.read(args.file), args.variant, args.set, label=str(args.file)
    )
    if args.json:
        print(json.dumps(settlement_json(ledger, end), ensure_ascii=False, indent=2))
    else:
        print(f"variant: {ruleset.variant.title} ({ruleset.name})")
        print("\n".join(describe_end(end)))
        print(render_ledger(ledger, end))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay an event log, re-checking every action, and print the settlement."""
    events = eventlog.read(args.log)
    head = events[0]
    ruleset = load_variant(args.variant, head.get("overrides") or None) if args.variant else None
    r = eventlog.replay(events, ruleset, label=str(args.log))
    assert r.end is not None and r.ledger is not None
    if args.json:
        print(
            json.dumps(
                {"events": len(events), **settlement_json(r.ledger, r.end)},
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        print(
            f"replayed {len(events)} events of {args.log}: every action legal, every line matches"
        )
        print("\n".join(describe_end(r.end)))
        print(render_ledger(r.ledger, r.end))
    return 0


_COMMANDS.update(
    {"demo": cmd_demo, "variants": cmd_variants, "settle": cmd_settle, "replay": cmd_replay}
)


def _variant_opts(p: argparse.ArgumentParser, required: bool = False) -> None:
    p.add_argument(
        "--variant", "-v", required=required, help="shipped variant name or a variant file"
    )
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="override a rule (repeatable)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="zhuoji", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("hand", help="analyse a hand: forms, waits, shanten")
    p.add_argument("tiles", help='notation, e.g. "123m456s789p1122z"')
    p.add_argument("--forms", default="standard,seven_pairs", help="winning forms to allow")
    p.add_argument("--wild", help="wild tile kind, e.g. 5p")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("demo", help="bots play a short match; itemized settlements (the main job)")
    _variant_opts(p)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--agent", default="greedy", help="bot for every seat")
    p.add_argument("--log-dir", help="write each round's event log here (round-N.jsonl)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("variants", help="list, show, validate and compare variants")
    vs = p.add_subparsers(dest="variants_command", required=True)
    q = vs.add_parser("list", help="shipped variants")
    q.add_argument("--json", action="store_true")
    q = vs.add_parser("show", help="the effective, merged rules of a variant")
    q.add_argument("name")
    q.add_argument("--set", action="append", metavar="KEY=VALUE")
    q.add_argument("--json", action="store_true")
    q = vs.add_parser("validate", help="check variant files; every problem is listed")
    q.add_argument("files", nargs="+")
    q.add_argument("--json", action="store_true")
    q = vs.add_parser("diff", help="every rule that differs between two variants")
    q.add_argument("a")
    q.add_argument("b")
    q.add_argument("--set-a", action="append", metavar="KEY=VALUE", help="override on A")
    q.add_argument("--set-b", action="append", metavar="KEY=VALUE", help="override on B")
    q.add_argument("--json", action="store_true")

    p = sub.add_parser("settle", help="settle a round-end file (YAML or JSON)")
    p.add_argument("file")
    _variant_opts(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("replay", help="replay an event log, re-checking every action")
    p.add_argument("log")
    p.add_argument(
        "--variant",
        "-v",
        help="variant file to use when the log names one that is not at hand "
        "(the log's own overrides still apply)",
    )
    p.add_argument("--json", action="store_true")
    for name in FEATURE_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if not exc.name or not name.startswith(exc.name):
                raise
            continue  # the feature is not part of this build
        module.configure(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = getattr(args, "handler", None) or _COMMANDS[args.command]
    try:
        return handler(args)
    except ModuleNotFoundError as exc:
        extra = _EXTRA_OF.get((exc.name or "").split(".")[0])
        if extra is None:
            raise
        print(
            f"zhuoji {args.command}: error: this needs the optional '{extra}' dependencies "
            f"({exc.name} is not installed): pip install 'zhuoji[{extra}]'",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print(f"zhuoji {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except ZhuojiError as exc:
        print(f"zhuoji {args.command}: error: {exc}", file=sys.stderr)
        return 1 if getattr(args, "variants_command", None) == "validate" else 2


if __name__ == "__main__":
    raise SystemExit(main())
