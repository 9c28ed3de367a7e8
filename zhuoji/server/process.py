"""Run ``zhuoji serve`` as a child process (tests, the load benchmark, demos).

>>> with ServerProcess("sqlite:///t.db", "operator-token-1234") as srv:  # doctest: +SKIP
...     srv.url
'http://127.0.0.1:40123'

The child listens on a free loopback port (``--port 0``, or ``port``); :attr:`ServerProcess.url` is read
from its first lines.  :meth:`kill` sends SIGKILL (no shutdown code runs: the crash the
persistence test needs); :meth:`stop` asks politely.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

_LISTENING = re.compile(r"listening on (http://\S+)")


class ServerProcess:
    def __init__(
        self,
        db_url: str,
        operator_token: str,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        cwd: str | Path | None = None,
        log_level: str = "warning",
        startup_timeout: float = 30.0,
        python: str = sys.executable,
        access_log: bool = False,
        extra_args: Sequence[str] = (),
    ) -> None:
        self.db_url = db_url
        self.operator_token = operator_token
        self.host = host
        self.port = port  # 0: a free one; a fixed one lets a restarted server keep its URL
        self.cwd = cwd
        self.log_level = log_level
        self.startup_timeout = startup_timeout
        self.python = python  # another interpreter runs another install (before/after benches)
        self.access_log = access_log
        self.extra_args = list(extra_args)  # more `zhuoji serve` options
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []
        self._reader: threading.Thread | None = None

    def start(self) -> ServerProcess:
        cmd = [
            self.python, "-m", "zhuoji.cli", "serve",
            "--host", self.host, "--port", str(self.port),
            "--db", self.db_url,
            "--operator-token", self.operator_token,
            "--log-level", self.log_level,
            *([] if self.access_log else ["--no-access-log"]), *self.extra_args,
        ]  # fmt: skip
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            cmd,
            cwd=self.cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        found = threading.Event()

        def read() -> None:
            assert self.proc is not None and self.proc.stdout is not None
            for line in self.proc.stdout:
                self.output.append(line.rstrip("\n"))
                m = _LISTENING.search(line)
                if m and not found.is_set():
                    self.url = m.group(1)
                    found.set()

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + self.startup_timeout
        while not found.wait(0.05):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("zhuoji serve did not start:\n" + "\n".join(self.output))
        while True:  # the port is bound before start-up ends: wait until it answers
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2) as resp:
                    if resp.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(
                    "zhuoji serve did not become healthy:\n" + "\n".join(self.output)
                )
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: the process dies at once, wherever it is."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self._join()

    def stop(self) -> None:
        """SIGTERM and wait (a clean shutdown), SIGKILL after 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._join()

    def _join(self) -> None:
        if self._reader is not None:
            self._reader.join(5)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
