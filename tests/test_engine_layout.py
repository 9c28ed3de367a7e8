"""The round engine's layout, read from its source: the round split by phase, each phase a
module below the engine, the state below the phases, and the observation reading the state,
never the engine (docs/architecture.md, "Layers" and "Small pieces": a class holding several
phases is split by phase; the observation reads the state it is handed)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from zhuoji import compiled

PACKAGE = Path(__file__).resolve().parent.parent / "zhuoji"

#: the engine's modules from the bottom up: each may import only those before it
LAYERS = (
    "round_state",
    "round_checks",
    "round_finish",
    "round_turn",
    "round_claims",
    "round_deal",
    "observation",
    "engine",
)


def _tree(name: str) -> ast.Module:
    return ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))


def _imports(name: str) -> set[str]:
    """The package's top-level modules ``zhuoji.<name>`` imports, wherever the statement is
    (in a function, under ``if TYPE_CHECKING:``)."""
    out = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        else:
            continue
        out |= {m.split(".")[1] for m in modules if m.startswith("zhuoji.")}
    return out


@pytest.mark.parametrize("name", LAYERS)
def test_each_engine_module_imports_only_the_layers_below_it(name: str) -> None:
    above = set(LAYERS[LAYERS.index(name) :])
    assert not _imports(name) & above, f"zhuoji/{name}.py imports {sorted(_imports(name) & above)}"


def test_the_observation_reads_the_state_not_the_engine() -> None:
    imported = _imports("observation")
    assert "round_state" in imported
    assert not imported & {"engine", "round_deal", "round_turn", "round_claims", "round_finish"}


def test_the_engine_modules_are_compiled_together() -> None:
    assert set(LAYERS) <= set(compiled.GROUPS["engine"])


#: variant-section fields whose meaning a section model owns as a method (zhuoji.variant:
#: ClaimsSection.allows/may_chow/wins_by/may_rob, WildSection.may_claim/may_meld/may_discard,
#: BaotingSection.declaration/may_meld, DingqueSection.may_meld): the engine asks the method,
#: as the round-end checks do, and never reads the field
OWNED_FIELDS = {
    "chi",
    "peng",
    "kongs",
    "win_on_discard",
    "rob_kong",
    "claimable",
    "discard",
    "allow_peng",
    "allow_kong",
    "hard",
    "soft",
    "meld_void",
}


@pytest.mark.parametrize("name", [n for n in LAYERS if n.startswith(("round_", "engine"))])
def test_the_engine_asks_the_rules_owners(name: str) -> None:
    """Issue 24 item 3: the engine and the round-end checker ask the same rule functions."""
    read = sorted(
        {
            (node.lineno, node.attr)
            for node in ast.walk(_tree(name))
            if isinstance(node, ast.Attribute)
            and node.attr in OWNED_FIELDS
            and isinstance(node.ctx, ast.Load)
        }
    )
    assert not read, f"zhuoji/{name}.py reads section fields its owner answers for: {read}"
