"""The driver: `llgo-wasm resolve` per process against /bin/true, in-library resolve (C++ and C
API, bench_driver), cache-key hashing throughput against `sha256sum` on the same files."""
import json
import random
import shutil
import time
from pathlib import Path

from .programs import BenchError, results_of, run
from .results import add_missing, add_row


def bench_driver(host, work_dir, settings):
    driver_cli = host.get("driver") if host else None
    bench_prog = next((p["path"] for p in (host or {}).get("programs", []) if p["kind"] == "driver"), None)
    n = settings["resolve_processes"]
    if driver_cli and Path(driver_cli).is_file():
        try:
            # Every built-in target in turn.
            targets = [t["name"] for t in json.loads(run([driver_cli, "targets", "--json"])[0])]
            samples, baseline = [], []
            true_cmd = shutil.which("true") or "/bin/true"
            for i in range(n):
                start = time.perf_counter()
                run([driver_cli, "resolve", "--json", "--target", targets[i % len(targets)]])
                samples.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                run([true_cmd])
                baseline.append((time.perf_counter() - start) * 1000)
            add_row("driver: resolve per process", "native", "llgo-wasm resolve --json", f"{n} processes",
                    samples, "ms")
            add_row("driver: resolve per process", "native", "/bin/true (process baseline)", f"{n} processes",
                    baseline, "ms")
        except (BenchError, ValueError, KeyError) as error:
            add_missing("driver: resolve per process", "native", "llgo-wasm", "-", str(error))
    else:
        add_missing("driver: resolve per process", "native", "llgo-wasm", "-", "the llgo-wasm CLI was not built")

    if not bench_prog or not Path(bench_prog).is_file():
        add_missing("driver: in-library resolve", "native", "bench_driver", "-", "bench_driver was not built")
        add_missing("driver: cache-key hashing", "native", "bench_driver", "-", "bench_driver was not built")
        return
    try:
        results = results_of(run([bench_prog, "resolve", settings["resolve_iterations"], settings["resolve_reps"]])[0])
        for api, label in (("resolve-cpp", "C++ API (resolve_target)"), ("resolve-c", "C API (JSON in/out)")):
            add_row("driver: in-library resolve", "native", label, f"{settings['resolve_iterations']:,} resolves",
                    [r["us"] for r in results if r["bench"] == api], "us/resolve")
    except BenchError as error:
        add_missing("driver: in-library resolve", "native", "bench_driver", "-", str(error))

    # Cache-key input: deterministic pseudo-random files (the same bytes every run).
    data_dir = work_dir / "cache-key-input"
    want = settings["cache_key_files"], settings["cache_key_file_mib"]
    stamp = data_dir.parent / "cache-key-input.shape"  # outside: every file inside is hashed
    if not stamp.is_file() or stamp.read_text() != repr(want):
        shutil.rmtree(data_dir, ignore_errors=True)
        data_dir.mkdir(parents=True)
        rng = random.Random(7)
        for i in range(want[0]):
            (data_dir / f"input{i}.bin").write_bytes(rng.randbytes(want[1] << 20))
        stamp.write_text(repr(want))
    files = sorted(str(p) for p in data_dir.iterdir())
    total_bytes = sum(Path(f).stat().st_size for f in files)
    params = f"{len(files)} files, {total_bytes >> 20} MiB"
    try:
        results = results_of(run([bench_prog, "cache-key", str(data_dir), settings["cache_key_reps"]])[0])
        if results[0]["bytes"] != total_bytes:
            raise BenchError(f"bench_driver hashed {results[0]['bytes']} bytes, expected {total_bytes}")
        add_row("driver: cache-key hashing", "native", "llgo-wasm cache key", params,
                [total_bytes / (r["ms"] / 1000) / 1e6 for r in results], "MB/s")
        sha = shutil.which("sha256sum")
        if not sha:
            raise BenchError("sha256sum not found on PATH (coreutils)")
        samples = []
        for _ in range(settings["cache_key_reps"]):
            start = time.perf_counter()
            run([sha] + files)
            samples.append(total_bytes / (time.perf_counter() - start) / 1e6)
        add_row("driver: cache-key hashing", "native", "sha256sum (baseline)", params, samples, "MB/s")
    except BenchError as error:
        add_missing("driver: cache-key hashing", "native", "bench_driver", params, str(error))
