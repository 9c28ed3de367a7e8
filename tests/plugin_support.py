"""Install a rules plug-in for a test as pip would: a package and its dist-info with a
``zhuoji.rules`` entry point, on ``sys.path``; the registry reloads plug-ins and is restored
afterwards (tests/test_plugins.py, tests/test_server_variants.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from zhuoji.rules import catalog, registry  # catalog: the built-ins are registered first


@contextmanager
def installed_plugin(site: Path, package: str, hooks_source: str) -> Iterator[None]:
    """``package`` (with ``package.hooks`` holding ``hooks_source``) installed under ``site``
    as the distribution ``package`` 0.1, its hooks registered while the block runs."""
    (site / package).mkdir(parents=True)
    (site / package / "__init__.py").write_text("")
    (site / package / "hooks.py").write_text(hooks_source, encoding="utf-8")
    info = site / f"{package}-0.1.dist-info"
    info.mkdir()
    dist = package.replace("_", "-")
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[zhuoji.rules]\nwugu = {package}.hooks\n")
    catalog.hooks(registry.Point.SETTLE, builtin_only=True)  # (imported: built-ins registered)
    saved = registry.snapshot()
    sys.path.insert(0, str(site))
    registry.reload_plugins()
    try:
        yield
    finally:
        sys.path.remove(str(site))
        sys.modules.pop(f"{package}.hooks", None)
        sys.modules.pop(package, None)
        registry.restore(saved)
