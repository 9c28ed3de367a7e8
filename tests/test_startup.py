"""Start-up (issue 29, item 5): what ``zhuoji --help`` imports, and how ``bench/startup.py``
runs its children.

``tests/test_cli_startup.py`` keeps the engine, pydantic and YAML out of ``zhuoji --help``;
here the standard library modules the command line needs only for one command's output
(``json`` for ``--json``, ``tempfile`` to probe an output folder) stay out of it too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench_support import bench_module

#: imported by a command's handler when it needs them, never at start-up
LAZY = ("json", "tempfile")


def _modules_after(code: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return set(proc.stdout.split())


def test_help_imports_neither_json_nor_tempfile() -> None:
    code = (
        "import contextlib, io\n"
        "from zhuoji.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
    )
    loaded = _modules_after(code)
    assert "zhuoji.cli" in loaded
    assert [m for m in LAZY if m in loaded] == []


def test_json_output_and_folder_checks_still_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from zhuoji import cli

    cli.emit_json({"a": "鸡"})
    assert cli.check_output_dir(str(tmp_path), "--log-dir") == tmp_path
    out = capsys.readouterr().out
    assert '"a": "鸡"' in out


def test_the_bench_children_may_write_bytecode() -> None:
    """An environment with ``PYTHONDONTWRITEBYTECODE`` recompiles the package in every run;
    the bench measures the package as installed, with its bytecode cached."""
    startup = bench_module("startup")
    assert "PYTHONDONTWRITEBYTECODE" not in startup.ENV
    assert startup.HELP_TARGET == 2.0
    assert startup.DEMO_TARGET == 0.250
