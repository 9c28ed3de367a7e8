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
from compiled_support import REQUIRE

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
    env_extra: dict[str, str], path: Path | None = None, probe: str = PROBE
) -> subprocess.CompletedProcess[str]:
    """Run ``probe`` (a Python snippet) in a fresh interpreter with ``env_extra`` set."""
    env = {k: v for k, v in os.environ.items() if k != "ZHUOJI_PURE"}
    env.update(env_extra)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", probe],
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


# ---------------------------------------------------------------------------------------
# the engine group: compiled together, run together, imported by its own names
# ---------------------------------------------------------------------------------------

ENGINE_PROBE = (
    "import zhuoji.engine as e, zhuoji.wall as w, zhuoji.observation as o, zhuoji.hand as h, "
    "sys; print(e.__name__, w.__name__, o.__name__, h._kernel.__name__, "
    "e.Wall is w.Wall, sys.modules['zhuoji.engine'] is e)"
)


def test_every_group_module_imports_its_group_by_compiled_names() -> None:
    """What setup.py compiles: no import of a group member by its own name is left (mypyc
    would call it as Python), and the source's hash is recorded."""
    for group, members in compiled.GROUPS.items():
        for name in members:
            text = compiled.compiled_source(name)
            for other in members:
                for form in (f"from zhuoji.{other} import", f"import zhuoji.{other}"):
                    assert form not in text, f"{name}.py ({group}): {form!r} left as it is"
            digest = compiled.source_hash(compiled.source_path(name))
            assert text.endswith(f"{compiled.HASH_ATTR}: str = {digest!r}  # written by setup.py\n")


def test_the_rewrite_touches_imports_only() -> None:
    members = compiled.GROUPS["engine"]
    assert "round_deal" in members and "wall" in members
    text = compiled.compiled_source("round_deal")
    assert "from zhuoji._compiled.wall import Wall" in text
    assert "from zhuoji import tiles as T" in text  # not in the group: left alone


def test_a_module_outside_the_groups_is_refused() -> None:
    with pytest.raises(KeyError, match="not a compiled module"):
        compiled.group_of("variant")


def test_zhuoji_pure_runs_the_engine_as_python() -> None:
    out = run_probe({"ZHUOJI_PURE": "1"}, probe=ENGINE_PROBE).stdout.split()
    assert out == [
        "zhuoji.engine",
        "zhuoji.wall",
        "zhuoji.observation",
        "zhuoji.hand_kernel",
        "True",
        "True",
    ]


