"""Which build of a compiled module runs: the mypyc build when it is current, else pure Python.

Installing the package compiles the hot modules with mypyc (``setup.py``;
``docs/build.md``), in the groups of :data:`GROUPS`: a group's modules are compiled together
(mypyc calls between them natively), so they run together, all compiled or all pure.  A
compiled module is not put beside its source under the same name, where it would shadow the
``.py`` file: ``zhuoji/engine.py`` compiles to ``zhuoji._compiled.engine``, which records the
SHA-256 of the source it was built from.  A group runs compiled only when every module's
hash matches its source file as it is now, so an edit to the source runs at once (as pure
Python, with a warning to reinstall) and can never be hidden by a stale build.
``ZHUOJI_PURE=1`` forces pure Python.

Two ways in:

* :func:`select` returns a module's build (``zhuoji.hand`` re-exports the hand kernel's
  functions from ``select("hand_kernel")``);
* the modules of :data:`STAND_INS` are imported by their own names everywhere
  (``from zhuoji.engine import Round``): :class:`CompiledFinder`, put first on
  ``sys.meta_path`` when the package is imported, answers those imports with the compiled
  module when its group runs compiled, and leaves them to the ordinary ``.py`` import
  otherwise.  Either way one module object serves both names, so ``zhuoji.engine.Round`` is
  one class.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

#: groups of modules compiled at install (names inside the ``zhuoji`` package), by group name
GROUPS: dict[str, tuple[str, ...]] = {
    # hand analysis: the count-array arithmetic, and every discard of a hand at once (bots)
    "hand_kernel": ("hand_kernel", "discard_kernel"),
    # the realizations of a complete hand without wild tiles (settlement values every win:
    # issue 29 item 4): the kernel's standard splits made groups, the other forms' records,
    # assembled natively.  A group of its own that imports nothing of the package
    # (zhuoji/hand.py hands it the kernel's functions and its records' class)
    "realize": ("hand_realize",),
    # the round engine and what it calls on every action: its state and its phases (deal,
    # turn, claim and rob windows, finish, and the hand checks they share), its wall and the
    # reveals made in it, its event log, the observation bots read it through, and the
    # self-play loop
    "engine": (
        "engine",
        "round_state",
        "round_checks",
        "round_deal",
        "round_turn",
        "round_claims",
        "round_finish",
        "wall",
        "reveals",
        "events",
        "observation",
        "autoplay",
    ),
    # the expert bot: its value model (target shapes, pattern values, the outlook chain),
    # its danger model, its remembering hand analysis and its decisions (their classes are
    # non-native: Python classes whose methods are compiled, so subclasses, class constants
    # and monkeypatching behave as in Python)
    "expert": (
        "agents.expert_value",
        "agents.expert_danger",
        "agents.expert_memo",
        "agents.expert",
    ),
    # the bots' table view and hand analysis, and the greedy bot that cautious and expert
    # build on
    "bots": ("agents.analysis", "agents.greedy"),
    # the cautious bot: its reading of the opponents (who is ready, which tiles they wait
    # on), which the expert's danger model asks every decision.  A group of its own: its
    # bot is a non-native class (a Python class whose methods are compiled) subclassing the
    # greedy bot, and the expert's reading subclasses it in turn
    "cautious": ("agents.cautious",),
    # the pattern screen the 通行证 check reads a hand's value from (the engine and the bots
    # call it; a group of its own, since the engine imports it while it loads)
    "screen": ("rules.screen",),
    # the pricing interface and the chicken pricer: the expert asks them for every option it
    # values.  The hook modules import the contract while the catalog loads them, so the
    # group's members import nothing of the hook modules at load (the chicken pricer reads
    # the stage's functions when it is built), and the chicken pricer subclasses the
    # contract's Pricer natively (one group: mypyc sees both)
    "pricing": ("contract.pricing", "rules.chickens.pricing"),
    # the chickens stage's hot part (issue 29): 冲锋, 横鸡 and 责任 from the discards, who
    # holds which chickens and what they earn, who pays whom.  The chickens hook's own
    # modules; the package's __init__ (through stage.py) imports them first, and they
    # import nothing of the package that imports them back
    "chickens": (
        "rules.chickens.discards",
        "rules.chickens.ownership",
        "rules.chickens.payment",
    ),
    # the facts of a realization of a hand (every win settlement pays, every row matched):
    # rules/facts.py's kernel, which imports only the hand, the round's outcome and the
    # tiles (facts.py, with its pydantic model, re-exports it)
    "facts": ("rules.facts_kernel",),
    # the win payment's arithmetic (every win settlement pays): the hu hook's own kernel,
    # over its parameters read once into a plain class; it imports the ledger and the
    # round's outcome only (rules/hu.py, with its pydantic models, imports it)
    "hu": ("rules.hu_kernel",),
    # the ledger's constructors and payment (every entry, every fact settlement writes):
    # contract/ledger.py's kernel, which imports nothing of the package (the ledger hands it
    # its classes when it loads)
    "ledger": ("contract.ledger_kernel",),
    # the settle context every settlement stage is called with and pays through (its
    # readiness, hand values and payments; issue 29): it imports the ledger, the hand, the
    # round's outcome and the pattern evaluation, none of which imports it back
    "context": ("contract.context", "rules.patterns"),
    # the table server's per-seat views (issue 26 item 8): each seat's round view with its
    # names and menu, its waits and the waits each discard would leave, built for every
    # seat after every action; pure functions of the round (no FastAPI, no SQLAlchemy)
    "views": ("hints", "server.client_view"),
    # the round end and its seats as native classes (outcome.RoundEnd, SeatEnd), and the frozen
    # records that stay Python built without their generated __init__ (outcome.frozen_from: a
    # win's context, the pattern components; issue 29): in the lowest layer beside
    # zhuoji/outcome.py, importing nothing of the package
    "outcome": ("outcome_kernel",),
}
#: every compiled module
MODULES = tuple(name for group in GROUPS.values() for name in group)
#: modules whose compiled build stands in for them under their own name (CompiledFinder)
STAND_INS = (
    GROUPS["engine"]
    + GROUPS["expert"]
    + GROUPS["bots"]
    + GROUPS["cautious"]
    + GROUPS["screen"]
    + GROUPS["pricing"]
    + GROUPS["chickens"]
    + GROUPS["facts"]
    + GROUPS["hu"]
    + GROUPS["ledger"]
    + GROUPS["context"]
    + GROUPS["views"]
    + GROUPS["outcome"]
)
#: set to ``1`` to run every module as pure Python, compiled or not
PURE_ENV = "ZHUOJI_PURE"
#: the attribute a compiled module carries: the SHA-256 of the source it was built from
HASH_ATTR = "SOURCE_SHA256"
#: the package compiled modules live in
COMPILED_PACKAGE = "zhuoji._compiled"


def source_hash(path: Path) -> str:
    """The hash the build records (over the source file's bytes)."""
    import hashlib  # only when a compiled module is looked at (not at CLI start-up)

    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_name(name: str) -> str:
    """The module name of ``zhuoji.<name>``'s build inside :data:`COMPILED_PACKAGE`, which is
    flat: ``agents.expert_value`` → ``agents_expert_value``."""
    return name.replace(".", "_")


def source_path(name: str) -> Path:
    """The ``.py`` file of ``zhuoji.<name>`` (``name`` may be dotted: ``agents.expert_value``),
    found without importing it."""
    path = Path(__file__).parent.joinpath(*name.split(".")).with_suffix(".py")
    if not path.is_file():
        raise ImportError(f"zhuoji.{name} has no source file {path}")
    return path


def compiled_source(name: str, path: Path | None = None) -> str:
    """The text ``setup.py`` compiles for ``zhuoji.<name>``: its source (``path``, by default
    the package's file), with the imports of its group's other modules naming their compiled
    builds (``from zhuoji.wall import`` → ``from zhuoji._compiled.wall import``, so mypyc
    links them natively), and the source's hash appended as :data:`HASH_ATTR`."""
    import re

    source = path or source_path(name)
    members = "|".join(re.escape(m) for m in GROUPS[group_of(name)])
    pattern = re.compile(rf"^(\s*(?:from|import) )zhuoji\.({members})\b", re.MULTILINE)
    text = pattern.sub(
        lambda m: f"{m[1]}{COMPILED_PACKAGE}.{compiled_name(m[2])}",
        source.read_text(encoding="utf-8"),
    )
    return f"{text}\n\n{HASH_ATTR}: str = {source_hash(source)!r}  # written by setup.py\n"


def compiled_module(name: str) -> ModuleType | None:
    """The compiled build of ``zhuoji.<name>``, or None when it was not built."""
    try:
        return importlib.import_module(f"{COMPILED_PACKAGE}.{compiled_name(name)}")
    except ImportError:
        return None


def group_of(name: str) -> str:
    for group, members in GROUPS.items():
        if name in members:
            return group
    raise KeyError(f"zhuoji.{name} is not a compiled module")


def choose_group(
    builds: Sequence[ModuleType], sources: Sequence[Path], env: Mapping[str, str]
) -> bool:
    """Whether to run a group's compiled ``builds`` rather than pure Python: ``env`` does not
    ask for pure Python, and each was built from its source in ``sources`` as it is now
    (else a warning names the changed files)."""
    if env.get(PURE_ENV, "") not in ("", "0"):
        return False
    changed = [
        str(source)
        for build, source in zip(builds, sources, strict=True)
        if getattr(build, HASH_ATTR, None) != source_hash(source)
    ]
    if not changed:
        return True
    names = ", ".join(f"zhuoji.{Path(s).stem}" for s in sources)
    warnings.warn(
        f"{', '.join(changed)} changed since it was compiled; running {names} as pure Python "
        "(reinstall to compile it again: pip install -e .)",
        RuntimeWarning,
        stacklevel=4,
    )
    return False


def choose(compiled: ModuleType, source: Path, env: Mapping[str, str]) -> bool:
    """:func:`choose_group` for a group of one module."""
    return choose_group([compiled], [source], env)


@cache
def group_runs_compiled(group: str) -> bool:
    """Whether the group's compiled build runs (decided once per process)."""
    members = GROUPS[group]
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return False
    builds = [compiled_module(name) for name in members]
    if any(b is None for b in builds):
        return False
    sources = [source_path(name) for name in members]
    return choose_group([b for b in builds if b is not None], sources, os.environ)


def select(name: str) -> ModuleType:
    """``zhuoji._compiled.<name>`` when its group is current and wanted, else
    ``zhuoji.<name>``."""
    if group_runs_compiled(group_of(name)):
        return importlib.import_module(f"{COMPILED_PACKAGE}.{compiled_name(name)}")
    return importlib.import_module(f"zhuoji.{name}")


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` is a compiled build (a ``zhuoji._compiled`` module)."""
    return module.__name__.startswith(f"{COMPILED_PACKAGE}.")


class _StandIn:
    """Loader giving an already imported compiled module for another name."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        # the compiled module ran when it was imported under its own name; the import
        # system gave it the stand-in's spec: its own tells which build runs
        module.__spec__ = self.spec


class CompiledFinder:
    """Meta path finder: ``import zhuoji.engine`` (any module of :data:`STAND_INS`) gives
    the compiled module when its group runs compiled; otherwise it finds nothing and the
    ordinary import loads the ``.py`` file."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> ModuleSpec | None:
        package, _, name = fullname.partition(".")
        if package != "zhuoji" or name not in STAND_INS:
            return None
        if not group_runs_compiled(group_of(name)):
            return None
        module = importlib.import_module(f"{COMPILED_PACKAGE}.{compiled_name(name)}")
        loader = cast("Loader", _StandIn(module))  # the protocol, without importing importlib.abc
        return ModuleSpec(fullname, loader, origin=getattr(module, "__file__", None))


def install() -> None:
    """Put :class:`CompiledFinder` first on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, CompiledFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, CompiledFinder())
