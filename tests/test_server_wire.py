"""zhuoji.server.wire: the JSON the server sends is what :mod:`json` writes, compact and
in UTF-8, whether the keys are all strings (the fast path) or not."""

from __future__ import annotations

import json
from typing import Any

import pytest

from zhuoji import tiles as T
from zhuoji.engine import Round
from zhuoji.server import wire
from zhuoji.variant_io import load_variant


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_view_is_written_as_json_writes_it() -> None:
    r = Round(load_variant("guiyang"), seed=3)
    view = {**r.observation(0), "hand_names": " ".join(T.name(k) for k in range(3)), "x": 1.5}
    message = {"type": "state", "view": view}
    assert wire.encode_text(message) == _json(message)
    assert wire.encode(message) == _json(message).encode("utf-8")


def test_integer_keys_are_written_as_strings() -> None:
    value = {"tokens": {0: "a", 2: "b"}, "名": [None, True]}
    assert (
        wire.encode_text(value) == _json(value) == '{"tokens":{"0":"a","2":"b"},"名":[null,true]}'
    )


def test_received_messages_decode_as_json_reads_them() -> None:
    text = '{"type":"action","action":"0 discard 5m","seq":41,"id":7,"名":[1.5,null]}'
    assert wire.decode(text) == json.loads(text)
    for bad in ("{", "[1,]", "NaN", ""):
        with pytest.raises(ValueError):
            wire.decode(bad)
    with pytest.raises(RecursionError):
        wire.decode("[" * 3000 + "]" * 3000)
