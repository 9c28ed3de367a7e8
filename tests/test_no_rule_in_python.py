"""No rule in Python (issue 12 §6, issue 24 §6): no module of the package outside
``zhuoji/tiles.py`` names a tile or a city, and neither do the Python examples of the docs.
Tiles come from a hook's parameters, a pattern row or the rules' pricing; cities from variant
files.  The rule modules were held to this first; the bots, explanations, hints, simulation and
server now are too, so a rule cannot hide a tile of its own outside its hook.

The check reads each module's syntax tree, so comments and docstrings (where sources are
cited) and the ``description=``/``title=`` texts of parameter fields are free to name
anything.  Everything else is scanned:

* tile constants of :mod:`zhuoji.tiles` (``YAOJI``, ``HONG_ZHONG``), imported or as
  ``T.YAOJI``;
* strings written in tile notation (``"1s"``, ``"5z"``, ``"19m"``) or holding a tile's
  Chinese name (``幺鸡``, ``红中``, ``八筒``);
* city names, in strings (贵阳, 遵义 …) and in identifiers (``guiyang_…``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from zhuoji import tiles as T

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "zhuoji"
#: the one module that defines tiles, their names and notation
TILES_MODULE = "tiles.py"

#: modules that may still name tiles, each with the reason
ALLOWED: dict[str, str] = {
    "migrations.py": "an old format's key meant a tile its code fixed (幺鸡, 红中); the "
    "migration writes that tile into the file, so the tile is the format's history, not a "
    "rule anything plays",
}

#: counts, not tiles; and FLOWER, no kind of the 34 but the marker of a flower in a wall
#: (补花): the engine sets it aside wherever ``tiles.flowers`` puts flowers in the wall, so no
#: rule can hide a tile of its own in it
NOT_TILES = {"NUM_KINDS", "COPIES", "FLOWER"}
TILE_CONSTANTS = {
    name
    for name, value in vars(T).items()
    if name.isupper() and isinstance(value, int) and name not in NOT_TILES
}
TILE_NOTATION = re.compile(r"^(\d+[mspz])+$")
TILE_NAMES = {T.name(k) for k in range(T.NUM_KINDS)}
CITIES_CN = [
    "贵阳",
    "遵义",
    "安顺",
    "毕节",
    "都匀",
    "凯里",
    "独山",
    "铜仁",
    "六盘水",
    "凉都",
    "黔西",
    "金沙",
    "仁怀",
    "兴义",
    "六安",
    "四川",
    "成都",
    "金游",
]
CITIES_PINYIN = set(
    [
        "guiyang",
        "zunyi",
        "anshun",
        "bijie",
        "duyun",
        "kaili",
        "dushan",
        "tongren",
        "liupanshui",
        "liangdu",
        "qianxi",
        "jinsha",
        "renhuai",
        "xingyi",
        "luan",
        "sichuan",
        "chengdu",
        "jinyou",
    ]
)
#: display text, not rules: field titles and descriptions, and ledger item labels
DOC_KEYWORDS = {"description", "title", "labels"}
LABEL_CALLS = {"register_labels"}


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring constants of the module, its classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def findings(source: str) -> Iterator[tuple[int, str]]:
    """(line, what) for every tile or city a rule module's code names."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg in DOC_KEYWORDS:
            skip.update(id(n) for n in ast.walk(node.value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in LABEL_CALLS:
            skip.update(id(n) for arg in node.args for n in ast.walk(arg))
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and node.module == "zhuoji.tiles":
            for alias in node.names:
                if alias.name in TILE_CONSTANTS:
                    yield line, f"imports the tile constant {alias.name}"
        elif isinstance(node, ast.Attribute) and node.attr in TILE_CONSTANTS:
            yield line, f"uses the tile constant {node.attr}"
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            text = node.value
            if TILE_NOTATION.match(text.strip()):
                yield line, f"names tiles in notation: {text!r}"
            for word in sorted(TILE_NAMES | set(CITIES_CN)):
                if word in text:
                    kind = "city" if word in CITIES_CN else "tile"
                    yield line, f"names the {kind} {word} in {text!r}"
        elif isinstance(node, ast.Name | ast.FunctionDef | ast.ClassDef | ast.arg):
            name = (
                getattr(node, "id", None) or getattr(node, "name", None) or getattr(node, "arg", "")
            )
            for token in str(name).lower().split("_"):
                if token in CITIES_PINYIN:
                    yield line, f"names the city {token} in the identifier {name}"


MODULES = sorted(
    str(p.relative_to(PACKAGE))
    for p in PACKAGE.rglob("*.py")
    if str(p.relative_to(PACKAGE)) != TILES_MODULE
)
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def doc_examples() -> list[tuple[str, int, str]]:
    """(file, first line, code) of every ``python`` block of the README and the docs."""
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in PYTHON_BLOCK.finditer(text):
            first = text[: m.start()].count("\n") + 2
            out.append((str(path.relative_to(ROOT)), first, m.group(1)))
    return out


@pytest.mark.parametrize("module", MODULES)
def test_module_names_no_tile_and_no_city(module: str) -> None:
    found = sorted(set(findings((PACKAGE / module).read_text(encoding="utf-8"))))
    if module in ALLOWED:
        assert found, f"{module} names no tile any more: remove its ALLOWED entry"
        return
    assert not found, "\n".join(f"zhuoji/{module}:{line}: {what}" for line, what in found)


def test_the_scan_covers_the_bots_explanations_simulation_and_server() -> None:
    for part in ("agents/expert.py", "explain.py", "hints.py", "sim/runner.py", "server/app.py"):
        assert part in MODULES
    assert "rules/chickens/pricing.py" in MODULES and TILES_MODULE not in MODULES


@pytest.mark.parametrize(("doc", "first", "code"), doc_examples())
def test_doc_example_names_no_tile_and_no_city(doc: str, first: int, code: str) -> None:
    found = sorted(set(findings(code)))
    assert not found, "\n".join(f"{doc}:{first + line - 1}: {what}" for line, what in found)


def test_the_docs_have_python_examples() -> None:
    assert any(doc == "docs/variants.md" for doc, _, _ in doc_examples())


def test_allow_list_names_existing_modules() -> None:
    assert set(ALLOWED) <= set(MODULES)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from zhuoji.tiles import YAOJI, name\n", [(1, "imports the tile constant YAOJI")]),
        (
            "import zhuoji.tiles as T\nx = T.HONG_ZHONG\n",
            [(2, "uses the tile constant HONG_ZHONG")],
        ),
        ("x = parse_one('1s')\n", [(1, "names tiles in notation: '1s'")]),
        ("x = f'{n} 幺鸡'\n", [(1, "names the tile 幺鸡 in ' 幺鸡'")]),
        ("if city == '遵义':\n    pass\n", [(1, "names the city 遵义 in '遵义'")]),
        (
            "def zunyi_bonus():\n    pass\n",
            [(1, "names the city zunyi in the identifier zunyi_bonus")],
        ),
        ('"""幺鸡 1s, 贵阳 (a docstring cites anything)"""\n', []),
        ("x = Field(1, title='幺鸡 value', description='1s is 幺鸡 in 贵阳')\n", []),
        ("k = suit_of(tile) * 9 + rank\n", []),
    ],
)
def test_the_check_itself(source: str, expected: list[tuple[int, str]]) -> None:
    assert sorted(set(findings(source))) == expected
