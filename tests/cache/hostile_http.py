"""A Bazel HTTP remote cache that misbehaves on purpose, for the tests of the client's bounds
(remote_cache_test.py): Python's http.server on a free loopback port, in a thread, serving what
the test puts in its tables.

    server = HostileServer().start()
    server.entries[key] = b'{"format": ...}'             GET/HEAD /ac/<key>
    server.blobs[digest] = b"bytes"                       GET /cas/<digest>
    server.blobs[digest] = Endless(announce=64 << 20)     more bytes than any entry declares
    server.blobs[digest] = Drip(b"bytes", per_second=2)   (entries too) a trickle that never stalls
    server.require = ("Authorization", "Basic ...")       401 without that header
    server.url("/prefix"), server.sent[path], server.requests, server.close()

PUT stores into the tables. Every answer is counted in `sent` (body bytes written before the
client hung up), so a test can say how much the client let the server send.
"""

import http.server
import threading
import time


class Endless:
    """Zero bytes until the client hangs up (or `limit`, so a broken client still ends), without
    a Content-Length, or announcing `announce` bytes in one."""

    def __init__(self, announce=None, limit=64 << 20):
        self.announce = announce
        self.limit = limit


class Drip:
    """`data` a byte at a time, `per_second` bytes a second: slower than any useful transfer,
    never slow enough for a stall timeout of a second or more."""

    def __init__(self, data, per_second=2):
        self.data = data
        self.per_second = per_second


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def _table(self):
        if "/ac/" in self.path:
            return self.server.owner.entries, self.path.rsplit("/ac/", 1)[1]
        if "/cas/" in self.path:
            return self.server.owner.blobs, self.path.rsplit("/cas/", 1)[1]
        return None, None

    def _authorised(self):
        owner = self.server.owner
        owner.requests.append((self.command, self.path, dict(self.headers)))
        if owner.require and self.headers.get(owner.require[0]) != owner.require[1]:
            self._answer(401, b"authentication required")
            return False
        return True

    def _answer(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self._write(body)

    def _write(self, data):
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return False
        self.server.owner.sent[self.path] = self.server.owner.sent.get(self.path, 0) + len(data)
        return True

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        if not self._authorised():
            return
        table, name = self._table()
        item = table.get(name) if table is not None else None
        if item is None:
            self._answer(404, b"not found")
        elif isinstance(item, bytes):
            self._answer(200, item)
        elif isinstance(item, Endless):
            self._endless(item)
        elif isinstance(item, Drip):
            self._drip(item)

    def _endless(self, item):
        self.send_response(200)
        if item.announce is not None:
            self.send_header("Content-Length", str(item.announce))
        else:
            self.send_header("Connection", "close")  # the body ends when the connection does
        self.end_headers()
        self.close_connection = True
        chunk = bytes(64 << 10)
        sent = 0
        while sent < item.limit and not self.server.owner.stopping.is_set():
            if not self._write(chunk):
                return
            sent += len(chunk)

    def _drip(self, item):
        self.send_response(200)
        self.send_header("Content-Length", str(len(item.data)))
        self.end_headers()
        for i in range(len(item.data)):
            if self.server.owner.stopping.wait(1 / item.per_second) or not self._write(item.data[i:i + 1]):
                self.close_connection = True
                return

    def do_PUT(self):
        if not self._authorised():
            return
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        table, name = self._table()
        if table is None:
            self._answer(404)
            return
        table[name] = body
        self._answer(201)


class HostileServer:
    def __init__(self):
        self.entries = {}
        self.blobs = {}
        self.require = None
        self.sent = {}
        self.requests = []
        self.stopping = threading.Event()
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.owner = self
        self.port = self.httpd.server_address[1]
        self.thread = None

    def start(self):
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        return self

    def url(self, path=""):
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self):
        self.stopping.set()  # ends drips and endless bodies
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)
        time.sleep(0.05)
