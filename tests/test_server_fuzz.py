"""Every endpoint of the OpenAPI document, fuzzed with schemathesis: no request, well-formed
or not, gets a 5xx (issue 26, *500s that should be 4xx*), and the probes the attack campaign
found are pinned here one by one.

Cases come from schemathesis' strategies for each operation of ``/openapi.json``, in both
of its modes (requests the schema allows, and requests it forbids), sent with the
operator's token, a seat's token or none, to a server holding a real table and a stored
variant (a path naming them half of the time, so the fuzz reaches past the 404s).  A normal
run sends ``ZHUOJI_API_FUZZ`` cases per operation and mode (default 8: about 320 in
all); the long run is

    ZHUOJI_API_FUZZ=200 pytest -m fuzz tests/test_server_fuzz.py -p no:cacheprovider

(about 10,000 cases).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")
from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402

from zhuoji.server.app import create_app  # noqa: E402
from zhuoji.server.auth import Attempts  # noqa: E402

OP = "fuzz-operator-token-0123456789"
OPH = {"Authorization": f"Bearer {OP}"}
CASES = int(os.environ.get("ZHUOJI_API_FUZZ", "8"))
UPLOAD = "name: fuzz-house\nextends: guiyang\nmatch:\n  rounds: 2\n"

pytestmark = [pytest.mark.fuzz, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("fuzz") / "f.db"
    with TestClient(create_app(f"sqlite:///{db}", OP), raise_server_exceptions=False) as c:
        t = c.post("/api/tables", json={"seed": 9, "claim_window_ms": 0}, headers=OPH).json()
        assert c.post(f"/api/tables/{t['id']}/rounds", headers=OPH).status_code == 201
        assert c.post("/api/variants", json={"source": UPLOAD}, headers=OPH).status_code == 201
        yield c, t


def _operations(c: TestClient) -> list[Any]:
    schema = schemathesis.openapi.from_dict(c.get("/openapi.json").json())
    return [result.ok() for result in schema.get_all_operations()]


def test_the_fuzz_covers_every_endpoint(served: Any) -> None:
    c, _t = served
    paths = {op.path for op in _operations(c)}
    documented = set(c.get("/openapi.json").json()["paths"])
    assert paths == documented and len(paths) >= 20, sorted(documented - paths)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_request_gets_a_5xx(served: Any, mode: GenerationMode) -> None:
    c, t = served
    seat = {"Authorization": f"Bearer {t['tokens']['0']}"}
    real = {"table_id": t["id"], "seat": 0, "number": 1, "ref": "fuzz-house", "name": "fuzz-house"}
    counts = {"cases": 0, "4xx": 0, "2xx": 0}
    failures: list[str] = []
    for op in _operations(c):

        @settings(
            max_examples=CASES,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(
            case=op.as_strategy(generation_mode=mode),
            who=st.sampled_from([OPH, seat, {}]),
            use_real=st.booleans(),
        )
        def probe(case: Any, who: dict[str, str], use_real: bool) -> None:
            if use_real and case.path_parameters:
                for k in case.path_parameters:
                    if k in real:
                        case.path_parameters[k] = real[k]
            # a fuzzed token reissue makes the seat's token wrong: its failures must not
            # throttle the rest of the run (the back-off has tests of its own)
            c.app.state.authority.attempts = Attempts()
            kwargs = case.as_transport_kwargs(base_url="http://testserver")
            headers = {**(kwargs.pop("headers") or {}), **who}
            try:
                r = c.request(headers=headers, **kwargs)
            except (UnicodeEncodeError, ValueError):  # the client cannot send it at all
                return
            counts["cases"] += 1
            counts["2xx" if r.status_code < 400 else "4xx"] += r.status_code < 500
            if r.status_code >= 500:
                failures.append(
                    f"{case.method} {kwargs.get('url')} → {r.status_code} {r.text[:80]}"
                )

        try:
            probe()
        except Unsatisfiable:  # nothing to make invalid (an operation without input)
            assert mode is GenerationMode.NEGATIVE
            counts["nothing to break"] = counts.get("nothing to break", 0) + 1
    print(f"\n{mode.value}: {counts}")
    assert not failures, failures[:10]
    assert counts["cases"] >= 10 * CASES


# -- the probes of the attack campaign -----------------------------------------------------


def test_unencodable_numbers_and_text_are_422(served: Any) -> None:
    """A seat's action with ``"seq": NaN``, ``1e400`` or ``"action": "\\ud800"`` was a 500:
    FastAPI's 422 echoed input it could not encode."""
    c, _fuzzed = served
    c.app.state.authority.attempts = Attempts()  # the fuzz's wrong tokens are not ours
    # a table of its own: the fuzz may have given the shared table's seats to bots
    t = c.post("/api/tables", json={"seed": 9, "claim_window_ms": 0}, headers=OPH).json()
    assert c.post(f"/api/tables/{t['id']}/rounds", headers=OPH).status_code == 201
    token = t["tokens"]["0"]
    h = {"Authorization": f"Bearer {token}", "content-type": "application/json"}
    for body in (
        b'{"action": "pass", "seq": NaN}',
        b'{"action": "pass", "seq": 1e400}',
        b'{"action": "pass", "seq": -Infinity}',
        b'{"action": "\\ud800"}',
    ):
        r = c.post(f"/api/tables/{t['id']}/actions", content=body, headers=h)
        assert r.status_code == 422, (body, r.status_code, r.text)
        assert r.json()["detail"]
    r = c.post(
        "/api/tables",
        content=b'{"seed": 1e400, "name": "\\ud800"}',
        headers={**OPH, "content-type": "application/json"},
    )
    assert r.status_code == 422


def test_a_5000_digit_integer_is_refused(served: Any) -> None:
    c, _t = served
    c.app.state.authority.attempts = Attempts()
    huge = "9" * 5000
    source = f"name: digits-house\nextends: guiyang\nmatch:\n  rounds: {huge}\n"
    r = c.post("/api/variants", json={"source": source}, headers=OPH)
    assert r.status_code == 422 and "5,000 digits" in r.json()["detail"]
    r = c.post(
        "/api/tables",
        content=b'{"seed": ' + huge.encode() + b"}",
        headers={**OPH, "content-type": "application/json"},
    )
    assert 400 <= r.status_code < 500


def test_concurrent_uploads_of_one_name_get_one_201(tmp_path: Path) -> None:
    """Eight concurrent uploads of one variant name were 1 × 201 and 7 × 500 (the store's
    unique key); the losers now get 409 and exactly one version is stored."""
    source = "name: race-house\nextends: guiyang\nmatch:\n  rounds: 3\n"
    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", OP)
    with TestClient(app, raise_server_exceptions=False) as c:
        with ThreadPoolExecutor(8) as pool:
            statuses = sorted(
                pool.map(
                    lambda _: (
                        c.post("/api/variants", json={"source": source}, headers=OPH).status_code
                    ),
                    range(8),
                )
            )
        assert statuses[0] == 201 and set(statuses[1:]) <= {201, 409}, statuses
        versions = c.get("/api/variants/race-house/versions").json()
        assert len(versions) == statuses.count(201)
