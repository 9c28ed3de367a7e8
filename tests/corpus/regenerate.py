"""Rebuild the format corpus (``tests/corpus``) and the shipped variants' revisions
(``zhuoji/variants/history``) from git history (issue 25, item 1).

    python tests/corpus/regenerate.py             # both, running the old code of each commit
    python tests/corpus/regenerate.py --history   # only the revision snapshots
    python tests/corpus/regenerate.py --check     # exit 1 when the snapshots are stale

**The corpus.**  For every commit in :func:`corpus_commits` — each commit that changed a
shipped variant, a golden case or a variant key, and the commit before each rename — the
shipped variants, the test-only variants and the golden cases as they stood there.  A file
version is stored once, as ``files/<path>@<commit>.yaml`` (``<commit>``: the first corpus
commit holding that text); ``commits.yaml`` lists, per commit, its files and what each golden
case settled to *at that commit*, by that commit's own code (its ``tests/golden/goldenlib.py``,
run from ``git archive`` in a temporary folder).  ``tests/test_migrations_corpus.py`` loads
every file today and settles every case against that record.

**The revisions.**  A shipped variant's revision rises on each commit of main's first-parent
history where its rules (its ``extends`` chain merged, read today) changed; each revision's
rules are kept, merged and in the current format, in ``zhuoji/variants/history/NAME@N.yaml``
(what ``extends: NAME@N`` reads).  The working tree's file is the last revision: change a
shipped variant's rules and ``--check`` (and ``tests/test_variant_revisions.py``) asks for
its ``revision:`` to be raised and this script to be run.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import warnings
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
FILES = CORPUS / "files"
COMMITS_FILE = CORPUS / "commits.yaml"
HISTORY = ROOT / "zhuoji" / "variants" / "history"

#: where variant and golden files lived over time (``variants/`` was once the folder itself)
SHIPPED_DIRS = ("zhuoji/variants", "variants")
TEST_VARIANT_DIRS = ("tests/golden/variants", "tests/variants")
GOLDEN_DIR = "tests/golden"
#: the first commit of the rules' history (variants and the engine)
FIRST = "d54c189"
#: commits a key was renamed in on a branch before main merged it: the corpus also holds the
#: state just before each (the old spelling) and at it (both spellings read)
BRANCH_RENAMES = {
    "f6d8e41": "flip.mode read beside the new flip.makes (branch chickens)",
    "b8684d4": "flip.mode removed (branch chickens)",
    "d57b83e": "red_dragons became tile_copies (branch mech)",
}


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def short(commit: str) -> str:
    return git("rev-parse", "--short=7", commit).strip()


def history_tip() -> str:
    """Whose history the corpus is: ``main`` (work not yet merged there is not history),
    or the checked-out commit where there is no ``main``."""
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", "main"], cwd=ROOT, capture_output=True
    )
    return "main" if found.returncode == 0 else "HEAD"


def corpus_commits() -> dict[str, str]:
    """commit → why it is in the corpus, oldest first: main's commits only."""
    out: dict[str, str] = {}
    paths = [*SHIPPED_DIRS, GOLDEN_DIR, *TEST_VARIANT_DIRS]
    tip = history_tip()
    touched = git("log", "--reverse", "--format=%h", tip, "--", *paths).split()
    from zhuoji import migrations

    renames: dict[str, str] = {}
    for change in migrations.all_changes():
        renames[change.commit] = ", ".join(filter(None, [renames.get(change.commit), change.name]))
    for c in touched:
        out[short(c)] = "changed shipped variants or golden cases"
    for commit, name in renames.items():
        for parent in git("log", "-1", "--format=%p", commit).split():
            out.setdefault(short(parent), f"just before {commit} ({name})")
        out[short(commit)] = f"changed a variant key ({name})"
    for commit, what in BRANCH_RENAMES.items():
        out.setdefault(short(commit + "^"), f"just before {commit}: {what}")
        out[short(commit)] = what
    order = git("log", "--reverse", "--topo-order", "--format=%h", tip).split()
    rank = {short(c): i for i, c in enumerate(order)}
    with_files = {c: why for c, why in out.items() if files_at(c)}
    return dict(sorted(with_files.items(), key=lambda kv: rank[kv[0]]))


def tracked_commits() -> list[str]:
    """The commits whose changes the corpus test must know a commit to have or not: every
    key change, every change without migration, and 422b86d (a win stage required)."""
    from zhuoji import migrations

    found = [c.commit for c in migrations.all_changes()]
    found += [u.commit for u in migrations.CHANGES_WITHOUT_MIGRATION]
    return list(dict.fromkeys([*found, "422b86d"]))


def is_ancestor(ancestor: str, commit: str) -> bool:
    return (
        subprocess.run(
            ["git", "merge-base", "--is-ancestor", ancestor, commit], cwd=ROOT, check=False
        ).returncode
        == 0
    )


