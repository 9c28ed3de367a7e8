"""The table server in-process (FastAPI TestClient): tables, rules, auth, actions, WebSocket.

Information hiding is checked message by message against the stored event log: a seat's
views and WebSocket messages hold its own concealed tiles and public facts only — never
another seat's concealed tiles or the wall — until the round is over (摊牌).
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from zhuoji import eventlog
from zhuoji import tiles as T
from zhuoji.errors import VariantError
from zhuoji.server.app import create_app
from zhuoji.server.rounds import rebuild_round
from zhuoji.server.store import StoreError, make_engine
from zhuoji.server.ws_listener import WsListener
from zhuoji.variant_io import load_variant

OP = "test-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
BOTS3 = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'server.db'}", OP)
    with TestClient(app) as c:
        yield c


def make_table(client: TestClient, **body: Any) -> dict[str, Any]:
    # answers as they come unless a test sets a window (people get a fixed one by default)
    body = {"seats": BOTS3, "seed": 7, "claim_window_ms": 0, **body}
    r = client.post("/api/tables", json=body, headers=OPH)
    assert r.status_code == 201, r.text
    return dict(r.json())


def pick(view: dict[str, Any]) -> str:
    """Win if possible, else pass a claim, else the first legal discard."""
    legal = [a["action"] for a in view["legal"]]
    for word in ("hu", "pass"):
        for a in legal:
            if a.split()[1] == word:
                return a
    return legal[0]


def play_http(client: TestClient, table: dict[str, Any], max_actions: int = 400) -> int:
    """Play the human seats over HTTP until the round ends; returns actions taken."""
    tid = table["id"]
    n = 0
    while n < max_actions:
        moved = False
        for token in table["tokens"].values():
            v = client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json()
            if v["phase"] == "end":
                return n
            if v["legal"]:
                r = client.post(
                    f"/api/tables/{tid}/actions",
                    json={"action": pick(v), "seq": v["seq"]},
                    headers=bearer(token),
                )
                assert r.status_code == 200, r.text
                n += 1
                moved = True
        assert moved, "nobody could act"
    raise AssertionError("the round did not end")


def operator_views(client: TestClient, tid: str, players: int = 4) -> list[dict[str, Any]]:
    return [
        client.get(f"/api/tables/{tid}/seats/{s}/view", headers=OPH).json() for s in range(players)
    ]


def round_log(client: TestClient, tid: str, number: int) -> list[dict[str, Any]]:
    r = client.get(f"/api/tables/{tid}/rounds/{number}/log", headers=OPH)
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


# ---------------------------------------------------------------------------------------
# tables and rules
# ---------------------------------------------------------------------------------------


def test_create_table_with_overrides(client: TestClient) -> None:
    t = make_table(client, overrides={"settle.chickens.chongfeng.multiplier": 3}, name="A")
    assert t["variant"] == "guiyang" and t["players"] == 4 and t["name"] == "A"
    assert [s["kind"] for s in t["seats"]] == ["human", "bot", "bot", "bot"]
    assert set(t["tokens"]) == {"0"} and t["tokens"]["0"].startswith("seat_")
    assert t["rules_history"][0]["from_round"] == 1
    assert "seed" not in t  # the seed would give away every wall
    listed = client.get("/api/tables").json()
    assert [x["id"] for x in listed] == [t["id"]]
    assert "tokens" not in listed[0]


def test_bad_override_is_refused_with_the_loader_message(client: TestClient) -> None:
    bad = {"settle.chickens.chongfeng.multiplier": "three"}
    with pytest.raises(VariantError) as exc:
        load_variant("guiyang", bad)
    r = client.post("/api/tables", json={"overrides": bad}, headers=OPH)
    assert r.status_code == 422
    assert r.json() == {"detail": str(exc.value)}
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"variant": "no-such-variant"}, "no-such-variant"),
        ({"variant": "../variants/guiyang.yaml"}, "shipped variant"),
        ({"seats": [{"kind": "human"}]}, "4 players; 1 seats"),
        ({"seats": [{"kind": "bot", "bot": "nobody"}] * 4}, "unknown bot 'nobody'"),
    ],
)
def test_bad_tables_are_refused(client: TestClient, body: dict[str, Any], needle: str) -> None:
    r = client.post("/api/tables", json=body, headers=OPH)
    assert r.status_code == 422, r.text
    assert needle in r.json()["detail"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "zh"),
    [
        ("post", "/api/tables", {"seats": [{"kind": "human"}]}, 422, "是 4 人玩的，给了 1 个座位"),
        ("post", "/api/tables", {"seats": [{"kind": "bot", "bot": "nobody"}] * 4}, 422, "没有叫 'nobody' 的电脑"),
        ("get", "/api/tables/nope", None, 404, "没有牌桌 'nope'"),
        ("delete", "/api/variants/nope", None, 404, "没有存储的玩法 'nope'"),
    ],
)  # fmt: skip
def test_a_refusal_says_itself_in_each_language(
    client: TestClient, method: str, path: str, body: Any, status: int, zh: str
) -> None:
    """Issue 27, one language at a time: a table's refusal carries ``words`` in zh and en
    (the operator page shows the one of its language), and ``detail`` stays the English."""
    r = client.request(method, path, json=body, headers=OPH)
    assert r.status_code == status, r.text
    out = r.json()
    assert out["words"]["en"] == out["detail"]
    assert zh in out["words"]["zh"]


def test_rules_change_only_between_rounds_and_are_recorded(client: TestClient) -> None:
    t = make_table(client)
    tid = t["id"]
    assert client.post(f"/api/tables/{tid}/rounds", headers=OPH).status_code == 201
    before = client.get(f"/api/tables/{tid}").json()
    r = client.put(
        f"/api/tables/{tid}/rules",
        json={"overrides": {"settle.chickens.chongfeng.multiplier": 3}},
        headers=OPH,
    )
    assert r.status_code == 409 and "in progress" in r.json()["detail"]
    assert client.get(f"/api/tables/{tid}").json()["rules_history"] == before["rules_history"]
    assert client.post(f"/api/tables/{tid}/rounds", headers=OPH).status_code == 409  # one at a time
    play_http(client, t)
    # a bad change is refused with the loader's text, a good one is recorded from round 2
    r = client.put(
        f"/api/tables/{tid}/rules", json={"overrides": {"settle.chickens.nope": 1}}, headers=OPH
    )
    assert r.status_code == 422 and "nope" in r.json()["detail"]
    r = client.put(
        f"/api/tables/{tid}/rules",
        json={"overrides": {"settle.chickens.chongfeng.multiplier": 3}},
        headers=OPH,
    )
    assert r.status_code == 200, r.text
    assert r.json()["from_round"] == 2 and r.json()["seq"] == 2
    r = client.put(f"/api/tables/{tid}/rules", json={"variant": "luan"}, headers=OPH)
    assert r.status_code == 200  # luan is also four players
    r = client.put(f"/api/tables/{tid}/rules", json={"variant": "guiyang-weile"}, headers=OPH)
    assert r.status_code == 200
    info = client.get(f"/api/tables/{tid}").json()
    assert [(h["seq"], h["from_round"], h["variant"]) for h in info["rules_history"]] == [
        (1, 1, "guiyang"),
        (2, 2, "guiyang"),
        (3, 2, "luan"),
        (4, 2, "guiyang-weile"),
    ]
    assert client.post(f"/api/tables/{tid}/rounds", headers=OPH).status_code == 201
    head = round_log(client, tid, 2)[0]
    assert head["variant"] == "guiyang-weile" and head["overrides"] == {}
    assert round_log(client, tid, 1)[0]["variant"] == "guiyang"
    rounds = client.get(f"/api/tables/{tid}/rounds").json()
    assert [(x["number"], x["variant"], x["status"]) for x in rounds] == [
        (1, "guiyang", "ended"),
        (2, "guiyang-weile", "live"),
    ]


def test_a_dingque_table_over_http(client: TestClient) -> None:
    """换三张 and 定缺 (issue 12 §3) through the API: the human seat is offered one button per
    pick and per suit; the others' choices stay hidden until all have chosen."""
    t = make_table(client, overrides={"exchange": {"direction": "next"}, "dingque": {}})
    tid, token = t["id"], t["tokens"]["0"]
    assert client.post(f"/api/tables/{tid}/rounds", headers=OPH).status_code == 201
    v = client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json()
    assert v["phase"] == "exchange" and v["to_act"] == [0]
    assert all(a["action"].startswith("0 exchange ") for a in v["legal"])
    for _ in range(3):
        v = client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json()
        r = client.post(
            f"/api/tables/{tid}/actions",
            json={"action": v["legal"][0]["action"], "seq": v["seq"]},
            headers=bearer(token),
        )
        assert r.status_code == 200, r.text
    v = client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json()
    assert v["phase"] == "dingque" and v["exchange"]["direction"] == "next"
    assert [a["label"] for a in v["legal"]] == ["定缺 万", "定缺 条", "定缺 筒"]
    assert v["void_suits"] == [None, None, None, None]  # the bots chose; nobody sees it yet
    play_http(client, t)
    end = client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json()
    assert end["phase"] == "end" and None not in end["void_suits"]
    replayed = eventlog.replay(eventlog.parse(eventlog.dumps(round_log(client, tid, 1))))
    assert replayed.end is not None and replayed.end.seats[0].void_suit is not None


