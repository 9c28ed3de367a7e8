"""The Ray backend gives the local backend's results (a local Ray instance, 2 CPUs)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from zhuoji.sim.records import RoundRecord, SimSpec
from zhuoji.sim.runner import simulate

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    if started:
        ray.shutdown()


def test_ray_equals_local(local_ray: None) -> None:
    spec = SimSpec("guiyang", agents=("greedy", "random", "greedy", "greedy"), rounds=36, seed=21)
    local: list[RoundRecord] = []
    remote: list[RoundRecord] = []
    a = simulate(spec, workers=1, on_records=local.extend)
    b = simulate(spec, workers=2, backend="ray", on_records=remote.extend)
    assert remote == local
    sa, sb = a.summary(), b.summary()
    assert sb["backend"] == "ray"
    for k in ("elapsed_s", "rounds_per_s", "workers", "backend"):
        sa.pop(k)
        sb.pop(k)
    assert sa == sb
