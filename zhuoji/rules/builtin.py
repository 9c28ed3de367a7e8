"""Imports every built-in hook module, which registers its hooks (and their ledger labels)."""

from __future__ import annotations

from zhuoji.rules import (  # noqa: F401  (imported for registration)
    baoting,
    burn,
    chickens,
    dealer,
    dou,
    drawgame,
    hu,
    liability,
    win,
    zui,
)
from zhuoji.rules.registry import register_labels

# the ledger items of the chickens stage (rules/chickens.py pays them)
register_labels(
    {
        "ji.yaoji": ("幺鸡", "permanent chicken"),
        "ji.wugu": ("乌骨鸡", "8-dots chicken"),
        "ji.fanji": ("翻鸡", "flipped chicken"),
        "ji.jinji": ("金鸡", "golden chicken"),
        "ji.chongfeng": ("冲锋鸡/英雄鸡", "first 1-bamboo discarded"),
        "ji.zeren": ("责任鸡", "first 1-bamboo claimed"),
        "ji.baoji": ("包鸡", "unready player's chickens"),
    }
)