def test_match_scores_and_settlement(client: TestClient) -> None:
    t = make_table(client, rounds=2)
    tid = t["id"]
    totals = []
    for n in (1, 2):
        assert client.post(f"/api/tables/{tid}/rounds", headers=OPH).status_code == 201
        play_http(client, t)
        row = client.get(f"/api/tables/{tid}/rounds/{n}").json()
        assert row["status"] == "ended" and "seed" not in row
        s = row["settlement"]
        assert sum(e["amount"] for e in s["entries"]) >= 0
        assert s["totals"] == row["totals"] and sum(row["totals"]) == 0
        assert {"entries", "totals", "result", "showdown", "next_dealer"} <= set(s)
        for e in s["entries"]:
            assert {"payer", "payee", "amount", "item", "label", "label_en", "detail"} <= set(e)
        replayed = eventlog.replay(eventlog.parse(eventlog.dumps(round_log(client, tid, n))))
        assert replayed.returns() == row["totals"]
        totals.append(row["totals"])
    info = client.get(f"/api/tables/{tid}").json()
    assert info["scores"] == [a + b for a, b in zip(*totals, strict=True)]
    assert info["rounds_played"] == 2
    r = client.post(f"/api/tables/{tid}/rounds", headers=OPH)
    assert r.status_code == 409 and "match is over" in r.json()["detail"]


