"""Command-line entry point: a table of subcommands, each imported only when it is chosen.

``zhuoji --help`` lists :data:`COMMANDS` without importing any of them (issue 15: start-up
within 4× a bare interpreter; a test checks that no engine, jsonschema or pydantic module is
imported); the chosen command's module adds its parser with ``configure(subparsers)`` and
sets ``handler``.  Bad input raises :class:`~zhuoji.errors.ZhuojiError` or is a usage error:
one line on stderr (``{"error": …, "where": …}`` as JSON under ``--json``), exit status 2,
and nothing written.  ``variants validate`` exits 1 when it finds problems in a file.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

DESCRIPTION = (
    "zhuoji: Guizhou 捉鸡 mahjong and its relatives. Bots play and settle rounds under any "
    "variant file; settle, replay, check and compare rule sets."
)
EPILOG = (
    "Start with: zhuoji demo. Every command takes --help; every report takes --json. "
    "Bad input exits with status 2 and changes nothing."
)

Handler = Callable[[argparse.Namespace], int]

#: name → (module that configures it, one-line help).  A module that adds several commands
#: (``zhuoji.sim.cli``) is listed once per command, in one run; a test checks these helps
#: match the ones the modules give.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("zhuoji.commands", "bots play a short match; every round's itemized settlement"),
    "play": ("zhuoji.play", "play a round or a match against bots in the terminal"),
    "hand": ("zhuoji.commands", "analyse a hand: winning forms, waits, shanten, decompositions"),
    "settle": ("zhuoji.commands", "settle a round-end file (YAML or JSON) and itemize it"),
    "replay": ("zhuoji.commands", "replay an event log, re-checking every action"),
    "variants": (
        "zhuoji.variants_cmd",
        "list, show, check, compare, migrate and document variants",
    ),
    "simulate": ("zhuoji.sim.cli", "bots play many rounds (as matches); statistics of a variant"),
    "compare": (
        "zhuoji.sim.cli",
        "two variants (or one with and without overrides) on the same seeds and bots",
    ),
    "stats": (
        "zhuoji.sim.cli",
        "statistics of runs stored by simulate/compare --out (no re-simulation)",
    ),
    "serve": (
        "zhuoji.server.cli",
        "run the table server: HTTP API, WebSocket play, browser client",
    ),
}

#: optional dependencies → the extra that installs them (pyproject.toml)
_EXTRA_OF = {
    "numpy": "sim",
    "matplotlib": "sim",
    "tqdm": "sim",
    "ray": "ray",
    "fastapi": "server",
    "uvicorn": "server",
    "sqlalchemy": "server",
    "websockets": "server",
    "pettingzoo": "env",
    "gymnasium": "env",
    "psycopg": "postgres",
}


class UsageError(Exception):
    """A command line argparse cannot read (unknown option, a missing or bad value)."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.where = where


