"""What a broadcast costs the server without the network: every seat's view of a state
built (:meth:`zhuoji.server.tables.Table.views`) and its state message encoded
(:func:`zhuoji.server.wire.encode_message`), after every action of ``--rounds`` rounds of
``--variant`` played with each seat's first legal action (issue 26 item 8).

    python bench/server_views.py                       # 10 guiyang rounds, best of 7 per state
    PYTHONPATH=../main python bench/server_views.py    # another checkout, for a ratio
    python bench/server_views.py --hash                # the wire check: one SHA-256 of it all

Each state is built ``--repeat`` times with the per-state caches cleared (the engine's
public view, the table's shared extras of the state) and the fastest kept, so another job on the
machine moves the figure less than it moves ``bench/server_load.py``'s; printed: µs per
state (four seats) for building and for encoding, and the bytes of a seat's message.
Run two checkouts one after the other, alternating, and compare their ratios.

``--hash`` measures nothing: it plays 18 rounds (guiyang, luan and anshun, seeds 0-5, each
seat playing its first legal action on even seeds and its last on odd ones), builds every
seat's view of every state once and prints the SHA-256 of all the encoded state messages
and how many states it saw.  A change to how views are built must print the same digest as
``main`` (run this script on each checkout) compiled and pure (``ZHUOJI_PURE=1``): the
bytes on the wire are pinned (docs/server.md, fifth and sixth passes).
"""

from __future__ import annotations

import argparse
import hashlib
import time
from typing import Any

from zhuoji.cli import at_least, loadable_variant
from zhuoji.engine import Round
from zhuoji.server import store as S
from zhuoji.server import wire
from zhuoji.server.tables import Table
from zhuoji.variant_io import load_variant

#: the message encoder: a checkout that encodes state messages its own way names it here
ENCODE = getattr(wire, "encode_message", wire.encode)


class _Rules:
    def describe(self, variant: str, overrides: Any) -> dict[str, Any]:
        return {"variant": variant}


def _table(r: Round) -> Table:
    row = S.TableRow(
        "tbench", "bench", "2026-01-01", 1, 1, "operator", 0, 0,
        seats=[S.SeatRow(s, "human", None, f"seat {s}", None) for s in range(r.players)],
        rules=[S.RuleRow(1, 1, r.ruleset.name, {}, "2026-01-01")],
        rounds=[S.RoundRow(1, "live", r.ruleset.name, {}, 0, r.dealer, 0, 0, "2026-01-01")],
    )  # fmt: skip
    t = Table(row)
    t.current = r
    return t


def wire_digest(
    variants: tuple[str, ...] = ("guiyang", "luan", "anshun"), seeds: int = 6
) -> tuple[str, int]:
    """The SHA-256 of every state message of ``seeds`` rounds of each of ``variants`` (see
    the module docstring, ``--hash``), and the number of states."""
    rules = _Rules()
    digest = hashlib.sha256()
    states = 0
    for variant in variants:
        ruleset = load_variant(variant)
        for seed in range(seeds):
            r = Round(ruleset, seed=seed)
            t = _table(r)
            seats = range(r.players)
            while not r.is_terminal():
                seat = next(s for s in seats if r.legal_actions(s))
                legal = r.legal_actions(seat)
                r.apply(legal[0] if seed % 2 == 0 else legal[-1])
                for v in t.views(seats, rules):
                    digest.update(ENCODE({"type": "state", "view": v}))
                states += 1
    return digest.hexdigest(), states


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", type=loadable_variant, default="guiyang")
    p.add_argument("--rounds", type=at_least(1), default=10)
    p.add_argument(
        "--repeat", type=at_least(1), default=7, help="builds of each state (fastest kept)"
    )
    p.add_argument("--hash", action="store_true", help="print the wire check's digest only")
    args = p.parse_args(argv)
    if args.hash:
        digest, n = wire_digest()
        print(f"{wire.__file__}: {n} states, sha256 {digest}")
        return 0
    ruleset = load_variant(args.variant)
    rules = _Rules()
    clock = time.perf_counter
    build = encode = 0.0
    states = size = messages = 0
    for seed in range(args.rounds):
        r = Round(ruleset, seed=seed)
        t = _table(r)
        seats = range(r.players)
        while not r.is_terminal():
            seat = next(s for s in seats if r.legal_actions(s))
            r.apply(r.legal_actions(seat)[0])
            best_build = best_encode = float("inf")
            for _ in range(args.repeat):
                r.view_cache = None
                t.shared_extras._rounds.clear()  # this state's shared extras (marks stay, as
                # they do in a server from one state to the next while no tile is revealed)
                t0 = clock()
                views = t.views(seats, rules)
                t1 = clock()
                out = [ENCODE({"type": "state", "view": v}) for v in views]
                t2 = clock()
                best_build = min(best_build, t1 - t0)
                best_encode = min(best_encode, t2 - t1)
            build += best_build
            encode += best_encode
            states += 1
            size += sum(len(b) for b in out)
            messages += len(out)
    print(
        f"{wire.__file__}: {states} states of {args.rounds} {args.variant} rounds: "
        f"views {1e6 * build / states:.1f} µs + encode {1e6 * encode / states:.1f} µs = "
        f"{1e6 * (build + encode) / states:.1f} µs per state ({size / messages:.0f} bytes a message)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
