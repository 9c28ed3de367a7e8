"""The package's layers, read from its source: no import circle, hooks below the machinery.

docs/architecture.md draws the layers.  The import graph is built from every ``import``
statement of every module in ``zhuoji/`` — at module level, inside functions and under
``if TYPE_CHECKING:`` alike, since a circle hidden in a function is still a circle — plus
the package ``__init__`` that importing a submodule runs (for subpackages; the root
``zhuoji/__init__.py`` imports nothing of the package at load).  A package's ``__init__``
exposing its own submodules (``zhuoji.sim.simulate``) is the package, not a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "zhuoji"

#: circles still being taken apart (issue 24); this list only shrinks
KNOWN_CIRCLES: set[frozenset[str]] = set()

#: the rule kit inside ``zhuoji/rules``: below the hook contract, above nothing of the hooks
RULE_KIT = {
    "registry",
    "needs",
    "facts",
    "facts_kernel",
    "patterns",
    "screen",
    "memo",
    "catalog",
    "__init__",
}


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = parts[-1] == "__init__"
    if package:
        parts = parts[:-1]
    return ".".join(parts), package


@cache
def modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        name, package = _module_name(path)
        out[name] = (path, package)
    return out


def _resolve(name: str) -> str | None:
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _imported(name: str) -> Iterator[str]:
    """Every module of the package that ``name``'s source imports, wherever the statement is."""
    path, package = modules()[name]
    here = name if package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # ``from pkg import sub`` imports the submodule; ``from mod import name`` the module
            targets = [
                f"{module}.{a.name}" if f"{module}.{a.name}" in modules() else module
                for a in node.names
            ]
        else:
            continue
        for target in targets:
            if target.startswith("zhuoji"):
                found = _resolve(target)
                if found is not None and found != name:
                    yield found


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module → the modules importing it runs (its imports and their parent packages)."""
    out: dict[str, frozenset[str]] = {}
    for name in modules():
        edges = set(_imported(name))
        for target in list(edges):
            parent = target.rpartition(".")[0]
            while parent.count("."):  # subpackages' __init__, not the root package
                edges.add(parent)
                parent = parent.rpartition(".")[0]
        edges.discard(name)
        if modules()[name][1]:  # a package's __init__ may expose its own children
            edges = {e for e in edges if not e.startswith(name + ".")}
        out[name] = frozenset(edges)
    return out


def circles() -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    g = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in g[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def reaches(start: str) -> set[str]:
    g = graph()
    seen: set[str] = set()
    todo = [start]
    while todo:
        for w in g[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def hook_modules() -> list[str]:
    return sorted(
        m for m in modules() if m.startswith("zhuoji.rules.") and m.split(".")[2] not in RULE_KIT
    )


def test_the_graph_sees_function_local_and_type_checking_imports() -> None:
    # the parser must not miss the kinds of import that hid the old circles
    assert "zhuoji.rules.catalog" in graph()["zhuoji.ruleset"]
    assert len(graph()) > 80


def test_no_import_circle_inside_the_package() -> None:
    new = circles() - KNOWN_CIRCLES
    assert not new, "import circles: " + "; ".join(" ↔ ".join(sorted(c)) for c in new)


def test_known_circles_are_still_there_or_struck_off() -> None:
    """A circle taken apart is struck off KNOWN_CIRCLES, so the list only shrinks."""
    gone = KNOWN_CIRCLES - circles()
    assert not gone, f"strike these off KNOWN_CIRCLES: {sorted(sorted(c) for c in gone)}"


def test_hooks_sit_below_the_machinery_that_runs_them() -> None:
    """A hook module reaches the contract and the rule kit, never settlement, the ruleset,
    the catalog, the engine, the bots or the server."""
    above = {"zhuoji.settle", "zhuoji.ruleset", "zhuoji.rules.catalog", "zhuoji.engine"}
    for hook in hook_modules():
        reached = reaches(hook)
        bad = sorted(
            m
            for m in reached
            if m in above or m.startswith(("zhuoji.agents", "zhuoji.server", "zhuoji.sim"))
        )
        assert not bad, f"{hook} imports {bad}"


def test_the_contract_and_the_kit_import_no_hook() -> None:
    hooks = set(hook_modules())
    lower = [m for m in modules() if m.startswith("zhuoji.contract")] + [
        f"zhuoji.rules.{k}" for k in RULE_KIT - {"catalog", "__init__"}
    ]
    for m in lower:
        assert not reaches(m) & hooks, f"{m} imports hook modules {sorted(reaches(m) & hooks)}"
        assert "zhuoji.settle" not in reaches(m)


# --- long units ----------------------------------------------------------------------------

MAX_CLASS_LINES = 500
MAX_FUNCTION_LINES = 120
#: a generated table or an unrolled compiled kernel may run longer, with a comment on the line
#: above it that starts with this marker and says why
LONG_MARK = "# long:"
#: units still being split (issue 24); this list only shrinks
KNOWN_LONG: set[str] = set()


def long_units() -> set[str]:
    """``file:name`` of every class over 500 lines and function over 120 in the package,
    unless the line above it carries the ``# long:`` reason."""
    out = set()
    for path, _ in modules().values():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, ast.ClassDef):
                limit = MAX_CLASS_LINES
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                limit = MAX_FUNCTION_LINES
            else:
                continue
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            size = (node.end_lineno or node.lineno) - first + 1
            reason = lines[first - 2].strip() if first >= 2 else ""
            if size > limit and not reason.startswith(LONG_MARK):
                out.add(f"{path.relative_to(PACKAGE.parent)}:{node.name}")
    return out


def test_no_class_over_500_lines_and_no_function_over_120() -> None:
    new = long_units() - KNOWN_LONG
    assert not new, f"split these (or mark a generated table '{LONG_MARK} why'): {sorted(new)}"


def test_known_long_units_are_still_long_or_struck_off() -> None:
    gone = KNOWN_LONG - long_units()
    assert not gone, f"strike these off KNOWN_LONG: {sorted(gone)}"
