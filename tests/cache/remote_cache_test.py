"""The package cache against a real server: Debian's nginx with WebDAV (nginx_dav.py) on loopback,
driven through the `llgo-wasm cache` command, and ccache (layout=bazel) on the same server.

usage: remote_cache_test.py --cli path/to/llgo-wasm [unittest arguments, e.g. -k Corrupted]
"""

import argparse
import hashlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nginx_dav import NginxDav  # noqa: E402

CLI = None


def key_of(text):
    return hashlib.sha256(text.encode()).hexdigest()


class CacheClient:
    """One machine's view: its own empty local cache directory."""

    def __init__(self, workdir, name, remote=None, extra=()):
        self.dir = os.path.join(workdir, name)
        self.remote = remote
        self.extra = list(extra)

    def run(self, *args, timeout=60, trace=None):
        command = [CLI, "cache", *args, "--cache-dir", self.dir]
        if self.remote:
            command += ["--remote-cache", self.remote]
        command += self.extra
        env = {k: v for k, v in os.environ.items() if not k.startswith("LLGO_WASM_")}
        if trace:
            env["LLGO_WASM_CACHE_TRACE"] = trace
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
        done.seconds = time.monotonic() - started
        return done

    def put(self, key, *outputs):
        args = ["put", key, "--json", "--tool", "clang=19.1.7", "--build-seconds", "2.5"]
        for output in outputs:
            args += ["--output", output]
        return self.run(*args)

    def get(self, key, dest):
        return self.run("get", key, "--dest", dest, "--json")


def warnings_of(done):
    return [line for line in done.stderr.splitlines() if "warning:" in line]


class RemoteCacheTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = NginxDav().start()

    @classmethod
    def tearDownClass(cls):
        cls.server.close()

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="llgo-wasm-remote-test-")
        self.remote = self.server.url("/llgo")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def output(self, name, text):
        path = os.path.join(self.work, "build", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(text)
        return path

    def read(self, path):
        with open(path) as f:
            return f.read()

    def test_cold_store_then_an_empty_local_cache_reads_from_the_remote(self):
        key = key_of(self.id())
        archive = self.output("libllgo_runtime.a", "!<arch>\n" + "runtime " * 1000)
        first = CacheClient(self.work, "machine-a", self.remote)
        done = first.put(key, "lib/libllgo_runtime.a=" + archive)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(warnings_of(done), [])
        digest = json.loads(done.stdout)["outputs"][0]["sha256"]
        self.assertEqual(json.loads(self.server.stored(f"/llgo/ac/{key}"))["key"], key)
        self.assertEqual(self.server.stored(f"/llgo/cas/{digest}").decode(), self.read(archive))

        second = CacheClient(self.work, "machine-b", self.remote)
        dest = os.path.join(self.work, "out-b")
        done = second.get(key, dest)
        self.assertEqual(done.returncode, 0, done.stderr)
        answer = json.loads(done.stdout)
        self.assertEqual(answer["source"], "remote")
        self.assertEqual(answer["entry"]["metadata"]["tools"], {"clang": "19.1.7"})
        self.assertEqual(self.read(os.path.join(dest, "lib/libllgo_runtime.a")), self.read(archive))
        # The remote hit filled machine B's local cache: the next get is local.
        done = second.get(key, os.path.join(self.work, "out-b2"))
        self.assertEqual(json.loads(done.stdout)["source"], "local")
        self.assertEqual(second.run("has", key).stdout.strip(), "local")
        self.assertEqual(CacheClient(self.work, "machine-c", self.remote).run("has", key).stdout.strip(), "remote")

    def test_a_read_only_client_fetches_but_never_uploads(self):
        key = key_of(self.id())
        reader = CacheClient(self.work, "ci-consumer", self.remote, ["--remote-read-only"])
        done = reader.put(key, self.output("a.o", "object"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIsNone(self.server.stored(f"/llgo/ac/{key}"))

    def test_a_corrupted_blob_on_the_server_is_detected_and_a_rebuild_repairs_it(self):
        key = key_of(self.id())
        archive = self.output("lib.a", "good archive bytes " * 100)
        done = CacheClient(self.work, "writer", self.remote).put(key, archive)
        digest = json.loads(done.stdout)["outputs"][0]["sha256"]
        blob = os.path.join(self.server.data, "llgo", "cas", digest)
        with open(blob, "r+b") as f:
            f.write(b"EVIL")
        reader = CacheClient(self.work, "reader", self.remote)
        dest = os.path.join(self.work, "out")
        done = reader.get(key, dest)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertFalse(json.loads(done.stdout)["hit"])
        self.assertIn("corrupted", done.stdout)
        self.assertEqual(len(warnings_of(done)), 1, done.stderr)
        self.assertFalse(os.path.exists(os.path.join(dest, "lib.a")))
        self.assertFalse(os.path.exists(os.path.join(reader.dir, "cas", digest[:2], digest)))
        # The build then rebuilds and stores, which uploads the blob again.
        done = reader.put(key, archive)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(hashlib.sha256(self.server.stored(f"/llgo/cas/{digest}")).hexdigest(), digest)
        done = CacheClient(self.work, "third", self.remote).get(key, os.path.join(self.work, "out3"))
        self.assertEqual(json.loads(done.stdout)["source"], "remote")

    def test_a_server_answering_500_degrades_to_local_with_one_warning(self):
        key = key_of(self.id())
        client = CacheClient(self.work, "client", self.server.url("/fail"))
        done = client.get(key, os.path.join(self.work, "out"))
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(len(warnings_of(done)), 1, done.stderr)
        self.assertIn("answered 500", done.stderr)
        done = client.put(key, self.output("a.o", "object"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertLessEqual(len(warnings_of(done)), 1, done.stderr)
        done = client.get(key, os.path.join(self.work, "out"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(json.loads(done.stdout)["source"], "local")

    def test_an_entry_is_uploaded_only_after_its_blobs(self):
        key = key_of(self.id())
        done = CacheClient(self.work, "client", self.server.url("/half")).put(key, self.output("a.o", "object"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("answered 500", done.stderr)
        self.assertIsNone(self.server.stored(f"/half/ac/{key}"), "an entry whose blob upload failed is visible")

    def test_a_hanging_server_costs_at_most_the_timeout(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        accepted = []
        stop = threading.Event()

        def accept_and_say_nothing():
            listener.settimeout(0.2)
            while not stop.is_set():
                try:
                    accepted.append(listener.accept()[0])
                except socket.timeout:
                    pass

        thread = threading.Thread(target=accept_and_say_nothing)
        thread.start()
        try:
            port = listener.getsockname()[1]
            client = CacheClient(self.work, "client", f"http://127.0.0.1:{port}/llgo", ["--remote-timeout", "1"])
            key = key_of(self.id())
            done = client.get(key, os.path.join(self.work, "out"))
            self.assertEqual(done.returncode, 1, done.stderr)
            # Two attempts of one second each, and 100 ms between them. libcurl checks a stall
            # once a second, so an attempt ends one to two seconds after the server went quiet:
            # at most 4.1 s, plus start-up. The default timeout (5 s) would take over 10 s.
            self.assertLess(done.seconds, 8.0, "two attempts of one second each, plus start-up")
            self.assertEqual(len(warnings_of(done)), 1, done.stderr)
            self.assertTrue(accepted, "the client never connected")
            # The next process skips the remote it saw fail instead of waiting again: it does not
            # connect at all (what it costs in seconds is the machine's, its fsyncs above all).
            connections = len(accepted)
            done = client.put(key, self.output("a.o", "object"))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("skipped", done.stderr)
            time.sleep(0.5)  # a connection made during the put is accepted within 0.2 s
            self.assertEqual(len(accepted), connections, "the put connected to the remote it skipped")
        finally:
            stop.set()
            thread.join()
            for connection in accepted:
                connection.close()
            listener.close()

    def test_concurrent_writers_of_one_key_leave_one_consistent_entry(self):
        key = key_of(self.id())
        contents = {}
        processes = []
        for i in range(6):
            text = f"build {i} " * (20000 + i)
            path = self.output(f"w{i}/lib.a", text)
            contents[hashlib.sha256(text.encode()).hexdigest()] = text
            client = CacheClient(self.work, f"writer-{i}", self.remote)
            processes.append(subprocess.Popen(
                [CLI, "cache", "put", key, "--output", path, "--cache-dir", client.dir, "--remote-cache", self.remote],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
        for process in processes:
            _, errors = process.communicate(timeout=60)
            self.assertEqual(process.returncode, 0, errors)
            self.assertNotIn("warning", errors)
        entry = json.loads(self.server.stored(f"/llgo/ac/{key}"))
        self.assertEqual(entry["key"], key)
        self.assertIn(entry["outputs"][0]["sha256"], contents)
        dest = os.path.join(self.work, "out")
        done = CacheClient(self.work, "reader", self.remote).get(key, dest)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.read(os.path.join(dest, "lib.a")), contents[entry["outputs"][0]["sha256"]])

    def test_a_killed_server_mid_upload_leaves_no_visible_entry(self):
        key = key_of(self.id())
        upload = socket.create_connection(("127.0.0.1", self.server.port))
        size = 4 << 20
        upload.sendall((f"PUT /llgo/ac/{key} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        f"Content-Length: {size}\r\n\r\n").encode() + b"{" * (size // 4))
        body_temp = os.path.join(self.server.prefix, "temp", "body")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not any(files for _, _, files in os.walk(body_temp)):
            time.sleep(0.01)
        self.assertTrue(any(files for _, _, files in os.walk(body_temp)), "nginx never started buffering the upload")
        self.server.kill()
        upload.close()
        self.server.start()
        self.assertEqual(self.server.get(f"/llgo/ac/{key}")[0], 404)
        done = CacheClient(self.work, "reader", self.remote).get(key, os.path.join(self.work, "out"))
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(warnings_of(done), [])

    def test_ccache_with_layout_bazel_shares_the_server(self):
        ccache = shutil.which("ccache")
        self.assertIsNotNone(ccache, "ccache is not installed (tools/debian-packages.txt pins it)")
        ours = key_of(self.id())
        CacheClient(self.work, "ours", self.remote).put(ours, self.output("a.o", "our object"))
        source = self.output("hello.c", "int hello(void) { return 42; }\n")

        def compile_with(cache_dir):
            env = dict(os.environ, CCACHE_DIR=cache_dir, CCACHE_REMOTE_STORAGE=f"{self.remote}|layout=bazel",
                       CCACHE_NOHASHDIR="true", CCACHE_BASEDIR=self.work)
            subprocess.run([ccache, "-z"], env=env, check=True, capture_output=True)
            done = subprocess.run([ccache, "gcc", "-c", source, "-o", os.path.join(self.work, "hello.o")],
                                  env=env, capture_output=True, text=True, cwd=self.work)
            self.assertEqual(done.returncode, 0, done.stderr)
            stats = subprocess.run([ccache, "--print-stats"], env=env, check=True, capture_output=True, text=True)
            return dict(line.split("\t") for line in stats.stdout.splitlines() if "\t" in line)

        ac_dir = os.path.join(self.server.data, "llgo", "ac")
        before = set(os.listdir(ac_dir))
        first = compile_with(os.path.join(self.work, "ccache-a"))
        self.assertEqual(first.get("remote_storage_miss"), "1", first)
        second = compile_with(os.path.join(self.work, "ccache-b"))  # an empty local ccache
        self.assertEqual(second.get("remote_storage_hit"), "1", second)
        added = set(os.listdir(ac_dir)) - before
        self.assertTrue(added, "ccache stored no /ac/ entry")
        self.assertTrue(all(len(name) == 64 for name in added), added)  # Bazel layout: 64 hex digits
        self.assertIn(ours, before)
        done = CacheClient(self.work, "ours-again", self.remote).get(ours, os.path.join(self.work, "out"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(json.loads(done.stdout)["source"], "remote")


class CacheCommandTest(unittest.TestCase):
    """Exit statuses and messages of `llgo-wasm cache` without a server."""

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="llgo-wasm-cache-cli-")
        self.client = CacheClient(self.work, "local")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def test_exit_statuses(self):
        key = key_of("cli")
        self.assertEqual(self.client.run("has", key).returncode, 1)
        miss = self.client.run("get", key, "--dest", os.path.join(self.work, "out"))
        self.assertEqual(miss.returncode, 1)
        self.assertIn("cache miss for " + key + ": no entry", miss.stderr)
        bad = self.client.run("get", "abc", "--dest", "x")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("is not a cache key", bad.stderr)
        self.assertEqual(self.client.run("frobnicate").returncode, 2)
        self.assertIn("unknown option", self.client.run("stats", "--bogus").stderr)
        self.assertIn("not an http:// or https:// URL", self.client.run("stats", "--remote-cache", "ftp://x").stderr)
        self.assertEqual(self.client.run("trim").returncode, 2)
        path = os.path.join(self.work, "a.o")
        with open(path, "w") as f:
            f.write("x")
        self.assertEqual(self.client.run("put", key, "--output", path).returncode, 0)
        self.assertEqual(self.client.run("has", key).returncode, 0)
        stats = json.loads(self.client.run("stats", "--json").stdout)
        self.assertEqual((stats["entries"], stats["blobs"]), (1, 1))
        self.assertEqual(json.loads(self.client.run("trim", "--max-size", "1", "--json").stdout)["removed-entries"], 1)
        trace = os.path.join(self.work, "trace.jsonl")
        self.assertEqual(self.client.run("put", key, "--output", path).returncode, 0)  # trimmed above
        self.client.run("get", key, "--dest", os.path.join(self.work, "out"), trace=trace)
        self.client.run("get", key_of("absent"), "--dest", os.path.join(self.work, "out"), trace=trace)
        lines = [json.loads(line) for line in open(trace)]
        self.assertEqual([(t["command"], t["status"], t["local-hits"], t["misses"]) for t in lines],
                         [("get", 0, 1, 0), ("get", 1, 0, 1)])
        self.assertIn("usage: llgo-wasm cache get", subprocess.run([CLI, "cache", "--help"], capture_output=True,
                                                                   text=True).stdout)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    options, rest = parser.parse_known_args()
    CLI = os.path.abspath(options.cli)
    unittest.main(argv=[sys.argv[0], "-v", *rest])