def files_at(commit: str) -> dict[str, bytes]:
    """The corpus files at ``commit``: ``variants/X.yaml`` (shipped and test-only variants,
    one folder, as ``extends`` found them) and ``golden/V/NN_x.yaml``."""
    out: dict[str, bytes] = {}
    listing = git("ls-tree", "-r", "--name-only", commit).splitlines()
    for path in listing:
        if not path.endswith(".yaml"):
            continue
        folder, _, name = path.rpartition("/")
        if folder in SHIPPED_DIRS or folder in TEST_VARIANT_DIRS:
            key = f"variants/{name}"
        elif path.startswith(GOLDEN_DIR + "/") and path.count("/") == 3:
            key = "golden/" + path[len(GOLDEN_DIR) + 1 :]
        else:
            continue
        out[key] = subprocess.run(
            ["git", "show", f"{commit}:{path}"], cwd=ROOT, check=True, capture_output=True
        ).stdout
    return out


#: settles every golden case of a commit with that commit's own goldenlib; prints JSON
OLD_RUNNER = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, "tests/golden")
import goldenlib
out = {}
for path in goldenlib.case_files(goldenlib.GOLDEN_DIR):
    rel = path.relative_to(goldenlib.GOLDEN_DIR).as_posix()
    try:
        case = goldenlib.load_case(path)
        _, ledger = goldenlib.settle_case(case)
        entries = ledger.entries() if callable(ledger.entries) else ledger.entries
        out["golden/" + rel] = {
            "totals": list(ledger.totals()),
            "next": [ledger.next_dealer, ledger.next_streak],
            "entries": sorted([e.payer, e.payee, e.amount, e.item] for e in entries),
        }
    except Exception as exc:
        out["golden/" + rel] = {"error": f"{type(exc).__name__}: {exc}".splitlines()[0]}
print(json.dumps(out))
"""


def settle_at(commit: str) -> dict[str, Any]:
    """What every golden case settled to at ``commit``, by that commit's code."""
    with tempfile.TemporaryDirectory(prefix=f"zhuoji-{commit}-") as tmp:
        archive = subprocess.run(
            ["git", "archive", commit], cwd=ROOT, check=True, capture_output=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        if not (Path(tmp) / GOLDEN_DIR / "goldenlib.py").is_file():
            return {}
        env = {**os.environ, "PYTHONPATH": tmp, "ZHUOJI_PURE": "1"}
        run = subprocess.run(
            [sys.executable, "-c", OLD_RUNNER], cwd=tmp, env=env, capture_output=True, text=True
        )
        if run.returncode != 0:
            raise SystemExit(f"{commit}: the old code failed:\n{run.stderr}")
        result: dict[str, Any] = json.loads(run.stdout)
        return result


def digest(entries: list[list[Any]]) -> str:
    return hashlib.sha256(json.dumps(entries, ensure_ascii=False).encode()).hexdigest()[:16]


def regenerate_corpus() -> None:
    """Write ``files/`` and ``commits.yaml``.  Each commit lists only what changed since the
    commit before it in the file: files added or changed (``files``) and gone (``gone``),
    settlements new or changed (``settled``) and gone (``unsettled``); :func:`states` in
    the test replays them."""
    commits = corpus_commits()
    first_seen: dict[bytes, str] = {}
    record: dict[str, Any] = {}
    keep: set[Path] = set()
    before_files: dict[str, str] = {}
    before_settled: dict[str, Any] = {}
    for commit, why in commits.items():
        subject, date = git("log", "-1", "--format=%s%n%cs", commit).splitlines()
        files = files_at(commit)
        listed: dict[str, str] = {}
        for key, text in sorted(files.items()):
            origin = first_seen.setdefault(text, commit)
            stored = f"{key.removesuffix('.yaml')}@{origin}.yaml"
            target = FILES / stored
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(text)
            keep.add(target)
            listed[key] = stored
        settled = {
            case: (
                {"error": r["error"]}
                if "error" in r
                else {"totals": r["totals"], "next": r["next"], "entries": digest(r["entries"])}
            )
            for case, r in sorted(settle_at(commit).items())
        }
        entry: dict[str, Any] = {"subject": subject, "date": date, "why": why}
        entry["contains"] = [c for c in tracked_commits() if is_ancestor(c, commit)]
        entry["files"] = {k: v for k, v in listed.items() if before_files.get(k) != v}
        entry["gone"] = sorted(set(before_files) - set(listed))
        entry["settled"] = {k: v for k, v in settled.items() if before_settled.get(k) != v}
        entry["unsettled"] = sorted(set(before_settled) - set(settled))
        record[commit] = {
            k: v for k, v in entry.items() if v or k in ("subject", "date", "why", "contains")
        }
        before_files, before_settled = listed, settled
        print(f"{commit}: {len(files)} files, {len(settled)} cases settled", file=sys.stderr)
    for old in FILES.rglob("*.yaml"):
        if old not in keep:
            old.unlink()
    header = (
        "# The format corpus: the variant and golden files as they stood at each commit, and "
        "what each golden\n# case settled to there, by that commit's code (totals, next "
        "dealer and streak, a digest of the\n# entries).  Each commit lists what changed "
        "since the one above it.  Generated by\n# tests/corpus/regenerate.py; do not edit.\n"
    )
    COMMITS_FILE.write_text(header + _dump(record), encoding="utf-8")


def _dump(data: Any) -> str:
    """YAML with short lists on one line (totals, next)."""

    class Dumper(yaml.SafeDumper):
        pass

    def short_list(d: yaml.SafeDumper, v: list[Any]) -> yaml.Node:
        flow = all(not isinstance(x, dict | list) for x in v)
        return d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=flow)

    Dumper.add_representer(list, short_list)
    return yaml.dump(data, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=100)


