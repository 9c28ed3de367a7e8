"""docs/architecture.md stays true: every file it names exists, every hook point and every
``register`` keyword it lists is the registry's, and no code or doc cites the design notes
the project started from (they are not in the repository; the page says their rules)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

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
