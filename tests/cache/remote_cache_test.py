"""The package cache against a real server: Debian's nginx with WebDAV (nginx_dav.py) on loopback,
driven through the `llgo-wasm cache` command, and ccache (layout=bazel) on the same server; and
against servers that misbehave on purpose (hostile_http.py: oversized, dripping, lying), for the
bounds of docs/cache.md.

usage: remote_cache_test.py --cli path/to/llgo-wasm [unittest arguments, e.g. -k Corrupted]
"""

import argparse
import base64
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
from hostile_http import Drip, Endless, HostileServer  # noqa: E402

CLI = None


def key_of(text):
    return hashlib.sha256(text.encode()).hexdigest()


class CacheClient:
    """One machine's view: its own empty local cache directory."""

    def __init__(self, workdir, name, remote=None, extra=()):
        self.dir = os.path.join(workdir, name)
        self.remote = remote
        self.extra = list(extra)

    def run(self, *args, timeout=60, trace=None, env_extra=None):
        command = [CLI, "cache", *args, "--cache-dir", self.dir]
        if self.remote:
            command += ["--remote-cache", self.remote]
        command += self.extra
        env = {k: v for k, v in os.environ.items() if not k.startswith("LLGO_WASM_")}
        if trace:
            env["LLGO_WASM_CACHE_TRACE"] = trace
        env.update(env_extra or {})
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
        done.seconds = time.monotonic() - started
        return done

    def put(self, key, *outputs):
        args = ["put", key, "--json", "--tool", "clang=19.1.7", "--build-seconds", "2.5"]
        for output in outputs:
            args += ["--output", output]
        return self.run(*args)

    def get(self, key, dest, *extra, **options):
        return self.run("get", key, "--dest", dest, "--json", *extra, **options)

    def stored_files(self):
        """Every file under the local cache's ac/, cas/ and tmp/."""
        found = []
        for sub in ("ac", "cas", "tmp"):
            for root, _, files in os.walk(os.path.join(self.dir, sub)):
                found += [os.path.join(root, name) for name in files]
        return found


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
            # What ended it is the timeout given (--remote-timeout 1: a second per attempt, a
            # deadline of two for the operation), not the default one: its one warning says so.
            # How many seconds that took is the machine's; 60 s only stops a hang.
            self.assertLess(done.seconds, 60, "the get hung")
            self.assertEqual(len(warnings_of(done)), 1, done.stderr)
            self.assertRegex(warnings_of(done)[0], r"(deadline|--remote-timeout 1\b|timed out|[Tt]imeout)", done.stderr)
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


def entry_text(key, outputs, metadata=None):
    """An action entry listing (name, sha256, size) outputs."""
    return json.dumps({"format": "llgo-wasm-cache-entry/1", "key": key,
                       "outputs": [{"name": n, "sha256": d, "size": s} for n, d, s in outputs],
                       "metadata": metadata or {}}).encode()


def read_trace(path):
    with open(path) as lines:
        return [json.loads(line) for line in lines]


