"""What the chickens stage says: its ledger entries and remarks in words, from their facts.

Every sentence is built from a record's :class:`~zhuoji.contract.ledger.Fact` — the tile it
is about, its copies and per-tile value, its multiplier, what made it a chicken (``kind``:
``permanent``, ``reveal``, ``flip``, ``golden``, ``weekday``; or the mechanism: ``chongfeng``,
``shouquan``, ``zeren``, ``hengji``, ``zhuopao``, ``standing``, ``baoji``, ``net``) — in
Chinese and in English apart, naming the real tile (「冲锋鸡：本局第一张打出的八筒没人碰杠」,
"first chicken discarded: the round's first 8 dots was not claimed, so its discarder scores
it").  The variant's own
names (幺鸡, 英雄鸡, 银鸡: ``Fact.name``) are Chinese only; the English says the tile.

:func:`round_remarks` gives the round's chickens as remarks (what each reveal made, golden
ones, the day's), which the stage records so explanations and reports read them
(seed 000 2) 「根据这张牌的数值顺位加一」: 五筒 revealed, 六筒 is the chicken).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from zhuoji import tiles as T
from zhuoji.contract.ledger import PAYEE, PAYER, SEAT, Fact, Remark, fact
from zhuoji.outcome import Reveal, RevealAt
from zhuoji.rules.chickens.params import ChickenParams
from zhuoji.rules.chickens.values import Chicken, _Plan, _plan, weekday_kinds
from zhuoji.rules.memo import per_object
from zhuoji.rules.registry import Words

# read off its class, a member goes through the enum type's ``__getattr__`` (every reveal of
# every round; issue 29)
_AT_WIN: Final = RevealAt.WIN

#: what a reveal makes, by the set of directions (``flip.makes``), when it has a name
_MAKES = {
    ("same",): ("本鸡", "the revealed tile itself"),
    ("next", "prev"): ("上下鸡", "one below and one above"),
}
_DAYS = "一二三四五六日"
#: a discarded chicken's status (``discards.Status``), in words
_STATUS = {
    "chongfeng": ("冲锋", "first chicken"),
    "hengji": ("横鸡", "first-of-its-kind"),
    "plain": ("普通", "plain"),
}


def _names(kinds: Iterable[int]) -> tuple[str, str]:
    ks = list(kinds)
    return "、".join(T.name(k) for k in ks), " and ".join(T.name_en(k) for k in ks)


def _tile(f: Fact) -> tuple[str, str]:
    k = f.tiles[0] if f.tiles else None
    return (T.name(k), T.name_en(k)) if k is not None else ("", "")


def _copies(f: Fact) -> tuple[str, str]:
    """「六筒 ×2（每张1，其中1张已打出）」 / "6 dots ×2 (1 each; 1 of them discarded)"."""
    zh, en = _tile(f)
    more_zh, more_en = "", ""
    if f.discarded:
        if f.discarded == f.count == 1:
            more_zh, more_en = "，已打出", "; discarded"
        else:
            more_zh, more_en = f"，其中{f.discarded}张已打出", f"; {f.discarded} of them discarded"
    return (
        f"{zh} ×{f.count}（每张{f.each}{more_zh}）",
        f"{en} ×{f.count} ({f.each} each{more_en})",
    )


def _times(f: Fact) -> tuple[str, str]:
    """「八筒（2）×2」, 「幺鸡 ×4（金鸡）」: a discarded chicken's value (its tile's ``each`` ×
    ``multiplier``, or ``fan``)."""
    zh, en = _tile(f)
    if f.each is not None and f.each != 1:
        zh, en = f"{zh}（{f.each}）", f"{en} ({f.each})"
    else:
        zh = f"{zh} "
    if f.multiplier is not None:
        zh, en = f"{zh}×{f.multiplier}", f"{en} ×{f.multiplier}"
    elif f.fan is not None:
        zh, en = f"{zh}{f.fan}", f"{en} {f.fan}"
    if f.golden:
        zh, en = f"{zh}（金鸡）", f"{en} (golden)"
    return zh.rstrip(), en


def _origin(f: Fact) -> tuple[str, str]:
    """Why the fact's tiles are chickens this round, in a sentence."""
    zh_tiles, en_tiles = _names(f.tiles)
    many = len(f.tiles) > 1
    if f.kind == "permanent":
        k = f.tiles[0] if f.tiles else None
        own = f.name if f.name and k is not None and f.name not in (T.name(k), "常鸡") else None
        zh = f"{own}（{zh_tiles}）" if own else zh_tiles
        return f"{zh}是常鸡", f"{en_tiles} {'are chickens' if many else 'is a chicken'} every round"
    if f.kind in ("flip", "reveal") and f.revealed is not None:
        key = tuple(sorted(set(f.tags)))
        how_zh, how_en = _MAKES.get(key, ("", ""))
        if f.kind == "reveal" and f.name:
            how_zh = f.name
        zh = f"翻出{T.name(f.revealed)}，{zh_tiles}为鸡" + (f"（{how_zh}）" if how_zh else "")
        en = (
            f"{T.name_en(f.revealed)} was revealed, so {en_tiles} "
            + ("are chickens" if many else "is a chicken")
            + (f" ({how_en})" if how_en else "")
        )
        return zh, en
    if f.kind == "golden" and f.revealed is not None:
        times = f"×{f.multiplier}"
        return (
            f"翻出{T.name(f.revealed)}，{zh_tiles}为金鸡（{times}）",
            f"{T.name_en(f.revealed)} was revealed, so {en_tiles} is a golden chicken ({times})",
        )
    if f.kind == "weekday" and f.tiles:
        rank = T.rank_of(f.tiles[0])
        day = _DAYS[(rank - 1) % 7]
        if many:
            return (
                f"今天星期{day}，{zh_tiles}为鸡（星期鸡）",
                f"weekday {rank}: {en_tiles} are chickens (the day's rank)",
            )
        return (
            f"星期鸡：今天星期{day}，各门的{rank}为鸡",
            f"weekday chicken: on day {rank} of the week, every suit's {rank} is a chicken",
        )
    return "鸡", "chicken"


