"""The hook contract: what a rule hook receives, returns and may rely on.

It sits below both the hook modules (:mod:`zhuoji.rules`) and the code that runs them
(:mod:`zhuoji.settle`, the engine, the bots), so a hook imports the contract and never the
machinery above it:

* :mod:`~zhuoji.contract.bound` — :class:`~zhuoji.contract.bound.BoundRules`, the resolved
  rules a hook may read (the variant, its bound hooks, the hand analyser);
* :mod:`~zhuoji.contract.ledger` — the ledger and its entries, what settlement hooks write;
* :mod:`~zhuoji.contract.context` — the settle context a settlement stage is called with;
* :mod:`~zhuoji.contract.checks` — what a rule forbids in a round end: the problems its
  round-end checks report (``register(..., checks=...)``).

``docs/architecture.md`` draws the layers.
"""
