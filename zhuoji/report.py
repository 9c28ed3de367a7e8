"""Readable settlements: the itemized ledger as a table with Chinese and English labels.

What a round shows is rendered from the round's own record and the settlement's entries
(their items and detail strings); nothing here re-derives a rule.
"""

from __future__ import annotations

from typing import Any

from zhuoji import tiles as T
from zhuoji.columns import table
from zhuoji.contract.ledger import Ledger
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


def _flip_chickens(ledger: Ledger) -> list[str]:
    """The chickens a reveal made, as the chicken stage named them in its entries."""
    found: list[str] = []
    for e in ledger.entries:
        if e.item not in ("ji.fanji", "ji.jinji") and "翻鸡" not in e.detail:
            continue
        label = e.detail.split(" ×")[0].removeprefix("翻鸡 ").removesuffix("+翻鸡")
        if label not in found:
            found.append(label)
    return found


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
            made = _flip_chickens(ledger)
            flip += f" → {'、'.join(made)}为鸡" if made else " (no one holds the chicken it makes)"
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
    """The itemized ledger: payer → payee, amount, item (Chinese, English, code), detail."""
    rows = []
    for e in ledger.record:
        zh, en = item_label(e.item)
        detail = e.detail
        if ledger.stake != 1:
            detail += f"  [{e.units} × {ledger.stake}]"
        if e.void is not None:
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
