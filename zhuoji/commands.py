"""``zhuoji demo``, ``hand``, ``settle`` and ``replay``: the commands built on the engine.

Imported only when one of them is chosen (:mod:`zhuoji.cli`); the engine, the variant
machinery and the reports are imported inside the handlers.
"""

from __future__ import annotations

import argparse
from typing import Any

from zhuoji.cli import (
    at_least,
    check_output_dir,
    emit_json,
    json_option,
    variant_help,
    variant_options,
)
from zhuoji.columns import plural
from zhuoji.errors import ZhuojiError

#: hand sizes ``zhuoji hand`` reads: complete (3n+2) or waiting (3n+1), at most 14 tiles
HAND_SIZES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14)


def configure(subparsers: Any) -> None:
    """Add ``demo``, ``hand``, ``settle`` and ``replay`` to the ``zhuoji`` command."""
    from zhuoji.agents.base import agent_names
    from zhuoji.hand import Form

    p = subparsers.add_parser(
        "demo",
        help="bots play a short match; every round's itemized settlement",
        description="Bots play a short match; each round's discards, result, 翻鸡 and "
        "itemized settlement are printed, then the match totals.",
    )
    variant_options(p, default="guiyang")
    p.add_argument("--rounds", type=at_least(1), default=4, help="rounds to play (default 4)")
    p.add_argument(
        "--seed", type=int, default=1, help="match seed; same seed, same match (default 1)"
    )
    p.add_argument(
        "--agent",
        default="greedy",
        choices=agent_names(),
        help="bot for every seat (default greedy)",
    )
    p.add_argument(
        "--log-dir", metavar="DIR", help="write each round's event log here (round-N.jsonl)"
    )
    json_option(p)
    p.set_defaults(handler=cmd_demo)

    forms = [f.value for f in Form]
    p = subparsers.add_parser(
        "hand",
        help="analyse a hand: winning forms, waits, shanten, decompositions",
        description="Analyse a hand of 14 (or 3n+2) tiles for its winning forms and "
        "decompositions, or of 13 (3n+1) for its waits; shanten either way.",
    )
    p.add_argument("tiles", help='tiles in notation, e.g. "123m456s789p1122z" (13 or 14 tiles)')
    p.add_argument(
        "--variant",
        "-v",
        metavar="NAME|FILE",
        help="use this variant's winning forms and wild tile: " + variant_help(),
    )
    p.add_argument(
        "--forms",
        metavar="FORM[,FORM]",
        help=f"winning forms to allow, comma-separated: {', '.join(forms)} "
        "(default: the variant's, else standard,seven_pairs)",
    )
    p.add_argument(
        "--wild",
        metavar="TILE",
        help="the round's wild tile kind, e.g. 5p (default: the variant's fixed wild, if any)",
    )
    json_option(p)
    p.set_defaults(handler=cmd_hand)

    p = subparsers.add_parser(
        "settle",
        help="settle a round-end file (YAML or JSON) and itemize it",
        description="Settle a finished round written by hand (docs/round-end.md) with the "
        "engine's own settlement; every payment is itemized. The rules are --variant, else "
        "the file's own variant, else guiyang.",
    )
    p.add_argument("file", help="round-end file, .yaml or .json")
    variant_options(p)
    json_option(p)
    p.set_defaults(handler=cmd_settle)

    p = subparsers.add_parser(
        "replay",
        help="replay an event log, re-checking every action",
        description="Replay an event log (docs/event-log.md): every action is checked for "
        "legality and every logged line compared with the replay.",
    )
    p.add_argument("log", help="event log (.jsonl), as written by demo --log-dir or the server")
    p.add_argument(
        "--variant",
        "-v",
        metavar="NAME|FILE",
        help="variant to use when the log names one that is not at hand (the log's own "
        "overrides still apply): " + variant_help(),
    )
    json_option(p)
    p.set_defaults(handler=cmd_replay)


# ---------------------------------------------------------------------------------------
# hand
# ---------------------------------------------------------------------------------------


