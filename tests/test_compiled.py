"""Which build runs (zhuoji.compiled): compiled only while it matches its source.

The trap this guards against: an editable install puts extension modules inside the source
tree, where a compiled module would shadow its ``.py`` file and a developer's edit would
silently not run.  Here the compiled module has another name and records its source's hash;
an edited source runs as pure Python, with a warning, and ``ZHUOJI_PURE=1`` forces pure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from zhuoji import compiled

ROOT = Path(compiled.__file__).resolve().parent
PROBE = "import zhuoji.hand as h; print(h._kernel.__name__)"


def stub(digest: str) -> ModuleType:
    module = ModuleType("zhuoji._compiled.stub")
    setattr(module, compiled.HASH_ATTR, digest)
    return module


def test_choose_runs_a_build_of_the_current_source(tmp_path: Path) -> None:
    source = tmp_path / "kernel.py"
    source.write_text("X = 1\n", encoding="utf-8")
    assert compiled.choose(stub(compiled.source_hash(source)), source, {})
    assert compiled.choose(stub(compiled.source_hash(source)), source, {"ZHUOJI_PURE": "0"})


def test_choose_refuses_a_stale_build_and_says_so(tmp_path: Path) -> None:
    source = tmp_path / "kernel.py"
    source.write_text("X = 1\n", encoding="utf-8")
    built = stub(compiled.source_hash(source))
    source.write_text("X = 2\n", encoding="utf-8")  # a developer's edit after the build
    with pytest.warns(RuntimeWarning, match="changed since it was compiled"):
        assert not compiled.choose(built, source, {})


def test_pure_env_forces_pure_python(tmp_path: Path) -> None:
    source = tmp_path / "kernel.py"
    source.write_text("X = 1\n", encoding="utf-8")
    assert not compiled.choose(stub(compiled.source_hash(source)), source, {"ZHUOJI_PURE": "1"})


def run_probe(
    env_extra: dict[str, str], path: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ZHUOJI_PURE"}
    env.update(env_extra)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", PROBE],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=path or ROOT.parent,
    )


def test_zhuoji_pure_selects_the_python_module() -> None:
    assert run_probe({"ZHUOJI_PURE": "1"}).stdout.strip() == "zhuoji.hand_kernel"


@pytest.fixture
def package_copy(tmp_path: Path) -> Path:
    """A copy of the installed package, compiled build included, to edit freely."""
    if compiled.compiled_module("hand_kernel") is None:
        pytest.skip("no compiled build (pure-Python install)")
    shutil.copytree(ROOT, tmp_path / "zhuoji", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_a_current_build_is_selected(package_copy: Path) -> None:
    done = run_probe({}, package_copy)
    assert done.stdout.strip() == "zhuoji._compiled.hand_kernel"
    assert "changed since it was compiled" not in done.stderr


def test_an_edited_source_runs_as_python_with_a_warning(package_copy: Path) -> None:
    source = package_copy / "zhuoji" / "hand_kernel.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    done = run_probe({}, package_copy)
    assert done.stdout.strip() == "zhuoji.hand_kernel"
    assert "hand_kernel.py changed since it was compiled" in done.stderr
