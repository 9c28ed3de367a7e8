"""Nothing a seat is shown tells it who may claim (issue 26, *Information leaks*), on the real
app, over HTTP and over the WebSocket, with the turn timer, in both claim-window modes.

Four people play (every seat human, turn timer on).  Before each discard every seat's view
is recorded; while the window it opens lasts, every seat without an option in it — the
discarder too under a fixed window — must be shown exactly that view again, ``deadline_ms``
included (it was read from the live round: no deadline while somebody decides on the
discard, a new one when nobody can).  The in-process referee
(``tests/test_server_hidden.py``) checks the same after every event of many rounds; this
checks the wire.

Also here: the public listing's presence (``seats[].connected``) does not show which seat
has a decision, and a table where two or more people sit takes the fixed window by default.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from zhuoji.server.app import create_app
from zhuoji.server.tables import DEFAULT_CLAIM_WINDOW_MS

OP = "leaks-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
WINDOWED = ("claim", "rob")


def _quiet(view: dict[str, Any]) -> dict[str, Any]:
    """The discarder's view in a fixed window: its view before, with nothing to do."""
    return {**view, "legal": [], "legal_actions": [], "to_act": [], "discard_waits": {}}


def _diff(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}


class _Http:
    """Four seats over HTTP: a view is a GET."""

    def __init__(self, c: TestClient, tid: str, tokens: dict[int, str]) -> None:
        self.c, self.tid = c, tid
        self.h = {s: {"Authorization": f"Bearer {t}"} for s, t in tokens.items()}

    def view(self, s: int) -> dict[str, Any]:
        r = self.c.get(f"/api/tables/{self.tid}/view", headers=self.h[s])
        assert r.status_code == 200
        view: dict[str, Any] = r.json()
        return view

    def act(self, s: int, action: str) -> None:
        r = self.c.post(
            f"/api/tables/{self.tid}/actions", json={"action": action}, headers=self.h[s]
        )
        assert r.status_code == 200, r.text

    def close(self) -> None:
        pass


class _Ws:
    """Four seats over WebSockets: a view is what the seat was pushed and what a ``sync``
    sends back; a ``ping`` is the barrier after which every earlier push has arrived."""

    def __init__(self, c: TestClient, tid: str, tokens: dict[int, str]) -> None:
        self.socks = {}
        self.latest: dict[int, dict[str, Any]] = {}
        self.pushed: dict[int, list[dict[str, Any]]] = {s: [] for s in tokens}
        self.n = 0
        self._cms = []
        for s, t in tokens.items():
            cm = c.websocket_connect(f"/ws/tables/{tid}")
            ws = cm.__enter__()
            self._cms.append(cm)
            ws.send_json({"type": "auth", "token": t})
            self.socks[s] = ws
            self._drain(s)

    def _drain(self, s: int) -> None:
        self.n += 1
        ws = self.socks[s]
        ws.send_json({"type": "ping", "id": self.n})
        while True:
            m = ws.receive_json()
            if m["type"] == "pong" and m["id"] == self.n:
                return
            if m["type"] == "state":
                self.latest[s] = m["view"]
                self.pushed[s].append(m["view"])
            assert m["type"] != "error", m

    def view(self, s: int) -> dict[str, Any]:
        self.socks[s].send_json({"type": "sync"})
        self._drain(s)
        return self.latest[s]

    def act(self, s: int, action: str) -> None:
        self.socks[s].send_json({"type": "action", "action": action, "id": "a"})
        self._drain(s)

    def close(self) -> None:
        for cm in self._cms:
            cm.__exit__(None, None, None)