class HostileServerTest(unittest.TestCase):
    """The bounds of docs/cache.md against a server that misbehaves on purpose: each bound that
    is hit costs one warning, turns the remote off, stores nothing and leaves the destination as
    it was."""

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="llgo-wasm-hostile-test-")
        self.server = HostileServer().start()
        self.remote = self.server.url("/llgo")

    def tearDown(self):
        self.server.close()
        shutil.rmtree(self.work, ignore_errors=True)

    def client(self, name, *extra, remote=None):
        return CacheClient(self.work, name, remote or self.remote, list(extra))

    def assert_nothing_stored(self, client, dest):
        self.assertEqual(client.stored_files(), [], "a bad remote entry left files in the local cache")
        self.assertFalse(os.path.exists(dest), "a miss created or changed the destination")

    def test_a_blob_larger_than_its_entry_declares_is_cut_off_at_the_declared_size(self):
        # D1: the entry declares 32 bytes; the server sends megabytes, with no Content-Length or
        # announcing 64 MiB in one.
        data = b"x" * 32
        digest = hashlib.sha256(data).hexdigest()
        for announce in (None, 64 << 20):
            with self.subTest(announce=announce):
                key = key_of(f"{self.id()} {announce}")
                self.server.entries[key] = entry_text(key, [("lib.a", digest, 32)])
                self.server.blobs[digest] = Endless(announce=announce)
                self.server.sent.clear()
                client = self.client(f"client-{announce}")
                dest = os.path.join(self.work, f"out-{announce}")
                trace = os.path.join(self.work, f"trace-{announce}.jsonl")
                done = client.get(key, dest, trace=trace)
                self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                self.assertEqual(len(warnings_of(done)), 1, done.stderr)
                self.assertIn("32", warnings_of(done)[0])
                # What the client read: 32 bytes and a buffer of curl's at most (the old client
                # read all 64 MiB into <cache>/tmp before it hashed them).
                self.assertLess(read_trace(trace)[0]["bytes-downloaded"], 1 << 20, read_trace(trace))
                self.assertTrue(read_trace(trace)[0]["remote-disabled"])
                self.assert_nothing_stored(client, dest)

    def test_a_dripping_server_ends_an_operation_within_twice_the_timeout(self):
        # D2: two bytes a second never trips a stall timeout; the operation's deadline (2 x 2 s,
        # retries included) does. Each get gets a fresh client: the first failure leaves a note
        # that makes later processes skip the remote.
        blob = b"archive " * 40
        digest = hashlib.sha256(blob).hexdigest()
        entry_key, blob_key = key_of(self.id() + " entry"), key_of(self.id() + " blob")
        self.server.entries[entry_key] = Drip(entry_text(entry_key, [("lib.a", digest, len(blob))]))
        self.server.entries[blob_key] = entry_text(blob_key, [("lib.a", digest, len(blob))])
        self.server.blobs[digest] = Drip(blob)
        for key, name in ((entry_key, "entry"), (blob_key, "blob")):
            with self.subTest(dripping=name):
                client = self.client(f"client-{name}", "--remote-timeout", "2")
                dest = os.path.join(self.work, f"out-{name}")
                done = client.get(key, dest, timeout=60)
                self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                # The deadline (4 s) ended it, as its warning says; 40 s, ten times the deadline,
                # only stops a get the deadline did not end (the old client took 70-90 s).
                self.assertLess(done.seconds, 40, "the deadline did not end the get")
                self.assertEqual(len(warnings_of(done)), 1, done.stderr)
                self.assertIn("deadline", done.stderr)
                self.assert_nothing_stored(client, dest)

    def test_an_entry_with_too_many_outputs_or_unexpected_ones_is_a_miss(self):
        # D3: 1001 outputs (the bound is 1000), all naming one tiny blob.
        data = b"x"
        digest = hashlib.sha256(data).hexdigest()
        self.server.blobs[digest] = data
        many = key_of(self.id() + " many")
        self.server.entries[many] = entry_text(many, [(f"out/{i:04}.o", digest, 1) for i in range(1001)])
        client = self.client("client")
        dest = os.path.join(self.work, "out-many")
        trace = os.path.join(self.work, "trace.jsonl")
        done = client.get(many, dest, trace=trace)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertEqual(len(warnings_of(done)), 1, done.stderr)
        self.assertIn("1001 outputs", done.stderr)
        self.assertTrue(read_trace(trace)[0]["remote-disabled"], "a bound hit turns the remote off")
        self.assertFalse([r for r in self.server.requests if "/cas/" in r[1]], "blobs of a refused entry were fetched")
        self.assert_nothing_stored(client, dest)

        # --expect: the caller names its outputs; an entry that adds one is a miss, not written.
        client = self.client("client-expect")
        extra = key_of(self.id() + " extra")
        self.server.entries[extra] = entry_text(extra, [("lib.a", digest, 1), ("evil.sh", digest, 1)])
        dest = os.path.join(self.work, "out-extra")
        done = client.get(extra, dest, "--expect", "lib.a")
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("unexpected: evil.sh", json.loads(done.stdout)["reason"])
        self.assert_nothing_stored(client, dest)
        done = client.get(extra, dest, "--expect", "lib.a", "--expect", "evil.sh")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def test_a_killed_gets_staging_directory_is_swept_by_the_next_get(self):
        # D3/D8: a killed get leaves one hidden directory in the destination; the next get into
        # it removes the one whose process is gone and keeps a live one.
        data = b"archive"
        digest = hashlib.sha256(data).hexdigest()
        key = key_of(self.id())
        self.server.entries[key] = entry_text(key, [("lib.a", digest, len(data))])
        self.server.blobs[digest] = data
        dest = os.path.join(self.work, "out")
        dead = os.path.join(dest, ".llgo-wasm-get-999999999-1-0")  # above any pid_max
        alive = os.path.join(dest, f".llgo-wasm-get-{os.getpid()}-1-0")
        for staging in (dead, alive):
            os.makedirs(os.path.join(staging, "sub"))
            for i in range(3):
                with open(os.path.join(staging, f"{i}-tmp"), "w") as f:
                    f.write("staged")
        done = self.client("client").get(key, dest)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertFalse(os.path.exists(dead), "the dead get's staging directory is still there")
        self.assertTrue(os.path.exists(alive), "a live get's staging directory was removed")
        self.assertEqual(sorted(os.listdir(dest)), sorted(["lib.a", os.path.basename(alive)]))

    def test_an_entry_that_cannot_be_written_out_is_not_stored(self):
        # D4: each validates as JSON, but no get could write it; it must be a miss (exit 1, not
        # 2), not stored locally, and leave no directory behind.
        data = b"x"
        digest = hashlib.sha256(data).hexdigest()
        self.server.blobs[digest] = data
        cases = {
            "prefix": ([("lib", digest, 1), ("lib/x.a", digest, 1)], "is also the directory of output"),
            "long-part": ([("a" * 300 + ".a", digest, 1)], "more than a file system takes"),
            "deep": (["/".join(["d"] * 40) + "/x.a"], "levels deep"),
        }
        for name, (outputs, message) in cases.items():
            with self.subTest(name):
                if name == "deep":
                    outputs = [(outputs[0], digest, 1)]
                key = key_of(self.id() + name)
                self.server.entries[key] = entry_text(key, outputs)
                client = self.client(f"client-{name}")
                dest = os.path.join(self.work, f"out-{name}")
                done = client.get(key, dest)
                self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                self.assertEqual(len(warnings_of(done)), 1, done.stderr)
                self.assertIn(message, done.stderr)
                self.assert_nothing_stored(client, dest)
                has = client.run("has", key)
                self.assertNotEqual(has.stdout.strip(), "local", "has says local for an entry get cannot use")

    def test_a_tiny_timeout_still_bounds_the_connect(self):
        # D5: --remote-timeout 0.0001 was 0 ms, which curl reads as its 300 s connect default. A
        # listener whose accept queue is full drops the SYN, so the connect itself hangs.
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        fillers = []
        try:
            for _ in range(4):  # fills the queue; later connects hang (non-blocking, so this does not)
                filler = socket.socket()
                filler.setblocking(False)
                filler.connect_ex(("127.0.0.1", port))
                fillers.append(filler)
            time.sleep(0.2)
            client = CacheClient(self.work, "client", f"http://127.0.0.1:{port}/llgo", ["--remote-timeout", "0.0001"])
            done = client.get(key_of(self.id()), os.path.join(self.work, "out"), timeout=60)
            self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
            self.assertLess(done.seconds, 10, "a 0.1 ms timeout must not become curl's 300 s default")
            self.assertEqual(len(warnings_of(done)), 1, done.stderr)
        finally:
            for filler in fillers:
                filler.close()
            listener.close()

    def test_credentials_are_never_shown_or_written_and_netrc_or_a_header_file_passes_them(self):
        # D6: the server answers 401 to a request without them; the client's warning, `stats`
        # and the remote-unavailable note must not hold the password.
        secret = "s3cret-pw"
        self.server.require = ("Authorization", "Basic " + base64.b64encode(f"ci:{secret}".encode()).decode())
        remote = self.server.url("/llgo").replace("http://", f"http://ci:{secret}@")
        key = key_of(self.id())
        archive = os.path.join(self.work, "lib.a")
        with open(archive, "w") as f:
            f.write("archive")
        writer = self.client("with-url", remote=remote)
        done = writer.put(key, archive)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(warnings_of(done), [])
        self.assertIn(key, self.server.entries, "the URL's credentials were not used")
        stats = writer.run("stats")
        self.assertNotIn(secret, stats.stdout + stats.stderr)
        self.assertIn("***@127.0.0.1", stats.stdout)
        # A failing server: the warning and the note (world-readable, in the cache directory).
        self.server.require = ("Authorization", "something else")
        self.server.entries.clear()
        failing = self.client("failing", remote=remote.replace("/llgo", "/gone"))
        self.server.blobs.clear()
        done = failing.put(key_of("another"), archive)
        self.assertEqual(len(warnings_of(done)), 1, done.stderr)
        self.assertNotIn(secret, done.stderr + done.stdout)
        self.assertIn("***@127.0.0.1", done.stderr)
        note = os.path.join(failing.dir, "remote-unavailable")
        self.assertTrue(os.path.exists(note))
        for root, _, files in os.walk(failing.dir):
            for name in files:
                with open(os.path.join(root, name), "rb") as f:
                    self.assertNotIn(secret.encode(), f.read(), os.path.join(root, name))
        done = failing.run("get", key_of("not stored"), "--dest", os.path.join(self.work, "x"))
        self.assertIn("skipped", done.stderr)
        self.assertNotIn(secret, done.stderr)

        # netrc (a HOME of its own) and a header file instead of the URL.
        self.server.require = ("Authorization", "Basic " + base64.b64encode(f"ci:{secret}".encode()).decode())
        home = os.path.join(self.work, "home")
        os.makedirs(home)
        with open(os.path.join(home, ".netrc"), "w") as f:
            f.write(f"machine 127.0.0.1 login ci password {secret}\n")
        empty_home = os.path.join(self.work, "empty-home")
        os.makedirs(empty_home)
        done = self.client("netrc").run("put", key_of("netrc"), "--output", archive, env_extra={"HOME": empty_home})
        self.assertIn("401", done.stderr, "without the netrc the server refuses")
        netrc_client = self.client("netrc-home")
        done = netrc_client.run("put", key_of("netrc"), "--output", archive, env_extra={"HOME": home})
        self.assertEqual((done.returncode, warnings_of(done)), (0, []), done.stderr)
        self.assertIn(key_of("netrc"), self.server.entries)
        self.server.require = ("Authorization", "Bearer token-123")
        headers = os.path.join(self.work, "headers.txt")
        with open(headers, "w") as f:
            f.write("# the CI job's token\nAuthorization: Bearer token-123\n")
        done = self.client("headers", "--remote-header-file", headers).put(key_of("headers"), archive)
        self.assertEqual((done.returncode, warnings_of(done)), (0, []), done.stderr)
        self.assertIn(key_of("headers"), self.server.entries)
        with open(headers, "w") as f:
            f.write("Bearer token-123\n")
        done = self.client("bad-headers", "--remote-header-file", headers).run("stats")
        self.assertEqual(done.returncode, 2)
        self.assertIn(headers + ":1: not a header line", done.stderr)
        self.assertNotIn("token-123", done.stderr)

    def test_an_entry_whose_sizes_are_wrong_is_a_miss(self):
        # D7: the blob is right (it hashes to its name) but the entry says another size.
        data = b"y" * 32
        digest = hashlib.sha256(data).hexdigest()
        self.server.blobs[digest] = data
        for declared in (5, 40):
            with self.subTest(declared=declared):
                key = key_of(f"{self.id()} {declared}")
                self.server.entries[key] = entry_text(key, [("lib.a", digest, declared)])
                client = self.client(f"client-{declared}")
                dest = os.path.join(self.work, f"out-{declared}")
                done = client.get(key, dest)
                self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                self.assertEqual(len(warnings_of(done)), 1, done.stderr)
                self.assert_nothing_stored(client, dest)

        # The same in a local cache: `has` and `get` agree that it is a miss.
        client = CacheClient(self.work, "local")
        key = key_of(self.id() + " local")
        archive = os.path.join(self.work, "lib.a")
        with open(archive, "wb") as f:
            f.write(data)
        self.assertEqual(client.put(key, archive).returncode, 0)
        entry_file = os.path.join(client.dir, "ac", key[:2], key)
        with open(entry_file) as f:
            entry = json.load(f)
        entry["outputs"][0]["size"] = 33
        with open(entry_file, "w") as f:
            json.dump(entry, f)
        dest = os.path.join(self.work, "out-local")
        self.assertEqual(client.run("has", key).returncode, 1)
        done = client.get(key, dest)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("has 33 bytes, but its blob has 32", json.loads(done.stdout)["reason"])
        self.assertFalse(os.path.exists(dest))


