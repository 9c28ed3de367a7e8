"""Credentials: one operator token for the server, one seat token per human seat.

* The **operator token** is given on the command line (``--operator-token``) or in the
  ``ZHUOJI_OPERATOR_TOKEN`` environment variable, or generated and printed at start.  It
  creates tables, changes rules, starts rounds, issues seat tokens and reads event logs
  (which hold the wall and every hand).
* A **seat token** is issued when a table is created (and again on request by the
  operator); it names exactly one seat of one table.  It can read that seat's view and act
  for that seat, nothing else: never another seat, another table, or an operator action.

Both are bearer tokens (``Authorization: Bearer …``); the WebSocket takes the seat token as
the ``token`` query parameter, since browsers cannot set headers on a WebSocket.  The
server keeps only SHA-256 hashes of seat tokens, and compares in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from enum import StrEnum

OPERATOR_PREFIX = "op_"
SEAT_PREFIX = "seat_"


class Role(StrEnum):
    OPERATOR = "operator"
    PLAYER = "player"


@dataclass(frozen=True)
class Principal:
    """Who is calling: the operator, or the holder of one seat."""

    role: Role
    table_id: str | None = None
    seat: int | None = None


def new_token(prefix: str) -> str:
    """A fresh random token (192 bits) with a readable prefix."""
    return prefix + secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Authority:
    """Resolves bearer tokens to principals.  Seat tokens are indexed by hash."""

    def __init__(self, operator_token: str) -> None:
        if len(operator_token) < 16:
            raise ValueError("the operator token must be at least 16 characters")
        self._operator_hash = token_hash(operator_token)
        self._seats: dict[str, tuple[str, int]] = {}

    def add_seat(self, digest: str, table_id: str, seat: int) -> None:
        self._seats[digest] = (table_id, seat)

    def remove_seat(self, digest: str) -> None:
        self._seats.pop(digest, None)

    def resolve(self, token: str | None) -> Principal | None:
        if not token:
            return None
        digest = token_hash(token)
        if hmac.compare_digest(digest, self._operator_hash):
            return Principal(Role.OPERATOR)
        found = self._seats.get(digest)  # a hash lookup: timing reveals nothing of a token
        if found is None:
            return None
        return Principal(Role.PLAYER, found[0], found[1])