def chicken_words(item: str, f: Fact) -> Words | None:
    """The words of the chickens stage's entries and remarks (see the module docstring)."""
    kind = f.kind or ""
    if kind == "shouquan":  # 首圈鸡: a 冲锋 or a 责任 made in the first go-round
        return _claimed_words(f) if "zeren" in f.tags else _chongfeng_words(f)
    say = _SAYS.get(kind)
    return say(f) if say is not None else None


def _made_words(f: Fact) -> Words:
    """A chicken a rule makes (常鸡, 翻鸡, a reveal's, 金鸡, 星期鸡), or the rule's remark."""
    rule_zh, rule_en = _origin(f)
    if f.count is None:  # a remark: the rule alone
        return Words("", "", rule_zh, rule_en)
    zh, en = _copies(f)
    if f.multiplier is not None and f.kind == "permanent":
        zh, en = f"{zh}，翻倍鸡 ×{f.multiplier}", f"{en}, doubled chicken ×{f.multiplier}"
    return Words(zh, en, rule_zh, rule_en)


def _blown_words(f: Fact) -> Words:
    zh, en = _tile(f)
    return Words(
        "",
        "",
        f"翻出{zh}（吹风鸡），本局不算鸡",
        f"{en} was revealed (a wind-blown chicken): no chickens this round",
    )


def _chongfeng_words(f: Fact) -> Words:
    """冲锋鸡 / 英雄鸡 (and 首圈鸡 on a 冲锋): which first discard, and who holds it."""
    tile_zh, tile_en = _tile(f)
    name = f.name or "冲锋鸡"
    if f.kind == "shouquan":
        when_zh, when_en = (
            f"第一圈内打出的{tile_zh}",
            f"the {tile_en} discarded in the first go-round",
        )
    elif "own" in f.tags:
        when_zh, when_en = (
            f"自己打出的第一张牌{tile_zh}",
            f"a player's own first discard, {tile_en},",
        )
    elif "shared" in f.tags:  # one 冲锋 a round, shared by its tiles
        when_zh, when_en = (
            f"本局第一张打出的冲锋牌{tile_zh}（一局只有这一只）",
            f"the round's first discard of any of its tiles, {tile_en} (one a round),",
        )
    else:
        when_zh, when_en = f"本局第一张打出的{tile_zh}", f"the round's first {tile_en}"
    if "claimer" in f.tags:
        how_zh, how_en = (
            "被碰走，碰的人听牌，算碰的人的",
            "was claimed by a ready player, so it is his",
        )
    elif "claimed" in f.tags:
        how_zh, how_en = (
            "被碰走，碰的人没听牌，仍算打出的人的",
            "was claimed by a player not ready, so it stays its discarder's",
        )
    else:
        how_zh, how_en = "没人碰杠，打出的人得分", "was not claimed, so its discarder scores it"
    zh, en = _times(f)
    if "back" in f.tags:
        zh, en = f"{zh}，没叫嘴，倒赔", f"{en}; not ready: he pays it back"
    return Words(
        zh, en, f"{name}：{when_zh}{how_zh}", f"first chicken discarded: {when_en} {how_en}"
    )


