"""The format corpus (``tests/corpus``, issue 25 item 1): every shipped variant, test-only
variant and golden case as it stood at each commit that changed one of them or a key name.

* every variant file loads today, its old spellings each named by a warning on its line;
* every golden case settles today exactly as it settled at its own commit, by that commit's
  code (``commits.yaml``, written by ``tests/corpus/regenerate.py``): the same totals, next
  dealer and streak, and the same entries — except where :data:`KNOWN` says why not;
* ``variants migrate`` rewrites every variant file keeping every comment line, and the
  rewritten text reads the same rules with no warning.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from zhuoji import roundend
from zhuoji.errors import VariantError
from zhuoji.settle import settle
from zhuoji.variant_io import FormatWarning, load_variant
from zhuoji.variants_cmd import effective, migrated_text

CORPUS = Path(__file__).resolve().parent / "corpus"

#: (commit, case) pairs that do not settle today as they did then, each with why: a change
#: main made that no key undoes (``zhuoji.migrations.CHANGES_WITHOUT_MIGRATION``)
KNOWN_REFUSED = "runs the required stage 'hu' (the win payment); it cannot be removed"
#: entries written differently for the same money: 6954015 made a 包付 transfer void the
#: other payers' shares and have the liable player pay the winner, where it had paid them
#: back ("Golden jinyou/01, jinyou/09 and luan/04 re-derived (same totals)")
VOIDED_TRANSFERS = {
    "golden/jinyou/01_twelve_down.yaml",
    "golden/jinyou/09_gangkai_feeder.yaml",
    "golden/luan/04_pengsandui_liability.yaml",
}
VOID_COMMIT = "6954015"
#: round ends the variant could not have produced, which the round-end checks (issue 24
#: item 3, merged in 820c970) refuse by the rule that forbids them; each case was re-drawn
#: so that its variant can produce it, with the same ledger (commit 130da69)
IMPOSSIBLE_ROUNDS = {
    # a 平胡 won on a discard with no kong and no 报听, under guiyang's 通行证
    "golden/ds-dushan/02_zeren_premium_zhuopao.yaml": "needs a pass (通行证)",
    # two kong reveals for one kong
    "golden/fw-gundong/01_reveals_accumulate.yaml": "reveals[",
    # a pung of the seat's own void suit (定缺)
    "golden/zunyi/04_rob_kong_biankadiao_wugu_kong.yaml": "void",
}
CHECKS_COMMIT = "820c970"


@cache
def commits() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((CORPUS / "commits.yaml").read_text(encoding="utf-8"))
    return data


@cache
def states() -> dict[str, tuple[dict[str, str], dict[str, Any]]]:
    """commit → (its files: path → stored file, its settlements: case → record), replaying
    the changes ``commits.yaml`` lists commit by commit."""
    out: dict[str, tuple[dict[str, str], dict[str, Any]]] = {}
    files: dict[str, str] = {}
    settled: dict[str, Any] = {}
    for commit, entry in commits().items():
        files = {k: v for k, v in files.items() if k not in entry.get("gone", [])}
        files.update(entry.get("files", {}))
        settled = {k: v for k, v in settled.items() if k not in entry.get("unsettled", [])}
        settled.update(entry.get("settled", {}))
        out[commit] = (dict(files), dict(settled))
    return out


def has(commit: str, change: str) -> bool:
    """Whether ``commit`` contains ``change`` (``commits.yaml`` lists the tracked commits
    each holds: history is not a line, branches were merged)."""
    return change in commits()[commit]["contains"]


def materialize(commit: str, root: Path) -> Path:
    """The commit's files in ``root``: ``variants/`` (shipped and test-only variants in one
    folder, so ``extends`` finds the parent of that time) and ``golden/``."""
    files, _ = states()[commit]
    for key, stored in files.items():
        target = root / key
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CORPUS / "files" / stored, target)
    return root


def digest(entries: list[list[Any]]) -> str:
    return hashlib.sha256(json.dumps(entries, ensure_ascii=False).encode()).hexdigest()[:16]


def test_corpus_covers_every_key_change() -> None:
    """At least every commit that changed a key name, and the commit before each."""
    from zhuoji.migrations import all_changes

    listed = commits()
    for change in all_changes():
        assert change.commit in listed, change.name
    assert len(states()) >= 20
    assert sum(len(s[1]) for s in states().values()) > 2000  # golden settlements recorded


COMMITS = list(commits())


@pytest.mark.parametrize("commit", COMMITS)
def test_golden_cases_settle_as_at_their_commit(commit: str, tmp_path: Path) -> None:
    root = materialize(commit, tmp_path)
    _, settled = states()[commit]
    rules: dict[tuple[str, tuple[str, ...]], Any] = {}
    failures = []
    for case, then in settled.items():
        assert "error" not in then, f"{commit} {case}: did not settle at its commit: {then}"
        path = root / case
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data.pop("expected", None)
        overrides = tuple(data.pop("set", None) or ())
        folder = Path(case).parent.name
        variant = root / "variants" / f"{folder}.yaml"
        if not variant.is_file():
            variant = root / "variants" / f"{data.get('variant') or 'guiyang'}.yaml"
        key = (str(variant), overrides)
        try:
            if key not in rules:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", FormatWarning)
                    rules[key] = load_variant(variant, list(overrides) or None)
        except VariantError as exc:
            if KNOWN_REFUSED in str(exc) and not has(commit, "422b86d"):
                continue  # a win stage may not be removed any more (422b86d, merged in 8fa227b)
            failures.append(f"{case}: {exc}")
            continue
        ruleset = rules[key]
        try:
            end = roundend.build(roundend.parse(data, case), ruleset, label=case)
        except roundend.RuleRefusal as exc:
            if case in IMPOSSIBLE_ROUNDS and not has(commit, CHECKS_COMMIT):
                assert IMPOSSIBLE_ROUNDS[case] in str(exc), str(exc)
                continue
            failures.append(f"{case}: {exc}")
            continue
        ledger = settle(ruleset, end)
        now = {
            "totals": ledger.totals(),
            "next": [ledger.next_dealer, ledger.next_streak],
            "entries": digest(sorted([e.payer, e.payee, e.amount, e.item] for e in ledger.entries)),
        }
        voided = case in VOIDED_TRANSFERS and not has(commit, VOID_COMMIT)
        if voided and now["entries"] != then["entries"]:
            now["entries"] = then["entries"]  # same money, written as void + transfer
        if now != then:
            failures.append(f"{case}: then {then}, now {now}")
    assert not failures, f"at {commit}:\n" + "\n".join(failures)


def test_only_the_listed_cases_are_refused(tmp_path: Path) -> None:
    """The cases refused today are those of the test-only variants that removed the win
    stage (``hu: null``), at the commits between 4943be1 and the cli merge 8fa227b."""
    refused = set()
    for commit, (files, _) in states().items():
        for key, stored in files.items():
            if key.startswith("variants/") and re.search(
                r"^  hu: null", (CORPUS / "files" / stored).read_text(encoding="utf-8"), re.M
            ):
                refused.add(commit)
    assert refused and not any(has(c, "422b86d") for c in refused)


def _variant_files() -> Iterator[tuple[str, str]]:
    """(commit, path) of each stored variant file, at the first commit holding it."""
    seen = set()
    for commit, (files, _) in states().items():
        for key, stored in sorted(files.items()):
            if key.startswith("variants/") and stored not in seen:
                seen.add(stored)
                yield commit, key


VARIANT_FILES = list(_variant_files())


def _load(path: Path) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ruleset = load_variant(path)
    return ruleset, [str(w.message) for w in caught if w.category is FormatWarning]


_COMMENT = re.compile(r"(?:^|\s)(#.*)$")


def comments(text: str) -> list[str]:
    """Every comment of a YAML file (a ``#`` at a line's start or after a space, outside
    quotes)."""
    out = []
    for line in text.splitlines():
        m = _COMMENT.search(line)
        if m is not None and line[: m.start(1)].count('"') % 2 == 0:
            out.append(m.group(1).rstrip())
    return out


@pytest.mark.parametrize(
    ("commit", "key"), VARIANT_FILES, ids=[f"{c}:{k}" for c, k in VARIANT_FILES]
)
def test_variant_loads_and_migrates_keeping_comments(commit: str, key: str, tmp_path: Path) -> None:
    root = materialize(commit, tmp_path)
    path = root / key
    text = path.read_text(encoding="utf-8")
    try:
        before, warned = _load(path)
    except VariantError as exc:
        assert KNOWN_REFUSED in str(exc) and not has(commit, "422b86d"), str(exc)
        return
    lines = text.splitlines()
    for message in warned:
        m = re.match(r"^(.+?):(\d+): (\S+): ", message)
        assert m is not None, message
        if Path(m.group(1)).name == path.name and "spelling of" in message:
            assert m.group(3).rsplit(".", 1)[-1] in lines[int(m.group(2)) - 1], message
    migrated, _source, _found = migrated_text(path)
    for comment in comments(text):
        assert comment in migrated, f"{key}: comment lost: {comment}"
    out = path.with_name(path.stem + ".migrated.yaml")
    out.write_text(migrated, encoding="utf-8")
    after, again = _load(out)
    assert not [w for w in again if Path(w.split(":")[0]).name == out.name], again
    assert effective(after) == effective(before)
    assert re.search(r"^format: 2\b", migrated, re.M)
