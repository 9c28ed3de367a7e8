"""The bots and the simulator read the rules only through the pricing interface (issue 24
item 1): a rule's worth is its hook's pricer's answer (zhuoji/contract/pricing.py), never a
copy of its parameters.

The check reads the syntax tree of every module under ``zhuoji/agents`` and ``zhuoji/sim``
and fails on

* ``.params`` — a bound hook's parameters read directly;
* an import of a hook's parameter model (a :class:`~zhuoji.rules.registry.Params` subclass)
  or of a hook's parameter module (``zhuoji.rules.chickens.params``);
* a hook id written as a string (``"chickens"``, ``"hu"``: looking a stage up by id), docstrings
  apart, and pattern facts that share a hook's name (``peng_sets`` is also a fact the pattern
  rows read);

and, for the bots, on a tile named in Python (``YAOJI``, ``"1s"``, ``幺鸡``: which tiles are
chickens or 冲锋 tiles is the rules' answer), with tests/test_no_rule_in_python.py's scanner.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_no_rule_in_python import findings as tile_findings

from zhuoji.rules.catalog import hooks
from zhuoji.rules.facts import EVENT_FACTS, Requires
from zhuoji.rules.registry import Params, Point

PACKAGE = Path(__file__).resolve().parents[1] / "zhuoji"
WATCHED = ("agents", "sim")
#: the rule kit and the contract the bots may import from (no hook's parameters there)
HOOK_IDS = frozenset(i for p in Point for i in hooks(p, builtin_only=True))
FACTS = frozenset(Requires.model_fields) | frozenset(EVENT_FACTS)


def _docstrings(tree: ast.Module) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _is_parameter_model(module: str, name: str) -> bool:
    found = getattr(importlib.import_module(module), name, None)
    if isinstance(found, type) and issubclass(found, Params):
        return True
    return name == "params" or module.endswith(".params")


def findings(source: str) -> Iterator[tuple[int, str]]:
    """(line, what) for every place a module reads a hook's parameters or names a hook."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Attribute) and node.attr == "params":
            yield line, "reads a bound hook's .params"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("zhuoji.rules"):
            for alias in node.names:
                if _is_parameter_model(node.module or "", alias.name):
                    yield line, f"imports {node.module}.{alias.name}, a hook's parameters"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("zhuoji.rules") and alias.name.endswith(".params"):
                    yield line, f"imports {alias.name}, a hook's parameters"
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docs
            and node.value in HOOK_IDS - FACTS
        ):
            yield line, f"names the hook {node.value!r}"


def _modules() -> list[str]:
    return sorted(str(p.relative_to(PACKAGE)) for d in WATCHED for p in (PACKAGE / d).rglob("*.py"))


@pytest.mark.parametrize("module", _modules())
def test_reads_rules_only_through_pricing(module: str) -> None:
    found = sorted(set(findings((PACKAGE / module).read_text(encoding="utf-8"))))
    assert not found, "\n".join(f"zhuoji/{module}:{line}: {what}" for line, what in found)


@pytest.mark.parametrize("module", [m for m in _modules() if m.startswith("agents")])
def test_bots_name_no_tile(module: str) -> None:
    found = sorted(set(tile_findings((PACKAGE / module).read_text(encoding="utf-8"))))
    assert not found, "\n".join(f"zhuoji/{module}:{line}: {what}" for line, what in found)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "x = ruleset.stage('hu').params.streak_bonus\n",
            [(1, "names the hook 'hu'"), (1, "reads a bound hook's .params")],
        ),
        (
            "from zhuoji.rules.chickens.params import ChickenParams\n",
            [(1, "imports zhuoji.rules.chickens.params.ChickenParams, a hook's parameters")],
        ),
        (
            "from zhuoji.rules.hu import HuParams\n",
            [(1, "imports zhuoji.rules.hu.HuParams, a hook's parameters")],
        ),
        (
            "import zhuoji.rules.chickens.params\n",
            [(1, "imports zhuoji.rules.chickens.params, a hook's parameters")],
        ),
        (
            "s = next(s for s in rs.stages if s.hook.id == 'chickens')\n",
            [(1, "names the hook 'chickens'")],
        ),
        ('"""The chickens hook: "hu" and .params named in a docstring."""\n', []),
        ("facts = (('peng_sets', 3),)\n", []),  # a pattern fact
        ("from zhuoji.rules.win import WinCheck\n", []),  # the may_win check, not parameters
        ("x = ruleset.pricing.burns('repao')\n", []),
    ],
)
def test_the_check_itself(source: str, expected: list[tuple[int, str]]) -> None:
    assert sorted(set(findings(source))) == sorted(expected)
