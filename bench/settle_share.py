"""Settlement's share of a bot round's instructions (issue 29, item 4), counted by callgrind.

Runs, under ``valgrind --tool=callgrind``, ``--warmup`` + ``--rounds`` rounds of four
``--agent`` bots on ``--variant`` (seeds 0, 1, …; ``PYTHONHASHSEED=0``), counting only
inside the compiled ``play_round`` (``--toggle-collect``), and prints the instructions a
round, settlement's (``round_finish.finish``: the round end, ``settle`` and its hooks, the
end event) and its share, against the target::

    python bench/settle_share.py [--rounds 97] [--warmup 3] [--variant guiyang]

One hundred rounds by default (until issue 29's eleventh round, 23): a greedy guiyang
process collects the youngest generation about once every two or three rounds, and one
collection in ten walks the middle generation too (about 2 M instructions, half a round's
work).  The 23 rounds hold one of those, and whether it fell inside ``finish`` moved the
share by two points (11.5 % on the eleventh round's code, 9.9 % without the collector's
runs); over 100 rounds and more the share settles (``docs/build.md``, "On main after the
eleventh round").

The counts do not depend on the machine's load (``docs/build.md``, "Settlement's share of a
round"), but the garbage collector's runs (about 5 % of a round) fall where allocations
trigger them: a change anywhere in the process (this script's child against the command in
``docs/build.md``) moves the settlement's share by up to two points with the same round
total (guiyang after issue 29's second round: 20.6 % there, 22.6 % here), so compare
counts taken by one command.  It needs valgrind and the compiled engine group (``python setup.py build_ext
--inplace``): the count is toggled on the compiled ``play_round``, and ``finish`` is a
compiled function only there.  Target (issue 29): ≤ 10 % on guiyang with greedy bots.

So it also prints both counts without the collector's runs (``gc_collect_main``, inclusive:
in the round from the same run, in ``finish`` from a second run toggled on ``finish``
alone) and the share they give: the work settlement itself does, which a change elsewhere
does not move.  The target is judged on the first share.

The child keeps every round it played (``play_round`` returns it), as it always has: about
190 collector-tracked objects a guiyang round stay alive, and they are most of what makes
the collector run (11 collections over the 23 rounds, 4 when each round is dropped).
``--drop-rounds`` drops each round once played, as ``zhuoji simulate`` does (it keeps a
record of each round, not the round): the collector's cost a process that plays rounds for
long pays (``docs/build.md``, "Issue 29, seventh round").
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from zhuoji.cli import at_least, loadable_variant

#: settlement's share of a round's instructions, at most
TARGET = 0.10
PLAY_ROUND = "CPyPy_zhuoji____compiled___autoplay___play_round"
FINISH = "CPyDef_zhuoji____compiled___round_finish___finish"
#: the garbage collector's run (one call a collection)
COLLECTOR = "gc_collect_main"
_CHILD = """
import sys
import zhuoji.engine as e
if not e.__name__.startswith("zhuoji._compiled"):
    sys.exit("the engine group does not run compiled: build it (docs/build.md)")
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.variant_io import load_variant
rs = load_variant(sys.argv[1])
agents = [make_agent(sys.argv[2], 10 + s) for s in range(rs.players)]
kept = []  # the bench keeps every round it played, unless told to drop them
for i in range(int(sys.argv[3])):
    r = play_round(Round(rs, seed=i), agents)
    if sys.argv[4] == "keep":
        kept.append(r)
"""


def _inclusive(annotated: str, symbol: str) -> int:
    """The largest inclusive count ``callgrind_annotate`` gives a function named ``symbol``."""
    best = 0
    for line in annotated.splitlines():
        if f":{symbol} " in line or line.rstrip().endswith(f":{symbol}"):
            m = re.match(r"\s*([\d,]+)", line)
            if m:
                best = max(best, int(m.group(1).replace(",", "")))
    return best


def _counted(variant: str, agent: str, rounds: int, toggle: str, keep: bool = True) -> str:
    """``callgrind_annotate --inclusive=yes`` of the child's run counted inside ``toggle``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        env.pop("ZHUOJI_PURE", None)
        proc = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                "--collect-atstart=no",
                f"--toggle-collect={toggle}",
                sys.executable,
                "-c",
                _CHILD,
                variant,
                agent,
                str(rounds),
                "keep" if keep else "drop",
            ],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if proc.returncode != 0:
            raise SystemExit(f"bench/settle_share.py: the counted run failed: {proc.stderr[-500:]}")
        return subprocess.run(
            ["callgrind_annotate", "--inclusive=yes", str(out)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout


def measure(variant: str, agent: str, rounds: int, keep: bool = True) -> tuple[int, int, int, int]:
    """(instructions inside ``play_round``, of them inside ``finish``, the collector's runs
    inside ``play_round``, the collector's runs inside ``finish``) over ``rounds``; ``keep``:
    the child keeps every round it played (else it drops each once played)."""
    round_run = _counted(variant, agent, rounds, PLAY_ROUND, keep)
    finish_run = _counted(variant, agent, rounds, FINISH, keep)
    return (
        _inclusive(round_run, PLAY_ROUND),
        _inclusive(round_run, FINISH),
        _inclusive(round_run, COLLECTOR),
        _inclusive(finish_run, COLLECTOR),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--rounds", type=at_least(1), default=97, help="rounds counted (default 97)"
    )
    ap.add_argument(
        "--warmup", type=at_least(0), default=3, help="rounds before them, counted too (default 3)"
    )
    ap.add_argument("--variant", type=loadable_variant, default="guiyang")
    ap.add_argument("--agent", default="greedy", help="the bots (default greedy)")
    ap.add_argument(
        "--drop-rounds",
        action="store_true",
        help="the child drops each round once played, as `zhuoji simulate` keeps only a "
        "record of each (by default it keeps them all: the issue's count)",
    )
    args = ap.parse_args(argv)
    for tool in ("valgrind", "callgrind_annotate"):
        if shutil.which(tool) is None:
            print(f"bench/settle_share.py: needs {tool}", file=sys.stderr)
            return 2
    n = args.rounds + args.warmup
    keep = not args.drop_rounds
    total, finish, collector, collector_in_finish = measure(args.variant, args.agent, n, keep)
    if not total or not finish:
        print("bench/settle_share.py: no count for play_round or finish", file=sys.stderr)
        return 2
    share = finish / total
    kept = "" if keep else ", each dropped once played"
    print(f"{args.variant}, four {args.agent} bots, {n} rounds{kept} (PYTHONHASHSEED=0, compiled)")
    print(f"round      {total / n / 1e6:8.3f} M instructions")
    print(f"settlement {finish / n / 1e6:8.3f} M instructions (round_finish.finish)")
    verdict = "met" if share <= TARGET else "NOT met"
    print(f"settlement share: {share:.1%} (target ≤ {TARGET:.0%}: {verdict})")
    own, own_total = finish - collector_in_finish, total - collector
    print(
        f"without the collector's runs: round {own_total / n / 1e6:.3f} M, settlement "
        f"{own / n / 1e6:.3f} M, share {own / own_total:.1%} (the collector: "
        f"{collector / n / 1e6:.3f} M a round, {collector_in_finish / n / 1e6:.3f} M of it "
        "inside finish)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
