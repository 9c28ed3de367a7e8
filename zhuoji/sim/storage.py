"""Stored runs: a SQLite file (stdlib :mod:`sqlite3`) with each run's settings and one row
per round.

Tables::

    runs(id, name, created, status, variant, overrides, agents, seed, rounds,
         match_rounds, matches, players, workers, backend, elapsed_s, version,
         pattern_names, spec)
    rounds(run_id, idx, match, round, dealer, streak, kind, totals, wins, patterns,
           items, swing, gross, max_payout, max_item, max_detail, actions, discards,
           tiles_left, behaviour)

List-valued columns hold JSON text (``totals`` ``[3,-1,-1,-1]``, ``items``
``{"hu.pattern": 3}``, …); the scalar ones (``kind``, ``swing``, ``gross``) are there for
ad-hoc SQL (``SELECT kind, count(*) FROM rounds WHERE run_id=1 GROUP BY kind``).  Reading a
run back rebuilds the same :class:`RoundRecord` objects, so ``zhuoji stats`` and
``zhuoji compare --from-db`` compute exactly what the run printed.  A run is identified by
its integer ``id`` or by its ``name``; ``status`` is ``running`` until the run completes.
Rows are committed as they arrive, and the file uses SQLite's WAL journal, so a run can be
read (``zhuoji stats FILE``) while another one is being written.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from zhuoji import __version__
from zhuoji.errors import ZhuojiError
from zhuoji.sim.records import RoundRecord, SimSpec
from zhuoji.sim.runner import SimResult
from zhuoji.sim.stats import Accumulator

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT,
    created TEXT NOT NULL,
    status TEXT NOT NULL,
    variant TEXT NOT NULL,
    overrides TEXT NOT NULL,
    agents TEXT NOT NULL,
    seed INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    match_rounds INTEGER NOT NULL,
    matches INTEGER NOT NULL,
    players INTEGER NOT NULL,
    workers INTEGER,
    backend TEXT,
    elapsed_s REAL,
    version TEXT,
    pattern_names TEXT NOT NULL,
    spec TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rounds (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    match INTEGER NOT NULL,
    round INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    kind TEXT NOT NULL,
    totals TEXT NOT NULL,
    wins TEXT NOT NULL,
    patterns TEXT NOT NULL,
    items TEXT NOT NULL,
    swing INTEGER NOT NULL,
    gross INTEGER NOT NULL,
    max_payout INTEGER NOT NULL,
    max_item TEXT NOT NULL,
    max_detail TEXT NOT NULL,
    actions INTEGER NOT NULL,
    discards INTEGER NOT NULL,
    tiles_left INTEGER NOT NULL,
    behaviour TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
"""

_COLUMNS = (
    "idx", "match", "round", "dealer", "streak", "kind", "totals", "wins", "patterns", "items",
    "swing", "gross", "max_payout", "max_item", "max_detail", "actions", "discards", "tiles_left",
    "behaviour",
)  # fmt: skip


@dataclass(frozen=True)
class RunInfo:
    """A stored run's settings (the ``runs`` row)."""

    id: int
    name: str | None
    created: str
    status: str
    spec: SimSpec
    matches: int
    players: int
    workers: int | None
    backend: str | None
    elapsed_s: float | None
    version: str | None
    pattern_names: dict[str, tuple[str, str]]
    stored_rounds: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "created": self.created,
            "status": self.status,
            **self.spec.as_dict(),
            "matches": self.matches,
            "players": self.players,
            "workers": self.workers,
            "backend": self.backend,
            "elapsed_s": self.elapsed_s,
            "version": self.version,
            "stored_rounds": self.stored_rounds,
        }


