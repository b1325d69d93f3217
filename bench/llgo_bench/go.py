"""Go itself (bench/go): built by each Go this run finds (Debian bookworm's Go 1.19 on PATH as
`go`; trixie's Go 1.24, which the setup unpacks as PREFIX/bin/go1.24), natively, as js/wasm and,
from Go 1.21 on, as wasip1, measured with the same command lines as the runtime's benchmarks.
Go's rows are variant "Go native" / "Go js/wasm" / "Go wasip1" with the Go version as backend;
targets take ratios against them (go_anchor_row says which Go a target compares with)."""
import functools
import os
import re
import shutil
import sys
from pathlib import Path

from .programs import BenchError, Program, run, toolchain_dir
from .results import add_missing, add_row, rows
from .runtime import bench_channels, bench_yield_and_spawn, parked_params, sleepers_params
from .settings import PARKED_DEPTHS, ROOT


@functools.lru_cache(maxsize=None)
def find_gos():
    """The Gos of this run: [(command, label)], Go 1.19 (`go` on PATH) first. A Go that is not
    there is a MISSING row naming where it was looked for."""
    found = []
    go119 = shutil.which("go")
    if go119:
        found.append(go119)
    else:
        add_missing("all Go 1.19 benchmarks", "Go", "-", "-",
                    "`go` not on PATH (Debian's golang-go, a host package of tools/setup-toolchain.sh)")
    go124 = os.environ.get("GO124") or str(toolchain_dir() / "bin" / "go1.24")
    if Path(go124).is_file():
        found.append(go124)
    else:
        add_missing("all Go 1.24 benchmarks", "Go", "-", "-",
                    f"{go124} not found (tools/setup-toolchain.sh's go-1.24 step; or set GO124)")
    return tuple(found)


def go_minor(version):
    match = re.match(r"go1\.(\d+)", version)
    return int(match.group(1)) if match else 0


def build_go_package(package, name, out_dir, node, wasi_runner, minimum_minor=0):
    """Builds the Go package bench/go/<package> ("." for bench/go itself) with every Go of
    find_gos from `minimum_minor` on, into out_dir/<version>/ (its build cache too: nothing is
    written to $HOME, nothing is downloaded). Returns the Programs, per Go: "Go native"
    (GOMAXPROCS=1), "Go js/wasm" under this run's Node and, from Go 1.21, "Go wasip1" under the
    same Node WASI runner as P1. A Go that fails to build it is a MISSING row."""
    programs = []
    for go in find_gos():
        base = dict(os.environ, GOENV="off", GOPROXY="off", GOFLAGS="", GO111MODULE="on", CGO_ENABLED="0",
                    GOTOOLCHAIN="local")
        version = run([go, "env", "GOVERSION"], env=base)[0].strip()
        if go_minor(version) < minimum_minor:
            continue
        out = (out_dir / version).resolve()
        env = dict(base, GOCACHE=str(out / "gocache"), GOPATH=str(out / "gopath"))
        goroot = Path(run([go, "env", "GOROOT"], env=env)[0].strip())
        # Go 1.24 moved its js/wasm support file from misc/wasm to lib/wasm.
        wasm_exec = next((p for p in (goroot / "lib" / "wasm" / "wasm_exec.js", goroot / "misc" / "wasm" / "wasm_exec.js")
                          if p.is_file()), None)
        source, target = ROOT / "bench" / "go", "./" + package if package != "." else "."
        try:
            run([go, "build", "-o", out / name, target], env=env, cwd=source)
            programs.append(Program("Go native", version, out / name, [], env={"GOMAXPROCS": "1"}))
            if wasm_exec is None:
                raise BenchError(f"{version}: no wasm_exec.js under {goroot} (lib/wasm or misc/wasm)")
            run([go, "build", "-o", out / f"{name}.wasm", target], env=dict(env, GOOS="js", GOARCH="wasm"), cwd=source)
            runner = ROOT / "tests" / "runners" / "run-go-js-wasm.cjs"
            programs.append(Program("Go js/wasm", version, out / f"{name}.wasm", [node, runner, wasm_exec]))
            if go_minor(version) >= 21:
                run([go, "build", "-o", out / f"{name}_wasip1.wasm", target], env=dict(env, GOOS="wasip1", GOARCH="wasm"),
                    cwd=source)
                programs.append(Program("Go wasip1", version, out / f"{name}_wasip1.wasm", [node, wasi_runner]))
        except BenchError as error:
            add_missing(f"Go {version}: bench/go/{package}", "Go", version, "-", str(error))
    return programs


def build_go_programs(out_dir, node, wasi_runner):
    """bench/go itself, built by every Go (build_go_package)."""
    return build_go_package(".", "bench_go", out_dir, node, wasi_runner)


def go_anchor_row(bench, platform, params=None, version="fastest"):
    """Go's own row for `bench` on `platform` ("native", "js/wasm", "wasip1") in this run: of the
    Go whose version starts with `version` (e.g. "go1.24"), or, with "fastest", the Go with the
    lowest median (the strictest anchor for a ratio with an upper limit). None if missing."""
    candidates = [r for r in rows if r["bench"] == bench and r["variant"] == f"Go {platform}"
                  and (params is None or r["params"] == params)
                  and (version == "fastest" or r["backend"].startswith(version))]
    return min(candidates, key=lambda r: r["median"], default=None)


def go_label(row, platform):
    """How a target names the Go row it compares with: "Go 1.24.4 wasip1"."""
    return f"Go {row['backend'].removeprefix('go')} {platform}" if row else f"Go {platform}"


def bench_go_program(program, settings):
    """The figures of bench_runtime_program on Go, and the channel/timer anchors."""
    v, b = program.variant, program.backend
    print(f"  {v}/{b}", file=sys.stderr)
    bench_yield_and_spawn(program, settings)
    for depth in PARKED_DEPTHS:
        params = parked_params(settings["parked_count_shared"], depth)
        try:
            samples = []
            for _ in range(settings["parked_reps"]):
                samples += [r["bytes_per_goroutine"]
                            for r in program.results("parked", settings["parked_count_shared"], depth)]
            add_row("memory per parked G", v, b, params, samples, "B", note="runtime.MemStats.Sys growth")
        except BenchError as error:
            add_missing("memory per parked G", v, b, params, str(error))
    bench_channels(program, settings)
    for goroutines in (settings["sleepers"], settings["light_sleepers"]):
        params = sleepers_params(settings, goroutines)
        try:
            walls, cpus = [], []
            for _ in range(settings["sleepers_reps"]):
                _, startup_cpu = program.results_and_cpu("sleepers", 0, 0)
                results, cpu = program.results_and_cpu("sleepers", goroutines, settings["sleeps"])
                walls.append(results[0]["wall_ms"])
                cpus.append(max(0.0, cpu - startup_cpu))
            add_row("sleepers wall", v, b, params, walls, "ms")
            add_row("sleepers CPU", v, b, params, cpus, "ms", note="process user+system time less an empty run's")
        except BenchError as error:
            add_missing("sleepers", v, b, params, str(error))
