"""Chickens (``settle.chickens``): 幺鸡, flipped and golden chickens, 冲锋/英雄鸡, 责任鸡, 包鸡.

Sources: seed 000 特殊玩法规则 2) (幺鸡 常鸡, 翻鸡 "顺位加一", 金鸡, 冲锋鸡 ×2 / 金 ×4, 责任鸡
"多赔付一番", 手上鸡 vs 内外鸡); seed 001 进阶规则 一/二 (each chicken 1 from every other
player, 叫嘴 required, 金鸡 ×2, 英雄鸡 ×3 / ×6, 责任鸡 +2, 内外鸡, unready players pay for
their discarded or melded 幺鸡); seed 004 鸡 (固定鸡 + 单鸡).

Ownership: tiles in a player's hand (a winner's winning tile included) and melds; with
``scope: all`` (内外鸡) also his discards that nobody took.  The round's first discarded
幺鸡 is 冲锋鸡 for its discarder whatever the scope; if it was punged or konged it is not
冲锋, and the discarder pays the claimer the 责任鸡 extra.  Collectors (ready players, or
everyone) earn each chicken's value from every other player.  No chickens on a draw.
"""

from zhuoji.rules.chickens import stage  # noqa: F401  (registers the stage)
from zhuoji.rules.chickens.marks import chicken_marks

__all__ = ["chicken_marks"]