def _claimed_words(f: Fact) -> Words:
    """责任鸡 (and 首圈鸡 on a claim): the discarder of a claimed chicken pays."""
    tile_zh, tile_en = _tile(f)
    zh, en = _times(f)
    if "premium" in f.tags:
        status = next((t for t in f.tags if t in _STATUS), "plain")
        s_zh, s_en = _STATUS[status]
        zh, en = (
            f"{tile_zh}：按{s_zh}算的差价 {f.fan}",
            f"{tile_en}: the premium of a {s_en} discard, {f.fan}",
        )
    if "face" in f.tags:  # DS §11.2: the face value on top (``extra``)
        zh, en = f"{zh}，另加面值 {f.extra}", f"{en}, plus its face value {f.extra}"
    if "back" in f.tags:
        zh, en = (
            f"{zh}，碰的人没叫嘴，反赔打出的人",
            f"{en}; the claimer was not ready: he pays the discarder",
        )
    if f.kind == "shouquan":
        name = f.name or "首圈鸡"
        return Words(
            zh,
            en,
            f"{name}：第一圈内打出的{tile_zh}被碰或杠，打出的人赔",
            f"claimed in the first go-round: the discarder of {tile_en} pays",
        )
    return Words(
        zh,
        en,
        f"责任鸡：打出的{tile_zh}被碰或杠，打出的人多赔",
        f"chicken discard claimed: the discarder of {tile_en} pays the claimer extra",
    )


def _hengji_words(f: Fact) -> Words:
    zh, en = _times(f)
    name = f.name or "横鸡"
    return Words(
        zh,
        en,
        f"{name}：一种鸡牌第一次被打出（或同一轮里跟着打出）",
        "the first discard of a chicken kind (or one following it in its round)",
    )


def _zhuopao_words(f: Fact) -> Words:
    tile_zh, tile_en = _tile(f)
    status = next((t for t in f.tags if t in _STATUS), "plain")
    s_zh, s_en = _STATUS[status]
    return Words(
        f"{tile_zh}（{s_zh}）{f.fan}",
        f"{tile_en} ({s_en}) {f.fan}",
        "捉炮鸡：胡了别人打出的鸡牌，这张鸡归胡的人",
        "a discarded chicken was won on: the winner collects it",
    )


def _standing_words(f: Fact) -> Words:
    zh, en = _copies(f)
    return Words(
        zh, en, "站鸡：一直留在手里的鸡另外算分", "chickens still standing in the hand score extra"
    )


def _baoji_words(f: Fact) -> Words:
    if "hengji" in f.tags:
        tile_zh, tile_en = _tile(f)
        zh, en = f"{tile_zh}（横鸡）{f.fan}", f"{tile_en} (first of its kind) {f.fan}"
    else:
        zh, en = _copies(f)
    return Words(
        f"{SEAT}的{zh}",
        f"{SEAT}'s {en}",
        "包鸡：没叫嘴（没听牌）的玩家打出或碰出的鸡要赔",
        "a player who was not ready pays for the chickens he discarded or melded",
    )


def _net_words(f: Fact) -> Words | None:
    if f.netted is None:
        return None
    owed, due = f.netted
    zh_tiles, en_tiles = _names(f.tiles)
    of_zh = f"（{zh_tiles}）" if f.tiles else ""
    of_en = f" ({en_tiles})" if f.tiles else ""
    return Words(
        f"{PAYER}该付{owed}，{PAYEE}该付{due}{of_zh}",
        f"{PAYER} owed {owed}, {PAYEE} owed {due}{of_en}",
        "鸡数两两相抵，按差额付",
        "chickens settled pairwise: the difference is paid",
    )


#: the words of each kind of chicken record (``Fact.kind``)
_SAYS: dict[str, Callable[[Fact], Words | None]] = {
    "permanent": _made_words,
    "flip": _made_words,
    "reveal": _made_words,
    "golden": _made_words,
    "weekday": _made_words,
    "blown": _blown_words,
    "chongfeng": _chongfeng_words,
    "zeren": _claimed_words,
    "hengji": _hengji_words,
    "zhuopao": _zhuopao_words,
    "standing": _standing_words,
    "baoji": _baoji_words,
    "net": _net_words,
}


