"""A home connection between an IMAP client and the test server, for the first sync's figures
at the speed a player's line has rather than loopback's: a TCP proxy on 127.0.0.1 that passes
each direction's bytes at a fixed rate and after a fixed delay.

Each direction is a link of its own: a chunk read from one side is put on the wire once the
chunks before it are (serialisation at the direction's rate), and handed to the other side
the one-way delay later (propagation). A few megabytes wait in each direction at most, as in a
router's buffer, and the sender is held back by TCP beyond that; loopback's own time is small
next to the link's. The figures it gives are measured end to end, by the clients' clocks.

    with Link(("127.0.0.1", 11143), down_mbit=20, up_mbit=5, rtt_ms=30) as port:
        ...  # connect to 127.0.0.1:port

With `sent=[]`, what the clients send is also kept there, chunk by chunk (a link of
loopback's speed then records a client's commands: `daemon.py`'s `server_part`).
"""

import queue
import socket
import threading
import time

CHUNK = 16 * 1024
# Chunks a direction holds before the reader waits (the buffer of a home router, 4 MB).
BUFFERED = 256


class Link:
    def __init__(self, server, down_mbit=20.0, up_mbit=5.0, rtt_ms=30.0, sent=None):
        self.server = server
        self.sent = sent
        self.down = down_mbit * 1e6 / 8  # bytes a second, server to client
        self.up = up_mbit * 1e6 / 8  # client to server
        self.delay = rtt_ms / 2000  # one way, seconds
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.closed = False

    def __enter__(self):
        threading.Thread(target=self._accept, daemon=True).start()
        return self.listener.getsockname()[1]

    def __exit__(self, *exc):
        self.closed = True
        self.listener.close()

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.server)
            for s in (client, server):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._direction(client, server, self.up, self.sent)
            self._direction(server, client, self.down)

    def _direction(self, source, sink, rate, keep=None):
        chunks = queue.Queue(BUFFERED)

        def read():
            while True:
                try:
                    data = source.recv(CHUNK)
                except OSError:
                    data = b""
                chunks.put((time.monotonic(), data))
                if keep is not None:
                    keep.append(data)
                if not data:
                    return

        def write():
            free = 0.0  # when the wire is done with the chunks before
            while True:
                arrived, data = chunks.get()
                if not data:
                    try:
                        sink.shutdown(socket.SHUT_WR)
                    except OSError:
                        pass
                    return
                free = max(free, arrived) + len(data) / rate
                wait = free + self.delay - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                try:
                    sink.sendall(data)
                except OSError:
                    return

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=write, daemon=True).start()
