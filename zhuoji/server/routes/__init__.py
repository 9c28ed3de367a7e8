"""The HTTP and WebSocket routes, one router per resource (``zhuoji.server.app.create_app``
includes them in this order):

* :mod:`.operator` — the service as its operator watches it: liveness and counters, whoami;
* :mod:`.variants` — the variants a table can use, stored variants, house rules in words;
* :mod:`.tables` — tables, their rules and rounds (the operator's side);
* :mod:`.seats` — seat tokens and views, a seat's actions over HTTP (the players' side);
* :mod:`.socket` — a seat's live connection (WebSocket);
* :mod:`.pages` — the browser client's pages and static files.

Each route reads the server's state through :mod:`zhuoji.server.deps` and its request
and response models from :mod:`zhuoji.server.models`.
"""