def test_bot_only_table_plays_its_match_by_itself(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={
            "seats": [{"kind": "bot", "bot": "greedy"}] * 3 + [{"kind": "bot", "bot": "random"}],
            "rounds": 3,
            "next_round": "ready",
            "seed": 3,
        },
        headers=OPH,
    )
    assert r.status_code == 201 and r.json()["tokens"] == {}
    tid = r.json()["id"]
    deadline = time.monotonic() + 30
    while (info := client.get(f"/api/tables/{tid}").json())["rounds_played"] < 3:
        assert time.monotonic() < deadline, info
        time.sleep(0.02)
    rows = client.get(f"/api/tables/{tid}/rounds").json()
    assert info["scores"] == [sum(x["totals"][s] for x in rows) for s in range(4)]
    # the next dealer and streak carry over from each settlement
    for a, b in itertools.pairwise(rows):
        assert b["dealer"] == a["next_dealer"] and b["streak"] == a["next_streak"]


# ---------------------------------------------------------------------------------------
# credentials
# ---------------------------------------------------------------------------------------


def test_credentials(client: TestClient) -> None:
    t = make_table(
        client, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    )
    other = make_table(client)
    tid, p0, p1 = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    assert client.post("/api/tables", json={}).status_code == 401
    assert (
        client.post("/api/tables", json={}, headers=bearer("nope-nope-nope-nope")).status_code
        == 401
    )
    # a seat token can do no operator action
    for method, url, body in [
        ("post", "/api/tables", {}),
        ("put", f"/api/tables/{tid}/rules", {"overrides": {}}),
        ("post", f"/api/tables/{tid}/rounds", None),
        ("get", f"/api/tables/{tid}/rounds/1/log", None),
        ("post", f"/api/tables/{tid}/seats/1/token", None),
        ("get", f"/api/tables/{tid}/seats/1/view", None),
    ]:
        r = client.request(method.upper(), url, json=body, headers=bearer(p0))
        assert r.status_code == 403, (url, r.text)
        assert "operator" in r.json()["detail"]
    assert client.get(f"/api/tables/{tid}").json()["rules_history"][-1]["seq"] == 1
    # a seat token reads only its own table's own seat
    assert client.get(f"/api/tables/{other['id']}/view", headers=bearer(p0)).status_code == 403
    assert client.get(f"/api/tables/{tid}/view", headers=bearer(p0)).json()["seat"] == 0
    assert client.get(f"/api/tables/{tid}/view", headers=bearer(p1)).json()["seat"] == 1
    assert client.get(f"/api/tables/{tid}/view", headers=OPH).status_code == 403
    assert client.get("/api/whoami", headers=bearer(p1)).json() == {
        "role": "player",
        "table": tid,
        "seat": 1,
    }
    # a new token replaces the old one, and ends connections made with it
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "auth", "token": p1})
        assert ws.receive_json()["type"] == "hello"
        assert ws.receive_json()["type"] == "state"
        r = client.post(f"/api/tables/{tid}/seats/1/token", headers=OPH)
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 4401
    assert r.status_code == 200
    assert client.get(f"/api/tables/{tid}/view", headers=bearer(p1)).status_code == 401
    assert (
        client.get(f"/api/tables/{tid}/view", headers=bearer(r.json()["token"])).json()["seat"] == 1
    )
    assert client.post(f"/api/tables/{tid}/seats/2/token", headers=OPH).status_code == 409  # a bot


