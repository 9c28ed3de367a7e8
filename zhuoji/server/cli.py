"""``zhuoji serve``: the table server (HTTP + WebSocket + browser client) in one process.

SQLite is the default store (``zhuoji-server.db`` in the working directory); ``--db`` takes
``sqlite:///PATH`` or a PostgreSQL URL (``postgresql://user:password@host/db``, with the
``postgres`` extra installed).  The operator token comes from ``--operator-token``, else
``$ZHUOJI_OPERATOR_TOKEN``, else it is generated and printed once at start.

The server's own modules (FastAPI, uvicorn, SQLAlchemy) are imported only when the command
runs, so ``zhuoji`` works without the ``server`` extra.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from typing import Any

from zhuoji.errors import ZhuojiError

ENV_TOKEN = "ZHUOJI_OPERATOR_TOKEN"


def configure(subparsers: Any) -> None:
    """Add the ``serve`` command to the ``zhuoji`` parser."""
    p = subparsers.add_parser(
        "serve",
        help="run the table server: HTTP API, WebSocket play, browser client",
        description="Run the table server (docs at /docs, browser client at /).",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    p.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="database: sqlite:///PATH.db (default sqlite:///zhuoji-server.db here), a file path, "
        "or postgresql://user:password@host/db (pip install 'zhuoji[postgres]')",
    )
    p.add_argument(
        "--operator-token",
        default=None,
        metavar="TOKEN",
        help=f"operator credential, 16+ characters (default: ${ENV_TOKEN}, else generated and printed)",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log detail (default info)",
    )
    p.add_argument("--no-access-log", action="store_true", help="do not log every HTTP request")
    p.add_argument(
        "--ws-deflate",
        action="store_true",
        help="compress WebSocket messages (permessage-deflate): less traffic, more CPU per message",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="report every damaged record of the store (tables and stored variants a server "
        "would quarantine) and exit without serving: status 0 nothing damaged, 1 damage found",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a browser origin besides this server's own whose pages may open WebSockets "
        "(https://play.example.com; repeat for more; * for any)",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=None,
        metavar="S",
        help="seconds a client has to send a request's headers (default 10)",
    )
    p.add_argument(
        "--idle-timeout",
        type=int,
        default=None,
        metavar="S",
        help="seconds a keep-alive connection may stay silent between requests (default 5)",
    )
    p.add_argument(
        "--advertise",
        default=None,
        metavar="URL",
        help="scale out: this process is one of several on one PostgreSQL store, reachable by "
        "clients at URL (http://HOST:PORT); each serves the tables it leases and redirects "
        "the others' clients to their owners (docs/server.md)",
    )
    p.add_argument(
        "--lease-seconds",
        type=float,
        default=None,
        metavar="S",
        help="with --advertise: seconds a table's lease lasts unrenewed, so how soon the others "
        "take over the tables of a process that died (default 3)",
    )
    p.add_argument(
        "--no-open-play",
        action="store_true",
        help="forbid opening tables from the lobby without the operator token",
    )
    p.add_argument(
        "--open-tables-per-address",
        type=int,
        default=3,
        metavar="N",
        help="open tables one client address may hold at once (default 3)",
    )
    p.add_argument(
        "--open-idle-minutes",
        type=int,
        default=30,
        metavar="M",
        help="minutes without a move before an open table expires (default 30)",
    )
    p.set_defaults(handler=serve)


def _port(text: str) -> int:
    """A TCP port number, 0-65535 (0: any free port)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0-65535, not {value}")
    return value


def _listen(host: str, port: int) -> socket.socket:
    try:
        family, kind, proto, _name, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[
            0
        ]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(addr)
    except OSError as exc:
        raise ZhuojiError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def check(url: str) -> int:
    """``zhuoji serve --check``: print every damaged record; 1 if there is any."""
    from zhuoji.server.check import check_store
    from zhuoji.server.store import display_url

    found = check_store(url)
    print(f"zhuoji serve --check: store {display_url(url)}")
    for line in found:
        print(line)
    if not found:
        print("no damaged record")
        return 0
    print(f"{len(found)} damaged record(s): quarantined when served; the rest is served")
    return 1


