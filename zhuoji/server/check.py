"""``zhuoji serve --check``: every damaged record of a store, found without serving it.

The store is opened for reading only (no lock taken, nothing created, migrated or healed),
so it can be checked while a server runs on it.  What is found is what a starting server
would quarantine (:meth:`zhuoji.server.rulebook.RuleBook.load`,
:meth:`zhuoji.server.records.TableRecords.load`), and more: every round of every table is
replayed, not just the latest, and a SQLite file's pages are checked
(``PRAGMA quick_check``).
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from zhuoji.server import store as S
from zhuoji.server.fence import sqlite_file
from zhuoji.server.records import TableRecords
from zhuoji.server.rulebook import RuleBook


def check_store(url: str) -> list[str]:
    """One line per damaged record (``table ID: why``, ``variant NAME: why``,
    ``database: …``); empty when nothing is damaged.  StoreError if there is no store."""
    full = S.normalize_url(url)
    parsed = sa.make_url(S.split_schema(full)[0])
    if parsed.get_backend_name() == "sqlite":
        path = sqlite_file(parsed.database, {k: str(v) for k, v in parsed.query.items()})
        if path is None or not Path(path).is_file():
            raise S.StoreError(f"no store at {S.display_url(full)}")
    store = S.Store(full, check_only=True)
    lines: list[str] = []
    try:
        if store.backend == "sqlite":
            try:
                with store.engine.connect() as c:
                    found = [str(r[0]) for r in c.exec_driver_sql("PRAGMA quick_check")]
            except sa.exc.SQLAlchemyError as exc:
                found = [str(exc).splitlines()[0]]
            lines += [f"database: {line}" for line in found if line != "ok"]
        rules = RuleBook(store)
        rules.load()
        lines += [f"variant {name}: {why}" for name, why in sorted(rules.quarantined.items())]
        records = TableRecords(store, rules, {})
        records.load(thorough=True)
        lines += [f"table {table_id}: {why}" for table_id, why in sorted(records.broken.items())]
    finally:
        store.close()
    return lines
