"""Show a golden case's current ledger beside its hand-computed expected one.

    python tests/golden/show.py tests/golden/guiyang/01_zimo_dealer_streak.yaml [...]
    python tests/golden/show.py --write FILE     # replace expected: with the current ledger

Each entry line is marked ``=`` (expected and produced), ``-`` (expected, not produced) or
``+`` (produced, not expected).  ``--write`` exists for reviewing an intentional change of
the rules: it rewrites the ``expected:`` section (the last part of the file; the comment
block and the round are kept) and prints the diff.  The expected values are meant to be
computed by hand from the seed text — re-check every changed line before committing.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections import Counter
from pathlib import Path

from goldenlib import entries_of, entry_diff, expected_yaml, load_case, settle_case

from zhuoji.rules.catalog import item_label


def _line(mark: str, entry: tuple[object, ...]) -> str:
    p, q, a, i = entry[:4]
    void = "  (void)" if len(entry) == 5 else ""
    return f"   {mark} {f'{p} → {q}':>12} {a:>6}  {i!s:<16} {item_label(str(i))[0]}{void}"


def show(path: Path) -> bool:
    case = load_case(path)
    ruleset, ledger = settle_case(case)
    exp = case.expected
    actual = entries_of(ledger)
    missing, extra = entry_diff(exp.entries, actual)
    print(
        f"== {case.name}  (variant {ruleset.name}{', set ' + ' '.join(case.overrides) if case.overrides else ''})"
    )
    print(f"   {'':2}{'payer→payee':>12} {'amount':>6}  item")
    matched = Counter(exp.entries) - missing
    for key in exp.entries:
        mark = "=" if matched[key] > 0 else "-"
        if mark == "=":
            matched[key] -= 1
        print(_line(mark, key))
    for key, n in sorted(extra.items()):
        for _ in range(n):
            print(_line("+", key))
    ok_entries = not missing and not extra
    totals = ledger.totals()
    ok_totals = list(exp.totals) == totals
    ok_dealer = (exp.next_dealer, exp.next_streak) == (ledger.next_dealer, ledger.next_streak)
    print(
        f"   totals       expected {list(exp.totals)}  current {totals}{'' if ok_totals else '   <-- differ'}"
    )
    print(
        f"   next dealer  expected seat {exp.next_dealer} streak {exp.next_streak}  "
        f"current seat {ledger.next_dealer} streak {ledger.next_streak}{'' if ok_dealer else '   <-- differ'}"
    )
    ok = ok_entries and ok_totals and ok_dealer
    print(f"   {'OK' if ok else 'DIFFERS'}")
    return ok


def write(path: Path) -> None:
    case = load_case(path)
    _, ledger = settle_case(case)
    text = case.text
    at = text.find("\nexpected:")
    if at < 0:
        raise SystemExit(f"{path}: no expected: section at the top level")
    new = text[: at + 1] + expected_yaml(ledger)
    if new == text:
        print(f"{path}: unchanged")
        return
    sys.stdout.writelines(
        difflib.unified_diff(
            text.splitlines(True), new.splitlines(True), str(path), f"{path} (current ledger)"
        )
    )
    path.write_text(new, encoding="utf-8")
    print(f"\n{path}: expected: rewritten from the current code; check every changed line by hand")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument(
        "--write",
        action="store_true",
        help="rewrite expected: from the current ledger, printing the diff",
    )
    args = parser.parse_args(argv)
    ok = True
    for path in args.files:
        if args.write:
            write(path)
        else:
            ok = show(path) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