class LocalDirectoryTest(unittest.TestCase):
    """D8: a cache directory that cannot be used turns caching off with one warning (a build must
    not fail for its cache); temporaries are counted and swept."""

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="llgo-wasm-cache-dir-")
        self.archive = os.path.join(self.work, "lib.a")
        with open(self.archive, "w") as f:
            f.write("archive")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def test_an_unwritable_or_foreign_cache_directory_turns_caching_off(self):
        key = key_of(self.id())
        # Under a regular file: no user, root included, can create it.
        blocked = CacheClient(os.path.join(self.work, "lib.a"), "cache")
        done = blocked.put(key, self.archive)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(warnings_of(done)), 1, done.stderr)
        self.assertIn("caching is off", done.stderr)
        self.assertEqual(json.loads(done.stdout)["outputs"][0]["sha256"], hashlib.sha256(b"archive").hexdigest())
        done = blocked.get(key, os.path.join(self.work, "out"))
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(len(warnings_of(done)), 1, done.stderr)

        # Another user's directory: refused without the opt-in, used with it.
        foreign = CacheClient(self.work, "foreign")
        os.makedirs(foreign.dir)
        if os.geteuid() == 0:
            os.chown(foreign.dir, 65534, 65534)
        else:
            foreign.dir = "/"  # root's: refused before anything is written
        done = foreign.put(key, self.archive)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(warnings_of(done)), 1, done.stderr)
        self.assertIn("LLGO_WASM_CACHE_SHARED=1", done.stderr)
        if os.geteuid() == 0:
            self.assertEqual(os.listdir(foreign.dir), [], "a refused directory was written to")
        done = foreign.run("trim", "--max-size", "1")
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("LLGO_WASM_CACHE_SHARED=1", done.stderr)
        if os.geteuid() == 0:
            done = foreign.run("put", key, "--output", self.archive, env_extra={"LLGO_WASM_CACHE_SHARED": "1"})
            self.assertEqual((done.returncode, warnings_of(done)), (0, []), done.stderr)
            self.assertEqual(foreign.run("has", key, "--shared-cache-dir").stdout.strip(), "local")

    def test_temporaries_are_counted_by_stats_and_swept_by_trim(self):
        client = CacheClient(self.work, "cache")
        self.assertEqual(client.put(key_of(self.id()), self.archive).returncode, 0)
        tmp = os.path.join(client.dir, "tmp")
        young, old = os.path.join(tmp, "blob-1-2-3"), os.path.join(tmp, "blob-4-5-6")
        for path, size in ((young, 100), (old, 50)):
            with open(path, "wb") as f:
                f.write(b"t" * size)
        two_hours_ago = time.time() - 7200
        os.utime(old, (two_hours_ago, two_hours_ago))
        before = json.loads(client.run("stats", "--json").stdout)
        self.assertEqual(before["temporaries"], 2)
        done = client.run("trim", "--max-size", "1G", "--json")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertFalse(os.path.exists(old), "trim kept a temporary older than an hour")
        self.assertTrue(os.path.exists(young), "trim removed a write in progress")
        after = json.loads(client.run("stats", "--json").stdout)
        self.assertEqual(after["temporaries"], 1)
        self.assertEqual(before["bytes"] - after["bytes"], 50)
        self.assertEqual(json.loads(done.stdout)["bytes"], after["bytes"])


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