def _hand_rules(args: argparse.Namespace) -> Any:
    from zhuoji.hand import Form, HandRules, Wild

    ruleset = None
    if args.variant:
        from zhuoji.variant_io import load_variant

        ruleset = load_variant(args.variant)
    wild: int | None = None
    if args.wild:
        wild = _parse_tile(args.wild, "--wild")
    elif ruleset is not None and ruleset.variant.wild is not None:
        wild = ruleset.variant.wild.fixed_kind
    if args.forms is not None:
        names = [f.strip() for f in args.forms.split(",") if f.strip()]
        known = [f.value for f in Form]
        for name in names:
            if name not in known:
                raise ZhuojiError(
                    f"--forms: {name!r} is not a winning form (one of: {', '.join(known)})"
                )
        if not names:
            raise ZhuojiError(f"--forms: no form given (one or more of: {', '.join(known)})")
        forms = frozenset(Form(f) for f in names)
    elif ruleset is not None:
        forms = frozenset(ruleset.variant.forms.allowed)
    else:
        forms = frozenset({Form.STANDARD, Form.SEVEN_PAIRS})
    if ruleset is None:
        return HandRules(forms, True, Wild(wild, None) if wild is not None else None)
    v = ruleset.variant
    stand_in = v.wild.stand_in_for(wild) if wild is not None and v.wild else None
    return HandRules(
        forms,
        v.forms.quads_as_two_pairs,
        Wild(wild, stand_in) if wild is not None else None,
        v.forms.shisanlan,
    )


def _parse_tile(text: str, option: str) -> int:
    from zhuoji import tiles

    try:
        return tiles.parse_one(text)
    except ZhuojiError as exc:
        raise ZhuojiError(f"{option}: {exc}") from exc


def _group_data(g: Any) -> dict[str, Any]:
    from zhuoji import tiles

    return {
        "kind": g.kind.value,
        "tiles": tiles.format(g.tiles),
        "wild": [i for i in range(len(g.tiles)) if g.wild >> i & 1],
    }


def cmd_hand(args: argparse.Namespace) -> int:
    """Analyse one hand: forms, waits, shanten, decompositions."""
    from zhuoji import tiles

    try:
        c = tiles.counts(args.tiles)
    except ZhuojiError as exc:
        raise ZhuojiError(f"tiles: {exc}") from exc
    n = sum(c)
    if n not in HAND_SIZES:
        raise ZhuojiError(
            f"tiles: {args.tiles!r} holds {n} tiles; give 14 (or 3n+2) to check a win, "
            "13 (or 3n+1) for the waits"
        )
    rules = _hand_rules(args)
    data: dict[str, Any] = {"hand": tiles.format_counts(c), "tiles": n}
    if rules.wild is not None:
        data["wild"] = tiles.format([rules.wild.kind])
    data["forms_allowed"] = sorted(f.value for f in rules.forms)
    lines = [f"hand   {tiles.format_counts(c)}  ({tiles.names(tiles.to_tiles(c))})"]
    if rules.wild is not None:
        lines.append(f"wild   {tiles.name(rules.wild.kind)} ({tiles.format([rules.wild.kind])})")
    if n % 3 == 2:
        forms = rules.win_forms(c)
        data["complete"] = bool(forms)
        data["forms"] = [f.value for f in forms]
        lines.append(f"complete: {'yes, ' + ', '.join(data['forms']) if forms else 'no'}")
        decs = rules.decompositions(c) if forms else []
        data["decompositions"] = [
            {"form": d.form.value, "groups": [_group_data(g) for g in d.groups]} for d in decs
        ]
        for d in decs:
            groups = " ".join(
                tiles.format(g.tiles) + ("*" * g.wild_count if g.wild else "") for g in d.groups
            )
            lines.append(f"  {d.form.value:12} {groups}")
    else:
        w = rules.waits(c)
        data["waits"] = [tiles.format([t]) for t in w]
        lines.append(
            "waits: " + (" ".join(f"{tiles.format([t])} {tiles.name(t)}" for t in w) or "none")
        )
    data["shanten"] = rules.shanten(c)
    lines.append(f"shanten: {data['shanten']}")
    if args.json:
        emit_json(data)
    else:
        print("\n".join(lines))
    return 0


# ---------------------------------------------------------------------------------------
# demo
# ---------------------------------------------------------------------------------------


