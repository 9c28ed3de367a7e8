"""Open play over HTTP, in-process (zhuoji/server/routes/open_play.py): a table opened from
the lobby without the operator token, its seats and invite links, and the operator's policy
(open play on or off, tables per client address, idle expiry)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from zhuoji.server.app import create_app
from zhuoji.server.routes.open_play import open_play_of

OP = "open-play-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'server.db'}", OP)
    with TestClient(app) as c:
        yield c


def token_of(link: str) -> str:
    return link.split("#token=", 1)[1]


def test_the_lobby_offer_names_every_shipped_variant_in_both_languages(client: TestClient) -> None:
    offer = client.get("/api/open").json()
    assert offer["allowed"] is True
    names = {v["name"] for v in offer["variants"]}
    shipped = {v["name"] for v in client.get("/api/variants").json() if v["kind"] == "shipped"}
    assert names == shipped
    for v in offer["variants"]:
        assert v["title"] and v["title_en"] and v["line_zh"] and v["line_en"]
        # one language each: no CJK in the English line, no Latin letters in the Chinese one
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in v["title_en"] + v["line_en"]), v
        assert not any(ch.isascii() and ch.isalpha() for ch in v["line_zh"]), v
    by = {v["name"]: v for v in offer["variants"]}
    assert by["guiyang-dingque"]["players"] == 3 and "定缺" in by["guiyang-dingque"]["line_zh"]
    assert {p["id"] for p in offer["presets"]} >= {"one", "four"}
    assert offer["bots"] == ["greedy", "cautious", "expert"]


def test_one_request_opens_a_table_against_bots_without_the_operator(client: TestClient) -> None:
    r = client.post("/api/open/tables", json={"variant": "guiyang", "bot": "expert"})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["invites"] == []
    tid, token = made["table"], token_of(made["play"])
    assert made["play"].startswith(f"/table/{tid}#token=seat_")
    table = client.get(f"/api/tables/{tid}").json()
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
    assert {s["bot"] for s in table["seats"][1:]} == {"expert"}
    assert table["rounds_total"] == 1 and table["next_round"] == "ready"
    assert table["bot_delay_ms"] == 800  # bots paced so a person can follow
    # the seat token works for that seat and is no operator credential
    who = client.get("/api/whoami", headers={"Authorization": f"Bearer {token}"}).json()
    assert who["role"] != "operator" and who["seat"] == 0
    assert (
        client.post(
            "/api/tables", json={}, headers={"Authorization": f"Bearer {token}"}
        ).status_code
        == 403
    )
    r = client.post(f"/api/tables/{tid}/ready", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code in (200, 204), r.text
    view = client.get(
        f"/api/tables/{tid}/view", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert view["round"] == 1


def test_a_friends_table_gives_an_invite_link_per_friend_seat(client: TestClient) -> None:
    body = {
        "variant": "guiyang",
        "seats": ["me", "friend", "bot", "friend"],
        "name": "小明",
        "friend_names": ["阿强"],
        "preset": "four",
    }
    made = client.post("/api/open/tables", json=body).json()
    tid = made["table"]
    assert [i["friend"] for i in made["invites"]] == [1, 2]
    assert made["invites"][0]["name"] == "阿强"
    table = client.get(f"/api/tables/{tid}").json()
    assert [s["kind"] for s in table["seats"]] == ["human", "human", "bot", "human"]
    assert table["seats"][0]["name"] == "小明" and table["rounds_total"] == 4
    seats = []
    for link in [made["play"]] + [i["url"] for i in made["invites"]]:
        h = {"Authorization": f"Bearer {token_of(link)}"}
        seats.append(client.get("/api/whoami", headers=h).json()["seat"])
    assert seats == [0, 1, 3]


@pytest.mark.parametrize(
    "body, status",
    [
        ({"variant": "nowhere"}, 422),
        ({"preset": "forever"}, 422),
        ({"bot": "random"}, 422),  # the ladder only
        ({"seats": ["me", "bot"]}, 422),  # guiyang needs four
        ({"seats": ["bot", "me", "bot", "bot"]}, 422),
        ({"seats": ["me", "me", "bot", "bot"]}, 422),
        ({"bot_delay_ms": 0}, 422),
    ],
)
def test_bad_open_tables_are_refused_and_nothing_is_made(
    client: TestClient, body: dict[str, Any], status: int
) -> None:
    r = client.post("/api/open/tables", json=body)
    assert r.status_code == status, r.text
    assert r.json()["detail"]
    assert client.get("/api/tables").json() == []


@pytest.mark.parametrize(
    "raw",
    [
        '{"seats": ["me", "friend", "bot", "bot"], "friend_names": ["\\ud800"]}',
        '{"seats": ["me", "friend", "bot", "bot"], "friend_names": ["%s"]}' % ("x" * 41),
        '{"name": "a\\u0000b"}',
    ],
)
def test_names_that_cannot_be_stored_or_shown_are_refused(client: TestClient, raw: str) -> None:
    """A lone surrogate in a friend's name reached the store and failed there (a 500)."""
    r = client.post("/api/open/tables", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 422, r.text
    assert client.get("/api/tables").json() == []


def test_the_operator_decides_open_play_and_its_limits(client: TestClient) -> None:
    assert client.get("/api/open/policy").status_code == 401
    r = client.put("/api/open/policy", json={"allowed": True, "tables_per_address": 1}, headers=OPH)
    assert r.status_code == 200 and r.json()["tables_per_address"] == 1
    made = client.post("/api/open/tables", json={})
    assert made.status_code == 201
    again = client.post("/api/open/tables", json={})
    assert again.status_code == 429 and "at most 1" in again.json()["detail"]
    assert len(client.get("/api/tables").json()) == 1
    client.put("/api/open/policy", json={"allowed": False}, headers=OPH)
    assert client.get("/api/open").json()["allowed"] is False
    off = client.post("/api/open/tables", json={})
    assert off.status_code == 403 and "turned off" in off.json()["detail"]
    # a seat token cannot change the policy
    h = {"Authorization": f"Bearer {token_of(made.json()['play'])}"}
    assert client.put("/api/open/policy", json={"allowed": True}, headers=h).status_code == 403


def test_an_idle_open_table_expires_and_frees_its_place(client: TestClient) -> None:
    client.put(
        "/api/open/policy",
        json={"allowed": True, "tables_per_address": 1, "idle_minutes": 5},
        headers=OPH,
    )
    now = [1000.0]
    state = open_play_of(client)  # type: ignore[arg-type]
    state.clock = lambda: now[0]
    made = client.post("/api/open/tables", json={}).json()
    h = {"Authorization": f"Bearer {token_of(made['play'])}"}
    now[0] += 4 * 60
    client.post(f"/api/tables/{made['table']}/ready", headers=h)  # it moves: a round starts
    for _ in range(100):  # the bots play (paced) until the player must act: then all is still
        view = client.get(f"/api/tables/{made['table']}/view", headers=h).json()
        if view["legal"]:
            break
        time.sleep(0.2)
    assert view["legal"]
    assert client.get("/api/open").status_code == 200  # seen moving at minute 4
    now[0] += 4 * 60  # 4 idle minutes since it moved: still alive
    assert client.post("/api/open/tables", json={}).status_code == 429
    assert client.get("/api/whoami", headers=h).status_code == 200
    now[0] += 2 * 60  # 6 idle minutes: expired, its seat token revoked, its place free
    assert client.post("/api/open/tables", json={}).status_code == 201
    assert client.get("/api/whoami", headers=h).status_code == 401


def test_the_opener_gives_empty_friend_seats_to_bots_after_creation(client: TestClient) -> None:
    body = {"variant": "guiyang", "seats": ["me", "friend", "friend", "bot"], "preset": "one"}
    made = client.post("/api/open/tables", json=body).json()
    tid = made["table"]
    me = {"Authorization": f"Bearer {token_of(made['play'])}"}
    friend = {"Authorization": f"Bearer {token_of(made['invites'][0]['url'])}"}
    other = {"Authorization": f"Bearer {token_of(made['invites'][1]['url'])}"}
    url = f"/api/open/tables/{tid}/seats/2/bot"
    # only the opener, only a friend's seat, only a table opened from the lobby
    assert client.post(url, json={}).status_code == 401
    assert client.post(url, json={}, headers=friend).status_code == 403
    assert (
        client.post(f"/api/open/tables/{tid}/seats/0/bot", json={}, headers=me).status_code == 409
    )
    assert (
        client.post(f"/api/open/tables/{tid}/seats/3/bot", json={}, headers=me).status_code == 409
    )
    assert client.post(url, json={"bot": "random"}, headers=me).status_code == 422
    # the friend at seat 1 came (a request over HTTP): the seat is taken
    assert client.get(f"/api/tables/{tid}/view", headers=friend).status_code == 200
    taken = client.post(f"/api/open/tables/{tid}/seats/1/bot", json={}, headers=me)
    assert taken.status_code == 409 and "someone is at it" in taken.json()["detail"]
    # seat 2 nobody took: a bot of the chosen strength plays it, its link stops working
    r = client.post(url, json={"bot": "expert"}, headers=me)
    assert r.status_code == 200, r.text
    table = client.get(f"/api/tables/{tid}").json()
    assert [s["kind"] for s in table["seats"]] == ["human", "human", "bot", "bot"]
    assert table["seats"][2]["bot"] == "expert" and table["seats"][2]["name"] == "expert bot 2"
    assert client.get("/api/whoami", headers=other).status_code == 401
    view = client.get(f"/api/tables/{tid}/view", headers=me).json()
    assert view["kinds"] == ["human", "human", "bot", "bot"]
    assert client.post(url, json={}, headers=me).status_code == 409  # a bot seat already
    # the two people ready: the round starts with the bot at seat 2 playing
    for h in (me, friend):
        assert client.post(f"/api/tables/{tid}/ready", headers=h).status_code == 200
    assert client.get(f"/api/tables/{tid}/view", headers=me).json()["round"] == 1
    # a table the operator made is not the opener's to change
    op_table = client.post(
        "/api/tables", json={"seats": [{"kind": "human"}] * 4}, headers=OPH
    ).json()
    h0 = {"Authorization": f"Bearer {op_table['tokens']['0']}"}
    r = client.post(f"/api/open/tables/{op_table['id']}/seats/1/bot", json={}, headers=h0)
    assert r.status_code == 403


def test_a_seat_given_to_a_bot_mid_round_plays_on_and_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'bots.db'}"
    with TestClient(create_app(db, OP)) as c:
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
        body = {"seats": seats, "seed": 5, "claim_window_ms": 0}
        t = c.post("/api/tables", json=body, headers=OPH).json()
        tid = t["id"]
        h0 = {"Authorization": f"Bearer {t['tokens']['0']}"}
        c.post(f"/api/tables/{tid}/rounds", headers=OPH)
        # seat 1 never came; whoever is to act, the round waits on the people only
        r = c.post(f"/api/tables/{tid}/seats/1/bot?bot=greedy", headers=OPH)
        assert r.status_code == 204, r.text
        for _ in range(200):  # seat 0 plays its turns; the bots answer at once
            view = c.get(f"/api/tables/{tid}/view", headers=h0).json()
            if view["phase"] == "end":
                break
            assert view["legal"], view["to_act"]  # nobody but seat 0 is waited for
            action = view["legal"][0]["action"]
            done = c.post(f"/api/tables/{tid}/actions", json={"action": action}, headers=h0)
            assert done.status_code == 200, done.text
        assert view["phase"] == "end"
    with TestClient(create_app(db, OP)) as c:
        seats = c.get(f"/api/tables/{tid}", headers=OPH).json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot", "bot", "bot"]
