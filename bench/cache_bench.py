#!/usr/bin/env python3
"""bench/cache_bench.py: what the package cache saves, and what its hashing costs.

1. Runtime libraries, cold vs warm remote. Debian's nginx (WebDAV, tests/cache/nginx_dav.py) on
   loopback is the remote. Clone A (a `git clone` of this checkout, empty local cache, empty
   remote) configures each preset's target build with LLGO_WASM_PACKAGE_CACHE=ON and builds its
   runtime libraries: every key misses, every library is compiled and stored. Clone B (another
   clone, its own empty local cache) does the same: every key should hit the remote. Reported per
   phase: configure and build wall time, the time of the cache lookups (LLGO_WASM_CACHE_TRACE),
   bytes down and up, hits and misses; the ratio of the libraries' own cost (compile + lookups
   cold, lookups warm; target >= 5x) and, for context, of the whole configure + build.
2. Hashing: the store's SHA-256 over one 64 MiB file against `sha256sum` of the same file
   (target >= 0.8x), and, for context, `cache put` (hash + copy + fsync) and `cache get` (copy out
   + verify), which also measure the disk. Median of 5.

usage: bench/cache_bench.py --cli build/native/driver/cli/llgo-wasm [--presets "j32 j64 wasip1 wasip1-threads"]
                            [--hashing-only]
The driver is not rebuilt in the clones (it is not what the cache holds): both use --cli.
"""
import argparse
import os
import json
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
from runtime_build import build_runtime_of_preset  # noqa: E402


def phase(name, clone, presets, cli, remote):
    """Configure + build the runtime libraries of every preset in `clone`; returns the totals."""
    cache_dir = clone.parent / (clone.name + "-local-cache")
    trace = clone.parent / (clone.name + "-trace.jsonl")
    total = {"wall": 0.0, "configure": 0.0, "compile": 0.0, "cache": 0.0, "down": 0, "up": 0, "hits": 0, "misses": 0}
    for preset in presets:
        result = build_runtime_of_preset(clone, preset, cli, remote, cache_dir, trace)
        total["wall"] += result.seconds
        total["configure"] += result.configure_seconds
        total["compile"] += result.seconds - result.configure_seconds
        total["hits"] += result.hits
        total["misses"] += result.misses
        print(f"  {name:5} {preset:15} configure {result.configure_seconds:7.2f} s  build {result.seconds - result.configure_seconds:7.2f} s"
              f"  hits {result.hits:2}  misses {result.misses:2}  library targets compiled {len(result.targets):2}"
              + (f"  WARNINGS: {result.warnings}" if result.warnings else ""), flush=True)
    for line in trace.read_text().splitlines():
        record = json.loads(line)
        if record["command"] == "get":  # the configure-time lookups; puts run inside the build step
            total["cache"] += record["seconds"]
        total["down"] += record["bytes-downloaded"]
        total["up"] += record["bytes-uploaded"]
    return total


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
    """Median throughputs against sha256sum on one 64 MiB file: the store's SHA-256 alone (through
    `cache-key --file`, the same Sha256 code the store uses), and put and get, which also copy
    the bytes and (put) fsync them, so they also measure the disk."""
    size = 64 << 20
    blob = work / "hash" / "blob.bin"
    blob.parent.mkdir()
    with open(blob, "wb") as out:
        out.write(os.urandom(size))
    cache_dir = work / "hash-cache"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLGO_WASM_")}
    key = "ab" * 32
    sha = median_seconds(["sha256sum", str(blob)])
    hash_only = median_seconds([cli, "cache-key", "--package-root", str(blob.parent), "--file", "blob.bin"], env=env)
    put = median_seconds([cli, "cache", "put", key, "--output", str(blob), "--cache-dir", str(cache_dir)], env=env,
                         before=lambda: shutil.rmtree(cache_dir, ignore_errors=True))
    get = median_seconds([cli, "cache", "get", key, "--dest", str(work / "out"), "--cache-dir", str(cache_dir)], env=env)
    mib = size / (1 << 20)
    print(f"  sha256sum                 {mib / sha:8.1f} MiB/s  (baseline)")
    print(f"  llgo-wasm SHA-256         {mib / hash_only:8.1f} MiB/s  = {sha / hash_only:5.2f} x sha256sum  (the store's hashing)")
    print(f"  llgo-wasm cache put       {mib / put:8.1f} MiB/s  = {sha / put:5.2f} x sha256sum  (hash + copy + fsync)")
    print(f"  llgo-wasm cache get       {mib / get:8.1f} MiB/s  = {sha / get:5.2f} x sha256sum  (copy out + verify)")
    return sha / hash_only


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--presets", default="j32 j64 wasip1 wasip1-threads")
    parser.add_argument("--hashing-only", action="store_true", help="skip the runtime-library phases")
    options = parser.parse_args()
    cli = os.path.abspath(options.cli)
    presets = options.presets.split()
    work = Path(tempfile.mkdtemp(prefix="llgo-wasm-cache-bench-"))
    server = NginxDav().start()
    status = 0
    try:
        remote = server.url("/llgo")
        if options.hashing_only:
            print("hashing, one 64 MiB file:")
            ratio = hashing(cli, work)
            print(f"  {'MET' if ratio >= 0.8 else 'MISSED'}     hashing >= 0.8x sha256sum throughput: measured {ratio:.2f} x")
            return 0
        clones = []
        for name in ("clone-a", "clone-b"):
            subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(work / name)], check=True)
            clones.append(work / name)
        print(f"runtime libraries of {', '.join(presets)}, remote {remote}:")
        cold = phase("cold", clones[0], presets, cli, remote)
        warm = phase("warm", clones[1], presets, cli, remote)
        for name, t in (("cold", cold), ("warm", warm)):
            print(f"  {name}: configure + build {t['wall']:.2f} s (configure {t['configure']:.2f} s, of it cache lookups "
                  f"{t['cache']:.2f} s; library build {t['compile']:.2f} s); {t['hits']} hits, {t['misses']} misses; "
                  f"{t['down'] / 1024:.0f} KiB down, {t['up'] / 1024:.0f} KiB up")
        # The runtime libraries' own cost: compiling them (cold) or fetching them (warm), with the
        # lookups in both. The rest of the configure (compiler checks, the fixtures' and tests'
        # declarations) is the same in both phases and is reported above, not in this ratio.
        library_ratio = (cold["compile"] + cold["cache"]) / max(warm["compile"] + warm["cache"], 1e-9)
        whole_ratio = cold["wall"] / warm["wall"]
        all_hit = warm["misses"] == 0 and warm["hits"] == cold["misses"] and warm["hits"] > 0
        print(f"  configure + build, whole: cold/warm = {whole_ratio:.2f} x")
        print(f"  {'MET' if library_ratio >= 5 else 'MISSED'}     runtime libraries from a warm remote >= 5x faster than "
              f"compiling them: measured {library_ratio:.2f} x" + ("" if all_hit else "  (NOT every library was a remote hit)"))
        if not all_hit:
            status = 1
        print("hashing, one 64 MiB file:")
        ratio = hashing(cli, work)
        print(f"  {'MET' if ratio >= 0.8 else 'MISSED'}     hashing >= 0.8x sha256sum throughput: measured {ratio:.2f} x")
    finally:
        server.close()
        shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
