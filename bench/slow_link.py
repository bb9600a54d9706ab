"""A slow link in front of a loopback server: every byte the browser and its service worker fetch crosses it.

Why not Chromium's own throttling: it is set per target (``Network.emulateNetworkConditions``), and a
service worker is a target of its own that starts, and may fetch the whole engine, before a CDP session
reaches it -- on a quiet machine that race was lost in every run. A link the bytes must cross cannot
be missed.

The model is WebPageTest's slow 3G as Chromium applies it: one link of ``kbit`` kbit/s each way,
shared by every connection (a byte waits for the bytes before it), and ``rtt_ms`` of round trip, half
each way, added to every chunk that crosses.
"""

from __future__ import annotations

import socket
import threading
import time
from queue import Queue


class SlowLink:
    """A TCP proxy from ``127.0.0.1:<port>`` to ``target`` (host, port), at slow-3G speed by default."""

    CHUNK = 4096

    def __init__(self, target: tuple[str, int], kbit: int = 400, rtt_ms: int = 400):
        self.target = target
        self.rate = kbit * 1000 / 8  # bytes per second, each way
        self.delay = rtt_ms / 2000  # seconds, one way
        self.free_at = {"down": 0.0, "up": 0.0}  # when each direction of the link is next free
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            for source, sink, way in ((client, server, "up"), (server, client, "down")):
                threading.Thread(target=self._pump, args=(source, sink, way), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, way: str) -> None:
        """Read as bytes arrive (each stamped then), send each when the link has carried it: latency is
        paid once per burst, not once per chunk, as on a real link."""
        queue: Queue = Queue()
        threading.Thread(target=self._send, args=(queue, source, sink, way), daemon=True).start()
        try:
            while True:
                data = source.recv(self.CHUNK)
                if not data:
                    break
                queue.put((time.monotonic(), data))
        except OSError:
            pass
        queue.put((None, b""))

    def _send(self, queue: Queue, source: socket.socket, sink: socket.socket, way: str) -> None:
        try:
            while True:
                arrived, data = queue.get()
                if arrived is None:
                    break
                with self.lock:  # the link carries one byte at a time, whichever connection it belongs to
                    start = max(arrived + self.delay, self.free_at[way])
                    self.free_at[way] = start + len(data) / self.rate
                    due = self.free_at[way]
                time.sleep(max(0.0, due - time.monotonic()))
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (sink, source):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.listener.close()
