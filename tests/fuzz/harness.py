"""Running a kind's inputs: each is tried once; a crash is anything but success or the
project's own error (:class:`~zhuoji.errors.ZhuojiError`) naming where the problem is.

How many inputs: :data:`EVERY_RUN` per kind in every test run; ``pytest -m fuzz`` (the
nightly job, ``docs/testing.md``) runs :data:`NIGHTLY` per kind instead, or
``ZHUOJI_FUZZ_INPUTS``.  ``ZHUOJI_FUZZ_SEED`` changes which inputs are made (default 0: the
same inputs every run); input ``i`` of a kind is made by ``random.Random(f"{seed}:{kind}:{i}")``,
so a failure names the number that makes it again.
"""

from __future__ import annotations

import os
import random
import signal
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType

import pytest

from zhuoji.errors import ZhuojiError

EVERY_RUN = 200
NIGHTLY = 10_000
#: the longest one input may take before it counts as a hang (a FIFO read, a runaway loop)
SECONDS = 60


def nightly(request: pytest.FixtureRequest) -> bool:
    """True under ``pytest -m fuzz`` (a marker expression naming ``fuzz``)."""
    return "fuzz" in str(request.config.getoption("markexpr") or "")


def count(request: pytest.FixtureRequest, every_run: int = EVERY_RUN) -> int:
    """Inputs per kind: ``every_run`` in every run, :data:`NIGHTLY` under ``-m fuzz``."""
    if nightly(request):
        return int(os.environ.get("ZHUOJI_FUZZ_INPUTS", NIGHTLY))
    return every_run


def rng(kind: str, i: int) -> random.Random:
    return random.Random(f"{os.environ.get('ZHUOJI_FUZZ_SEED', '0')}:{kind}:{i}")


class Hang(Exception):
    """An input took longer than :data:`SECONDS`."""


@contextmanager
def time_limit(seconds: int = SECONDS) -> Iterator[None]:
    def ring(_signum: int, _frame: FrameType | None) -> None:
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Tally:
    """What a kind's inputs did: accepted, refused (a ZhuojiError naming where), or crashed
    (anything else, or a refusal that names no place or runs over several lines)."""

    kind: str
    inputs: int = 0
    accepted: int = 0
    refused: int = 0
    crashes: list[str] = field(default_factory=list)

    def run(
        self,
        i: int,
        shown: str,
        attempt: Callable[[], object],
        names_where: Callable[[ZhuojiError], bool],
    ) -> bool:
        """Try one input; True when it was accepted."""
        self.inputs += 1
        try:
            with time_limit():
                attempt()
        except ZhuojiError as exc:
            self.refused += 1
            message = str(exc)
            problems = getattr(exc, "problems", None)
            if not names_where(exc):
                self._crash(i, shown, f"the error names no place: {message[:300]}")
            elif "\n" in message and not problems:
                self._crash(i, shown, f"the error runs over lines: {message[:300]}")
            return False
        except Exception:
            self._crash(i, shown, traceback.format_exc(limit=-6))
            return False
        self.accepted += 1
        return True

    def _crash(self, i: int, shown: str, what: str) -> None:
        self.crashes.append(f"{self.kind} input {i}: {shown[:300]!r}\n{what}")

    def summary(self) -> str:
        return (
            f"fuzz {self.kind}: {self.inputs} inputs, {self.accepted} accepted, "
            f"{self.refused} refused, {len(self.crashes)} crashes"
        )

    def check(self, least_share: float = 0.02) -> None:
        """No crash; and the inputs were neither all accepted nor all refused (a fuzzer
        whose inputs all take one path tests nothing)."""
        print(self.summary())
        shown = "\n\n".join(self.crashes[:5])
        kinds = Counter(crash.rstrip().rsplit("\n", 1)[-1][:160] for crash in self.crashes)
        counted = "\n".join(f"{n:5} × {last}" for last, n in kinds.most_common())
        assert not self.crashes, (
            f"{self.summary()}; by their last line:\n{counted}\n\nthe first ones:\n\n{shown}"
        )
        if self.inputs >= 50:
            assert self.accepted >= least_share * self.inputs, self.summary()
            assert self.refused >= least_share * self.inputs, self.summary()
