"""Build step of the install: compile the hot modules with mypyc (docs/build.md).

Everything else about the package is in ``pyproject.toml``.  Each module named in
``zhuoji.compiled.GROUPS`` is copied, with the SHA-256 of its source appended (and its
imports of its group's other modules pointed at their compiled builds), to
``build/mypyc-src/zhuoji/_compiled/<name>.py`` and compiled from there, so the extension is
``zhuoji._compiled.<name>``: it never shadows ``zhuoji/<name>.py`` (an editable install puts
extensions inside the source tree), and ``zhuoji.compiled`` runs it only while every source
of its group still has the recorded hash.  Each group is one shared library.

``ZHUOJI_PURE=1`` at install compiles nothing.  Without mypyc or a C compiler the install
still succeeds, pure Python, and says so.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
STAGE = ROOT / "build" / "mypyc-src"
# mypyc checks types with its own settings, not the project's (whose plugins the isolated
# build environment does not have); the modules it follows are checked by the project's mypy
MYPY_CONFIG = "[mypy]\nfollow_imports = silent\nignore_missing_imports = True\n"


def _zhuoji_compiled() -> ModuleType:
    """zhuoji/compiled.py, loaded from the checkout (the package is not installed yet)."""
    import importlib.util

    path = ROOT / "zhuoji" / "compiled.py"
    spec = importlib.util.spec_from_file_location("_zhuoji_compiled", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stage(compiled: ModuleType) -> list[tuple[list[str], str]]:
    """Copy the package's top-level modules into the staging tree (mypy follows the compiled
    modules' imports there) and write each compiled module under ``_compiled`` with its
    hash; the paths to compile, by group."""
    if STAGE.exists():
        shutil.rmtree(STAGE)
    package = STAGE / "zhuoji"
    (package / "_compiled").mkdir(parents=True)
    for source in (ROOT / "zhuoji").glob("*.py"):
        shutil.copyfile(source, package / source.name)
    # the package's own __init__ would lead mypy into the whole package (zhuoji.variant, …)
    (package / "__init__.py").write_text("", encoding="utf-8")
    shutil.copyfile(ROOT / "zhuoji" / "py.typed", package / "py.typed")
    shutil.copyfile(
        ROOT / "zhuoji" / "_compiled" / "__init__.py", package / "_compiled" / "__init__.py"
    )
    (STAGE / "mypy.ini").write_text(MYPY_CONFIG, encoding="utf-8")
    groups = []
    for group, members in compiled.GROUPS.items():
        paths = []
        for name in members:
            source = compiled.source_path(name)
            target = package / "_compiled" / f"{compiled.compiled_name(name)}.py"
            target.write_text(compiled.compiled_source(name, source), encoding="utf-8")
            paths.append(str(target.relative_to(ROOT)))
        groups.append((paths, f"{compiled.COMPILED_PACKAGE}.{group}_group"))
    return groups


def extensions() -> list[Extension]:
    if os.environ.get("ZHUOJI_PURE", "") not in ("", "0"):
        print("zhuoji: ZHUOJI_PURE is set; installing pure Python only", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify

        groups = stage(_zhuoji_compiled())
        cwd = os.getcwd()
        os.chdir(ROOT)  # mypyc names modules by their path from here
        try:
            built = mypycify(
                ["--config-file", str(STAGE / "mypy.ini")]
                + [path for paths, _name in groups for path in paths],
                opt_level="3",
                separate=groups,  # one shared library a group: each group runs on its own
                target_dir=str(Path("build") / "mypyc"),
            )
        finally:
            os.chdir(cwd)
    except (Exception, SystemExit) as error:  # any failure to compile: pure Python
        print(f"zhuoji: not compiling ({error}); installing pure Python", file=sys.stderr)
        return []
    for extension in built:
        extension.optional = True  # no C compiler: pure Python, not a failed install
    return built


setup(ext_modules=extensions())
