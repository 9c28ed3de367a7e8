"""Imports every built-in hook module, which registers its hooks (and their ledger labels)."""

from __future__ import annotations

from zhuoji.rules import (  # noqa: F401  (imported for registration)
    baoting,
    burn,
    chickens,
    dealer,
    dingque,
    dou,
    drawgame,
    hu,
    liability,
    win,
    zui,
)
