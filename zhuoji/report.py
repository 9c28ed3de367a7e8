"""Readable settlements: the itemized ledger as a table with Chinese and English labels."""

from __future__ import annotations

import unicodedata
from typing import Any

from zhuoji import tiles as T
from zhuoji.outcome import RevealAt, RoundEnd
from zhuoji.settle import Ledger, item_label

SEAT_NAMES = ("东", "南", "西", "北")


def seat_label(seat: int, end: RoundEnd | None = None) -> str:
    wind = SEAT_NAMES[end.seat_wind(seat)] if end is not None else ""
    dealer = "庄" if end is not None and seat == end.dealer else ""
    return f"seat {seat}" + (f" ({wind}{dealer})" if wind else "")


def describe_end(end: RoundEnd) -> list[str]:
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
        lines.append(f"翻鸡 revealed: {T.name(end.reveal)} ({T.format([end.reveal])})")
    if end.wild is not None:
        lines.append(f"宝牌 wild: {T.name(end.wild)} (indicator {T.name(end.wild_indicator or 0)})")
    for s, seat in enumerate(end.seats):
        melds = " ".join(f"[{T.format(m.tiles)}]" for m in seat.melds)
        dec = f" 报听({seat.declared.value})" if seat.declared else ""
        lines.append(f"  {seat_label(s, end)}: {T.format(sorted(seat.concealed))} {melds}{dec}")
    return lines


def _width(text: str) -> int:
    """Display width: CJK characters take two columns in a terminal."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    fill = " " * max(0, width - _width(text))
    return fill + text if right else text + fill


def render_ledger(ledger: Ledger, end: RoundEnd | None = None) -> str:
    rows = []
    for e in ledger.record:
        zh, en = item_label(e.item)
        detail = e.detail
        if ledger.stake != 1:
            detail += f"  [{e.units} × {ledger.stake}]"
        if e.void is not None:
            detail += f"  — void 作废: {e.void}"
        amount = str(e.amount) if e.void is None else f"({e.amount})"
        rows.append((f"{e.payer} → {e.payee}", amount, f"{zh} {en}", e.item, detail))
    lines = []
    if ledger.stake != 1:
        lines.append(
            f"  stake 底注 {ledger.stake}: each amount is the rule's units × {ledger.stake}"
        )
    if rows:
        widths = [max(_width(r[i]) for r in rows) for i in range(4)]
        for r in rows:
            cells = [
                _pad(r[0], widths[0]),
                _pad(r[1], widths[1], True),
                _pad(r[2], widths[2]),
                _pad(r[3], widths[3]),
            ]
            lines.append("  " + "  ".join(cells) + "  " + r[4])
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
