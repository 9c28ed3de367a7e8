"""Determinism across engine changes: fixed seeds give the same logs as before.

A speed-up of the engine or the bots (the compiled build, incremental counts, trusted
paths) must not change a single event: each shipped variant's rounds, played from fixed
seeds by the random, greedy and cautious agents, are hashed (their event logs as JSON lines,
``docs/event-log.md``, and the observations the seats were shown along the way) and compared
with fingerprints stored here.  The fingerprints were taken before the speed-up
(issue 15), so the check covers both builds (CI runs this file again with ``ZHUOJI_PURE=1``).

A rule change that is meant to change play (a variant file, a hook) changes its variant's
fingerprint; print the new ones with ``python tests/test_determinism.py`` and say why in the
commit.  An optimization never may.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from zhuoji import eventlog
from zhuoji.actions import Action
from zhuoji.agents.base import make_agent, play_round
from zhuoji.engine import Round
from zhuoji.observation import Observation
from zhuoji.variant_io import builtin_names, load_variant

#: (agent, rounds): each round seeded 0, 1, …; agents seeded by seat
PLAYS = (("random", 24), ("greedy", 4), ("cautious", 2))

#: sha256 (first 16 hex digits) of each variant's plays, taken before the speed-up (the
#: variants shipped later by the catalog, issue 12, from main's code before the speed-up)
FINGERPRINTS = {
    "anshun": "3427e37d65c88331",
    "bijie": "2653eb019e1f7b35",
    "dushan": "cc76c18e237576f8",  # revision 3: automatic 报叫 (issue 25)
    "duyun": "a0bb499bfabba6b1",
    "erdingguai": "cd3d5ea0936d6c63",
    "guiyang": "3d764aaf05104f08",
    "guiyang-dingque": "6460fb164c9aa487",
    "guiyang-qq": "25f006c2555e240f",
    "guiyang-shoushang": "7b885548658ecc66",
    "guiyang-weile": "5b4ba9c30cb8ac8c",
    "jinsha": "6771e4161958155c",
    "jinyou": "9696303dbbf64c03",
    "kaili": "e7ae741dcc0b2ac4",
    "liupanshui": "0d2d552003617ec4",
    "luan": "285311bcc0bb2421",
    "qianxi": "27ce5ec825e838dd",  # revision 3: 补花, four flowers in the wall (issue 25)
    "sandingguai": "fa186fc6af4647f2",  # revision 3: FW 查缺 after wins (issue 25)
    "tongren": "921d2ee560f5d360",
    "zunyi": "f2734448cb81a943",
}


class Watching:
    """Wraps an agent: records what its seat was shown (every fourth decision) and chose."""

    def __init__(self, agent_name: str, seat: int, out: list[str]) -> None:
        self.agent = make_agent(agent_name, 100 + seat)
        self.name = self.agent.name
        self.out = out
        self.calls = 0

    def act(self, obs: Observation) -> Action:
        choice = self.agent.act(obs)
        if self.calls % 4 == 0:
            self.out.append(json.dumps(obs.to_dict(), ensure_ascii=False, sort_keys=True))
        self.calls += 1
        self.out.append(str(choice))
        return choice


def fingerprint(variant: str) -> str:
    ruleset = load_variant(variant)
    digest = hashlib.sha256()
    for agent_name, rounds in PLAYS:
        for seed in range(rounds):
            seen: list[str] = []
            agents = [Watching(agent_name, s, seen) for s in range(ruleset.players)]
            r = play_round(Round(ruleset, seed=seed), agents)
            digest.update(eventlog.dumps(r.log).encode())
            digest.update("\n".join(seen).encode())
    return digest.hexdigest()[:16]


def test_every_shipped_variant_has_a_fingerprint() -> None:
    assert sorted(FINGERPRINTS) == builtin_names()


@pytest.mark.parametrize("variant", sorted(FINGERPRINTS))
def test_fixed_seeds_give_the_stored_logs(variant: str) -> None:
    assert fingerprint(variant) == FINGERPRINTS[variant]


# ---------------------------------------------------------------------------------------
# seeded runs are pure: the same money on any day, in any time zone (issue 25)
# ---------------------------------------------------------------------------------------

#: the calendar as a shim shows it to the process: ``time.time`` starts at ZHUOJI_TEST_NOW
#: (``date.today()`` reads it), then runs on
CLOCK_SHIM = """\
import os, time
_real = time.time
_offset = float(os.environ["ZHUOJI_TEST_NOW"]) - _real()
time.time = lambda: _real() + _offset
"""

#: Monday 2026-01-05 12:00 UTC: Tuesday 02:00 at UTC+14, Monday 01:00 at UTC-11
NOON_UTC = 1_767_614_400
ZONES = ("Etc/GMT-14", "Etc/GMT+11")  # POSIX signs: these are UTC+14 and UTC-11, 25 h apart


def _simulate(zone: str, shim: Path) -> tuple[str, dict[str, object]]:
    env = {
        **os.environ,
        "TZ": zone,
        "ZHUOJI_TEST_NOW": str(NOON_UTC),
        "PYTHONPATH": os.pathsep.join([str(shim), os.environ.get("PYTHONPATH", "")]),
    }
    probe = "import datetime; print(datetime.date.today().isoweekday())"
    day = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    argv = ["simulate", "--seed", "1", "--rounds", "24", "--json"]
    argv += ["--set", "settle.chickens.weekday={value: 1}"]  # 星期鸡 on: the day pays
    proc = subprocess.run(
        [sys.executable, "-m", "zhuoji.cli", *argv],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(proc.stdout)
    for timing in ("elapsed_s", "rounds_per_s"):
        data.pop(timing)
    return day, data


def test_simulate_pays_the_same_in_time_zones_25_hours_apart(tmp_path: Path) -> None:
    """Two runs of ``zhuoji simulate --seed 1`` at one instant, in time zones 25 hours
    apart (their calendars show different days), give identical results: the weekday of a
    seeded run comes from its seed, not from the calendar."""
    (tmp_path / "sitecustomize.py").write_text(CLOCK_SHIM, encoding="utf-8")
    (day_a, a), (day_b, b) = (_simulate(zone, tmp_path) for zone in ZONES)
    assert (day_a, day_b) == ("2", "1")  # the shim and the zones work: two calendar days
    assert a == b


if __name__ == "__main__":  # print the current fingerprints (after a rule change)
    for name in sys.argv[1:] or sorted(FINGERPRINTS):
        print(f'    "{name}": "{fingerprint(name)}",')
