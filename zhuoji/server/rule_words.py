"""The rules of a variant in the words of a person, one language at a time.

The table server says rules to people in three places: the operator's new-table form
(:mod:`zhuoji.server.rule_form`), a table's house rules (lobby, table page, operator's
list) and the form's errors.  The schema's titles (``责任鸡 extra``) mix the two languages
and its keys are code names; this module holds, for every rule field a shipped variant
has, its name in Chinese and in English (``责任鸡加付`` / ``responsibility chicken: extra``),
the words for the choices of a field (``discarder`` → 放炮者 / the discarder), and the form's
sections.  The Chinese terms are those of ``RULES.md``'s glossary; the English ones its
meanings.  A field a new variant adds without words here is named from its code in English
and by its section in Chinese, and ``tests/test_server_rule_words.py`` names it.

:func:`house_rule_words` says difference rows (:func:`zhuoji.variants_cmd.diff`) as
``{"zh": "责任鸡加付：1 → 3", "en": "responsibility chicken: extra: 1 → 3"}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from zhuoji import tiles as T

#: a rule field's words: dotted path → (Chinese, English)
FIELD_WORDS: dict[str, tuple[str, str]] = {
    "stake": ("底注", "stake"),
    "match.rounds": ("每场局数", "rounds per match"),
    # tiles and the deal
    "tiles.set": ("牌张", "tile set"),
    "tiles.players": ("人数", "players"),
    "tiles.hand_size": ("手牌张数", "hand size"),
    "tiles.flowers": ("花牌张数（补花）", "flower tiles (set aside and replaced)"),
    "deal.first_dealer": ("首局坐庄", "first dealer"),
    "deal.wall_break": ("开牌位置", "wall break"),
    "deal.replacement": ("杠后补牌", "kong replacement draw"),
    "deal.reveal": ("翻鸡取牌", "chicken reveal from"),
    # claims
    "claims.chi": ("可以吃", "chow allowed"),
    "claims.peng": ("可以碰", "pung allowed"),
    "claims.kongs.concealed": ("可以闷豆（暗杠）", "concealed kong allowed"),
    "claims.kongs.exposed": ("可以点豆（明杠）", "exposed kong allowed"),
    "claims.kongs.added": ("可以转弯豆（补杠）", "added kong allowed"),
    "claims.win_on_discard": ("可以点炮胡", "win on a discard"),
    "claims.multiple_winners": ("一炮多响", "several winners on one discard"),
    "claims.pass_lock": ("过水不胡", "pass lock"),
    "claims.last_tile_kong": ("最后一张可杠", "kong on the last tile"),
    # declaring ready
    "baoting.hard": ("硬报", "hard declaration (dealer, first 14 tiles)"),
    "baoting.soft": ("软报", "soft declaration (after the first draw)"),
    "baoting.allow_peng": ("报听后可碰", "pung after declaring"),
    "baoting.allow_kong": ("报听后可杠", "kong after declaring"),
    "baoting.automatic": ("自动报叫", "declare automatically"),
    "repao.scope": ("热炮范围", "hot shot: when"),
    "repao.late_kongs": ("憨包杠算热炮", "late kongs make a hot shot"),
    # winning forms and who may win
    "forms.quads_as_two_pairs": ("四张算两对", "four alike as two pairs"),
    "forms.shisanlan": ("十三烂要求", "thirteen orphans-like hand: strictness"),
    "may_win.pass.min_pattern_fan": ("通行证：牌型门槛", "pass to win: pattern threshold"),
    "may_win.pass.dou": ("有豆可胡", "a kong is a pass"),
    "may_win.pass.late_kong": ("憨包杠可胡", "a late kong is a pass"),
    "may_win.pass.first_turn": ("首轮不需通行证", "first turn needs no pass"),
    "may_win.pass.declared": ("报听可胡", "declared ready is a pass"),
    "may_win.pass.from_declared": ("可胡报听者的牌", "win on a declared player's discard"),
    "may_win.pass.repao": ("热炮不需通行证", "hot shot needs no pass"),
    "may_win.pass.rob_kong": ("抢杠不需通行证", "robbing a kong needs no pass"),
    # the dealer
    "dealer.two_winners": ("两家胡后坐庄", "next dealer after two winners"),
    "dealer.three_winners": ("三家胡后坐庄", "next dealer after three winners"),
    "dealer.draw_dealer_stays": ("荒庄庄家留庄", "dealer stays after any draw"),
    "dealer.draw_none_ready_streak": ("荒庄无人叫：连庄", "draw, nobody ready: streak"),
    "dealer.draw_all_ready_streak": ("荒庄全叫：连庄", "draw, everyone ready: streak"),
    "dealer.draw_three_ready_unready_deals": ("三家叫：未叫者坐庄", "three ready: the unready one deals"),
    "dealer.stay_on_draw": ("荒庄留庄", "dealer stays on a draw"),
    "dealer.streak_on_draw": ("荒庄连庄", "streak on a draw"),
    # settlement: the win
    "settle.baopai.multiplier": ("包牌倍数", "liability multiplier"),
    "settle.hu.discard_paid_by": ("点炮由谁付", "a win on a discard is paid by"),
    "settle.hu.rob_kong_paid_by": ("抢杠由谁付", "robbing a kong is paid by"),
    "settle.hu.rob_kong_as_self_draw": ("抢杠算自摸", "robbing a kong counts as a self-draw"),
    "settle.hu.rob_kong_dealer_part": ("抢杠的庄家分", "robbing a kong: dealer part"),
    "settle.hu.dealer_bonus": ("庄家分", "dealer part"),
    "settle.hu.dealer_bonus_max_pattern": ("庄家分不超过牌型分", "dealer part at most the pattern"),
    "settle.hu.streak_bonus": ("每次连庄加分", "per dealer streak"),
    "settle.hu.other_bonus": ("闲家底分", "non-dealer base"),
    "settle.hu.multipliers.self_draw": ("自摸倍数", "self-draw multiplier"),
    "settle.hu.multipliers.gangkai": ("杠开倍数", "win on a kong replacement: multiplier"),
    "settle.hu.multipliers.repao": ("热炮倍数", "hot shot multiplier"),
    "settle.hu.multipliers.rob_kong": ("抢杠倍数", "robbing a kong: multiplier"),
    "settle.hu.multipliers.dealer_wins": ("庄家胡翻倍", "dealer wins: multiplier"),
    "settle.hu.multipliers.dealer_pays": ("庄家付翻倍", "dealer pays: multiplier"),
    "settle.hu.baoting.mode": ("胡牌时报听分算法", "declared ready at a win: how it counts"),
    "settle.hu.baoting.hard": ("胡牌时硬报分", "hard declaration at a win"),
    "settle.hu.baoting.soft": ("胡牌时软报分", "soft declaration at a win"),
    "settle.shabao.value": ("杀报分", "beating a declared player"),
    "settle.shabao.on_discard": ("点炮杀报", "beating a declared player on a discard"),
    "settle.shabao.on_self_draw": ("自摸杀报", "beating a declared player by self-draw"),
    "settle.shabao.others_on_discard": ("点炮时每个报听输家都杀报", "every declared loser pays on a discard"),
    "settle.burn.repao.chickens": ("热炮烧鸡", "hot shot burns chickens"),
    "settle.burn.repao.dou": ("热炮烧豆", "hot shot burns kongs"),
    "settle.burn.repao.kong_to_winner": ("热炮烧的杠分给胡家", "burnt kong paid to the winner"),
    "settle.burn.rob_kong.chickens": ("抢杠烧鸡", "robbing a kong burns chickens"),
    "settle.burn.rob_kong.dou": ("抢杠烧豆", "robbing a kong burns kongs"),
    # settlement: chickens
    "settle.chickens.flip.value": ("翻鸡分", "flipped chicken value"),
    "settle.chickens.kong_counts": ("杠里的鸡算几张", "chickens in a kong count as"),
    "settle.chickens.scope": ("算鸡范围", "which chickens count"),
    "settle.chickens.won_tile": ("胡的那张鸡", "the winning tile as a chicken"),
    "settle.chickens.zhuopao": ("捉炮鸡", "chicken dealt in"),
    "settle.chickens.chongfeng.label": ("冲锋鸡叫法", "first chicken: its name"),
    "settle.chickens.chongfeng.multiplier": ("冲锋鸡倍数", "first chicken multiplier"),
    "settle.chickens.chongfeng.golden_multiplier": ("金冲锋鸡倍数", "golden first chicken multiplier"),
    "settle.chickens.chongfeng.first": ("冲锋鸡：谁的第一张", "first chicken: whose first discard"),
    "settle.chickens.chongfeng.claimed": ("冲锋鸡被碰杠时", "first chicken when claimed"),
    "settle.chickens.chongfeng.also_discard": ("冲锋鸡也算打出的鸡", "first chicken is also a discarded chicken"),
    "settle.chickens.chongfeng.tiles": ("冲锋鸡的牌", "first chicken: which tiles"),
    "settle.chickens.chongfeng.shouquan.multiplier": ("首圈冲锋鸡倍数", "first-go-round chicken multiplier"),
    "settle.chickens.chongfeng.shouquan.golden_multiplier": (
        "首圈金冲锋鸡倍数", "golden first-go-round chicken multiplier",
    ),
    "settle.chickens.chongfeng.shouquan.label": ("首圈冲锋鸡叫法", "first-go-round chicken: its name"),
    "settle.chickens.hengji.tiles": ("横鸡的牌", "crossed chicken: which tiles"),
    "settle.chickens.hengji.multiplier": ("横鸡倍数", "crossed chicken multiplier"),
    "settle.chickens.hengji.label": ("横鸡叫法", "crossed chicken: its name"),
    "settle.chickens.zeren.extra": ("责任鸡加付", "responsibility chicken: extra"),
    "settle.chickens.zeren.premium": ("责任鸡另付一份", "responsibility chicken: a premium too"),
    "settle.chickens.zeren.claims": ("责任鸡算哪次碰杠", "responsibility chicken: which claims"),
    "settle.chickens.zeren.discarder": ("责任鸡的放鸡者", "responsibility chicken: which discarder"),
    "settle.chickens.zeren.claimer_unready": ("碰鸡者未叫时", "responsibility chicken: claimer not ready"),
    "settle.chickens.zeren.claimer_pays_back": ("碰鸡者倒赔", "responsibility chicken: what the claimer pays back"),
    "settle.chickens.zeren.tiles": ("责任鸡的牌", "responsibility chicken: which tiles"),
    "settle.chickens.unready_pays.tiles": ("包鸡的牌", "unready pays for chickens: which tiles"),
    "settle.chickens.unready_pays.payees": ("包鸡付给谁", "unready pays for chickens: to whom"),
    "settle.chickens.unready_pays.discards_paid_by": ("打出的鸡谁包", "discarded chickens paid by"),
    "settle.chickens.collectors": ("谁收鸡分", "who collects for chickens"),
    "settle.chickens.payers": ("谁付鸡分", "who pays a collector"),
    "settle.chickens.payment": ("鸡分怎么付", "how chickens are paid"),
    # settlement: kongs (dou)
    "settle.dou.values.concealed": ("闷豆分", "concealed kong value"),
    "settle.dou.values.exposed": ("点豆分", "exposed kong value"),
    "settle.dou.values.added": ("转弯豆分", "added kong value"),
    "settle.dou.jiandousan": ("见豆三", "every kong pays three"),
    "settle.dou.jiandousan_value": ("见豆三分", "every kong pays: value"),
    "settle.dou.exposed_paid_by": ("点豆由谁付", "exposed kong paid by"),
    "settle.dou.requires_ready": ("豆要叫牌才算", "kongs count only when ready"),
    "settle.dou.unready_pays": ("未叫者包杠", "unready konger pays"),
    "settle.dou.unready_pays_to": ("包杠付给谁", "unready konger pays whom"),
    "settle.dou.unready_pays_on": ("包杠在哪种结局", "unready konger pays when the round ends by"),
    "settle.dou.late_value": ("憨包豆分", "late kong value"),
    "settle.dou.void_on_draw": ("荒庄豆不算", "kongs void on a draw"),
    # settlement: a draw and other items
    "settle.flowers.value": ("补花鸡分", "flower chicken value"),
    "settle.chajiao.extra": ("查叫加分", "ready check: extra"),
    "settle.chajiao.streak_extra": ("查叫加连庄分", "ready check: streak extra"),
    "settle.chajiao.baoting.mode": ("查叫时报听分算法", "declared ready at a ready check: how it counts"),
    "settle.chajiao.baoting.hard": ("查叫时硬报分", "hard declaration at a ready check"),
    "settle.chajiao.baoting.soft": ("查叫时软报分", "soft declaration at a ready check"),
    "settle.dajiao.extra": ("查大叫加分", "best ready check: extra"),
    "settle.huazhu.value": ("查花猪分", "three-suit hand check: value"),
    "settle.huazhu.per_tile": ("查花猪按张算", "three-suit hand check: per tile"),
    "settle.huazhu.after_wins": ("胡后查缺", "void check after wins"),
    "settle.huazhu.payees": ("查花猪付给谁", "three-suit hand check: to whom"),
    "settle.xianggong.value": ("相公分", "wrong tile count: value"),
    "settle.xianggong.when_ready": ("相公按谁的叫算", "wrong tile count: whose ready value"),
    "settle.manji.fan": ("满鸡分", "full chickens value"),
    "settle.twelve_down.feeder_liable": ("十二张落地：放张者包", "twelve tiles down: feeder liable for"),
    "settle.peng_sets.min_sets": ("碰几对门槛", "pung sets: threshold"),
    "settle.reng_bao.value": ("扔宝分", "throwing the wild: value"),
    # the wild tile and the void suit
    "wild.indicator": ("宝牌翻牌", "wild indicator from"),
    "wild.stand_in": ("替身牌", "stand-in tile"),
    "wild.stand_in_when": ("替身牌何时可用", "stand-in applies"),
    "wild.claimable": ("宝牌可碰杠", "wild may be claimed"),
    "wild.discard": ("扔宝", "discarding the wild"),
    "wild.live_wall_ends_at_indicator": ("牌墙止于宝牌", "wall ends at the indicator"),
    "dingque.meld_void": ("可碰缺门", "meld the void suit"),
    "dingque.discard_void_first": ("先打缺门", "discard the void suit first"),
}  # fmt: skip

#: a choice's words: value → (Chinese, English); values are code names shared by fields
CHOICE_WORDS: dict[str, tuple[str, str]] = {
    "add": ("加上", "added"),
    "after_dou": ("杠后", "after a kong"),
    "after_kong": ("杠后", "after a kong"),
    "all": ("全部", "all"),
    "always": ("总是", "always"),
    "amount": ("分额", "the amount"),
    "any": ("任何", "any"),
    "any_tile": ("任何牌", "any tile"),
    "at_end": ("局终时", "at the end"),
    "claimer": ("碰杠者", "the claimer"),
    "dealer_wins": ("庄家胡时", "when the dealer wins"),
    "dice": ("掷骰", "by dice"),
    "discarder": ("放炮者", "the discarder"),
    "each": ("各付", "each pays"),
    "east": ("东家", "East"),
    "every": ("每次", "every one"),
    "ever": ("曾经叫牌", "ever ready"),
    "every_unready": ("每个未叫者", "every unready player"),
    "every_win": ("每次胡牌", "every win"),
    "face_and_amount": ("牌面和分额", "face and amount"),
    "feeder": ("放杠者", "the feeder"),
    "fixed": ("固定位置", "a fixed place"),
    "first": ("第一次", "the first"),
    "first_after_discarder": ("放炮者后第一家", "first after the discarder"),
    "first_only": ("只限第一张", "the first only"),
    "floor": ("保底", "as a floor"),
    "full": ("全部", "in full"),
    "hand": ("手上鸡", "in hand only"),
    "head": ("牌墙头", "the wall's head"),
    "kong": ("杠", "a kong"),
    "konger": ("杠主", "the konger"),
    "nearest_to_dealer": ("离庄家最近者", "nearest to the dealer"),
    "never": ("从不", "never"),
    "none": ("无", "none"),
    "others": ("其他玩家", "the others"),
    "own": ("自己的", "one's own"),
    "owner": ("牌主", "the owner"),
    "pairwise": ("两两结算", "pairwise"),
    "permanent": ("常鸡", "permanent chickens"),
    "random": ("随机", "random"),
    "ready": ("叫牌者", "ready players"),
    "reversed": ("倒赔", "reversed"),
    "reversed_to_any": ("倒赔给任何人", "reversed to anyone"),
    "robbed_for_all": ("被抢者包三家", "the robbed pays for all"),
    "robbed_once": ("被抢者付一份", "the robbed pays once"),
    "robbed_triple_and_others": ("被抢者付三倍，其他人照付", "the robbed pays triple, others as usual"),
    "round": ("全场", "the round's"),
    "round_any": ("全场任何人", "anyone's in the round"),
    "same_tile": ("同一张", "the same tile"),
    "self_draw": ("自摸", "self-draw"),
    "discard": ("点炮", "a discard win"),
    "draw": ("荒庄", "a drawn round"),
    "strict": ("严格", "strict"),
    "suit_wild": ("宝牌是数牌时", "when the wild is a suit tile"),
    "tail": ("牌墙尾", "the wall's tail"),
    "tail_dice": ("从尾部掷骰数", "from the tail by dice"),
    "three_apart": ("隔三", "three apart"),
    "unready": ("未叫者", "unready players"),
    "value": ("叫牌分", "the ready value"),
}  # fmt: skip

#: sections of the form, by the first part of a path
SECTION_WORDS: dict[str, tuple[str, str]] = {
    "common": (
        "常用：底注、鸡、豆、报听、冲锋鸡、责任鸡",
        "Common: stake, chickens, kongs, declaring ready, first and responsibility chickens",
    ),
    "stake": ("底注", "Stake"),
    "tiles": ("牌张", "Tiles"),
    "wild": ("宝牌", "Wild tile"),
    "deal": ("发牌", "Deal"),
    "claims": ("吃碰杠", "Claims"),
    "baoting": ("报听", "Declaring ready"),
    "repao": ("热炮", "Hot shot"),
    "exchange": ("换三张", "Passing three tiles"),
    "dingque": ("定缺", "Void suit"),
    "forms": ("胡牌牌型", "Winning forms"),
    "may_win": ("胡牌条件", "Who may win"),
    "dealer": ("坐庄", "Dealer"),
    "settle": ("结算", "Settlement"),
    "match": ("比赛", "Match"),
}  # fmt: skip

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
_LATIN = re.compile(r"[A-Za-z]")


def field_words(path: str, label: str = "") -> tuple[str, str]:
    """A field's name in Chinese and English.  Without words here: English from its code
    (or the schema label less its Chinese), Chinese from the label's Chinese terms (else its
    section's name)."""
    found = FIELD_WORDS.get(path)
    if found is not None:
        return found
    parts = path.split(".")
    en = _CJK.sub("", label).strip(" /()") if label else ""
    en = en or " ".join(p.replace("_", " ") for p in parts[-2:])
    zh = "".join(_CJK.findall(label)) or SECTION_WORDS.get(parts[0], ("规则", ""))[0]
    return zh, en


