"""The compiled twin of a kernel module for the compiled-vs-pure comparisons.

Without a compiled build (a pure-Python install) a comparison skips, saying so, unless
``ZHUOJI_REQUIRE_COMPILED`` is set (as ``.ci/run`` sets it), where a missing build fails.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from zhuoji import compiled

REQUIRE = os.environ.get("ZHUOJI_REQUIRE_COMPILED", "") not in ("", "0")


def compiled_or_skip(name: str) -> ModuleType:
    """``zhuoji._compiled.<name>``; skips (fails under ``ZHUOJI_REQUIRE_COMPILED``) if absent."""
    module = compiled.compiled_module(name)
    if module is None:
        if REQUIRE:
            pytest.fail(f"ZHUOJI_REQUIRE_COMPILED is set but zhuoji._compiled.{name} is missing")
        pytest.skip("no compiled build (pure-Python install)")
    return module
