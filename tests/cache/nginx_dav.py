"""Debian's nginx as a Bazel HTTP remote cache for the tests: a WebDAV server (PUT, DELETE,
create_full_put_path) on a free loopback port, with its own prefix, configuration, temporaries and
logs in a temporary directory, run in its own process group so it can be stopped, or killed
outright (SIGKILL to the whole group) to simulate a crash. Two extra locations misbehave on
purpose: /fail/ answers 500 to everything; /half/ stores action entries but answers 500 to blob
uploads."""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

CONFIG = """
daemon off;
master_process on;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
{user}
events {{ worker_connections 256; }}
http {{
  access_log {prefix}/access.log;
  client_body_temp_path {prefix}/temp/body;
  proxy_temp_path {prefix}/temp/proxy;
  fastcgi_temp_path {prefix}/temp/fastcgi;
  uwsgi_temp_path {prefix}/temp/uwsgi;
  scgi_temp_path {prefix}/temp/scgi;
  client_max_body_size 0;
  server {{
    listen 127.0.0.1:{port};
    root {prefix}/data;
    location / {{
      dav_methods PUT DELETE;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }}
    location /fail/ {{ return 500; }}
    location /half/cas/ {{ return 500; }}
  }}
}}
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def find_nginx():
    path = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not path:
        raise RuntimeError("nginx is not installed (tools/debian-packages.txt pins nginx-light; run tools/setup-toolchain.sh)")
    return path


class NginxDav:
    def __init__(self):
        self.prefix = tempfile.mkdtemp(prefix="llgo-wasm-nginx-")
        self.data = os.path.join(self.prefix, "data")
        self.port = free_port()
        self.process = None
        for sub in ("data", "temp", "logs"):
            os.makedirs(os.path.join(self.prefix, sub), exist_ok=True)
        user = "user root root;" if os.getuid() == 0 else ""
        with open(os.path.join(self.prefix, "nginx.conf"), "w") as conf:
            conf.write(CONFIG.format(prefix=self.prefix, port=self.port, user=user))

    def url(self, path=""):
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self):
        self.process = subprocess.Popen(
            [find_nginx(), "-p", self.prefix, "-c", os.path.join(self.prefix, "nginx.conf"), "-e",
             os.path.join(self.prefix, "error.log")],
            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("nginx exited: " + self.process.stderr.read().decode() + self.error_log())
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not listen on port %d: %s" % (self.port, self.error_log()))

    def error_log(self):
        try:
            with open(os.path.join(self.prefix, "error.log")) as log:
                return log.read()
        except OSError:
            return ""

    def kill(self):
        """SIGKILL to master and workers: a crash, not a shutdown."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            time.sleep(0.1)  # the orphaned worker of the group receives the same signal
        self._release()

    def _release(self):
        if self.process and self.process.stderr:
            self.process.stderr.close()

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._release()
        self.process = None

    def close(self):
        self.stop()
        shutil.rmtree(self.prefix, ignore_errors=True)

    def stored(self, path):
        """The bytes the server holds under `path` (e.g. /llgo/ac/<key>), or None."""
        try:
            with open(os.path.join(self.data, path.lstrip("/")), "rb") as stored:
                return stored.read()
        except OSError:
            return None

    def get(self, path):
        try:
            with urllib.request.urlopen(self.url(path), timeout=5) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, b""
