"""``--conformance-rounds N``: rounds per variant for ``tests/test_conformance.py``.

Pytest reads options only from conftest files it loads before parsing the command line,
which for this directory means naming it on the command line::

    pytest tests/conformance tests/test_conformance.py --conformance-rounds=5000

``ZHUOJI_CONFORMANCE_ROUNDS=5000 pytest tests/test_conformance.py`` works from anywhere.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--conformance-rounds",
        type=int,
        default=None,
        help="random rounds per shipped variant in tests/test_conformance.py "
        "(default: $ZHUOJI_CONFORMANCE_ROUNDS or 60)",
    )