def _play(tmp_path: Path, transport: str, window_ms: int, discards: int) -> dict[str, int]:
    rng = random.Random(7)
    stats = {"windows": 0, "claim_windows": 0, "hidden": 0, "hidden_deadlines": 0}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'l.db'}", OP)) as c:
        t = c.post(
            "/api/tables",
            json={"seed": 5, "turn_seconds": 120, "claim_window_ms": window_ms, "rounds": 50},
            headers=OPH,
        ).json()
        tid = t["id"]
        tokens = {int(s): tok for s, tok in t["tokens"].items()}
        seats = (_Http if transport == "http" else _Ws)(c, tid, tokens)
        try:
            assert c.post(f"/api/tables/{tid}/rounds", headers=OPH).status_code == 201
            done = 0
            for _ in range(4000):
                if done >= discards:
                    break
                views = {s: seats.view(s) for s in tokens}
                if any(v["phase"] == "end" for v in views.values()):
                    assert c.post(f"/api/tables/{tid}/rounds", headers=OPH).status_code == 201
                    continue
                deciding = [s for s, v in views.items() if v["legal"]]
                if not deciding:
                    time.sleep(0.02)  # a fixed window is running out
                    continue
                actor = deciding[0]
                v = views[actor]
                legal = [a["action"] for a in v["legal"]]
                if v["phase"] in WINDOWED:
                    seats.act(actor, rng.choice(legal))
                    continue
                if any(x["seq"] != v["seq"] for x in views.values()):
                    continue  # a window closed while the views were read: read them again
                discards_now = [a for a in legal if " discard " in a]
                action = rng.choice(discards_now or legal)
                sent = time.monotonic()
                seats.act(actor, action)
                after = {s: seats.view(s) for s in tokens}
                in_time = time.monotonic() - sent < window_ms / 1000 * 0.8
                options = {s for s, x in after.items() if x["phase"] in WINDOWED and x["legal"]}
                if window_ms == 0 and not options:
                    continue  # nobody could answer: no window
                if window_ms > 0 and not in_time:
                    continue  # too slow to tell that the window still ran
                done += 1
                stats["windows"] += 1
                stats["claim_windows"] += bool(options)
                for s in tokens:
                    if s in options or (s == actor and window_ms == 0):
                        continue
                    expected = _quiet(views[s]) if s == actor else views[s]
                    assert after[s] == expected, (
                        transport,
                        window_ms,
                        s,
                        _diff(after[s], expected),
                    )
                    stats["hidden"] += 1
                    stats["hidden_deadlines"] += after[s]["deadline_ms"] is not None
        finally:
            seats.close()
    return stats


@pytest.mark.parametrize("transport", ["http", "ws"])
@pytest.mark.parametrize("window_ms", [0, 700], ids=["until-answered", "fixed"])
def test_a_window_shows_nothing_new_with_the_turn_timer(
    tmp_path: Path, transport: str, window_ms: int
) -> None:
    stats = _play(tmp_path, transport, window_ms, 6 if window_ms else 8)
    print(transport, window_ms, stats)
    assert stats["hidden"] >= 10 and stats["hidden_deadlines"] >= 10, stats


def test_presence_does_not_tell_who_is_deciding(tmp_path: Path) -> None:
    """The listing's ``connected`` was the number of open long polls: the seat holding a
    claim (its poll answered, the others still waiting) showed 0.  It counts a seat that
    polls over HTTP as there whether or not a poll is open now."""
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", OP)
    with TestClient(app) as c:
        t = c.post("/api/tables", json={"seed": 3, "claim_window_ms": 0}, headers=OPH).json()
        tid = t["id"]
        h = {int(s): {"Authorization": f"Bearer {tok}"} for s, tok in t["tokens"].items()}
        assert [s["connected"] for s in c.get(f"/api/tables/{tid}").json()["seats"]] == [0] * 4
        for s in (0, 1, 2):  # three seats poll once; seat 3 never comes
            assert c.get(f"/api/tables/{tid}/view", headers=h[s]).status_code == 200
        view = c.get(f"/api/tables/{tid}/view", headers=h[1])
        poll = threading.Thread(  # seat 1's long poll is open while the listing is read
            target=lambda: c.get(
                f"/api/tables/{tid}/view",
                params={"changed_from": view.headers["etag"], "wait": 1.5},
                headers=h[1],
            )
        )
        poll.start()
        time.sleep(0.5)
        shown = [s["connected"] for s in c.get(f"/api/tables/{tid}").json()["seats"]]
        poll.join()
        assert shown == [1, 1, 1, 0], shown  # seats 0 and 2 have no poll open: they count
        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"type": "auth", "token": t["tokens"]["3"]})
            assert ws.receive_json()["type"] == "hello"
            ws.receive_json()
            seats = c.get(f"/api/tables/{tid}").json()["seats"]
            assert seats[3]["connected"] == 1


def test_people_get_the_fixed_window_by_default(tmp_path: Path) -> None:
    """The default window (until every seat with an option has answered) showed the
    discarder a claim phase only when somebody could claim: two or more people now take
    the fixed window by default; a table of bots (or one person and bots) keeps 0, and an
    explicit setting stands."""
    human, bot = {"kind": "human"}, {"kind": "bot"}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'd.db'}", OP)) as c:

        def window(body: dict[str, Any]) -> int:
            r = c.post("/api/tables", json=body, headers=OPH)
            assert r.status_code == 201, r.text
            return int(r.json()["claim_window_ms"])

        assert window({}) == DEFAULT_CLAIM_WINDOW_MS  # every seat a person's
        assert window({"seats": [human, human, bot, bot]}) == DEFAULT_CLAIM_WINDOW_MS
        assert window({"seats": [human, bot, bot, bot]}) == 0
        assert window({"seats": [bot, bot, bot, bot]}) == 0
        assert window({"seats": [human, human, bot, bot], "claim_window_ms": 0}) == 0
        assert window({"seats": [bot, bot, bot, bot], "claim_window_ms": 500}) == 500