# ---------------------------------------------------------------------------------------
# actions
# ---------------------------------------------------------------------------------------


def test_refused_actions_change_nothing(client: TestClient) -> None:
    t = make_table(
        client, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    )
    tid = t["id"]
    client.post(f"/api/tables/{tid}/rounds", headers=OPH)
    tokens = {int(s): tok for s, tok in t["tokens"].items()}
    views = operator_views(client, tid)
    log = round_log(client, tid, 1)
    actor = next(s for s in (0, 1) if views[s]["legal"])
    idle = 1 - actor
    legal = views[actor]["legal"][0]["action"]
    word_tile = legal.split(" ", 1)[1]
    attempts = [
        (tokens[idle], f"{actor} {word_tile}", 403, "cannot act for seat"),  # another seat's action
        (tokens[idle], f"{idle} {word_tile}", 409, "not to act"),  # out of turn
        (tokens[actor], f"{actor} discard 7z", 409, "not legal"),  # a tile it does not hold
        (tokens[actor], "fly away", 422, "unknown action word"),
        (tokens[actor], "", 422, "cannot read action"),
    ]
    for token, action, status, needle in attempts:
        r = client.post(
            f"/api/tables/{tid}/actions", json={"action": action}, headers=bearer(token)
        )
        assert r.status_code == status, (action, r.text)
        assert needle in r.json()["detail"]
        assert "to act: [" not in r.json()["detail"]  # never names who else may act
    r = client.post(
        f"/api/tables/{tid}/actions",
        json={"action": legal, "seq": views[actor]["seq"] - 1},
        headers=bearer(tokens[actor]),
    )
    assert r.status_code == 409 and "stale" in r.json()["detail"]
    assert operator_views(client, tid) == views
    assert round_log(client, tid, 1) == log
    r = client.post(
        f"/api/tables/{tid}/actions",
        json={"action": legal, "seq": views[actor]["seq"]},
        headers=bearer(tokens[actor]),
    )
    assert r.status_code == 200 and r.json()["view"]["seq"] > views[actor]["seq"]


def _allowed_keys() -> set[str]:
    return {
        "table", "table_name", "seat", "round", "seq", "names", "kinds", "scores", "match", "ready",
        "can_ready", "rules", "phase", "to_act", "dealer", "streak", "hand", "drawn", "melds",
        "discards", "declared", "concealed_counts", "wall", "wild", "wild_indicator", "claim_tile",
        "claim_from", "claim_window_ms", "void_suits", "exchange",
        "legal_actions", "reveal", "reveals", "result", "hand_names", "drawn_name", "legal", "settlement",
        # zhuoji.server.client_view: computed from the seat's own observation
        "seat_winds", "round_wind", "marks", "waits", "discard_waits", "turn_seconds", "deadline_ms",
    }  # fmt: skip


def public_prefixes(events: list[dict[str, Any]], ruleset: Any) -> dict[int, int]:
    """Public seq → the log length at which the round first stood at it (answers in claim
    windows do not count: Round.public_seq)."""
    out: dict[int, int] = {}
    for k in range(1, len(events) + 1):
        if k == len(events) or events[k]["type"] == "action":
            try:
                r = rebuild_round(ruleset, events[:k])
            except Exception:
                continue
            out.setdefault(r.public_seq(), k)
    return out