def _tile_set_words(value: str) -> tuple[str, str] | None:
    """A tile set in words, said from the tiles it holds (``万条筒`` / ``characters, bamboo,
    dots``, and its honours by name)."""
    try:
        kinds = T.kinds_in(T.TileSet(value))
    except ValueError:
        return None
    suits = sorted({T.suit_of(k) for k in kinds if not T.is_honor(k)})
    honours = [k for k in kinds if T.is_honor(k)]
    zh = "".join(T.suit_name(x) for x in suits)
    en = ", ".join(T.suit_name_en(x) for x in suits)
    if len(honours) == 7:
        zh, en = f"{zh}加字牌", f"{en} and honours"
    elif honours:
        zh += "加" + "、".join(T.name(k) for k in honours)
        en += " and " + ", ".join(
            f"{T.name_en(k)} dragons" if T.is_dragon(k) else T.name_en(k) for k in honours
        )
    return zh, en


def _tile_words(value: str) -> tuple[str, str] | None:
    """A tile in notation (a stand-in tile) by its names."""
    if not re.fullmatch(T.TILE_PATTERN, value):
        return None
    kind = T.parse_one(value)
    return T.name(kind), T.name_en(kind) + (" dragon" if T.is_dragon(kind) else "")


def choice_words(value: Any, key: str = "") -> tuple[str, str]:
    """A value of the field ``key`` in words: a tile set or a tile by what it holds, a known
    choice, a switch (是 / yes), a number or a name as it is (a name in one script stands
    in both)."""
    if isinstance(value, str):
        found = (_tile_set_words(value) if key == "tiles.set" else None) or _tile_words(value)
        if found is not None:
            return found
    if isinstance(value, bool):
        return ("是", "yes") if value else ("否", "no")
    if value is None:
        return ("无", "none")
    if isinstance(value, str):
        found = CHOICE_WORDS.get(value)
        if found is not None:
            return found
        return value, value
    return _number(value), _number(value)


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list | dict):
        return "…"
    return str(value)


def house_rule_words(
    rows: Iterable[Mapping[str, Any]],
) -> list[dict[str, str]]:
    """Difference rows as one line per rule in each language: ``label: old → new``."""
    out = []
    for r in rows:
        zh, en = field_words(str(r["path"]), str(r.get("label") or ""))
        az, ae = choice_words(r.get("a"), str(r["path"]))
        bz, be = choice_words(r.get("b"), str(r["path"]))
        out.append({"zh": f"{zh}：{az} → {bz}", "en": f"{en}: {ae} → {be}"})
    return out


def one_language(text: str, lang: str) -> bool:
    """True if ``text`` has no letter of the other language (Chinese in ``en``, Latin in
    ``zh``)."""
    return not (_LATIN if lang == "zh" else _CJK).search(text)
