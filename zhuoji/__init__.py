"""zhuoji — a configurable engine for Guizhou 捉鸡 mahjong and related regional rule sets.

One generic kernel plays and settles rounds; everything that differs between cities and
tables comes from YAML variant files (see ``docs/variants.md``).
"""

from __future__ import annotations

__version__ = "0.1.0"
