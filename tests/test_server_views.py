"""zhuoji.server.tables.Table.views with zhuoji.server.wire.SeatView: a broadcast builds the
public part of a state's view once and each seat's own keys per seat (issue 26 item 8,
lever 1), and the wire writes the public part's JSON once for every seat.

Checked after every event of rounds played through the hidden-information checker
(``tests/test_server_hidden.py``, both window modes, with and without the turn timer):

* every seat's view from one broadcast (:meth:`Table.views` of all seats) equals the view
  built for that seat alone (:meth:`Table.view`), so no seat's value rides in another's
  public part;
* every key of the engine's observation of a seat shown the live round has that seat's own
  value (the public keys are public: a key the engine made private would fail here);
* a seat's state message is written as the same bytes as orjson writes the plain ``dict``,
  with and without a spliced ``ack``, and the public part is shared (encoded once).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

pytest.importorskip("sqlalchemy")
from test_server_hidden import check_round

from zhuoji.server import wire
from zhuoji.server.tables import Table, _quiet


def _plain(view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "state", "view": dict(view)}


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys  # no key written twice
    return dict(pairs)


def _same_json(encoded: bytes, message: dict[str, Any]) -> None:
    """``encoded`` is ``message``'s JSON: the same keys and values, none twice."""
    assert json.loads(encoded, object_pairs_hook=_pairs) == json.loads(orjson.dumps(message))


def _check_views(table: Table, rules: Any, stats: dict[str, int]) -> None:
    n = table.players
    together = table.views(range(n), rules)
    r = table.current
    w = table.window
    publics = set()
    for s in range(n):
        alone = table.views([s], rules)[0]
        view = together[s]
        assert view == alone, (
            s,
            {k: (view[k], alone.get(k)) for k in view if view[k] != alone.get(k)},
        )
        assert type(view) is type(alone)
        message = {"type": "state", "view": view}
        encoded = wire.encode_message(message)
        assert encoded == orjson.dumps(_plain(view))  # the same bytes, spliced or not
        _same_json(encoded, _plain(view))  # (no key twice)
        acked = {**message, "ack": 17}
        assert wire.encode_message(acked) == orjson.dumps({**_plain(view), "ack": 17})
        live = r is not None and (w is None or s in w.knows)
        if not live:
            assert not isinstance(view, wire.SeatView)
            assert encoded == orjson.dumps(_plain(view))
            continue
        assert isinstance(view, wire.SeatView)
        # the public part is spliced, not written again
        assert view.own is not None and len(view.public.keys) > 20
        assert encoded.startswith(view.public.head())
        publics.add(id(view.public))
        assert r is not None
        obs = r.observation(s)
        if w is not None and s in w.held:
            obs = _quiet(obs)
        for k, x in obs.items():
            assert view[k] == x, (s, k, view[k], x)
        stats["split_views"] += 1
    assert len(publics) <= 1  # one public part for every seat shown the live round


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Run the split checks whenever the hidden-information checker asks for seat 0's
    view (once per event)."""
    stats = {"split_views": 0}
    original = Table.view

    def view(self: Table, seat: int, rules: Any) -> dict[str, Any]:
        if seat == 0:
            _check_views(self, rules, stats)
        return original(self, seat, rules)

    monkeypatch.setattr(Table, "view", view)
    return stats


@pytest.mark.parametrize(
    ("variant", "timer", "fixed"),
    [
        ("guiyang", False, False),
        ("guiyang-dingque", False, False),  # 定缺: a seat's own pick shows to it alone
        ("qianxi", False, False),  # flowers
        ("liupanshui", True, False),
        ("jinyou", True, True),
        ("guiyang-shoushang", False, True),
    ],
)
def test_one_public_part_gives_every_seat_its_own_view(
    checked: dict[str, int], variant: str, timer: bool, fixed: bool
) -> None:
    for seed in range(3):
        stats = check_round(variant, 500 + seed, ["greedy", "random"], timer=timer, fixed=fixed)
        assert stats["events"] > 0
    assert checked["split_views"] > 100


def test_a_clash_of_keys_writes_the_view_whole() -> None:
    public = wire.PublicPart({"a": 1, "b": [1, 2]})
    clash = wire.seat_view(public, {"b": "own", "c": None})
    assert clash.own is None and clash["b"] == "own"
    message = {"type": "state", "view": clash}
    assert wire.encode_message(message) == orjson.dumps(_plain(clash))
    assert b'"b":[1,2]' not in wire.encode_message(message)
    fine = wire.seat_view(public, {"c": {"x": "鸡"}})
    assert fine.own is not None
    acked = {"type": "state", "view": fine, "ack": "r1"}
    assert wire.encode_message(acked) == orjson.dumps({**_plain(fine), "ack": "r1"})
    assert wire.encode_message({"type": "state", "view": fine}) == orjson.dumps(_plain(fine))
    # nothing public, or nothing of its own: written whole
    for view in (wire.seat_view(public, {}), wire.seat_view(wire.PublicPart({}), {"c": 1})):
        message = {"type": "state", "view": view}
        assert wire.encode_message(message) == orjson.dumps(_plain(view))
    # any other message is written as orjson writes it
    other = {"type": "state", "view": fine, "extra": 1}
    assert wire.encode_message(other) == orjson.dumps({**other, "view": dict(fine)})
    assert (
        wire.encode_message({"type": "ack", "id": 3, "seq": 9}) == b'{"type":"ack","id":3,"seq":9}'
    )
