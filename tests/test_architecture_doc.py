"""docs/architecture.md stays true: every file it names exists, every hook point and every
``register`` keyword it lists is the registry's, and no code or doc cites the design notes
the project started from (they are not in the repository; the page says their rules)."""

from __future__ import annotations

import fnmatch
import inspect
import re
from pathlib import Path

import test_layers as layers

from zhuoji.rules import registry

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
TEXT = PAGE.read_text(encoding="utf-8")


def named_paths() -> set[str]:
    """Every `code span` of the page that names a Python file or a package folder."""
    spans = re.findall(r"`([^`\s]+)`", TEXT)
    return {s for s in spans if re.fullmatch(r"[\w/.*<>-]+(\.py|/)", s)}


def test_the_page_has_a_diagram_and_the_sections_the_issue_asks_for() -> None:
    for heading in ("## Data flow", "## Layers", "## One owner", "## Where to add things"):
        assert heading in TEXT
    assert "```\n variants/*.yaml" in TEXT  # the diagram
    for where in ("**A chicken kind**", "**A settlement item**", "**An endpoint.**", "**A bot.**"):
        assert where in TEXT


def test_every_file_the_page_names_exists() -> None:
    missing = []
    for span in sorted(named_paths()):
        if "<" in span or "*" in span:
            continue  # a pattern: rules/<mechanic>.py, hand*.py
        candidates = [ROOT / span, ROOT / "zhuoji" / span, ROOT / "zhuoji" / "rules" / span]
        candidates += [
            ROOT / "zhuoji" / d / span for d in ("contract", "server", "agents", "rules/chickens")
        ]
        if not any(c.exists() for c in candidates):
            missing.append(span)
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"
    assert len(named_paths()) > 30


def test_the_register_keywords_the_page_lists_are_the_registrys() -> None:
    keywords = set(inspect.signature(registry.register).parameters) - {"point", "hook_id", "params"}
    listed = set(re.findall(r"`(\w+)=`", TEXT)) - {"description"}  # a Params field's keyword
    assert listed <= keywords, listed - keywords
    assert {"checks", "words", "pricer", "labels", "needs"} <= listed
    for point in registry.Point:
        assert f"`{point.value}` point" in TEXT


def test_no_code_or_doc_cites_notes_outside_the_repository() -> None:
    cited = []
    files = [*(ROOT / "zhuoji").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    files += [p for p in (ROOT / "docs").rglob("*.md") if "sources" not in p.parts]
    files += [ROOT / "README.md"]
    for path in files:
        if path == Path(__file__):
            continue
        text = path.read_text(encoding="utf-8")
        for note in ("DESIGN.md", "STYLE.md"):
            if note in text:
                cited.append(f"{path.relative_to(ROOT)} cites {note}")
    assert not cited, cited


# --- the layer table ----------------------------------------------------------------------


def layer_rows() -> list[tuple[str, list[str]]]:
    """(layer, module specs) of the page's layer table, bottom row first."""
    section = TEXT[TEXT.index("## Layers") : TEXT.index("## One owner")]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].startswith("`"):
            rows.append((cells[0], re.findall(r"`([^`]+)`", cells[1])))
    return rows


def _matches(spec: str, path: str) -> bool:
    """Does the module file ``path`` (relative to zhuoji/) fit the table's ``spec``?"""
    if spec.endswith("/"):
        return path.startswith(spec)
    if spec == "rules/<mechanic>.py":  # every hook module: what the rule kit rows leave
        return path.startswith("rules/") and path.count("/") == 1
    return fnmatch.fnmatch(path, spec) and "/" not in path.replace(spec.rpartition("/")[0], "", 1)


def module_layers() -> dict[str, int]:
    """zhuoji module name → its row's index; an exact spec wins over a pattern."""
    rows = layer_rows()
    out: dict[str, int] = {}
    for name, (path, _) in layers.modules().items():
        rel = str(path.relative_to(layers.PACKAGE))
        exact = [i for i, (_, specs) in enumerate(rows) if rel in specs]
        loose = [i for i, (_, specs) in enumerate(rows) if any(_matches(s, rel) for s in specs)]
        found = exact or loose
        if found:
            out[name] = found[0]
    return out


def test_the_layer_table_places_every_module() -> None:
    placed = module_layers()
    unplaced = sorted(set(layers.modules()) - set(placed))
    assert not unplaced, f"docs/architecture.md's layer table does not place {unplaced}"
    assert next(name for name, _ in layer_rows()) == "tiles and hands"


def test_no_module_imports_a_layer_above_its_own() -> None:
    placed, rows = module_layers(), layer_rows()
    climbs = [
        f"{m} ({rows[placed[m]][0]}) imports {t} ({rows[placed[t]][0]})"
        for m, targets in layers.graph().items()
        for t in targets
        if placed[t] > placed[m]
    ]
    assert not climbs, "\n".join(sorted(climbs))
