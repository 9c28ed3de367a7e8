"""No rule in Python (issue 12 §6): the rule modules (``zhuoji/rules/*``) name no tile and no
city; tiles come from a hook's parameters or a pattern row, cities from variant files.

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

RULES = Path(__file__).resolve().parents[1] / "zhuoji" / "rules"

#: modules that may still name tiles, each with the reason and who removes the entry
ALLOWED: dict[str, str] = {}

#: counts, not tiles
NOT_TILES = {"NUM_KINDS", "COPIES"}
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


MODULES = sorted(str(p.relative_to(RULES)) for p in RULES.rglob("*.py"))


@pytest.mark.parametrize("module", MODULES)
def test_rule_module_names_no_tile_and_no_city(module: str) -> None:
    found = sorted(set(findings((RULES / module).read_text(encoding="utf-8"))))
    if module in ALLOWED:
        assert found, f"{module} names no tile any more: remove its ALLOWED entry"
        return
    assert not found, "\n".join(f"zhuoji/rules/{module}:{line}: {what}" for line, what in found)


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