def _load(name: str, overrides: list[str] | None) -> Any:
    from zhuoji.variant_io import load_variant

    return load_variant(name, overrides or None)


def cmd_demo(args: argparse.Namespace) -> int:
    """Play a short match between bots and print every round's itemized settlement."""
    import sys

    from zhuoji.agents.base import make_agent, play_round
    from zhuoji.match import Match
    from zhuoji.report import describe_discards, describe_end, render_ledger, settlement_json

    ruleset = _load(args.variant, args.set)
    log_dir = check_output_dir(args.log_dir, "--log-dir") if args.log_dir else None
    for note in _removal_notes(args.set):
        print(f"zhuoji demo: note: {note}", file=sys.stderr)
    agents = [make_agent(args.agent, args.seed * 10 + i) for i in range(ruleset.players)]
    match = Match(ruleset, seed=args.seed, rounds=args.rounds)
    out_rounds = []
    if not args.json:
        print(
            f"zhuoji demo: {ruleset.variant.title} ({ruleset.name}), "
            f"{plural(args.rounds, 'round')}, {args.agent} bots, seed {args.seed}",
            flush=True,
        )
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    for i, r in enumerate(match.rounds(), 1):
        play_round(r, agents)
        assert r.end is not None and r.ledger is not None
        if log_dir is not None:
            from zhuoji import eventlog

            eventlog.write(r, log_dir / f"round-{i}.jsonl")
        if args.json:
            out_rounds.append({"round": i, **settlement_json(r.ledger, r.end)})
            continue
        print(
            f"\n=== round {i} of {args.rounds}: dealer seat {r.dealer}, streak 连庄 {r.streak} ==="
        )
        print("\n".join(describe_discards(r.end)))
        print("\n".join(describe_end(r.end, r.ledger)))
        print(render_ledger(r.ledger, r.end), flush=True)
    if args.json:
        emit_json({"variant": ruleset.name, "rounds": out_rounds, "totals": match.totals})
    else:
        print(
            "\nmatch totals 总分: "
            + "  ".join(f"seat {s} {t:+d}" for s, t in enumerate(match.totals))
        )
        if log_dir is not None:
            print(f"event logs: {log_dir}/round-1.jsonl … round-{args.rounds}.jsonl")
    return 0


def _removal_notes(overrides: list[str] | None) -> list[str]:
    from zhuoji.variant_io import removal_notes

    return removal_notes(overrides)


# ---------------------------------------------------------------------------------------
# settle and replay
# ---------------------------------------------------------------------------------------


def cmd_settle(args: argparse.Namespace) -> int:
    """Settle a round-end file with the same code the engine uses."""
    import sys

    from zhuoji import roundend
    from zhuoji.report import describe_discards, describe_end, render_ledger, settlement_json

    ruleset, end, ledger = roundend.settle_file(
        roundend.read(args.file), args.variant, args.set, label=str(args.file)
    )
    for note in _removal_notes(args.set):
        print(f"zhuoji settle: note: {note}", file=sys.stderr)
    if args.json:
        emit_json(settlement_json(ledger, end))
    else:
        print(f"variant: {ruleset.variant.title} ({ruleset.name})")
        lines = describe_discards(end)
        if end.discards:
            print("\n".join(lines))
        print("\n".join(describe_end(end, ledger)))
        print(render_ledger(ledger, end))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay an event log, re-checking every action, and print the settlement."""
    from zhuoji import eventlog
    from zhuoji.report import describe_discards, describe_end, render_ledger, settlement_json

    events = eventlog.read(args.log)
    head = events[0]
    ruleset = _load(args.variant, head.get("overrides") or None) if args.variant else None
    r = eventlog.replay(events, ruleset, label=str(args.log))
    assert r.end is not None and r.ledger is not None
    if args.json:
        emit_json({"events": len(events), **settlement_json(r.ledger, r.end)})
    else:
        print(
            f"replayed {plural(len(events), 'event')} of {args.log}: "
            "every action legal, every line matches"
        )
        print("\n".join(describe_discards(r.end)))
        print("\n".join(describe_end(r.end, r.ledger)))
        print(render_ledger(r.ledger, r.end))
    return 0
