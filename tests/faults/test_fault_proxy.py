"""The fault proxy itself: it relays, it cuts, and it never leaves a socket to the GC.

A socket the proxy forgets is closed by the garbage collector in whatever test runs
next, which fails there with an unraisable `ResourceWarning`: the proxy must account for
every connection it accepts, however a cut lands on it.
"""

from __future__ import annotations

import gc
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tether.testing import FaultProxy


@pytest.fixture
def echo_port() -> Iterator[int]:
    """A TCP echo server in a thread, on a free port."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    done = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            try:
                while data := conn.recv(4096):
                    conn.sendall(data)
            except OSError:
                return

    def accept_all() -> None:
        while not done.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept_all, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    done.set()
    thread.join(5)
    server.close()


def _echo_once(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(b"ping")
        return conn.recv(4)


def test_the_proxy_relays_until_cut_and_again_after_restore(echo_port: int) -> None:
    with FaultProxy("127.0.0.1", echo_port) as proxy:
        assert _echo_once(proxy.port) == b"ping"
        proxy.cut()
        with pytest.raises(OSError):
            _echo_once(proxy.port)
        proxy.restore()
        assert _echo_once(proxy.port) == b"ping"
        assert proxy.connections == 2


def test_cuts_landing_on_connections_being_accepted_leave_no_socket_behind(
    echo_port: int,
) -> None:
    leaked: list[Any] = []
    previous = sys.unraisablehook
    sys.unraisablehook = leaked.append
    try:
        with FaultProxy("127.0.0.1", echo_port) as proxy:
            port = proxy.port
            stop = threading.Event()

            def connect_all() -> None:
                # Connect as fast as possible so that cuts land mid-accept.
                while not stop.is_set():
                    try:
                        with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
                            c.sendall(b"x")
                    except OSError:
                        time.sleep(0.0005)

            clients = [threading.Thread(target=connect_all, daemon=True) for _ in range(6)]
            for client in clients:
                client.start()
            deadline = time.monotonic() + 6
            cuts = 0
            while time.monotonic() < deadline:
                time.sleep(0.004)
                proxy.cut()
                proxy.restore()
                cuts += 1
            stop.set()
            for client in clients:
                client.join(5)
            accepted = proxy.connections
        gc.collect()
    finally:
        sys.unraisablehook = previous
    assert cuts > 100 and accepted > 100, (cuts, accepted)
    assert [str(u.exc_value) for u in leaked] == []