# ---------------------------------------------------------------------------------------
# revisions of the shipped variants
# ---------------------------------------------------------------------------------------


def _rules_of(folder: Path, name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(merged raw data, effective rules) of a variant file in ``folder``, read today."""
    from zhuoji.variant_io import build, merge_layers, read_chain
    from zhuoji.variants_cmd import effective

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        layers = read_chain(folder / f"{name}.yaml")
        ruleset = build(layers)
        merged = merge_layers(layers)
    return merged, effective(ruleset)


def _same_rules(a: dict[str, Any], b: dict[str, Any]) -> bool:
    from zhuoji.variants_cmd import NOT_RULES

    return {k: v for k, v in a.items() if k not in NOT_RULES} == {
        k: v for k, v in b.items() if k not in NOT_RULES
    }


def revision_history() -> dict[str, list[tuple[str, str, dict[str, Any]]]]:
    """name → its revisions, oldest first: (the commit it began at, the last commit (or
    "HEAD", the working tree) where it was current, its merged raw data there), over
    main's first-parent history and then the working tree.  A revision's data is taken
    where it was last current: the same rules, its latest spelling and titles."""
    order = git("log", "--reverse", "--first-parent", "--format=%h", "HEAD", "--", *SHIPPED_DIRS)
    out: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    last: dict[str, dict[str, Any]] = {}
    states: list[tuple[str, dict[str, bytes] | None]] = [
        (c, {k: v for k, v in files_at(c).items() if k.startswith("variants/")})
        for c in order.split()
    ]
    states.append(("HEAD", None))
    shipped_now = ROOT / "zhuoji" / "variants"
    for commit, files in states:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            if files is None:
                folder = shipped_now
                names = sorted(p.stem for p in shipped_now.glob("*.yaml"))
            else:
                shipped = set(
                    Path(p).stem
                    for d in SHIPPED_DIRS
                    for p in git("ls-tree", "--name-only", commit, d + "/").split()
                    if p.endswith(".yaml")
                )
                for key, text in files.items():
                    (folder / Path(key).name).write_bytes(text)
                names = sorted(shipped)
            for name in names:
                merged, rules = _rules_of(folder, name)
                revs = out.setdefault(name, [])
                if name in last and _same_rules(last[name], rules):
                    revs[-1] = (revs[-1][0], commit, merged)
                    continue
                last[name] = rules
                revs.append((commit, commit, merged))
    return out


def snapshot_text(name: str, revision: int, first: str, last: str, merged: dict[str, Any]) -> str:
    from zhuoji.migrations import CURRENT_FORMAT

    def when(commit: str) -> str:
        if commit == "HEAD":
            return "the current file"
        subject, date = git("log", "-1", "--format=%s%n%cs", commit).splitlines()
        return f"commit {commit} ({date}): {subject}"

    data = {
        "format": CURRENT_FORMAT,
        "revision": revision,
        **{k: v for k, v in merged.items() if k not in ("format", "revision", "extends")},
    }
    header = (
        f"# {name}, revision {revision}: the rules of zhuoji/variants/{name}.yaml (its extends "
        f"chain merged)\n# from {when(first)}\n# to {when(last)}.\n"
        f"# `extends: {name}@{revision}` reads this file. Generated by "
        "tests/corpus/regenerate.py from git\n# history; do not edit (each value's source is "
        "cited in the file at those commits).\n"
    )
    return header + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def regenerate_history(check: bool = False) -> int:
    """Write (or, with ``check``, compare) every revision snapshot; 1 when something is
    stale or a shipped file's ``revision:`` is not its rules' revision."""
    problems = []
    expected: dict[Path, str] = {}
    for name, revs in revision_history().items():
        for i, (first, last, merged) in enumerate(revs, start=1):
            expected[HISTORY / f"{name}@{i}.yaml"] = snapshot_text(name, i, first, last, merged)
        current = yaml.safe_load((ROOT / "zhuoji" / "variants" / f"{name}.yaml").read_text())
        if current.get("revision") != len(revs):
            problems.append(
                f"zhuoji/variants/{name}.yaml: its rules are revision {len(revs)} (revision: "
                f"{current.get('revision')} in the file): set revision: {len(revs)}"
            )
    for path, text in expected.items():
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                problems.append(f"{path.relative_to(ROOT)} is stale or missing")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--history", action="store_true", help="only the revision snapshots")
    p.add_argument("--check", action="store_true", help="only check the revision snapshots")
    args = p.parse_args(argv)
    if args.check:
        return regenerate_history(check=True)
    if not args.history:
        regenerate_corpus()
    return regenerate_history()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