class ResultStore:
    """A results file.  Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        """Open (or, unless ``readonly``, create) the results file at ``path``.

        ``readonly`` is for commands that only report (``stats``, ``compare --from-db``):
        the file is opened read-only, and a file without the results tables is refused
        rather than given them, so bad input changes nothing.
        """
        self.path = Path(path)
        if self.path.is_dir():
            raise ZhuojiError(f"{self.path}: is a folder, not a results file")
        try:
            if readonly:
                self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
            else:
                self.db = sqlite3.connect(self.path, timeout=60)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA foreign_keys = ON")
            tables = {
                r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if not {"runs", "rounds"} <= tables:
                if readonly:
                    raise ZhuojiError(f"{self.path}: not a zhuoji results file (no runs recorded)")
                # WAL: `zhuoji stats` can read the file while a run is writing to it
                self.db.execute("PRAGMA journal_mode = WAL")
                self.db.executescript(SCHEMA)
            columns = {r[1] for r in self.db.execute("PRAGMA table_info(rounds)")}
            if "behaviour" not in columns:  # a file written before behaviour was kept
                self.db.execute(
                    "ALTER TABLE rounds ADD COLUMN behaviour TEXT NOT NULL DEFAULT '{}'"
                )
        except sqlite3.DatabaseError as exc:
            raise ZhuojiError(f"{self.path}: not a zhuoji results file: {exc}") from exc

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # --- writing ----------------------------------------------------------------------

    def start_run(
        self,
        spec: SimSpec,
        *,
        players: int,
        pattern_names: dict[str, tuple[str, str]],
        workers: int | None = None,
        backend: str | None = None,
        name: str | None = None,
    ) -> int:
        """Record a run's settings (``spec`` resolved); returns its id."""
        if name is not None and name.isdigit():
            raise ZhuojiError(f"run name {name!r}: a name must not be a number (numbers are ids)")
        cur = self.db.execute(
            "INSERT INTO runs (name, created, status, variant, overrides, agents, seed, rounds,"
            " match_rounds, matches, players, workers, backend, version, pattern_names, spec)"
            " VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                name,
                datetime.now(UTC).isoformat(timespec="seconds"),
                spec.variant,
                json.dumps(list(spec.overrides), ensure_ascii=False),
                json.dumps(list(spec.agents)),
                spec.seed,
                spec.rounds,
                spec.length,
                spec.matches,
                players,
                workers,
                backend,
                __version__,
                json.dumps(pattern_names, ensure_ascii=False),
                json.dumps(spec.as_dict(), ensure_ascii=False),
            ),
        )
        self.db.commit()
        assert cur.lastrowid is not None
        return cur.lastrowid

    def add_rounds(self, run_id: int, records: Iterable[RoundRecord]) -> None:
        rows = []
        for r in records:
            row = r.row()
            rows.append((run_id, *(row[c] for c in _COLUMNS)))
        self.db.executemany(
            f"INSERT INTO rounds (run_id, {', '.join(_COLUMNS)}) VALUES ({', '.join('?' * (len(_COLUMNS) + 1))})",
            rows,
        )
        self.db.commit()  # a run's rows are kept as they come (an interrupted run stays "running")

    def finish_run(self, run_id: int, elapsed_s: float) -> None:
        self.db.execute(
            "UPDATE runs SET status = 'complete', elapsed_s = ? WHERE id = ?", (elapsed_s, run_id)
        )
        self.db.commit()

    # --- reading ----------------------------------------------------------------------

    def runs(self) -> list[RunInfo]:
        rows = self.db.execute(
            "SELECT runs.*, (SELECT count(*) FROM rounds WHERE run_id = runs.id) AS stored FROM runs ORDER BY id"
        ).fetchall()
        return [self._info(r) for r in rows]

    def run(self, ref: str | int) -> RunInfo:
        """A run by id (a number) or name; the newest of that name when several share it."""
        text = str(ref)
        if text.isdigit():
            row = self.db.execute(
                "SELECT runs.*, (SELECT count(*) FROM rounds WHERE run_id = runs.id) AS stored FROM runs WHERE id = ?",
                (int(text),),
            ).fetchone()
        else:
            row = self.db.execute(
                "SELECT runs.*, (SELECT count(*) FROM rounds WHERE run_id = runs.id) AS stored FROM runs"
                " WHERE name = ? ORDER BY id DESC LIMIT 1",
                (text,),
            ).fetchone()
        if row is None:
            known = (
                ", ".join(f"{r.id}" + (f" ({r.name})" if r.name else "") for r in self.runs())
                or "none"
            )
            raise ZhuojiError(f"{self.path}: no run {text!r}; stored runs: {known}")
        return self._info(row)

    def records(self, run_id: int) -> Iterator[RoundRecord]:
        """The run's rounds in order."""
        cur = self.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM rounds WHERE run_id = ? ORDER BY idx", (run_id,)
        )
        for row in cur:
            yield RoundRecord.from_row(dict(row))

    @staticmethod
    def _info(row: sqlite3.Row) -> RunInfo:
        spec = SimSpec.from_dict(json.loads(row["spec"]))
        names = {k: (v[0], v[1]) for k, v in json.loads(row["pattern_names"]).items()}
        return RunInfo(
            id=int(row["id"]),
            name=row["name"],
            created=row["created"],
            status=row["status"],
            spec=spec,
            matches=int(row["matches"]),
            players=int(row["players"]),
            workers=row["workers"],
            backend=row["backend"],
            elapsed_s=row["elapsed_s"],
            version=row["version"],
            pattern_names=names,
            stored_rounds=int(row["stored"]),
        )


def load_result(store: ResultStore, ref: str | int) -> SimResult:
    """A stored run as a :class:`SimResult` (its rounds re-read; nothing is re-played)."""
    info = store.run(ref)
    acc = Accumulator(info.players, info.matches)
    acc.extend(store.records(info.id))
    if acc.rounds != info.spec.rounds:
        raise ZhuojiError(
            f"{store.path}: run {info.id} holds {acc.rounds} of {info.spec.rounds} rounds "
            f"(status {info.status}): it did not complete"
        )
    return SimResult(
        info.spec,
        acc,
        info.elapsed_s or 0.0,
        info.workers or 1,
        info.backend or "local",
        info.pattern_names,
        run_id=info.id,
    )
