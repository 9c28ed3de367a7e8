"""Chickens (``settle.chickens``): which tiles are chickens this round, who holds them, who
pays whom — every mechanism of CITIES.md "Reveal and chicken mechanisms", from parameters.

Sources: seed 000 特殊玩法规则 2) (幺鸡 常鸡, 翻鸡 "顺位加一", 金鸡, 冲锋鸡 ×2 / 金 ×4, 责任鸡
"多赔付一番", 手上鸡 vs 内外鸡); seed 001 进阶规则 一/二 (each chicken 1 from every other
player, 叫嘴 required, 金鸡 ×2, 英雄鸡 ×3 / ×6, 责任鸡 +2, 内外鸡, 包鸡); seed 004 鸡 (固定鸡 +
单鸡); CITIES.md for the city readings (FW, GA, ZA, DS, Q, RL).

Modules, in the order the stage uses them:

* :mod:`~zhuoji.rules.chickens.params` — the parameters (the variant file's keys);
* :mod:`~zhuoji.rules.chickens.values` — the round's chicken kinds and values from its
  reveals, golden rules and weekday;
* :mod:`~zhuoji.rules.chickens.discards` — 冲锋鸡, 横鸡 and 责任鸡 from the discards;
* :mod:`~zhuoji.rules.chickens.ownership` — who holds what (hand, melds, discards, the won
  tile once), 站鸡 and 捉炮鸡;
* :mod:`~zhuoji.rules.chickens.payment` — collectors, payers, pairwise settlement, 包鸡;
* :mod:`~zhuoji.rules.chickens.stage` — the registered stage;
* :mod:`~zhuoji.rules.chickens.pricing` — what chickens are worth to a bot deciding (the
  stage's own tables and rules, in expectation; :mod:`zhuoji.contract.pricing`);
* :mod:`~zhuoji.rules.chickens.marks` — :func:`chicken_marks` for clients.

No tile is named here: every tile comes from the variant.  Payments are in units (the
stake is the ledger's).
"""

from zhuoji.rules.chickens import stage  # noqa: F401  (registers the stage)
from zhuoji.rules.chickens.marks import chicken_marks

__all__ = ["chicken_marks"]
