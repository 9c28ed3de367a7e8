"""The table server: HTTP + WebSocket play for humans and bots, persisted event by event.

Modules: :mod:`~zhuoji.server.app` (FastAPI routes, WebSocket), :mod:`~zhuoji.server.tables`
(tables, rounds, seats, bots; commit before send), :mod:`~zhuoji.server.store` (SQLAlchemy:
SQLite by default, PostgreSQL by URL), :mod:`~zhuoji.server.auth` (operator and seat
tokens), :mod:`~zhuoji.server.cli` (``zhuoji serve``), :mod:`~zhuoji.server.ws_protocol`
(uvicorn's WebSocket protocol with a direct text-frame writer), :mod:`~zhuoji.server.loadgen` (the
WebSocket load generator behind ``bench/server_load.py``) and ``static/`` (the browser
client).  User documentation: ``docs/server.md``.
"""
