"""Credentials: one operator token for the server, one seat token per human seat.

* The **operator token** is given on the command line (``--operator-token``) or in the
  ``ZHUOJI_OPERATOR_TOKEN`` environment variable, or generated and printed at start.  It
  creates tables, changes rules, starts rounds, issues seat tokens and reads event logs
  (which hold the wall and every hand).
* A **seat token** is issued when a table is created (and again on request by the
  operator); it names exactly one seat of one table.  It can read that seat's view and act
  for that seat, nothing else: never another seat, another table, or an operator action.

Both are bearer tokens (``Authorization: Bearer …``); the WebSocket takes the seat token in
its first message (``{"type": "auth", "token": …}``), since browsers cannot set headers on
a WebSocket (the ``token`` query parameter still works, but is cut out of every log line:
:class:`RedactTokens`).  The server keeps only SHA-256 hashes of seat tokens, and compares
in constant time.

Guessing is slowed per client address (:class:`Attempts`): after
:data:`Attempts.FREE` wrong tokens, each further attempt from that address waits a back-off
that doubles with every failure (to a minute), answered 429 with ``Retry-After``.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import re
import secrets
import time
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


class Throttled(Exception):
    """Too many wrong tokens from this address: try again in ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"too many wrong tokens from this address; try again in {seconds:.1f} s")
        self.seconds = seconds

    @property
    def retry_after(self) -> str:
        """The ``Retry-After`` header's value (whole seconds, at least 1)."""
        return str(max(1, math.ceil(self.seconds)))


class Authority:
    """Resolves bearer tokens to principals.  Seat tokens are indexed by hash."""

    def __init__(self, operator_token: str) -> None:
        if len(operator_token) < 16:
            raise ValueError("the operator token must be at least 16 characters")
        self._operator_hash = token_hash(operator_token)
        self._seats: dict[str, tuple[str, int]] = {}
        self.attempts = Attempts()

    def authenticate(self, token: str | None, address: str | None) -> Principal | None:
        """:meth:`resolve` for a client at ``address``, counting its wrong tokens: raises
        :class:`Throttled` while the address must wait (a right token too: a guess must
        not be confirmed early)."""
        if not token:
            return None
        wait = self.attempts.wait(address)
        if wait > 0:
            raise Throttled(wait)
        p = self.resolve(token)
        if p is None:
            self.attempts.failed(address)
        return p

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


class Attempts:
    """Failed token attempts per client address, and the back-off they earn (1,000 guesses
    took 2.2 s before: issue 26).  An address's count is forgotten :data:`FORGET` seconds
    after its last failure (not on a success: one valid token must not buy more guesses)."""

    FREE = 10  # failures without a wait
    FIRST = 0.5  # seconds of the first back-off; it doubles with each further failure
    LONGEST = 60.0
    FORGET = 600.0
    KEPT = 10_000  # addresses remembered at most (the oldest are forgotten first)

    def __init__(self) -> None:
        #: address → (failures, blocked until, last failure), times from time.monotonic()
        self._by: dict[str, tuple[int, float, float]] = {}

    def wait(self, address: str | None) -> float:
        """Seconds ``address`` must still wait before its next attempt (0: none)."""
        found = self._by.get(address or "")
        if found is None:
            return 0.0
        now = time.monotonic()
        if now - found[2] > self.FORGET:
            del self._by[address or ""]
            return 0.0
        return max(0.0, found[1] - now)

    def failed(self, address: str | None) -> None:
        key = address or ""
        now = time.monotonic()
        failures, _until, last = self._by.pop(key, (0, 0.0, now))
        if now - last > self.FORGET:
            failures = 0
        failures += 1
        until = now
        if failures > self.FREE:
            until = now + min(self.LONGEST, self.FIRST * 2 ** min(failures - self.FREE - 1, 16))
        if len(self._by) >= self.KEPT:
            del self._by[next(iter(self._by))]
        self._by[key] = (failures, until, now)


#: ``token=…`` in a logged URL (a query string), up to the next separator
_QUERY_TOKEN = re.compile(r"(?i)([?&](?:token|access_token)=)[^&\s\"']*")


def redact(text: str) -> str:
    """``text`` with every query-string token replaced by ``REDACTED``."""
    return _QUERY_TOKEN.sub(r"\1REDACTED", text) if "token=" in text.lower() else text


class RedactTokens(logging.Filter):
    """A logging filter that cuts query-string tokens out of a record (uvicorn's access
    and connection lines log the URL)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True
