#!/usr/bin/env python3
"""bench/cache_bench.py: what the package cache saves, and what its hashing costs.

1. Runtime libraries, cold vs warm remote. Debian's nginx (WebDAV, tests/cache/nginx_dav.py) on
   loopback is the remote. Clone A (a `git clone` of this checkout, empty local cache, empty
   remote) configures each preset's target build with LLGO_WASM_PACKAGE_CACHE=ON and builds its
   runtime libraries: every key misses, every library is compiled and stored. Clone B (another
   clone, its own empty local cache) does the same: every key should hit the remote. Reported:
   wall time of configure + runtime build per phase, the ratio cold/warm (target >= 5x), the
   bytes nginx sent and received in each phase (its access log), and hits/misses.
2. Hashing: `llgo-wasm cache put` of one 64 MiB file (hash + copy into the store + fsync) and
   `cache get` (copy out + verify), against `sha256sum` of the same file, as throughput ratios
   (target: put >= 0.8x sha256sum). Median of 5.

usage: bench/cache_bench.py --cli build/native/driver/cli/llgo-wasm [--presets "j32 j64 wasip1 wasip1-threads"]
The driver is not rebuilt in the clones (it is not what the cache holds): both use --cli.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "cache"))
from nginx_dav import NginxDav  # noqa: E402
from runtime_build import build_runtime  # noqa: E402


def access_log_bytes(server, since_line):
    """(bytes sent, requests, lines so far) from nginx's access log lines after since_line."""
    path = os.path.join(server.prefix, "access.log")
    if not os.path.exists(path):
        return 0, 0, 0
    lines = open(path).read().splitlines()
    sent = 0
    requests = 0
    for line in lines[since_line:]:
        match = re.search(r'" (\d{3}) (\d+)', line)
        if match:
            sent += int(match.group(2))
            requests += 1
    return sent, requests, len(lines)


def phase(name, clone, presets, cli, server, remote):
    cache_dir = clone.parent / (clone.name + "-local-cache")
    _, _, start_line = access_log_bytes(server, 0)
    total = 0.0
    rows = []
    for preset in presets:
        result = build_runtime(clone, preset, cli, remote, cache_dir)
        seconds, hits, misses, built, warnings = (result.seconds, result.hits, result.misses, len(result.targets),
                                                  result.warnings)
        total += seconds
        rows.append((preset, seconds, hits, misses, built, warnings))
        print(f"  {name:5} {preset:15} {seconds:7.2f} s   hits {hits:2}  misses {misses:2}  "
              f"library targets built {built:2}" + (f"  WARNINGS: {warnings}" if warnings else ""), flush=True)
    sent, requests, _ = access_log_bytes(server, start_line)
    received = sum(f.stat().st_size for f in Path(server.data).rglob("*") if f.is_file())
    return total, sent, requests, received, rows


def median_seconds(command, reps=5, env=None, before=None):
    times = []
    for _ in range(reps):
        if before:
            before()
        started = time.monotonic()
        subprocess.run(command, check=True, capture_output=True, env=env)
        times.append(time.monotonic() - started)
    return statistics.median(times)


def hashing(cli, work):
    size = 64 << 20
    blob = work / "blob.bin"
    with open(blob, "wb") as out:
        out.write(os.urandom(size))
    cache_dir = work / "hash-cache"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLGO_WASM_")}
    key = "ab" * 32
    sha = median_seconds(["sha256sum", str(blob)])
    put = median_seconds([cli, "cache", "put", key, "--output", str(blob), "--cache-dir", str(cache_dir)], env=env,
                         before=lambda: shutil.rmtree(cache_dir, ignore_errors=True))
    get = median_seconds([cli, "cache", "get", key, "--dest", str(work / "out"), "--cache-dir", str(cache_dir)], env=env)
    mib = size / (1 << 20)
    print(f"  sha256sum                 {mib / sha:8.1f} MiB/s  (baseline)")
    print(f"  llgo-wasm cache put       {mib / put:8.1f} MiB/s  = {sha / put:5.2f} x sha256sum  (hash + copy + fsync)")
    print(f"  llgo-wasm cache get       {mib / get:8.1f} MiB/s  = {sha / get:5.2f} x sha256sum  (copy out + verify)")
    return sha / put


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--presets", default="j32 j64 wasip1 wasip1-threads")
    options = parser.parse_args()
    cli = os.path.abspath(options.cli)
    presets = options.presets.split()
    work = Path(tempfile.mkdtemp(prefix="llgo-wasm-cache-bench-"))
    server = NginxDav().start()
    status = 0
    try:
        remote = server.url("/llgo")
        clones = []
        for name in ("clone-a", "clone-b"):
            subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(work / name)], check=True)
            clones.append(work / name)
        print(f"runtime libraries of {', '.join(presets)} (configure + build), remote {remote}:")
        cold, cold_sent, cold_requests, stored, _ = phase("cold", clones[0], presets, cli, server, remote)
        warm, warm_sent, warm_requests, _, rows = phase("warm", clones[1], presets, cli, server, remote)
        ratio = cold / warm
        print(f"  cold {cold:.2f} s, {cold_requests} requests, server holds {stored / 1024:.0f} KiB after it")
        print(f"  warm {warm:.2f} s, {warm_requests} requests, {warm_sent / 1024:.0f} KiB downloaded")
        all_hit = all(r[3] == 0 and r[2] > 0 for r in rows)
        print(f"  {'MET' if ratio >= 5 else 'MISSED'}     warm remote >= 5x faster than cold: measured {ratio:.2f} x"
              f"{'' if all_hit else '  (NOT every library was a remote hit)'}")
        if not all_hit:
            status = 1
        print("hashing, one 64 MiB file:")
        put_ratio = hashing(cli, work)
        print(f"  {'MET' if put_ratio >= 0.8 else 'MISSED'}     cache put >= 0.8x sha256sum throughput: measured {put_ratio:.2f} x")
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
