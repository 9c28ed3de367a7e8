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
from zhuoji.outcome import RevealAt, RoundEnd
from zhuoji.rules.catalog import item_label
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import _made, weekday_kinds
from zhuoji.ruleset import Ruleset

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
    "ji": ("捉鸡", "chickens"),
    "ji.changji": ("常鸡：每局都算鸡的牌", "a permanent chicken: a chicken in every round"),
    "ji.xingqi": (
        "星期鸡：当天星期几，各门的那张为鸡",
        "weekday chicken: the day's rank in each suit",
    ),
    "ji.hengji": ("横鸡：一种鸡牌第一次被打出", "the first discarded copy of a chicken kind"),
    "ji.net": ("鸡数两两相抵，按差额付", "chickens settled pairwise: the difference is paid"),
    "ji.shouquan": ("首圈鸡：第一圈内打出的冲锋鸡或责任鸡", "冲锋/责任 made in the first go-round"),
    "ji.zhanji": (
        "站鸡：一直留在手里的鸡另外算分",
        "chickens still standing in the hand score extra",
    ),
    "ji.zhuopao": ("捉炮鸡：胡了别人打出的鸡牌", "a discarded chicken was won on"),
    "huazhu": (
        "查花猪：荒庄时手里还有定缺那门牌的玩家要赔",
        "after a draw, a hand still holding its void suit pays",
    ),
    "dajiao": (
        "查大叫：荒庄时没听牌的玩家按听牌玩家的最大番赔",
        "after a draw, players not ready pay ready ones their largest value",
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

#: what a reveal makes, by the set of directions (``flip.makes``), when it has a name
_MAKES_ZH = {("same",): "本鸡", ("next", "prev"): "上下鸡"}
_MAKES_EN = {("same",): "the revealed tile itself", ("next", "prev"): "one below and one above"}
_DAYS = "一二三四五六日"


@dataclass(frozen=True)
class ChickenRule:
    """One way a tile became a chicken this round, in words."""

    tile: int
    mark: str  # chicken | golden
    zh: str
    en: str

    def as_dict(self) -> dict[str, str]:
        return {"tile": T.text(self.tile), "mark": self.mark, "zh": self.zh, "en": self.en}


def _names(kinds: list[int]) -> tuple[str, str]:
    return "、".join(T.name(k) for k in kinds), " and ".join(T.name_en(k) for k in kinds)


def chicken_rules(ruleset: Ruleset, end: RoundEnd) -> list[ChickenRule]:
    """The round's chickens and why, from the variant's ``settle.chickens`` parameters
    (:mod:`zhuoji.rules.chickens`) and the round's reveals: permanent ones (常鸡), per
    counting reveal the chickens it makes (翻鸡, by ``flip.makes``), golden ones (金鸡), the
    day's (星期鸡) — or, after a 吹风鸡 reveal, that nothing is a chicken."""
    p = next((b.params for b in ruleset.stages if isinstance(b.params, ChickenParams)), None)
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
    reveals = ruleset.variant.deal.counting(end.reveals)
    if p.chuifeng is not None:
        blowers = {T.parse_one(t) for t in p.chuifeng.tiles}
        blown = [r.tile for r in reveals if r.at is RevealAt.WIN and r.tile in blowers]
        if blown:
            k = blown[0]
            return [
                ChickenRule(
                    k,
                    "none",
                    f"翻出{T.name(k)}（吹风鸡），本局不算鸡",
                    f"{T.name_en(k)} was revealed (吹风鸡): no chickens this round",
                )
            ]
    for r in reveals:
        makes = p.flip.makes
        if r.at is not RevealAt.WIN and p.flip.in_play_makes is not None:
            makes = p.flip.in_play_makes
        made = _made(r.tile, makes)
        if not made:
            continue
        names, names_en = _names(made)
        key = tuple(sorted(set(makes)))
        how = f"（{_MAKES_ZH[key]}）" if key in _MAKES_ZH else ""
        how_en = f" ({_MAKES_EN[key]})" if key in _MAKES_EN else ""
        verb = "is a chicken" if len(made) == 1 else "are chickens"
        zh = f"翻出{T.name(r.tile)}，{names}为鸡{how}"
        en = f"{T.name_en(r.tile)} was revealed, so {names_en} {verb}{how_en}"
        out.extend(ChickenRule(k, "chicken", zh, en) for k in made)
    shown = {r.tile for r in reveals}
    for g in p.golden:
        flip, k = T.parse_one(g.flip), T.parse_one(g.tile)
        if flip in shown:
            zh = f"翻出{T.name(flip)}，{T.name(k)}为金鸡（×{g.multiplier}）"
            en = f"{T.name_en(flip)} was revealed, so {T.name_en(k)} is a golden chicken (×{g.multiplier})"
            out.append(ChickenRule(k, "golden", zh, en))
    if p.weekday is not None and p.weekday.value:
        made = weekday_kinds(end.weekday)
        names, names_en = _names(made)
        zh = f"今天星期{_DAYS[(end.weekday - 1) % 7]}，{names}为鸡（星期鸡）"
        en = f"weekday {end.weekday}: {names_en} are chickens (星期鸡)"
        out.extend(ChickenRule(k, "chicken", zh, en) for k in made)
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
    # a chicken made this round: the sentence of the rule that made its tile one
    made_by = {
        "ji.fanji": ("chicken", "翻出"),
        "ji.jinji": ("golden", "翻出"),
        "ji.xingqi": ("chicken", "今天"),
    }
    if item in made_by:
        mark, opening = made_by[item]
        hit = next(
            (
                r
                for r in rules
                if r.mark == mark and r.zh.startswith(opening) and T.name(r.tile) in detail
            ),
            None,
        )
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
