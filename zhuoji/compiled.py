"""Which build of a compiled module runs: the mypyc build when it is current, else pure Python.

Installing the package compiles the hot modules listed in :data:`MODULES` with mypyc
(``setup.py``; ``docs/build.md``).  The compiled module is not put beside its source under
the same name, where it would shadow the ``.py`` file: ``zhuoji/hand_kernel.py`` compiles to
``zhuoji._compiled.hand_kernel``, which records the SHA-256 of the source it was built from.
:func:`select` returns the compiled module only when that hash matches the source file as it
is now, so an edit to the source runs at once (as pure Python, with a warning to reinstall)
and can never be hidden by a stale build.  ``ZHUOJI_PURE=1`` forces pure Python.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

#: modules compiled at install, by name inside the ``zhuoji`` package
MODULES = ("hand_kernel",)
#: set to ``1`` to run every module as pure Python, compiled or not
PURE_ENV = "ZHUOJI_PURE"
#: the attribute a compiled module carries: the SHA-256 of the source it was built from
HASH_ATTR = "SOURCE_SHA256"


def source_hash(path: Path) -> str:
    """The hash the build records (over the source file's bytes)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_path(name: str) -> Path:
    """The ``.py`` file of ``zhuoji.<name>``, found without importing it."""
    spec = importlib.util.find_spec(f"zhuoji.{name}")
    if spec is None or spec.origin is None:
        raise ImportError(f"zhuoji.{name} has no source file")
    return Path(spec.origin)


def compiled_module(name: str) -> ModuleType | None:
    """The compiled build of ``zhuoji.<name>``, or None when it was not built."""
    try:
        return importlib.import_module(f"zhuoji._compiled.{name}")
    except ImportError:
        return None


def choose(compiled: ModuleType, source: Path, env: Mapping[str, str]) -> bool:
    """Whether to run ``compiled`` rather than the pure module: ``env`` does not ask for pure
    Python, and it was built from ``source`` as it is now (else a warning says so)."""
    if env.get(PURE_ENV, "") not in ("", "0"):
        return False
    if getattr(compiled, HASH_ATTR, None) == source_hash(source):
        return True
    warnings.warn(
        f"{source} changed since it was compiled; running it as pure Python "
        "(reinstall to compile it again: pip install -e .)",
        RuntimeWarning,
        stacklevel=3,
    )
    return False


def select(name: str) -> ModuleType:
    """``zhuoji._compiled.<name>`` when it is current and wanted, else ``zhuoji.<name>``."""
    compiled = compiled_module(name)
    if compiled is not None and choose(compiled, source_path(name), os.environ):
        return compiled
    return importlib.import_module(f"zhuoji.{name}")


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` is a compiled build (a ``zhuoji._compiled`` module)."""
    return module.__name__.startswith("zhuoji._compiled.")