@pytest.fixture
def engine_copy(tmp_path: Path) -> Path:
    """A copy of the installed package with the engine group compiled, to edit freely."""
    if any(compiled.compiled_module(n) is None for n in compiled.GROUPS["engine"]):
        if REQUIRE:
            pytest.fail("ZHUOJI_REQUIRE_COMPILED is set but the engine group is not compiled")
        pytest.skip("no compiled build (pure-Python install)")
    shutil.copytree(ROOT, tmp_path / "zhuoji", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_the_engine_group_runs_compiled_under_its_own_names(engine_copy: Path) -> None:
    done = run_probe({}, engine_copy, probe=ENGINE_PROBE)
    assert done.stdout.split() == [
        "zhuoji._compiled.engine",
        "zhuoji._compiled.wall",
        "zhuoji._compiled.observation",
        "zhuoji._compiled.hand_kernel",
        "True",
        "True",
    ]
    assert "changed since it was compiled" not in done.stderr


def test_one_edited_module_runs_its_whole_group_as_python(engine_copy: Path) -> None:
    """The group's modules call each other natively: an edit to one (the wall) runs all of
    them as Python, with a warning naming the edited file; other groups stay compiled."""
    source = engine_copy / "zhuoji" / "wall.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    done = run_probe({}, engine_copy, probe=ENGINE_PROBE)
    assert done.stdout.split() == [
        "zhuoji.engine",
        "zhuoji.wall",
        "zhuoji.observation",
        "zhuoji._compiled.hand_kernel",
        "True",
        "True",
    ]
    assert "wall.py changed since it was compiled" in done.stderr
    assert done.stderr.count("changed since it was compiled") == 1  # one warning a group


def test_the_installed_engine_is_compiled_when_ci_requires_it() -> None:
    if not REQUIRE:
        pytest.skip("ZHUOJI_REQUIRE_COMPILED is not set")
    import zhuoji.engine

    assert compiled.is_compiled(zhuoji.engine), "a missing or stale build of the engine group"


def test_the_finder_answers_only_for_the_stand_in_groups() -> None:
    finder = compiled.CompiledFinder()
    for name in (
        "zhuoji.variant",
        "zhuoji.hand_kernel",
        "other.engine",
        "zhuoji.agents.base",
        "other.agents.expert_value",
        "zhuoji.expert_value",
    ):
        assert finder.find_spec(name) is None, name


# ---------------------------------------------------------------------------------------
# a module inside a subpackage: the expert bot's value model
# ---------------------------------------------------------------------------------------

EXPERT_PROBE = (
    "import zhuoji.agents.expert_value as v, zhuoji.agents.expert as x, sys; "
    "print(v.__name__, x.Evaluator is v.Evaluator, "
    "sys.modules['zhuoji.agents.expert_value'] is v)"
)


def test_a_dotted_module_has_a_flat_compiled_name_and_its_own_source() -> None:
    assert compiled.compiled_name("agents.expert_value") == "agents_expert_value"
    assert compiled.compiled_name("engine") == "engine"
    path = compiled.source_path("agents.expert_value")
    assert path == ROOT / "agents" / "expert_value.py"
    text = compiled.compiled_source("agents.expert_value")
    assert text.startswith(path.read_text(encoding="utf-8"))
    assert compiled.group_of("agents.expert_value") == "expert"


def test_the_expert_value_model_runs_compiled_under_its_own_name() -> None:
    if compiled.compiled_module("agents.expert_value") is None:
        if REQUIRE:
            pytest.fail("ZHUOJI_REQUIRE_COMPILED is set but the expert group is not compiled")
        pytest.skip("no compiled build (pure-Python install)")
    done = run_probe({}, probe=EXPERT_PROBE)
    assert done.stdout.split() == ["zhuoji._compiled.agents_expert_value", "True", "True"]
    assert "changed since it was compiled" not in done.stderr
    pure = run_probe({"ZHUOJI_PURE": "1"}, probe=EXPERT_PROBE)
    assert pure.stdout.split() == ["zhuoji.agents.expert_value", "True", "True"]


def test_the_finder_is_installed_once() -> None:
    compiled.install()
    compiled.install()
    assert sum(isinstance(f, compiled.CompiledFinder) for f in sys.meta_path) == 1


def test_the_self_play_loop_is_reexported_from_its_group() -> None:
    """zhuoji.agents.base keeps the names bots and callers import; the objects are the
    engine group's (compiled or pure, whichever runs)."""
    import zhuoji.agents.base as base
    import zhuoji.autoplay as autoplay

    assert base.play_round is autoplay.play_round
    assert base.RandomAgent is autoplay.RandomAgent
    assert isinstance(base.RandomAgent(1), base.Agent)


# ---------------------------------------------------------------------------------------
# compiled classes that Python classes build on: the greedy bot and the hand analyzer
# ---------------------------------------------------------------------------------------

BOTS_PROBE = (
    "import zhuoji.agents.greedy as g, zhuoji.agents.cautious as c, zhuoji.rules.screen as s; "
    "from zhuoji.agents.expert_memo import MemoAnalyzer; "
    "from zhuoji.agents.analysis import HandAnalyzer; "
    "bot = c.CautiousAgent(0); "
    "print(g.__name__, s.__name__, bot.name, bot.declare_min_live, g.GreedyAgent(0).name, "
    "issubclass(MemoAnalyzer, HandAnalyzer))"
)


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_the_bots_group_runs_compiled_and_subclasses_keep_their_constants(pure: bool) -> None:
    """The greedy bot is a compiled class in the ``bots`` group; the cautious bot, a Python
    subclass, still reads its own tuning constants and name (ClassVars, not compiled
    instance attributes), on both builds."""
    if not pure and compiled.compiled_module("agents.greedy") is None:
        if REQUIRE:
            pytest.fail("ZHUOJI_REQUIRE_COMPILED is set but the bots group is not compiled")
        pytest.skip("no compiled build (pure-Python install)")
    done = run_probe({"ZHUOJI_PURE": "1"} if pure else {}, probe=BOTS_PROBE)
    names = (
        ["zhuoji.agents.greedy", "zhuoji.rules.screen"]
        if pure
        else ["zhuoji._compiled.agents_greedy", "zhuoji._compiled.rules_screen"]
    )
    assert done.stdout.split() == [*names, "cautious", "4", "greedy", "True"], done.stderr
    assert "changed since it was compiled" not in done.stderr


# ---------------------------------------------------------------------------------------
# the views group: the server's per-seat views, imported by their own names
# ---------------------------------------------------------------------------------------

VIEWS_PROBE = (
    "import zhuoji.server.client_view as c, zhuoji.hints as h, zhuoji.server.tables as t, "
    "sys; print(c.__name__, h.__name__, t.round_view is c.round_view, "
    "sys.modules['zhuoji.hints'] is h)"
)


def test_the_views_group_runs_compiled_under_its_own_names(tmp_path: Path) -> None:
    """The server's view code (issue 26 item 8) is a group of its own: its modules import
    no FastAPI or SQLAlchemy, and the table imports them by their own names."""
    if any(compiled.compiled_module(n) is None for n in compiled.GROUPS["views"]):
        if REQUIRE:
            pytest.fail("ZHUOJI_REQUIRE_COMPILED is set but the views group is not compiled")
        pytest.skip("no compiled build of the views group")
    shutil.copytree(ROOT, tmp_path / "zhuoji", ignore=shutil.ignore_patterns("__pycache__"))
    done = run_probe({}, tmp_path, probe=VIEWS_PROBE)
    assert done.stdout.split() == [
        "zhuoji._compiled.server_client_view",
        "zhuoji._compiled.hints",
        "True",
        "True",
    ]
    assert "changed since it was compiled" not in done.stderr
    pure = run_probe({"ZHUOJI_PURE": "1"}, tmp_path, probe=VIEWS_PROBE)
    assert pure.stdout.split() == ["zhuoji.server.client_view", "zhuoji.hints", "True", "True"]


def test_the_views_group_imports_no_web_framework() -> None:
    """What the views group compiles imports neither FastAPI, Starlette, SQLAlchemy nor
    pydantic at its top (mypyc would call them as Python, and the group's check imports
    every member)."""
    for name in compiled.GROUPS["views"]:
        text = compiled.source_path(name).read_text(encoding="utf-8")
        for framework in ("fastapi", "starlette", "sqlalchemy", "pydantic"):
            assert f"import {framework}" not in text and f"from {framework}" not in text, name
