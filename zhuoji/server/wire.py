"""JSON on the wire: every view and message the server sends, encoded by orjson, and the
WebSocket messages it receives, decoded by it.

A seat's view is sent after every committed change to every connected seat, so encoding it
is one of the server's hottest steps; orjson writes the same JSON as
``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` (UTF-8, no spaces) about
ten times faster (``bench/server_load.py``; docs/server.md, *Load*).  Integer dict keys
are written as strings, as :mod:`json` does.  :class:`EncodedViews` keeps the views last
sent over HTTP encoded, with their ETags (a long poll asks again with the same view).
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS
_SORTED = orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS


def encode(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON.  Views have string keys only, which orjson writes
    about twice as fast without its option for other keys; a value with another key (an
    integer) is written again with it."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=_OPTIONS)


def encode_text(value: Any) -> str:
    """``value`` as compact JSON text (a WebSocket text frame)."""
    return encode(value).decode("utf-8")


def stored(value: Any) -> str:
    """``value`` as the JSON text the store keeps: compact, keys sorted (the text of
    ``json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)`` for
    string keys)."""
    return orjson.dumps(value, option=_SORTED).decode("utf-8")


def decode(text: str | bytes) -> Any:
    """A received message's JSON (orjson: several times faster than :mod:`json` on the small
    messages clients send, one per action).  Invalid JSON is a ValueError; nesting past
    orjson's depth limit (1024) a RecursionError, as :func:`json.loads` says it."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        if str(exc).startswith("depth limit"):
            raise RecursionError(str(exc)) from exc
        raise


class EncodedViews:
    """The body and ETag of the views last sent over HTTP.  A long-polling seat asks again
    at once with the ETag of the view it got; the view is then usually the same object or
    an equal one, and is not encoded and hashed again."""

    def __init__(self, size: int = 2048) -> None:
        self._size = size  # seats remembered (all are forgotten when it is reached)
        self._last: dict[tuple[Any, Any], tuple[dict[str, Any], bytes, str]] = {}

    def of(self, view: dict[str, Any]) -> tuple[bytes, str]:
        """The view's JSON and its ETag (a hash of that JSON)."""
        key = (view.get("table"), view.get("seat"))
        found = self._last.get(key)
        if found is not None and (found[0] is view or found[0] == view):
            return found[1], found[2]
        body = encode(view)
        tag = hashlib.sha256(body).hexdigest()[:32]
        if len(self._last) >= self._size:
            self._last.clear()
        self._last[key] = (view, body, tag)
        return body, tag

    def etag(self, view: dict[str, Any]) -> str:
        return self.of(view)[1]