def _check_hidden(
    view: dict[str, Any], events: list[dict[str, Any]], ruleset: Any, prefixes: dict[int, int]
) -> None:
    """A view at ``seq`` shows its own hand exactly and nothing of the others' or the wall."""
    assert set(view) <= _allowed_keys(), set(view) - _allowed_keys()
    seat, seq = view["seat"], view["seq"]
    r = rebuild_round(ruleset, events[: prefixes[seq]])
    assert view["hand"] == T.format_counts(r.seats[seat].hand)
    assert isinstance(view["wall"], int) and view["wall"] == r.wall.live()
    public = {
        k: v
        for k, v in view.items()
        if k not in ("hand", "hand_names", "drawn", "drawn_name", "legal", "legal_actions")
    }
    text = json.dumps(public, ensure_ascii=False)
    assert events[0]["wall"] not in text and '"hands"' not in text
    if view["phase"] in ("claim", "rob"):
        assert set(view["to_act"]) <= {seat}  # who else may claim is not told
    if view["phase"] != "end":
        assert view.get("settlement") is None and view.get("result") is None
        for o, st in enumerate(r.seats):
            if o != seat and sum(st.hand) >= 4:
                assert T.format_counts(st.hand) not in text
                assert T.names(T.to_tiles(st.hand)) not in text
    for a in view["legal"]:
        assert a["action"].startswith(f"{seat} ")


def _current(ws: Any) -> list[dict[str, Any]]:
    """Every message up to the seat's current view (a sync, then a ping to fence it)."""
    ws.send_json({"type": "sync"})
    ws.send_json({"type": "ping", "id": "fence"})
    out = []
    while True:
        m = ws.receive_json()
        if m["type"] == "pong":
            return out
        out.append(m)


def _drain(ws: Any, until_ack: bool) -> list[dict[str, Any]]:
    out = []
    while True:
        m = ws.receive_json()
        out.append(m)
        if until_ack and (m["type"] in ("ack", "error") or "ack" in m):
            return out
        if not until_ack and m["type"] == "state":
            return out


def test_information_hiding_over_websocket(client: TestClient) -> None:
    seats = [
        {"kind": "human"},
        {"kind": "human"},
        {"kind": "bot"},
        {"kind": "bot", "bot": "random"},
    ]
    t = make_table(client, seats=seats, seed=11)
    tid = t["id"]
    client.post(f"/api/tables/{tid}/rounds", headers=OPH)
    tokens = {int(s): tok for s, tok in t["tokens"].items()}
    messages: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
    with (
        client.websocket_connect(f"/ws/tables/{tid}") as w0,
        client.websocket_connect(f"/ws/tables/{tid}") as w1,
    ):
        socks = {0: w0, 1: w1}
        for s, w in socks.items():
            w.send_json({"type": "auth", "token": tokens[s]})
            messages[s] += _drain(w, until_ack=False)  # hello, state
        views = {s: messages[s][-1]["view"] for s in socks}
        refused = 0
        for _ in range(400):
            if views[0]["phase"] == "end":
                break
            actor = next(s for s in socks if views[s]["legal"])
            other = 1 - actor
            if refused < 3 and not views[other]["legal"]:
                # the idle seat tries the actor's action and one of its own: both refused
                for action in (views[actor]["legal"][0]["action"], f"{other} pass"):
                    socks[other].send_json({"type": "action", "action": action, "id": 99})
                    reply = _drain(socks[other], until_ack=True)
                    assert reply[-1]["type"] == "error" and reply[-1]["status"] in (403, 409)
                    messages[other] += reply
                refused += 1
            socks[actor].send_json(
                {
                    "type": "action",
                    "action": pick(views[actor]),
                    "seq": views[actor]["seq"],
                    "id": 1,
                }
            )
            got = _drain(socks[actor], until_ack=True)
            # the ack rides in the state that shows the action, or comes on its own when
            # the seat is shown nothing new (a window it may not see opened meanwhile)
            last = got[-1]
            assert (last["type"], last.get("ack", last.get("id"))) in (("state", 1), ("ack", 1))
            assert last["type"] == "state" or got == [last], got
            messages[actor] += got
            for s in socks:
                messages[s] += _current(socks[s])
                views[s] = next(m for m in reversed(messages[s]) if m["type"] == "state")["view"]
        assert views[0]["phase"] == "end"
        assert refused == 3
    events = round_log(client, tid, 1)
    ruleset = load_variant("guiyang")
    prefixes = public_prefixes(events, ruleset)
    final = rebuild_round(ruleset, events).public_seq()
    checked = 0
    for msgs in messages.values():
        for m in msgs:
            assert m["type"] in ("hello", "state", "ack", "error"), m
            text = json.dumps(m, ensure_ascii=False)
            assert events[0]["wall"] not in text
            if m["type"] == "state":
                _check_hidden(m["view"], events, ruleset, prefixes)
                checked += 1
        last = [m for m in msgs if m["type"] == "state"][-1]["view"]
        assert last["seq"] == final  # the seat saw the last event
    assert checked > 20
    # after the round: the settlement shows every hand, still not the wall
    end = [m for m in messages[0] if m["type"] == "state"][-1]["view"]
    assert end["settlement"]["showdown"][1]["seat"] == 1
    assert end["settlement"]["entries"] is not None
    assert events[0]["wall"] not in json.dumps(end, ensure_ascii=False)


