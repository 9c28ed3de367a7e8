"""zhuoji — a configurable engine for Guizhou 捉鸡 mahjong and related regional rule sets.

One generic kernel plays and settles rounds; everything that differs between cities and
tables comes from YAML variant files (see ``docs/variants.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zhuoji import compiled as _compiled

__version__ = "0.1.0"

# ``import zhuoji.engine`` (and the other modules compiled with it) runs the mypyc build while
# it is current (zhuoji.compiled, docs/build.md)
_compiled.install()

if TYPE_CHECKING:
    from zhuoji.variant_io import load_variant as load_variant


def __getattr__(name: str) -> Any:
    # ``zhuoji.load_variant`` (docs/architecture.md) without importing the variant machinery eagerly
    if name == "load_variant":
        from zhuoji.variant_io import load_variant

        return load_variant
    raise AttributeError(f"module 'zhuoji' has no attribute {name!r}")