_ARGUMENT = re.compile(r"^argument ([^:]+): ")


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: raised, so :func:`main` reports them like any other
    bad input (JSON under ``--json``) instead of printing the usage block."""

    def error(self, message: str) -> NoReturn:
        m = _ARGUMENT.match(message)
        where = m.group(1).split("/")[0] if m else None
        if m:
            message = f"{where}: {message[m.end() :]}"
        raise UsageError(f"{message} (see {self.prog} --help)", where)


# ---------------------------------------------------------------------------------------
# argument types and checks shared by the commands
# ---------------------------------------------------------------------------------------


def at_least(low: int) -> Callable[[str], int]:
    """An ``int`` option type refusing values below ``low`` (``--rounds -1``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    parse.__name__ = f"number ≥ {low}"
    return parse


def positive_number(text: str) -> float:
    """A ``float`` option type refusing zero, negatives and NaN (``--seconds -1``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text}")
    return value


def loadable_variant(text: str) -> str:
    """An option type for a variant (shipped name or file) that must load: the variant
    error (file and line) is the option's error.  Imports the variant code when called."""
    from zhuoji.errors import ZhuojiError
    from zhuoji.variant_io import load_variant

    try:
        load_variant(text)
    except ZhuojiError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def shipped_variants() -> list[str]:
    """Names of the shipped variants, from the files (no variant code imported)."""
    return sorted(p.stem for p in Path(__file__).with_name("variants").glob("*.yaml"))


def variant_help(default: str | None = None) -> str:
    text = "a shipped variant (" + ", ".join(shipped_variants()) + ") or a variant file"
    return text + (f" (default {default})" if default else "")


def variant_options(p: argparse.ArgumentParser, default: str | None = None) -> None:
    """``--variant`` and repeatable ``--set KEY=VALUE``, worded the same in every command."""
    p.add_argument(
        "--variant", "-v", default=default, metavar="NAME|FILE", help=variant_help(default)
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a rule, e.g. settle.shabao.value=15 (repeatable; KEY=null removes an "
        "optional stage)",
    )


def json_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--json", action="store_true", help="print JSON (errors too, on stderr) instead of text"
    )


def _probe_folder(folder: Path, shown: str) -> None:
    """``folder`` (or its nearest existing ancestor, where it would be created) takes new
    files; a temporary file is made and removed to know (root passes every access check)."""
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise _zhuoji_error(f"{shown}: {probe} is not a folder")
    import tempfile  # only when an output folder is checked (not at start-up)

    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        raise _zhuoji_error(f"{shown}: cannot write in {probe}: {exc.strerror or exc}") from exc


def check_output_dir(path: str | os.PathLike[str], option: str) -> Path:
    """Refuse, before any work, an output folder that cannot be made or written."""
    p = Path(path)
    shown = f"{option} {path}"
    if p.exists() and not p.is_dir():
        raise _zhuoji_error(f"{shown}: not a folder")
    _probe_folder(p, shown)
    return p


def check_output_file(path: str | os.PathLike[str], option: str) -> Path:
    """Refuse, before any work, an output file that cannot be written."""
    p = Path(path)
    shown = f"{option} {path}"
    if p.is_dir():
        raise _zhuoji_error(f"{shown}: is a folder, not a file")
    if p.exists():
        if not os.access(p, os.W_OK):
            raise _zhuoji_error(f"{shown}: the file is not writable")
        try:
            with p.open("ab"):
                pass
        except OSError as exc:
            raise _zhuoji_error(f"{shown}: cannot write: {exc.strerror or exc}") from exc
        return p
    _probe_folder(p.parent, shown)
    return p


def _zhuoji_error(message: str) -> Exception:
    from zhuoji.errors import ZhuojiError

    return ZhuojiError(message)


def emit_json(data: Any) -> None:
    import json  # only for --json output (not at start-up)

    print(json.dumps(data, ensure_ascii=False, indent=2))


# ---------------------------------------------------------------------------------------
# the parser
# ---------------------------------------------------------------------------------------


def _version() -> str:
    from zhuoji import __version__

    return __version__


def build_parser(only: str | None = None) -> Parser:
    """The ``zhuoji`` parser.  With ``only``, just that command's module is imported and
    configured (the others are listed by name and help); without it, every command is."""
    parser = Parser(prog="zhuoji", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"zhuoji {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    configured: set[str] = set()
    for name, (module_name, help_text) in COMMANDS.items():
        if only is not None and name != only and COMMANDS.get(only, ("",))[0] != module_name:
            sub.add_parser(name, help=help_text, add_help=False)
            continue
        if module_name in configured:
            continue
        configured.add(module_name)
        try:
            module = __import__(module_name, fromlist=["configure"])
        except ModuleNotFoundError as exc:
            if not exc.name or not module_name.startswith(exc.name):
                raise
            sub.add_parser(name, help=help_text + " (not in this build)", add_help=False)
            continue
        module.configure(sub)
    return parser


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line (the first word that is not an option)."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def _command_words(argv: Sequence[str], chosen: str | None) -> list[str]:
    """The command and, for ``variants``, its subcommand: how errors name the command."""
    if chosen is None:
        return []
    words = [w for w in argv if not w.startswith("-")]
    return words[:2] if chosen == "variants" else words[:1]


# ---------------------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------------------

_WHERE = re.compile(r"^(--?[\w-]+(?: [\w.\[\]-]+)?|[^\s:]+(?::\d+)?):")


def where_of(exc: BaseException) -> str | None:
    """Where a bad input is: the first problem's ``file:line`` for a variant, else the
    message's leading ``file:line``/``--option`` (zhuoji messages start with it)."""
    if isinstance(exc, UsageError):
        return exc.where
    problems = getattr(exc, "problems", None)
    if problems:
        first = problems[0]
        file, line = getattr(first, "file", None), getattr(first, "line", None)
        if file is not None:
            return f"{file}:{line}" if line else str(file)
    m = _WHERE.match(str(exc))
    return m.group(1) if m else None


#: problems an error line shows; the rest are counted
SHOWN_PROBLEMS = 3


def one_line(exc: BaseException) -> str:
    """The error as one line: a variant's (or any message's) first :data:`SHOWN_PROBLEMS`
    problems, then how many more there are.  (``zhuoji variants validate`` lists every
    problem of a file, one per line.)"""
    problems = [str(p) for p in getattr(exc, "problems", None) or []]
    lines = problems or [line for line in str(exc).splitlines() if line.strip()]
    if len(lines) <= 1:
        return lines[0] if lines else str(exc)
    text = "; ".join(lines[:SHOWN_PROBLEMS])
    rest = len(lines) - SHOWN_PROBLEMS
    if rest > 0:
        text += f"; and {rest} more problem{'s' if rest != 1 else ''}"
        if problems:
            text += " (zhuoji variants validate FILE lists them all)"
    return text


def _report_error(prog: str, message: str, where: str | None, as_json: bool) -> None:
    if as_json:
        import json

        print(json.dumps({"error": message, "where": where}, ensure_ascii=False), file=sys.stderr)
    else:
        print(f"{prog}: error: {message}", file=sys.stderr)


def _one_line_warnings(shown_by: Callable[..., None]) -> Callable[..., None]:
    """A ``warnings.showwarning`` printing an old spelling in a variant file
    (``zhuoji.variant_io.FormatWarning``) as one line on stderr, ``zhuoji: warning:
    FILE:LINE: old.key: …``, and other warnings as ``shown_by`` does."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        if category.__name__ == "FormatWarning":
            print(f"zhuoji: warning: {message}", file=sys.stderr)
        else:
            shown_by(message, category, filename, lineno, file, line)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    previous = warnings.showwarning
    warnings.showwarning = _one_line_warnings(previous)
    try:
        return _main(argv)
    finally:
        warnings.showwarning = previous


@contextmanager
def _importing(*, own_process: bool) -> Iterator[None]:
    """Around importing the chosen command (its module, the engine, pydantic, the hook
    modules): in the ``zhuoji`` process itself, the cyclic garbage collector is off, and
    what the imports made is then moved out of its sight (``gc.freeze``) before it runs again.

    Imports make tens of thousands of long-lived objects the collector tracks (36.5 K at
    ``zhuoji demo``'s first line) and little garbage; the collector ran 74 times on the
    way there (27 M of its 1.1 G instructions, issue 29 item 5), and every full collection
    of a long run (``simulate``, ``serve``) would walk them again.  Callers of :func:`main` in their own
    process (tests, scripts) keep their collector as it was."""
    if not own_process or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _main(argv: Sequence[str] | None) -> int:
    own_process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    if not argv:
        build_parser(only="").print_help()
        return 0
    chosen = _chosen(argv)
    prog = " ".join(["zhuoji", *_command_words(argv, chosen)])
    try:
        with _importing(own_process=own_process):
            args = build_parser(only=chosen or "").parse_args(argv)
    except UsageError as exc:
        _report_error(prog, one_line(exc), where_of(exc), as_json)
        return 2
    if getattr(args, "handler", None) is None:  # options but no command
        build_parser(only="").print_help()
        return 0
    handler: Handler = args.handler
    from zhuoji.errors import ZhuojiError

    try:
        return handler(args)
    except (UsageError, ZhuojiError) as exc:
        _report_error(prog, one_line(exc), where_of(exc), as_json)
        return 2
    except ModuleNotFoundError as exc:
        extra = _EXTRA_OF.get((exc.name or "").split(".")[0])
        if extra is None:
            raise
        _report_error(
            prog,
            f"this needs the optional '{extra}' dependencies ({exc.name} is not installed): "
            f"pip install 'zhuoji[{extra}]'",
            None,
            as_json,
        )
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