def serve(args: argparse.Namespace) -> int:
    """Open the store, bind the port, and serve until interrupted."""
    try:
        import uvicorn

        from zhuoji.server.app import create_app
        from zhuoji.server.auth import OPERATOR_PREFIX, new_token
        from zhuoji.server.http_protocol import HEADER_TIMEOUT, IDLE_TIMEOUT
        from zhuoji.server.http_protocol import protocol_class as http_class
        from zhuoji.server.routes.open_play import OpenPlay, OpenPlayPolicy
        from zhuoji.server.store import DEFAULT_URL, display_url, normalize_url
        from zhuoji.server.ws_protocol import protocol_class
    except ModuleNotFoundError as exc:
        raise ZhuojiError(
            f"the server needs the 'server' extra (missing module {exc.name!r}): pip install 'zhuoji[server]'"
        ) from exc
    if args.check:
        return check(normalize_url(args.db or DEFAULT_URL))
    token = args.operator_token or os.environ.get(ENV_TOKEN)
    generated = not token
    if not token:
        token = new_token(OPERATOR_PREFIX)
    if len(token) < 16:
        raise ZhuojiError("the operator token must be at least 16 characters")
    url = normalize_url(args.db or DEFAULT_URL)
    for seconds in (args.header_timeout, args.idle_timeout):
        if seconds is not None and not 0 < seconds <= 3600:
            raise ZhuojiError(
                f"a timeout must be more than 0 and at most 3600 seconds, not {seconds}"
            )
    lease = args.lease_seconds
    if lease is not None and (args.advertise is None or not 0.5 <= lease <= 600):
        raise ZhuojiError(
            "--lease-seconds goes with --advertise, 0.5 to 600 seconds"
            if args.advertise is not None
            else "--lease-seconds goes with --advertise (a scale-out)"
        )
    if args.advertise is not None:
        from zhuoji.server.leases import DEFAULT_LEASE_S, check_advertise

        try:
            check_advertise(args.advertise)
        except ValueError as exc:
            raise ZhuojiError(str(exc)) from None
        if not url.startswith("postgresql"):
            raise ZhuojiError(
                "--advertise (a scale-out) needs a PostgreSQL store (--db postgresql://…); "
                "a SQLite store is served by one process"
            )
    app = create_app(
        url,
        token,
        serving=True,
        allowed_origins=args.allow_origin,
        advertise=args.advertise,
        lease_seconds=lease if lease is not None else (DEFAULT_LEASE_S if args.advertise else 3.0),
    )
    app.state.open_play = OpenPlay(
        OpenPlayPolicy(
            not args.no_open_play,
            max(0, args.open_tables_per_address),
            max(1, args.open_idle_minutes),
        )
    )
    sock = _listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"zhuoji serve: store {display_url(url)}", flush=True)
    if generated:
        print(f"zhuoji serve: operator token {token}", flush=True)
    print(
        f"zhuoji serve: listening on http://{shown}:{port} (API docs /docs, browser client /)",
        flush=True,
    )
    if args.advertise is not None:
        own = app.state.manager.ownership
        print(
            f"zhuoji serve: scale-out: advertised as {own.address}, node {own.node!r}, "
            f"leases of {own.lease_s:g} s",
            flush=True,
        )
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        access_log=not args.no_access_log,
        lifespan="on",
        http=http_class(args.header_timeout or HEADER_TIMEOUT),  # a deadline for each head
        timeout_keep_alive=args.idle_timeout or IDLE_TIMEOUT,
        ws=protocol_class(),  # uvicorn's own, with a direct text-frame writer for the views
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        ws_per_message_deflate=args.ws_deflate,
        ws_max_size=64 * 1024,  # client messages are tiny
    )
    server = uvicorn.Server(config)
    app.state.stop_serving = lambda: setattr(server, "should_exit", True)  # the store was lost
    server.run(sockets=[sock])
    lost = app.state.store.fence.lost
    if lost is not None:
        print(f"zhuoji serve: error: the store was lost: {lost}", file=sys.stderr)
        return 3
    if not server.started:
        print("zhuoji serve: error: the server did not start (see the log above)", file=sys.stderr)
        return 2
    return 0
