"""Conformance support: an independent referee for the round engine (``reference``).

Run the suite with more rounds: ``ZHUOJI_CONFORMANCE_ROUNDS=5000 pytest tests/test_conformance.py``
or ``pytest tests/conformance tests/test_conformance.py --conformance-rounds=5000``.
"""
