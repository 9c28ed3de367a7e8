"""``python -m zhuoji.server [options]`` is ``zhuoji serve [options]``."""

from __future__ import annotations

import argparse
import sys

from zhuoji.errors import ZhuojiError
from zhuoji.server.cli import configure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m zhuoji.server")
    sub = parser.add_subparsers(dest="command")
    configure(sub)
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    try:
        return int(args.handler(args))
    except ZhuojiError as exc:
        print(f"zhuoji serve: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
