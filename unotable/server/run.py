"""``unotable serve``: run the online tables under uvicorn and print the address to open.

>>> parse_address("127.0.0.1", 0)
('127.0.0.1', 0)
"""

from __future__ import annotations

import logging
import socket
import sys
from pathlib import Path
from typing import Any

import uvicorn

from unotable.server.app import ServerSettings, create_app
from unotable.server.gcpolicy import GcPolicy
from unotable.server.table.offer import build_offer, install

__all__ = ["parse_address", "serve", "uvicorn_config"]


def parse_address(host: str, port: int) -> tuple[str, int]:
    if not 0 <= port <= 65535:
        raise ValueError(f"a port is 0 to 65535, not {port}")
    return host, port


class _JsonLogs(logging.Formatter):
    """One JSON object per line (the server logs no token: only table ids and event names)."""

    def format(self, record: logging.LogRecord) -> str:
        import json

        msg = record.getMessage()
        try:
            body = json.loads(msg)
        except ValueError:
            body = {"message": msg}
        return json.dumps(
            {
                "time": round(record.created, 3),
                "level": record.levelname.lower(),
                "logger": record.name,
                **body,
            }
        )


WILDCARDS = ("0.0.0.0", "::", "")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, the one that reaches the network first
    (asked of the OS by opening a UDP socket towards a private address: nothing is sent).

    >>> all(not a.startswith("127.") for a in lan_addresses())
    True
    """
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    seen: list[str] = []
    for address in found:
        if not address.startswith("127.") and address != "0.0.0.0" and address not in seen:
            seen.append(address)
    return seen


def link_base(host: str, port: int, public_url: str = "") -> tuple[str, list[str]]:
    """The address the page's links and QR codes use, and the LAN addresses to print: the public
    URL when one is set; on a wildcard host the first LAN address (never 0.0.0.0, which no friend
    can open); else the address listened on.

    >>> link_base("127.0.0.1", 8000)
    ('http://127.0.0.1:8000', [])
    >>> link_base("0.0.0.0", 8000, "https://uno.example.org/")
    ('https://uno.example.org', [])
    """
    if public_url:
        return public_url.rstrip("/"), []
    if host in WILDCARDS:
        lan = [f"http://{a}:{port}" for a in lan_addresses()]
        return (lan[0] if lan else f"http://127.0.0.1:{port}"), lan
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}", []


def uvicorn_config(app: Any) -> uvicorn.Config:
    """How ``unotable serve`` runs ``app`` under uvicorn (benchmarks/server_floor.py runs its bare
    stack the same way)."""
    # no permessage-deflate: an update is about a kilobyte, sent to every seat after every action;
    # compressing (and inflating what comes in) was a tenth of the server's CPU per action
    return uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
    )


class _Server(uvicorn.Server):
    """uvicorn, printing its address once the port accepts connections (the lifespan has started),
    and telling every client to reconnect before it closes the sockets on SIGTERM or SIGINT."""

    def __init__(self, config: uvicorn.Config, app: Any, url: str, lan: list[str] | None = None) -> None:
        super().__init__(config)
        self.app_state = app.state
        self.url = url
        self.lan = lan or []

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.started:  # the lifespan failed (uvicorn says why)
            return
        url = self.url
        print(
            f"unotable is serving at {url}  (create a table: POST {url}/api/tables; "
            f"play from a terminal: unotable join {url}/t/TABLE)",
            flush=True,
        )
        if self.lan:  # listening on every interface: the addresses friends on this network open
            print("friends on this network open: " + "  ".join(self.lan), flush=True)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        import asyncio

        for listener in self.servers:  # stop accepting first: a client told to reconnect must not
            listener.close()  # land on this process again while it stops
        self.app_state.server.notify_shutdown()
        await asyncio.sleep(0.3)  # the writers send the notices; nothing accepted is pending
        try:  # a cluster node releases its tables before the sockets drain (that may take seconds)
            await asyncio.wait_for(self.app_state.server.hand_over(), 2.0)
        except Exception as exc:  # the lifespan's stop() tries again
            logging.getLogger("unotable.server").warning("hand_over_failed: %r", exc)
        await super().shutdown(sockets)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    data_dir: Path | None = None,
    *,
    bot_pause: float = 0.8,
    round_pause: float = 8.0,
    grace: float = 30.0,
    hello_timeout: float = 10.0,
    redis: str | None = None,
    node_id: str = "",
    lease_ttl: float = 3.0,
    public_url: str = "",
    gc_full_every: float = 600.0,
    bots: tuple[str, ...] = (),
    policies: Path | None = None,
) -> int:
    """Serve until SIGINT or SIGTERM (graceful: clients are told to reconnect, nothing is lost).

    ``gc_full_every``: the garbage collector's policy (:mod:`unotable.server.gcpolicy`): full
    collections walk only what came since the last one, and everything every that many seconds;
    0 leaves CPython's own policy, as a cluster node (``redis``) does for now.

    ``bots`` (registry or plugin names) and ``policies`` (a directory of ``.onnx`` and ``.npz``
    policies) add to the bots a host may seat (:mod:`unotable.server.table.offer`); a policy file
    that does not load is logged (``policy_skipped``) and left out."""
    host, port = parse_address(host, port)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_JsonLogs())
    log = logging.getLogger("unotable.server")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        offer = build_offer(bots, policies)
    except ValueError as exc:  # the operator's mistake (an unknown name, no such directory): said at once
        raise SystemExit(f"unotable serve: {exc}") from None
    for problem in offer.problems:
        log.warning("policy_skipped: %s", problem)
    install(offer)
    log.info("bots_offered: %s", ", ".join(offer.names()))
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}"
    links, lan = link_base(host, bound, public_url)
    settings = ServerSettings(
        db=db,
        data_dir=data_dir or Path.cwd(),
        public_url=links,
        bot_pause=bot_pause,
        round_pause=round_pause,
        grace=grace,
        hello_timeout=hello_timeout,
        redis=redis,
        node_id=node_id,
        lease_ttl=lease_ttl,
    )
    app = create_app(settings)
    server = _Server(uvicorn_config(app), app, url, lan)
    if gc_full_every and not redis:  # a cluster node keeps CPython's own policy (docs/reference/cli.md)
        policy = GcPolicy(gc_full_every)
        app.state.server.metrics.gc_source = policy.drain
        policy.install()
    server.run(sockets=[sock])
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m unotable.server.run`` (the same as ``unotable serve``)."""
    import argparse

    parser = argparse.ArgumentParser(prog="unotable serve", description="Serve online UNO tables.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return run_from_args(args)


def add_arguments(parser: Any) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    parser.add_argument(
        "--db", default=None, help="sqlite:///PATH or postgresql://... (default: unotable.db here)"
    )
    parser.add_argument("--data-dir", type=Path, default=None, help="where the default SQLite file lives")
    parser.add_argument("--bot-pause", type=float, default=0.8, help="seconds a bot waits before acting")
    parser.add_argument("--round-pause", type=float, default=8.0, help="seconds before the next round")
    parser.add_argument(
        "--grace", type=float, default=30.0, help="seconds before a bot plays for an absent player"
    )
    parser.add_argument(
        "--hello-timeout", type=float, default=10.0, help="seconds a new connection has to say hello"
    )
    parser.add_argument(
        "--redis",
        default=None,
        help="redis://HOST:PORT/DB: one node of a cluster (needs a postgresql:// --db; docs/scaling.md)",
    )
    parser.add_argument("--node-id", default="", help="a cluster node's name (default: host-pid-random)")
    parser.add_argument(
        "--public-url", default="",
        help="the address friends open (links and QR codes), e.g. https://uno.example.org behind a proxy",
    )
    parser.add_argument(
        "--lease-ttl", type=float, default=3.0, help="cluster: seconds a table's owner lease lasts unrenewed"
    )
    parser.add_argument(
        "--bots", default="",
        help="more bots a host may seat, besides the four levels: registry or plugin names, comma-separated"
        " (e.g. mixbot,learned)",
    )
    parser.add_argument(
        "--policies", type=Path, default=None,
        help="a directory of trained policies (.onnx, .npz) a host may seat, each under its file name",
    )
    parser.add_argument(
        "--gc-full-every", type=float, default=600.0,
        help="seconds between the garbage collector's complete walks (others walk only new objects;"
        " 0: CPython's own policy)",
    )


def run_from_args(args: Any) -> int:
    for name in ("bot_pause", "round_pause", "grace"):
        if getattr(args, name) < 0:
            raise SystemExit(f"unotable serve: --{name.replace('_', '-')} cannot be negative")
    if args.gc_full_every < 0:
        raise SystemExit("unotable serve: --gc-full-every cannot be negative")
    if not args.hello_timeout > 0:
        raise SystemExit("unotable serve: --hello-timeout must be positive")
    bots = tuple(name for name in args.bots.split(",") if name.strip())
    return serve(
        args.host,
        args.port,
        args.db,
        args.data_dir,
        bot_pause=args.bot_pause,
        round_pause=args.round_pause,
        grace=args.grace,
        hello_timeout=args.hello_timeout,
        redis=args.redis,
        node_id=args.node_id,
        lease_ttl=args.lease_ttl,
        public_url=args.public_url,
        gc_full_every=args.gc_full_every,
        bots=bots,
        policies=args.policies,
    )


if __name__ == "__main__":
    sys.exit(main())