class _Socket:
    """What WsListener needs of a WebSocket: the frames it sends."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def _sent(pushes: Any) -> _Socket:
    """Run ``pushes(listener)`` with the sender not yet running, then let it send all."""

    async def run() -> _Socket:
        sock = _Socket()
        conn = WsListener(sock, 0)  # type: ignore[arg-type]
        pushes(conn)
        conn.close(1000, "done")
        await asyncio.wait_for(conn.run(), 5)
        return sock

    return asyncio.run(run())


def test_the_ack_rides_in_the_state_that_shows_the_action() -> None:
    def pushes(conn: WsListener) -> None:
        conn.push({"type": "state", "view": {"seq": 4}})
        conn.ack(9, 4)
        conn.ack(10, 4)  # the state already carries an ack: this one goes on its own
        conn.push({"type": "pong", "id": 1})
        conn.ack(11, 5)  # nothing to ride in

    sock = _sent(pushes)
    assert sock.frames == [
        {"type": "state", "view": {"seq": 4}, "ack": 9},
        {"type": "ack", "id": 10, "seq": 4},
        {"type": "pong", "id": 1},
        {"type": "ack", "id": 11, "seq": 5},
    ]
    assert sock.closed == (1000, "done")


def test_a_waiting_state_is_replaced_by_a_newer_one_but_not_past_other_messages() -> None:
    def pushes(conn: WsListener) -> None:
        conn.push({"type": "state", "view": {"seq": 1}})
        conn.push({"type": "state", "view": {"seq": 2}})
        conn.push({"type": "error", "id": 3, "status": 409, "error": "stale"})
        conn.push({"type": "state", "view": {"seq": 3}})
        conn.ack(4, 3)
        conn.push({"type": "state", "view": {"seq": 5}})  # the acked one stays

    assert [
        (f["type"], f.get("view", {}).get("seq"), f.get("ack")) for f in _sent(pushes).frames
    ] == [
        ("state", 2, None),
        ("error", None, None),
        ("state", 3, 4),
        ("state", 5, None),
    ]


def test_with_a_direct_writer_frames_go_in_order_and_the_rest_through_the_sender() -> None:
    """The server's direct text-frame writer (zhuoji.server.ws_protocol) sends what it can
    once the pushing code yields (the ack has found its state by then); what it refuses
    (a paused transport) and everything after it goes through the sender task, in order,
    and the writer is used again once the task has caught up."""
    written: list[tuple[str, dict[str, Any]]] = []
    refuse = {"on": False}

    def direct(payload: bytes) -> bool:
        if refuse["on"]:
            return False
        written.append(("direct", json.loads(payload)))
        return True

    class Socket(_Socket):
        async def send_text(self, text: str) -> None:
            written.append(("asgi", json.loads(text)))
            refuse["on"] = False  # the transport drained

    async def run() -> None:
        sock = Socket()
        conn = WsListener(sock, 0, direct)  # type: ignore[arg-type]
        sender = asyncio.create_task(conn.run())
        conn.push({"type": "state", "view": {"seq": 1}})
        conn.ack(7, 1)
        assert written == []  # not before the pushing code yields
        await asyncio.sleep(0)
        refuse["on"] = True
        conn.push({"type": "state", "view": {"seq": 2}})
        conn.push({"type": "pong", "id": 3})
        for _ in range(5):
            await asyncio.sleep(0)
        conn.push({"type": "state", "view": {"seq": 4}})
        conn.close(1000, "done")
        await asyncio.wait_for(sender, 5)
        assert sock.closed == (1000, "done")

    asyncio.run(run())
    assert written == [
        ("direct", {"type": "state", "view": {"seq": 1}, "ack": 7}),
        ("asgi", {"type": "state", "view": {"seq": 2}}),
        ("asgi", {"type": "pong", "id": 3}),
        ("direct", {"type": "state", "view": {"seq": 4}}),
    ]


def test_websocket_auth_and_reconnect(client: TestClient) -> None:
    t = make_table(client)
    other = make_table(client)
    tid, token = t["id"], t["tokens"]["0"]
    for tok, code in (("nope", 4401), (other["tokens"]["0"], 4403), (OP, 4403)):
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "auth", "token": tok})
            m = ws.receive_json()
            assert m["type"] == "error"
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == code
    client.post(f"/api/tables/{tid}/rounds", headers=OPH)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert ws.receive_json()["type"] == "hello"
        first = ws.receive_json()["view"]
    # the connection dropped; the seat acts over HTTP meanwhile, then reconnects
    v = client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json()
    assert v == first
    r = client.post(f"/api/tables/{tid}/actions", json={"action": pick(v)}, headers=bearer(token))
    assert r.status_code == 200
    now = r.json()["view"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["type"] == "hello"
        resumed = ws.receive_json()["view"]
        assert resumed == now == client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json()
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["view"] == resumed
        ws.send_json({"type": "ping", "id": 5})
        assert ws.receive_json() == {"type": "pong", "id": 5}
        ws.send_json({"type": "dance"})
        assert ws.receive_json()["status"] == 400
        if resumed["legal"]:
            ws.send_json(
                {"type": "action", "action": pick(resumed), "seq": resumed["seq"], "id": 7}
            )
            got = _drain(ws, until_ack=True)
            assert got[-1]["type"] == "state" and got[-1]["ack"] == 7


def test_restart_in_process_resumes_the_round(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with TestClient(create_app(db, OP)) as c:
        t = make_table(
            c, seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
        )
        tid = t["id"]
        c.post(f"/api/tables/{tid}/rounds", headers=OPH)
        for _ in range(6):
            for tok in t["tokens"].values():
                v = c.get(f"/api/tables/{tid}/view", headers=bearer(tok)).json()
                if v["legal"]:
                    c.post(
                        f"/api/tables/{tid}/actions", json={"action": pick(v)}, headers=bearer(tok)
                    )
        before = operator_views(c, tid)
        log = round_log(c, tid, 1)
    with TestClient(create_app(db, OP)) as c:
        assert operator_views(c, tid) == before
        assert round_log(c, tid, 1) == log
        assert (
            c.get(f"/api/tables/{tid}/view", headers=bearer(t["tokens"]["1"])).json() == before[1]
        )
        play_http(c, t)
        eventlog.replay(eventlog.parse(eventlog.dumps(round_log(c, tid, 1))))


def test_a_failed_write_changes_nothing(client: TestClient) -> None:
    t = make_table(client)
    tid, token = t["id"], t["tokens"]["0"]
    client.post(f"/api/tables/{tid}/rounds", headers=OPH)
    store = client.app.state.store  # type: ignore[attr-defined]
    real = store._commit
    failing = True

    def commit(batch: Any) -> None:
        if failing:
            raise OSError("disk full")
        real(batch)

    store._commit = commit
    try:
        v = client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json()
        assert v["legal"]  # bots answer at once: the only human seat is to act
        r = client.post(
            f"/api/tables/{tid}/actions", json={"action": pick(v)}, headers=bearer(token)
        )
        assert r.status_code == 503 and "nothing was changed" in r.json()["detail"]
        assert client.get(f"/api/tables/{tid}/view", headers=bearer(token)).json() == v
    finally:
        failing = False
        store._commit = real
    r = client.post(f"/api/tables/{tid}/actions", json={"action": pick(v)}, headers=bearer(token))
    assert r.status_code == 200 and r.json()["view"]["seq"] > v["seq"]


def test_a_table_that_no_longer_replays_does_not_stop_the_server(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'b.db'}"
    with TestClient(create_app(db, OP)) as c:
        good, bad = make_table(c), make_table(c)
        for t in (good, bad):
            c.post(f"/api/tables/{t['id']}/rounds", headers=OPH)
    engine = make_engine(db)
    with engine.begin() as conn:  # tamper with a stored event of the bad table
        conn.exec_driver_sql(
            "UPDATE zj_events SET event = replace(event, 'deal', 'dealt') WHERE table_id = ? AND seq = 1",
            (bad["id"],),
        )
    engine.dispose()
    with TestClient(create_app(db, OP)) as c:
        health = c.get("/api/health").json()
        assert list(health["broken_tables"]) == [bad["id"]] and health["tables"] == 1
        assert c.get(f"/api/tables/{good['id']}").status_code == 200
        assert c.get(f"/api/tables/{bad['id']}").status_code == 404


# ---------------------------------------------------------------------------------------
# service
# ---------------------------------------------------------------------------------------


def test_openapi_and_pages(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for p in (
        "/api/tables",
        "/api/tables/{table_id}/rules",
        "/api/tables/{table_id}/actions",
        "/api/tables/{table_id}/view",
    ):
        assert p in paths
    for p, ops in paths.items():
        for method, op in ops.items():
            assert op.get("description"), f"{method.upper()} {p} has no docstring"
            assert {"200", "201", "204"} & set(op["responses"])
    schemas = spec["components"]["schemas"]
    assert {
        "TableIn",
        "TableOut",
        "TableCreated",
        "SeatView",
        "RuleChangeOut",
        "RoundOut",
        "ErrorOut",
    } <= set(schemas)
    assert "HTTPBearer" in spec["components"]["securitySchemes"]
    assert client.get("/docs").status_code == 200
    assert "<html" in client.get("/").text
    page = client.get("/table/anything")
    assert page.status_code == 200 and "table.js" in page.text
    assert client.get("/static/table.js").status_code == 200
    h = client.get("/api/health").json()
    assert h["ok"] and h["backend"] == "sqlite"
    shipped = [v["name"] for v in client.get("/api/variants").json() if v["kind"] == "shipped"]
    assert "guiyang" in shipped and shipped == sorted(shipped)


def test_postgres_url_needs_psycopg() -> None:
    try:
        import psycopg  # noqa: F401
    except ModuleNotFoundError:
        pass
    else:
        pytest.skip("psycopg is installed: the URL would connect")
    with pytest.raises(StoreError) as exc:
        make_engine("postgresql://zj:secret@127.0.0.1/zhuoji")
    text = str(exc.value)
    assert "psycopg" in text and "zhuoji[postgres]" in text and "secret" not in text


def test_serve_command_is_registered() -> None:
    from zhuoji.cli import build_parser

    args = build_parser().parse_args(["serve", "--port", "0", "--db", "x.db"])
    assert args.port == 0 and args.db == "x.db" and callable(args.handler)


def test_long_poll_answers_on_change(client: TestClient) -> None:
    t = make_table(
        client, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    )
    tid, h = t["id"], bearer(t["tokens"]["0"])
    r = client.get(f"/api/tables/{tid}/view", headers=h)
    tag = r.headers["etag"]
    assert client.get(f"/api/tables/{tid}/view", headers=h).headers["etag"] == tag
    t0 = time.monotonic()
    same = client.get(
        f"/api/tables/{tid}/view", headers=h, params={"changed_from": tag, "wait": 0.3}
    )
    assert time.monotonic() - t0 >= 0.29 and same.headers["etag"] == tag
    assert (
        client.get(
            f"/api/tables/{tid}/view", headers=h, params={"changed_from": "x", "wait": 5}
        ).json()["phase"]
        == "waiting"
    )
    client.post(f"/api/tables/{tid}/rounds", headers=OPH)
    t0 = time.monotonic()
    moved = client.get(
        f"/api/tables/{tid}/view", headers=h, params={"changed_from": tag, "wait": 5}
    )
    assert time.monotonic() - t0 < 2 and moved.headers["etag"] != tag and moved.json()["round"] == 1


def test_long_poll_woken_by_a_change_answers_the_current_view(client: TestClient) -> None:
    """The waiting poll is answered with the view the change's broadcast built for the seat:
    the same body and ETag (the hash of that body) as a fresh look right after."""
    t = make_table(
        client, seats=[{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    )
    tid, h = t["id"], bearer(t["tokens"]["0"])
    tag = client.get(f"/api/tables/{tid}/view", headers=h).headers["etag"]
    starter = threading.Timer(0.3, lambda: client.post(f"/api/tables/{tid}/rounds", headers=OPH))
    starter.start()
    try:
        t0 = time.monotonic()
        woken = client.get(
            f"/api/tables/{tid}/view", headers=h, params={"changed_from": tag, "wait": 10}
        )
        assert 0.25 < time.monotonic() - t0 < 5
    finally:
        starter.join()
    fresh = client.get(f"/api/tables/{tid}/view", headers=h)
    assert woken.json()["round"] == 1 and woken.headers["etag"] != tag
    assert woken.content == fresh.content and woken.headers["etag"] == fresh.headers["etag"]
    assert woken.headers["etag"] == hashlib.sha256(woken.content).hexdigest()[:32]