def round_remarks(
    p: ChickenParams,
    table: Mapping[int, Chicken] | None,
    reveals: Sequence[Reveal],
    weekday: int,
    rule: str,
    blown: int | None = None,
) -> tuple[Remark, ...]:
    """The round's chickens as remarks of hook ``rule``: the permanent ones; unless the round
    is a draw (``table`` None), per counting reveal the chickens it makes (翻鸡, by
    ``flip.makes``), the golden ones (金鸡) and the day's (星期鸡) — or, when ``blown`` (a
    吹风鸡 reveal) voids them, that nothing is a chicken.  ``table`` is the round's chicken
    table (:func:`~zhuoji.rules.chickens.values.round_chickens`, remembered for these
    parameters, reveals and weekday): the remarks are remembered with it, the draw's with
    the parameters (they are shared: they cannot be changed)."""
    store = _by_params(p) if table is None else _by_table(table)
    key = (rule, blown)
    found = store.get(key)
    if found is None:
        found = store[key] = _remarks(p, tuple(reveals), weekday, table is None, blown, rule)
    return found


@per_object(maxsize=1024)
def _by_table(table: Mapping[int, Chicken]) -> dict[tuple[str, int | None], tuple[Remark, ...]]:
    return {}


@per_object(maxsize=256)
def _by_params(p: ChickenParams) -> dict[tuple[str, int | None], tuple[Remark, ...]]:
    return {}


@per_object(maxsize=256)
def _pieces(p: ChickenParams) -> dict[tuple[object, ...], tuple[Remark, ...]]:
    """The remarks of one piece of a round's chickens (the permanent ones, one reveal's, a
    golden rule's, a day's), by what it depends on: a table for new reveals takes the pieces
    it shares with the tables before it (issue 29: a short session sees most reveals new).
    Bounded by the tile kinds, the weekdays and the rules' ids."""
    return {}


def _remarks(
    p: ChickenParams,
    reveals: tuple[Reveal, ...],
    weekday: int,
    draw: bool,
    blown: int | None,
    rule: str,
) -> tuple[Remark, ...]:
    """The remarks :func:`round_remarks` gives, of their pieces (each made once: :func:`_pieces`)."""
    if blown is not None:
        return (Remark(rule, "ji", fact(tiles=(blown,), kind="blown", mark="none")),)
    pieces = _pieces(p)

    def piece(
        key: tuple[object, ...], facts: Callable[..., list[tuple[str, Fact]]], *args: Any
    ) -> None:
        got = pieces.get(key)
        if got is None:
            got = pieces[key] = tuple(Remark(rule, item, f) for item, f in facts(*args))
        out.extend(got)

    out: list[Remark] = []
    piece(("permanent", rule), _permanent_facts, p)
    if draw:
        return tuple(out)
    plan = _plan(p)
    for r in reveals:
        in_play = r.at is not _AT_WIN
        piece(("flip", rule, r.tile, in_play), _flip_facts, plan, r.tile, in_play)
    if plan.golden:
        shown = {r.tile for r in reveals}
        for k, flip, multiplier, _discards in plan.golden:
            if flip in shown:
                piece(("golden", rule, k, flip, multiplier), _golden_facts, k, flip, multiplier)
    if plan.weekday is not None:
        piece(("weekday", rule, weekday), _weekday_facts, weekday)
    return tuple(out)


def _permanent_facts(p: ChickenParams) -> list[tuple[str, Fact]]:
    """The permanent chickens (常鸡), each named."""
    out: list[tuple[str, Fact]] = []
    for pc in p.permanent:
        k = T.parse_one(pc.tile)
        out.append((pc.item, fact(tiles=(k,), kind="permanent", name=pc.label, mark="chicken")))
    return out


def _flip_facts(plan: _Plan, tile: int, in_play: bool) -> list[tuple[str, Fact]]:
    """翻鸡: the chickens a reveal of ``tile`` makes (none: no remark), and in which directions."""
    made = plan.made(tile, in_play)
    if not made:
        return []
    makes = plan.in_play_makes if in_play and plan.in_play_makes is not None else plan.makes
    tags = tuple(sorted(set(makes)))
    return [
        (
            "ji.fanji",
            fact(tiles=tuple(made), kind="flip", revealed=tile, mark="chicken", tags=tags),
        )
    ]


def _golden_facts(k: int, flip: int, multiplier: int) -> list[tuple[str, Fact]]:
    """金鸡: chicken ``k`` made golden by a reveal of ``flip``."""
    f = fact(
        tiles=(k,),
        kind="golden",
        revealed=flip,
        multiplier=multiplier,
        golden=True,
        mark="golden",
    )
    return [("ji.jinji", f)]


def _weekday_facts(weekday: int) -> list[tuple[str, Fact]]:
    """星期鸡: the day's chickens."""
    kinds = tuple(weekday_kinds(weekday))
    return [("ji.xingqi", fact(tiles=kinds, kind="weekday", mark="chicken"))]
