"""Readable settlements: the itemized ledger as a table with Chinese and English labels.

What a round shows is rendered from the round's own record and the settlement's records:
their items, their structured facts and the words their hooks give them
(:mod:`zhuoji.explain`); nothing here re-derives a rule or reads text.
"""

from __future__ import annotations

from typing import Any

from zhuoji import tiles as T
from zhuoji.columns import table
from zhuoji.contract.ledger import Ledger
from zhuoji.explain import explain_remark, fill_seats
from zhuoji.outcome import RevealAt, RoundEnd
from zhuoji.rules.catalog import item_label

SEAT_NAMES = ("东", "南", "西", "北")


def seat_label(seat: int, end: RoundEnd | None = None) -> str:
    wind = SEAT_NAMES[end.seat_wind(seat)] if end is not None else ""
    dealer = "庄" if end is not None and seat == end.dealer else ""
    return f"seat {seat}" + (f" ({wind}{dealer})" if wind else "")


def describe_discards(end: RoundEnd) -> list[str]:
    """Each seat's discards in order; a claimed one shows who took it (``5m→2碰``)."""
    claim_marks = {"chi": "吃", "peng": "碰", "gang_exposed": "杠"}
    rows = []
    for s in range(end.players):
        cells = []
        for d in end.discards:
            if d.seat != s:
                continue
            text = T.format([d.tile])
            if d.claimed_by is not None:
                mark = claim_marks.get(d.claim.value, "") if d.claim is not None else "胡"
                text += f"→{d.claimed_by}{mark}"
            if d.declared:
                text += "(报听)"
            cells.append(text)
        rows.append([seat_label(s, end), " ".join(cells) or "—"])
    return ["discards 出牌 (→N: taken by seat N):", *table(rows)]


def flip_line(reveal: int, ledger: Ledger) -> str:
    """What the after-win reveal made, from the ledger's records: the chickens its remarks
    say it made (翻鸡, 金鸡), and per chicken whether anyone was paid for it, or paid in a
    pairwise settlement that netted it (鸡数两两互减), or nobody."""
    made: list[tuple[int, bool]] = []  # (tile, golden)
    for r in ledger.remarks:
        if r.fact.revealed == reveal and r.fact.mark is not None:
            made.extend((k, r.fact.golden) for k in r.fact.tiles if (k, r.fact.golden) not in made)
    if not made:
        return " (it makes no chicken)"
    made = [(k, golden) for k, golden in made if golden or (k, True) not in made]
    netted = {k for e in ledger.entries if e.fact.netted is not None for k in e.fact.tiles}
    paid = {
        k
        for e in ledger.entries
        if e.fact.netted is None and e.fact.count is not None
        for k in e.fact.tiles
    }
    parts = []
    for k, golden in made:
        what = f"{T.name(k)}为{'金鸡' if golden else '鸡'}"
        if k in netted:
            what += " (held; paid netted pairwise, 鸡数两两互减)"
        elif k not in paid:
            what += " (nobody is paid for it)"
        parts.append(what)
    return " → " + "、".join(parts)


