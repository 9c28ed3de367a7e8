"""Fuzzing support (issue 25): seeded mutators of valid inputs, a schema-guided generator
of valid variants, and the harness that runs a kind's inputs and collects crashes.

The tests are ``tests/test_fuzz.py`` (every input kind) and ``tests/test_fuzz_replay.py``
(fuzzed valid variants played and replayed from their logs alone).
"""
