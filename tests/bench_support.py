"""A script of ``bench/`` loaded as a module, for the tests of its command line."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).parent.parent / "bench"


def bench_module(name: str) -> ModuleType:
    """``bench/<name>.py`` as the module ``bench_<name>`` (registered, for its dataclasses)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
