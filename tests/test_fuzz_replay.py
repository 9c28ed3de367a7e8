"""Every log the engine writes replays from the log alone (issue 25), for fuzzed valid
variants: a few knobs of a shipped variant set at random (:mod:`fuzz.valid`), given as
overrides (a mapping or ``--set`` lines, nulls included) or as a variant file extending
the shipped one.  Each variant the loader accepts plays a short match; each round's log is
written, the variant file deleted, and the log replayed from another folder with nothing
but itself: every line must match and the ledger must be the same.

Every run plays :data:`EVERY_RUN` variants; ``pytest -m fuzz`` (nightly) plays
:data:`NIGHTLY` (``ZHUOJI_FUZZ_VARIANTS`` to change it).
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from fuzz import harness, valid

from zhuoji import cli, eventlog
from zhuoji import tiles as T
from zhuoji.agents.base import make_agent, play_round
from zhuoji.errors import ZhuojiError
from zhuoji.match import Match
from zhuoji.variant_io import builtin_names, load_variant, merge, read_chain

pytestmark = pytest.mark.fuzz

EVERY_RUN = 12
NIGHTLY = 300
ROUNDS = 2
AGENTS = ("greedy", "random", "cautious")


def _wanted(request: pytest.FixtureRequest) -> int:
    if harness.nightly(request):
        return int(os.environ.get("ZHUOJI_FUZZ_VARIANTS", NIGHTLY))
    return EVERY_RUN


def _fuzzed_variant(i: int, folder: Path) -> tuple[str, Any, Path | None]:
    """(variant, overrides, file to delete after play) of fuzzed variant ``i``."""
    rng = harness.rng("valid", i)
    base = rng.choice(builtin_names())
    data: dict[str, Any] = {}
    for layer in read_chain(base):
        data = merge(data, layer.data)
    kinds = T.kinds_in(load_variant(base).variant.tiles.set)
    settings = valid.settings(rng, data, [T.TILE_TEXT[k] for k in kinds])
    how = rng.choice(["file", "mapping", "lines"])
    if how == "file":
        path = folder / f"fuzz{i}.yaml"
        head = {"name": f"fuzz{i}", "title": "F", "source": "fuzz", "extends": base}
        path.write_text(yaml.safe_dump({**head, **settings}, allow_unicode=True), "utf-8")
        return str(path), None, path
    return base, settings if how == "mapping" else valid.flatten(settings), None


def test_fuzzed_valid_variants_replay_from_their_logs(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wanted = _wanted(request)
    made, logs, elsewhere = tmp_path / "made", tmp_path / "logs", tmp_path / "elsewhere"
    for folder in (made, logs, elsewhere):
        folder.mkdir()
    monkeypatch.chdir(elsewhere)
    played = refused = rounds = 0
    failures: list[str] = []
    i = 0
    while played < wanted and i < 5 * wanted:
        variant, overrides, file = _fuzzed_variant(i, made)
        i += 1
        try:
            ruleset = load_variant(variant, overrides)
        except ZhuojiError:
            refused += 1
            continue
        played += 1
        agent = AGENTS[i % len(AGENTS)]
        agents = [make_agent(agent, 10 * i + s) for s in range(ruleset.players)]
        written = []
        for k, r in enumerate(Match(ruleset, seed=i, rounds=ROUNDS).rounds()):
            play_round(r, agents)
            path = logs / f"v{i}-r{k}.jsonl"
            eventlog.write(r, path)
            written.append((path, r.ledger))
        if file is not None:
            file.unlink()  # the log must replay without it
        for path, ledger in written:
            rounds += 1
            assert ledger is not None
            try:
                again = eventlog.replay(eventlog.read(path), label=path.name)
            except ZhuojiError as exc:
                failures.append(f"{variant} {overrides!r}: {str(exc)[:600]}")
                continue
            assert again.ledger is not None
            if again.ledger.entries != ledger.entries:
                failures.append(f"{variant} {overrides!r}: {path.name}: another ledger")
        if played % 6 == 1:  # and through the command line, from another folder
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli.main(["replay", str(written[-1][0]), "--json"])
            if status != 0:
                failures.append(f"zhuoji replay {written[-1][0].name}: {err.getvalue()[:600]}")
    print(
        f"fuzz replay: {played} variants played ({refused} refused), {rounds} rounds, "
        f"{len(failures)} mismatches"
    )
    assert played >= wanted, f"only {played} of {i} fuzzed variants loaded"
    assert not failures, "\n".join(failures[:5])
