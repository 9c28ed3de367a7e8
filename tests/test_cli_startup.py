"""Start-up of the ``zhuoji`` command (issue 15, goal 4): a structural check, not a timed one.

``zhuoji --help`` must not import the engine, the variant machinery, jsonschema, pydantic,
YAML or rich: the chosen subcommand's module is imported when it is chosen, and nothing
heavier.  ``bench/startup.py`` prints the times as ratios against a bare interpreter.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from zhuoji import cli

HEAVY = (
    "zhuoji.engine",
    "zhuoji.variant",
    "zhuoji.hand",
    "zhuoji.agents",
    "zhuoji.settle",
    "jsonschema",
    "pydantic",
    "yaml",
    "rich",
    "numpy",
)


def _imported(code: str) -> set[str]:
    """Modules imported by ``code`` in a fresh interpreter (``-X importtime``)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def _heavy(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY))


def test_importing_the_cli_and_building_the_top_parser_imports_nothing_heavy() -> None:
    names = _imported("import zhuoji.cli as c; c.build_parser(only='')")
    assert "zhuoji.cli" in names
    assert _heavy(names) == []


def test_help_and_version_import_nothing_heavy() -> None:
    code = (
        "import sys, io, contextlib\n"
        "from zhuoji.cli import main\n"
        "for argv in (['--help'], ['--version'], []):\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        try:\n"
        "            main(argv)\n"
        "        except SystemExit:\n"
        "            pass\n"
    )
    assert _heavy(_imported(code)) == []


def test_a_shipped_variant_loads_without_jsonschema() -> None:
    """``zhuoji demo`` loads a shipped variant: the schema pass (and jsonschema) is for files
    the suite has not checked (tests/test_cli_errors.py checks the shipped ones)."""
    names = _imported("from zhuoji.variant_io import load_variant; load_variant('guiyang')")
    assert "jsonschema" not in names


def test_every_command_is_listed_with_the_help_its_module_gives() -> None:
    parser = cli.build_parser()  # every module configured
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    given = {action.dest: action.help for action in sub._choices_actions}
    assert given == {name: help_text for name, (_module, help_text) in cli.COMMANDS.items()}


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_each_command_builds_alone(name: str) -> None:
    parser = cli.build_parser(only=name)
    assert parser.prog == "zhuoji"


def test_every_option_has_help_text() -> None:
    def walk(parser: argparse.ArgumentParser, prog: str) -> list[str]:
        missing = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    missing += walk(child, f"{prog} {name}")
            elif not action.help and action.dest != "help":
                missing.append(f"{prog} {'/'.join(action.option_strings) or action.dest}")
        return missing

    assert walk(cli.build_parser(), "zhuoji") == []


def test_shipped_variants_listed_without_loading_them() -> None:
    from zhuoji.variant_io import builtin_names

    assert cli.shipped_variants() == builtin_names()
