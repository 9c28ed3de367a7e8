"""Settlement entries explained in words, in Chinese and English, for players.

Each ledger entry (``{payer, payee, amount, item, detail}``) gets a sentence naming the rule
behind it — 翻鸡 says which tile was revealed and which chicken that made
(「翻出五筒，六筒为鸡」), 闷豆 says it is a concealed kong — followed by the entry's own
detail.  The chicken sentences are built from the variant's ``settle.chickens`` parameters
(flip mode, golden rules; see :mod:`zhuoji.rules.chickens`) and the round's revealed tiles,
so they say what this round's settlement actually used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from zhuoji import tiles as T
from zhuoji.hints import _chicken_params, reveals_of
from zhuoji.outcome import RoundEnd
from zhuoji.rules.chickens import _flipped
from zhuoji.settle import item_label
from zhuoji.variant import Ruleset

#: item code (or its head before the dot) → what the rule is, in Chinese and English
ITEM_RULES: dict[str, tuple[str, str]] = {
    "hu.pattern": ("胡牌，按牌型算番", "a win, paid by the hand's pattern"),
    "hu.zimo": ("自摸：自己摸到胡牌", "self-draw: the winner drew the winning tile"),
    "hu.gangkai": ("杠开：杠后补牌自摸胡牌", "won on the replacement tile after a kong"),
    "hu.repao": ("热炮：杠后打出的牌被胡", "won on a discard made just after a kong"),
    "hu.qianggang": ("抢杠：胡别人补杠的那张牌", "won by robbing another player's added kong"),
    "hu.haidi": ("海底捞月：摸最后一张牌胡", "won on the last tile of the wall"),
    "hu.base": ("底分", "base payment"),
    "hu.bonus": ("加番", "bonus"),
    "lianzhuang": ("连庄：庄家连续坐庄", "dealer streak: the dealer kept the deal"),
    "baoting": ("报听：报听的玩家胡牌，按报听番数算", "a declared-ready (报听) hand won"),
    "shabao": ("杀报：胡了报听的玩家", "won against a player who had declared ready (报听)"),
    "ji.yaoji": ("幺鸡是常鸡，每局都算鸡", "1-bamboo (幺鸡) is a chicken in every round"),
    "ji.wugu": ("乌骨鸡（八筒）是常鸡", "8-dots (乌骨鸡) is a chicken in every round"),
    "ji.fanji": ("翻鸡", "flipped chicken"),
    "ji.jinji": ("金鸡", "golden chicken"),
    "ji.chongfeng": (
        "本局第一张打出的幺鸡没人碰杠，打出的人得冲锋鸡/英雄鸡",
        "the round's first discarded 1-bamboo was not claimed: its discarder scores it extra",
    ),
    "ji.zeren": (
        "责任鸡：本局第一张打出的幺鸡被碰或杠，打出的人多赔",
        "the round's first discarded 1-bamboo was claimed: its discarder pays extra",
    ),
    "ji.baoji": (
        "包鸡：没叫嘴（没听牌）的玩家打出或碰出的鸡要赔",
        "a player who was not ready pays for the chickens he discarded or melded",
    ),
    "dou.men": ("闷豆：暗杠，自己摸齐四张", "concealed kong: all four tiles drawn by the owner"),
    "dou.dian": ("点豆：杠别人打出的牌", "exposed kong on another player's discard"),
    "dou.zhuanwan": (
        "转弯豆：碰了以后又摸到第四张补杠",
        "added kong: the fourth tile added to a pung",
    ),
    "dou.hanbao": ("憨包豆：能杠时没杠，后来才杠", "late kong: not made when first possible"),
    "chajiao": (
        "查叫：荒庄时没听牌的玩家赔给听牌的玩家",
        "ready check after a drawn round: players not ready pay those who are",
    ),
    "baopai": ("包牌：放过胡又点炮，包赔", "liability: a player who passed a win later fed one"),
    "xianggong": ("相公：手牌张数不对", "wrong tile count"),
    "liability": ("包付", "liability"),
    "zui.rengbao": ("扔宝：第一张就打出宝牌", "the first discard was the wild tile"),
    "zui": ("按牌型算嘴", "a 嘴 the hand scores (六安 counting)"),
}

_FLIP_ZH = {"same": "本鸡", "updown": "上下鸡", "weekday": "星期鸡"}
_FLIP_EN = {"same": "the revealed tile itself", "updown": "one below and one above"}


@dataclass(frozen=True)
class ChickenRule:
    """One way a tile became a chicken this round, in words."""

    tile: int
    mark: str  # chicken | golden
    zh: str
    en: str

    def as_dict(self) -> dict[str, str]:
        return {"tile": T.text(self.tile), "mark": self.mark, "zh": self.zh, "en": self.en}


def chicken_rules(ruleset: Ruleset, end: RoundEnd) -> list[ChickenRule]:
    """The round's chickens and why: permanent ones, then per revealed tile the chickens it
    makes (翻鸡, by the variant's flip mode) and the golden ones (金鸡)."""
    p = _chicken_params(ruleset)
    if p is None:
        return []
    out: list[ChickenRule] = []
    for pc in p.permanent:
        k = T.parse_one(pc.tile)
        out.append(
            ChickenRule(k, "chicken", f"{pc.label}是常鸡", f"{T.name_en(k)} is always a chicken")
        )
    if end.is_draw:
        return out
    for reveal in reveals_of(end):
        shown, shown_en = T.name(reveal), T.name_en(reveal)
        if p.flip.mode != "none":
            made = _flipped(reveal, p.flip.mode, end.weekday)
            names = "、".join(T.name(k) for k in made)
            names_en = " and ".join(T.name_en(k) for k in made)
            how = f"（{_FLIP_ZH[p.flip.mode]}）" if p.flip.mode in _FLIP_ZH else ""
            how_en = f" ({_FLIP_EN[p.flip.mode]})" if p.flip.mode in _FLIP_EN else ""
            if p.flip.mode == "weekday":
                zh = f"今天星期{'一二三四五六日'[(end.weekday - 1) % 7]}，{names}为鸡{how}"
                en = f"weekday {end.weekday}: {names_en} are chickens"
            else:
                zh = f"翻出{shown}，{names}为鸡{how}"
                verb = "is a chicken" if len(made) == 1 else "are chickens"
                en = f"{shown_en} was revealed, so {names_en} {verb}{how_en}"
            out.extend(ChickenRule(k, "chicken", zh, en) for k in made)
        for g in p.golden:
            if reveal == T.parse_one(g.flip):
                k = T.parse_one(g.tile)
                out.append(
                    ChickenRule(
                        k,
                        "golden",
                        f"翻出{shown}，{T.name(k)}为金鸡（×{g.multiplier}）",
                        f"{shown_en} was revealed, so {T.name_en(k)} is a golden chicken (×{g.multiplier})",
                    )
                )
    return out


def _rule_words(item: str) -> tuple[str, str]:
    if item in ITEM_RULES:
        return ITEM_RULES[item]
    return ITEM_RULES.get(item.split(".")[0], ("", ""))


def explain_entry(entry: Mapping[str, Any], rules: list[ChickenRule]) -> tuple[str, str]:
    """A sentence for one ledger entry (``LedgerEntry.as_dict()``): the rule, then what this
    entry counted.  Chicken entries name the chicken rule that applied to their tile."""
    item = str(entry.get("item", ""))
    detail = str(entry.get("detail", ""))
    zh, en = _rule_words(item)
    if item in ("ji.fanji", "ji.jinji"):
        mark = "golden" if item == "ji.jinji" else "chicken"
        hit = next((r for r in rules if r.mark == mark and T.name(r.tile) in detail), None)
        if hit is not None:
            zh, en = hit.zh, hit.en
    if not zh:  # an item with no sentence here (a plug-in's): its label
        zh, en = item_label(item)
    return f"{zh}：{detail}" if detail else zh, f"{en}: {detail}" if detail else en


def explain_settlement(
    settlement: Mapping[str, Any], ruleset: Ruleset, end: RoundEnd
) -> dict[str, Any]:
    """A copy of a settlement (``zhuoji.report.settlement_json`` and the server's additions)
    whose entries carry ``why`` / ``why_en``, with the round's ``chickens`` rules."""
    rules = chicken_rules(ruleset, end)
    out = dict(settlement)
    entries = []
    for e in settlement.get("entries", []):
        zh, en = explain_entry(e, rules)
        entries.append({**e, "why": zh, "why_en": en})
    out["entries"] = entries
    out["chickens"] = [r.as_dict() for r in rules]
    return out
