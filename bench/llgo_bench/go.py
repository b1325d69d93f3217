"""Go itself (bench/go, Debian's Go): built natively and as js/wasm, measured with the same
command lines as the runtime's benchmarks; targets take ratios against its rows."""
import os
import shutil
import sys
from pathlib import Path

from .programs import BenchError, Program, run
from .results import add_missing, add_row
from .runtime import bench_channels, bench_yield_and_spawn, parked_params, sleepers_params
from .settings import PARKED_DEPTHS, ROOT


def build_go_programs(out_dir, node):
    """Builds bench/go with Debian's Go, natively and as js/wasm, into out_dir (its build cache
    too: nothing is written to $HOME, nothing is downloaded). Returns the two Programs."""
    go = shutil.which("go")
    if go is None:
        raise BenchError("Go not found on PATH (Debian's golang-1.19; tools/setup-toolchain.sh installs it)")
    out_dir = out_dir.resolve()
    env = dict(os.environ, GOCACHE=str(out_dir / "gocache"), GOPATH=str(out_dir / "gopath"), GOENV="off",
               GOPROXY="off", GOFLAGS="", GO111MODULE="on", CGO_ENABLED="0")
    version = run([go, "env", "GOVERSION"], env=env)[0].strip()
    wasm_exec = Path(run([go, "env", "GOROOT"], env=env)[0].strip()) / "misc" / "wasm" / "wasm_exec.js"
    source = ROOT / "bench" / "go"
    run([go, "build", "-o", out_dir / "bench_go", "."], env=env, cwd=source)
    run([go, "build", "-o", out_dir / "bench_go.wasm", "."], env=dict(env, GOOS="js", GOARCH="wasm"), cwd=source)
    runner = ROOT / "tests" / "runners" / "run-go-js-wasm.cjs"
    return [Program("Go native", version, out_dir / "bench_go", [], env={"GOMAXPROCS": "1"}),
            Program("Go js/wasm", version, out_dir / "bench_go.wasm", [node, runner, wasm_exec])]


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