def describe_end(end: RoundEnd, ledger: Ledger | None = None) -> list[str]:
    """The result: winners and how, the reveal (explained from the ledger when given), the
    wild tile and every seat's hand."""
    lines = []
    if end.is_draw:
        lines.append("荒庄 draw: nobody won")
    for w in end.wins:
        src = f" from seat {w.source}" if w.source is not None else ""
        tile = T.name(end.win_tile) if end.win_tile is not None else "?"
        how = {
            "self_draw": "自摸 self-draw",
            "discard": "点炮 on a discard",
            "rob_kong": "抢杠 robbing a kong",
        }[w.how.value]
        lines.append(
            f"seat {w.seat} wins: {how}{src}, tile {tile} "
            f"({T.format([end.win_tile]) if end.win_tile is not None else '?'})"
        )
    flags = [n for n in ("gangkai", "repao", "haidi", "tianhu", "dihu", "renhu") if getattr(end, n)]
    if flags:
        lines.append("facts: " + ", ".join(flags))
    for r in end.reveals:
        if r.at is not RevealAt.WIN:
            lines.append(
                f"鸡 revealed at {r.at.value} ({r.status.value}): {T.name(r.tile)} ({T.format([r.tile])})"
            )
    if end.reveal is not None:
        flip = f"翻鸡 flip: 翻出{T.name(end.reveal)} ({T.format([end.reveal])})"
        if ledger is not None:
            flip += flip_line(end.reveal, ledger)
        lines.append(flip)
    if end.wild is not None:
        lines.append(f"宝牌 wild: {T.name(end.wild)} (indicator {T.name(end.wild_indicator or 0)})")
    for s, seat in enumerate(end.seats):
        melds = " ".join(f"[{T.format(m.tiles)}]" for m in seat.melds)
        dec = f" 报听({seat.declared.value})" if seat.declared else ""
        lines.append(
            f"  {seat_label(s, end)}: {T.format(sorted(seat.concealed))} {melds}{dec}".rstrip()
        )
    return lines


def render_ledger(ledger: Ledger, end: RoundEnd | None = None) -> str:
    """The itemized ledger: payer → payee, amount, item (Chinese, English, code), and what
    the entry counted in its hook's words, Chinese then English (seats as ``seat N``)."""

    def seat(s: int) -> str:
        return f"seat {s}"

    rows = []
    for e in ledger.record:
        zh, en = item_label(e.item)
        if e.text:
            detail = e.text
        else:
            w = e.words()
            what_zh, what_en = fill_seats(w.zh, e, seat), fill_seats(w.en, e, seat)
            detail = what_zh if what_zh == what_en else f"{what_zh} / {what_en}"
        if ledger.stake != 1:
            detail += f"  [{e.units} × {ledger.stake}]"
        if e.voided_by is not None:
            by = e.voided_by
            vw = by.words()
            vz, ve = fill_seats(vw.zh, by, seat), fill_seats(vw.en, by, seat)
            lz, le = item_label(by.item)
            detail += f"  — void 作废 ({lz} {le}): {vz} / {ve}"
        elif e.void is not None:
            detail += f"  — void 作废: {e.void}"
        amount = str(e.amount) if e.void is None else f"({e.amount})"
        rows.append([f"{e.payer} → {e.payee}", amount, f"{zh} {en}", e.item, detail])
    lines = []
    if ledger.stake != 1:
        lines.append(
            f"  stake 底注 {ledger.stake}: each amount is the rule's units × {ledger.stake}"
        )
    if rows:
        lines += table(rows, right=[False, True])
    else:
        lines.append("  (no payments)")
    for note in ledger.notes:
        lines.append(f"  note: {note}")
    for r in ledger.remarks:
        if r.fact.mark is None:  # the chickens' remarks are the round's, shown with it
            rz, re_ = explain_remark(r)
            lines.append(f"  note: {fill_seats(rz, r, seat)} / {fill_seats(re_, r, seat)}")
    totals = ledger.totals()
    lines.append(
        "totals 合计: " + "  ".join(f"{seat_label(s, end)} {t:+d}" for s, t in enumerate(totals))
    )
    lines.append(
        f"next dealer 下局庄家: seat {ledger.next_dealer}, streak 连庄 {ledger.next_streak}"
    )
    return "\n".join(lines)


def settlement_json(ledger: Ledger, end: RoundEnd) -> dict[str, Any]:
    return {
        "result": {
            "wins": [{"seat": w.seat, "how": w.how.value, "from": w.source} for w in end.wins],
            "tile": T.format([end.win_tile]) if end.win_tile is not None else None,
            "reveal": T.format([end.reveal]) if end.reveal is not None else None,
            "reveals": [
                {"tile": T.format([r.tile]), "at": r.at.value, "status": r.status.value}
                for r in end.reveals
            ],
            "draw": end.is_draw,
        },
        **ledger.as_dict(),
    }
