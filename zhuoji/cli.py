"""The ``zhuoji`` command.

Every command that reports has ``--json``.  Bad input prints one clear error to stderr and
exits with status 2 (1 for ``variants validate`` finding problems).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from zhuoji import hand, tiles
from zhuoji.errors import ZhuojiError

Handler = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, Handler] = {}


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
            lines.append(f"  {d.form.value:12} " + " ".join(tiles.format(g.tiles) for g in d.groups))
    else:
        w = rules.waits(c)
        data["waits"] = [tiles.format([t]) for t in w]
        lines.append("waits: " + (" ".join(f"{tiles.format([t])} {tiles.name(t)}" for t in w) or "none"))
    data["shanten"] = rules.shanten(c)
    lines.append(f"shanten: {data['shanten']}")
    _emit(args, data, "\n".join(lines))
    return 0


_COMMANDS["hand"] = cmd_hand


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="zhuoji", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("hand", help="analyse a hand: forms, waits, shanten")
    p.add_argument("tiles", help='notation, e.g. "123m456s789p1122z"')
    p.add_argument("--forms", default="standard,seven_pairs", help="winning forms to allow")
    p.add_argument("--wild", help="wild tile kind, e.g. 5p")
    p.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _COMMANDS[args.command](args)
    except ZhuojiError as exc:
        print(f"zhuoji {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
