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


# --- a shipped variant's parse, cached as bytecode is (variant_io.read_yaml) ---------------


def test_a_shipped_file_is_read_from_its_parse_cache_as_it_was_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache holds what the parser made of the same text (values, their types and
    lines); it is written only where bytecode would be, and ignored when the text, the
    reader's code or the layout differ, or when it is unreadable."""
    from zhuoji import variant_io as vio
    from zhuoji.variant import VARIANTS_DIR

    source = VARIANTS_DIR / "guiyang.yaml"
    assert vio.parsed_cache(source) is not None
    assert vio.parsed_cache(tmp_path / "guiyang.yaml") is None  # a user's file: never
    cache = tmp_path / "guiyang.marshal"
    monkeypatch.setattr(vio, "parsed_cache", lambda path: cache)
    parsed = vio.parse_yaml(source.read_text(encoding="utf-8"), "guiyang.yaml")

    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    vio.read_yaml(source, "guiyang.yaml")
    assert not cache.exists()
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    first = vio.read_yaml(source, "guiyang.yaml")
    assert cache.exists()
    cached = vio.read_yaml(source, "guiyang.yaml")
    for layer in (first, cached):
        assert (layer.label, layer.data, layer.lines) == ("guiyang.yaml", parsed.data, parsed.lines)
        assert repr(layer.data) == repr(parsed.data)  # True stays True, 1 stays 1
    text = source.read_text(encoding="utf-8")
    assert vio._load_parsed(cache, text) is not None
    assert vio._load_parsed(cache, text + "\n# edited\n") is None
    monkeypatch.setattr(vio, "PARSED_FORMAT", vio.PARSED_FORMAT + 1)
    assert vio._load_parsed(cache, text) is None
    monkeypatch.undo()
    monkeypatch.setattr(vio, "_readers_stamp", lambda: ((0, 0),))
    assert vio._load_parsed(cache, text) is None  # the reader changed since
    cache.write_bytes(b"\x00not marshal")
    assert vio._load_parsed(cache, text) is None


def test_demo_start_up_imports_no_yaml_once_the_parse_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the shipped file's parse cached (as a previous run leaves it), loading it
    imports neither PyYAML nor json."""
    from zhuoji import variant_io as vio
    from zhuoji.variant import VARIANTS_DIR

    source = VARIANTS_DIR / "guiyang.yaml"
    cache = tmp_path / "guiyang.marshal"
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    vio._store_parsed(cache, source.read_text(encoding="utf-8"), vio.read_yaml(source))
    code = (
        "from pathlib import Path\n"
        "from zhuoji import variant_io as vio\n"
        f"vio.parsed_cache = lambda path: Path({str(cache)!r})\n"
        "vio.load_variant('guiyang')\n"
    )
    loaded = _modules_after(code)
    assert "zhuoji.ruleset" in loaded
    assert [m for m in ("yaml", "zhuoji.yamltext", "json") if m in loaded] == []


# --- the collector while the command is imported (cli._importing) ------------------------


def _collector_after(call: str) -> tuple[bool, bool]:
    """(collector enabled, anything frozen) after ``call`` in a fresh interpreter."""
    code = (
        "import contextlib, gc, io, sys\n"
        "from zhuoji.cli import main\n"
        "sys.argv = ['zhuoji', 'variants', 'list']\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = {call}\n"
        "assert status == 0\n"
        "print(gc.isenabled(), gc.get_freeze_count() > 0)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    enabled, frozen = proc.stdout.split()
    return enabled == "True", frozen == "True"


def test_the_zhuoji_process_imports_its_command_without_the_collector() -> None:
    """The ``zhuoji`` process itself (``main()`` reading ``sys.argv``) freezes what the
    command's imports made and runs its command with the collector on; a caller passing
    its own arguments keeps its collector as it was."""
    assert _collector_after("main()") == (True, True)
    assert _collector_after("main(['variants', 'list'])") == (True, False)
