"""Golden settlement cases: load one, settle it as ``zhuoji settle`` does, compare.

A golden file (``tests/golden/<variant>/NN_<slug>.yaml``) is a round-end file
(``docs/round-end.md``) with two extra top-level keys, both removed before the round-end
part is read:

* ``set:`` (optional) — overrides, exactly as ``zhuoji settle --set KEY=VALUE`` takes them;
* ``expected:`` (last in the file) — the hand-computed result: ``entries`` (every ledger
  entry as ``[payer, payee, amount, item]``, or ``[payer, payee, amount, item, void]`` for
  an entry kept on record but voided by a later stage; compared as a multiset), ``totals``
  (per seat, void entries left out), ``next_dealer`` and ``next_streak``.

The comment block at the top quotes, in 「」, the seed sentences the case checks; the test
checks each quote is verbatim in a seed file (or RULES.md, or CITIES.md).

Mechanisms no shipped variant uses yet are checked under small test-only variants in
``tests/golden/variants/<name>.yaml``; their cases live in ``tests/golden/<name>/`` like the
others and are settled with ``--variant`` pointing at that file.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from zhuoji import roundend
from zhuoji.contract.ledger import Ledger
from zhuoji.ruleset import Ruleset

GOLDEN_DIR = Path(__file__).resolve().parent
#: where the seed texts and RULES.md live (docs/sources, kept verbatim)
SHARED_DIR = GOLDEN_DIR.parents[1] / "docs" / "sources"  # seed texts and RULES.md, verbatim

#: (payer, payee, amount, item) or (payer, payee, amount, item, "void")
Entry = tuple[int, int, int, str] | tuple[int, int, int, str, str]
QUOTE = re.compile(r"「([^」]+)」")


@dataclass(frozen=True)
class Expected:
    entries: tuple[Entry, ...]
    totals: tuple[int, ...]
    next_dealer: int
    next_streak: int


@dataclass(frozen=True)
class Case:
    path: Path
    text: str
    data: dict[str, Any]  # the round-end part only
    overrides: tuple[str, ...]
    expected: Expected

    @property
    def name(self) -> str:
        return f"{self.path.parent.name}/{self.path.stem}"

    def header(self) -> str:
        """The leading comment block."""
        lines = []
        for line in self.text.splitlines():
            if not line.startswith("#"):
                break
            lines.append(line[1:].strip())
        return "\n".join(lines)

    def quotes(self) -> list[str]:
        return QUOTE.findall(self.header())


def variant_files(root: Path = GOLDEN_DIR) -> dict[str, Path]:
    """Test-only variant files (``variants/<name>.yaml``) by name."""
    return {p.stem: p for p in sorted((root / "variants").glob("*.yaml"))}


def case_files(root: Path = GOLDEN_DIR) -> list[Path]:
    return sorted(p for p in root.glob("*/*.yaml") if p.parent.name != "variants")


def load_case(path: Path) -> Case:
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    if not isinstance(data, dict) or "expected" not in data:
        raise ValueError(f"{path}: a golden file needs an expected: section")
    exp = data.pop("expected")
    overrides = tuple(data.pop("set", None) or ())
    entries = tuple(_entry(row, path) for row in exp.get("entries") or [])
    expected = Expected(
        entries, tuple(exp["totals"]), int(exp["next_dealer"]), int(exp["next_streak"])
    )
    return Case(path, text, data, overrides, expected)


def _entry(row: list[Any], path: Path) -> Entry:
    if len(row) == 5:
        if row[4] != "void":
            raise ValueError(f"{path}: a fifth entry field must be 'void', not {row[4]!r}")
        return (int(row[0]), int(row[1]), int(row[2]), str(row[3]), "void")
    p, q, a, i = row
    return (int(p), int(q), int(a), str(i))


def is_void(entry: Entry) -> bool:
    return len(entry) == 5


def settle_case(case: Case) -> tuple[Ruleset, Ledger]:
    """The steps of ``zhuoji settle FILE [--set …]`` (``zhuoji.cli.cmd_settle``)."""
    label = str(case.path)
    variant = variant_files(case.path.parents[1]).get(case.path.parent.name)
    ruleset, _end, ledger = roundend.settle_file(
        roundend.parse(case.data, label),
        str(variant) if variant is not None else None,
        list(case.overrides),
        label=label,
    )
    return ruleset, ledger


def entries_of(ledger: Ledger) -> list[Entry]:
    """Every entry on record, void ones marked."""
    out: list[Entry] = []
    for e in ledger.record:
        out.append(
            (e.payer, e.payee, e.amount, e.item)
            if e.void is None
            else (e.payer, e.payee, e.amount, e.item, "void")
        )
    return out


def entry_diff(
    expected: tuple[Entry, ...], actual: list[Entry]
) -> tuple[Counter[Entry], Counter[Entry]]:
    """(expected but missing, present but not expected), as multisets."""
    want, have = Counter(expected), Counter(actual)
    return want - have, have - want


def expected_yaml(ledger: Ledger) -> str:
    """An ``expected:`` section for ``ledger`` (used by ``show.py --write`` only)."""
    lines = ["expected:", "  entries:            # [payer, payee, amount, item]"]
    lines += [f"    - [{', '.join(str(x) for x in e)}]" for e in entries_of(ledger)]
    lines.append(f"  totals: [{', '.join(str(t) for t in ledger.totals())}]")
    lines.append(f"  next_dealer: {ledger.next_dealer}")
    lines.append(f"  next_streak: {ledger.next_streak}")
    return "\n".join(lines) + "\n"
