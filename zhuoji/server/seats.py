"""Seat tokens: made when a table is created, issued again and revoked by the operator,
stored as hashes (they survive restarts) and known to the server's
:class:`zhuoji.server.auth.Authority`."""

from __future__ import annotations

from zhuoji.server import store as S
from zhuoji.server.auth import SEAT_PREFIX, Authority, new_token, token_hash
from zhuoji.server.tables import Seat, SeatKind, Table, TableError


def new_seat_token() -> tuple[str, str]:
    """A new seat token and the hash of it that is stored."""
    token = new_token(SEAT_PREFIX)
    return token, token_hash(token)


class SeatTokens:
    """Who may act for which seat: the seat tokens of every table served."""

    def __init__(self, store: S.Store, authority: Authority) -> None:
        self.store = store
        self.auth = authority

    def register(self, table: Table) -> None:
        """Make the table's seat tokens known (a table created or loaded)."""
        for st in table.seats:
            if st.token_hash:
                self.auth.add_seat(st.token_hash, table.id, st.seat)

    async def issue(self, table: Table, seat: int) -> str:
        """A new token for a human seat; the old one stops working."""
        async with table.lock:
            st = table.seat_of(seat)
            if st.kind is not SeatKind.HUMAN:
                raise TableError(
                    409,
                    f"seat {seat} is a bot seat; it has no token",
                    zh=f"座位 {seat} 是电脑，没有令牌",
                )
            token, digest_ = new_seat_token()
            await self.store.write_table(table.id, S.set_seat_token(table.id, seat, digest_))
            self.drop(st, "the seat token was replaced")
            st.token_hash = digest_
            self.auth.add_seat(digest_, table.id, seat)
            return token

    async def revoke(self, table: Table, seat: int) -> None:
        """Revoke a human seat's token (persisted): nobody holds the seat until the
        operator issues a new token."""
        async with table.lock:
            st = table.seat_of(seat)
            if st.kind is not SeatKind.HUMAN:
                raise TableError(
                    409,
                    f"seat {seat} is a bot seat; it has no token",
                    zh=f"座位 {seat} 是电脑，没有令牌",
                )
            await self.store.write_table(table.id, S.clear_seat_token(table.id, seat))
            self.drop(st, "the seat token was revoked")
            st.token_hash = None

    def drop(self, st: Seat, reason: str) -> None:
        """Forget a seat's token and close the connections made with it."""
        if st.token_hash:
            self.auth.remove_seat(st.token_hash)
        for listener in list(st.listeners):  # connections made with the old token end
            listener.close(4401, reason)
            st.listeners.discard(listener)
