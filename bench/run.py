#!/usr/bin/env python3
"""bench/run.py: runs every llgo-wasm benchmark in one invocation and reports them side by side.

Called by bench/run.sh after the presets are built (native, j32, j64, wasip1); reads the
bench-manifest.json files those builds wrote (bench/superbuild.cmake in build/<preset>,
bench/wasm-variant.cmake in each target build, build/<preset>/target).

Runs, on every variant and context backend under the same engine (Node >= 24 for wasm):
  runtime  yield (2/10/1,000 goroutines x call depth 1/10), spawn+exit (5,000 and 100,000 serial),
           memory per parked goroutine (10,000 parked; default and 16 KiB stacks), CPU kernel;
  asyncify the P1 link through `llgo-wasm link` with and without switch-point narrowing (module
           sizes, wasm-opt time) against the same core module optimised without --asyncify;
           the CPU kernel with and without Asyncify on P1, J32 and J64;
  driver   `llgo-wasm resolve` per process, in-library resolve (C++ and C API), cache-key
           hashing throughput against `sha256sum` on the same files;
  Go       the same yield, spawn+exit and parked-memory figures measured on Go itself (Debian's
           Go 1.19, bench/go): "Go js/wasm" under the same Node, "Go native" with GOMAXPROCS=1;
           plus unbuffered-channel ping-pong, buffered-channel throughput (capacity 128), select
           over 4 ready channels and 10,000 goroutines sleeping 1 ms ten times (wall and CPU),
           the anchors of the channel and timer benchmarks. Targets compare rows with them as
           ratios (ratio_target).
Every figure is repeated (min/median/max). Output: a table on stdout, bench/results/latest.json,
bench/results/yield.svg, and the targets (ratios in this run) with MET/MISSED and the margin.
A benchmark that cannot run (a build that failed, a crash) is reported as a missing row with its
reason and makes the exit status 1; nothing is left out silently.

Options: --quick (tiny counts, for development), --build-prefix P (the preset X was built in
P + X; default build/ of the repository), --out DIR (default: bench/results).
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KIB = 1024
TIMEOUT_SECONDS = 300

# ---- settings -------------------------------------------------------------------------------

FULL = dict(go_parked_count=100_000, chan_rounds=200_000, buffered_items=2_000_000, select_rounds=1_000_000,
            chan_reps=5, sleepers=10_000, sleeps=10, sleepers_reps=3,
            yield_total=50_000, yield_reps=5, spawn_counts=[5_000, 100_000], spawn_reps=5,
            parked_count=10_000, parked_reps=3, cpu_mib=16, cpu_reps=3, link_reps=2,
            resolve_processes=40, resolve_iterations=20_000, resolve_reps=5,
            cache_key_files=8, cache_key_file_mib=8, cache_key_reps=5)
QUICK = dict(go_parked_count=10_000, chan_rounds=10_000, buffered_items=100_000, select_rounds=100_000,
             chan_reps=2, sleepers=1_000, sleeps=2, sleepers_reps=1,
             yield_total=4_000, yield_reps=2, spawn_counts=[5_000, 100_000], spawn_reps=2,
             parked_count=10_000, parked_reps=1, cpu_mib=4, cpu_reps=2, link_reps=1,
             resolve_processes=5, resolve_iterations=1_000, resolve_reps=2,
             cache_key_files=2, cache_key_file_mib=2, cache_key_reps=2)
YIELD_GOROUTINES = [2, 10, 1000]
YIELD_DEPTHS = [1, 10]
PRESETS = {"native": "native", "J32": "j32", "J64": "j64", "P1": "wasip1"}


class BenchError(Exception):
    """A benchmark could not run; the message says what and where."""


# ---- collected results -----------------------------------------------------------------------

rows = []      # one per measured figure
missing = []   # one per figure that could not be measured, with the reason


def add_row(bench, variant, backend, params, samples, unit, note=""):
    samples = [float(s) for s in samples]
    rows.append(dict(bench=bench, variant=variant, backend=backend, params=params, unit=unit,
                     samples=samples, min=min(samples), median=statistics.median(samples), max=max(samples),
                     reps=len(samples), note=note))


def add_missing(bench, variant, backend, params, reason):
    missing.append(dict(bench=bench, variant=variant, backend=backend, params=params, reason=reason))
    print(f"  MISSING {bench} {variant}/{backend} {params}: {reason}", file=sys.stderr)


def find_row(bench, variant, backend, params=None):
    for row in rows:
        if row["bench"] == bench and row["variant"] == variant and row["backend"] == backend and \
                (params is None or row["params"] == params):
            return row
    return None


# ---- running programs ------------------------------------------------------------------------

def run(cmd, timeout=TIMEOUT_SECONDS, env=None, cwd=None):
    """Runs cmd; returns (stdout, stderr). Raises BenchError with the command's own words."""
    cmd = [str(part) for part in cmd]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise BenchError(f"timed out after {timeout} s: {' '.join(map(str, cmd))}")
    except OSError as error:
        raise BenchError(f"cannot run {cmd[0]}: {error}")
    if proc.returncode != 0:
        lines = [l for l in (proc.stdout + proc.stderr).splitlines() if l.strip()]
        fails = [l for l in lines if l.startswith("FAIL")] or lines[-3:]
        raise BenchError(f"exit status {proc.returncode} from {Path(str(cmd[min(1, len(cmd) - 1)])).name}: "
                         + " | ".join(fails)[:400])
    return proc.stdout, proc.stderr


def results_of(stdout):
    out = []
    for line in stdout.splitlines():
        if line.startswith("FAIL"):
            raise BenchError(line)
        if line.startswith("RESULT "):
            out.append(json.loads(line[len("RESULT "):]))
    if not out:
        raise BenchError("the program printed no RESULT line")
    return out


def find_node():
    candidates = []
    if os.environ.get("NODE"):
        candidates.append(os.environ["NODE"])
    toolchain = os.environ.get("LLGO_WASM_TOOLCHAIN_DIR") or \
        str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "llgo-wasm" / "toolchain-v1")
    candidates.append(str(Path(toolchain) / "bin" / "node"))
    if shutil.which("node"):
        candidates.append(shutil.which("node"))
    for node in candidates:
        if Path(node).is_file():
            version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
            match = re.match(r"v(\d+)\.", version)
            if match and int(match.group(1)) >= 24:
                return node, version
    raise BenchError("Node >= 24 not found (looked at NODE, $LLGO_WASM_TOOLCHAIN_DIR/bin/node, PATH); "
                     "run tools/setup-toolchain.sh or set NODE")


class Program:
    """One runnable benchmark program: how to start it on its engine."""

    def __init__(self, variant, backend, path, engine_prefix, env=None):
        self.variant, self.backend, self.path = variant, backend, Path(path)
        self.engine_prefix = engine_prefix
        self.env = None if env is None else dict(os.environ, **env)

    def command(self, *args):
        return [*self.engine_prefix, str(self.path), *map(str, args)]

    def results(self, *args, warmup=0):
        """Runs the program; drops the first `warmup` RESULT lines (V8 compiles wasm with its
        baseline tier first and optimises hot functions later, so a first repetition is slow)."""
        if not self.path.is_file():
            raise BenchError(f"{self.path} was not built")
        return results_of(run(self.command(*args), env=self.env)[0])[warmup:]

    def results_and_cpu(self, *args):
        """results() plus the CPU time (user + system, ms) of the whole process."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        results = self.results(*args)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return results, cpu * 1000


def wasm_file_of(program):
    """The .wasm module behind a program (Emscripten: next to the .js)."""
    return program.path.with_suffix(".wasm")


# ---- discovery -------------------------------------------------------------------------------

def load_manifest(path):
    if not path.is_file():
        raise BenchError(f"{path} not found: build the preset first (bash bench/run.sh does)")
    return json.loads(path.read_text())


def preset_dir(prefix, preset):
    path = Path(prefix + preset)
    return path if path.is_absolute() else ROOT / path


def discover(build_prefix, node, wasi_runner):
    """Returns (runtime programs, plain-kernel programs, P1 link inputs, host manifest)."""
    runtime, plain, p1_inputs, host = [], {}, None, None
    try:
        host = load_manifest(preset_dir(build_prefix, "native") / "bench-manifest.json")
    except BenchError as error:
        add_missing("driver benchmarks", "native", "-", "-", str(error))
    for variant in ("native", "J32", "J64", "P1"):
        try:
            manifest = load_manifest(preset_dir(build_prefix, PRESETS[variant]) / "target" / "bench-manifest.json")
        except BenchError as error:
            add_missing(f"all {variant} benchmarks", variant, "-", "-", str(error))
            continue
        prefix = {"native": [], "P1": [node, str(wasi_runner)]}.get(variant, [node])
        for entry in manifest["programs"]:
            if entry["kind"] == "runtime":
                runtime.append(Program(variant, entry["context"], entry["path"], prefix))
            elif entry["kind"] == "cpu-plain":
                plain[variant] = Program(variant, "plain", entry["path"], prefix)
            elif entry["kind"] == "runtime-objects":
                p1_inputs = dict(entry, driver=manifest["driver"], target=manifest["target"])
    return runtime, plain, p1_inputs, host

# ---- P1: the link through the driver, with and without narrowing ----------------------------

LINK_STEP_LINE = re.compile(r"asyncify\+exnref ([0-9.]+) s, (\d+) B -> (\d+) B")


def link_p1(inputs, out_dir, node, wasi_runner, settings):
    """Links the P1 benchmark (narrowed and wide), measures sizes and wasm-opt times, and
    returns {"narrowed": Program, "wide": Program} for the runtime benchmarks."""
    driver = inputs["driver"]
    objects = inputs["objects"].split("|")
    link_inputs = objects + inputs["archives"] + list(inputs.get("ldflags", []))
    base = [driver, "link", "--target", inputs["target"], "--context", inputs["context"], "-O2"]
    out_dir.mkdir(parents=True, exist_ok=True)
    programs = {}
    for mode, extra in (("narrowed", []), ("wide", ["--no-asyncify-narrowing"])):
        output = out_dir / f"bench_runtime_asyncify_{mode}.wasm"
        seconds, sizes = [], None
        try:
            for _ in range(settings["link_reps"]):
                _, stderr = run(base + extra + ["-v", "-o", str(output)] + link_inputs)
                match = LINK_STEP_LINE.search(stderr)
                if not match:
                    raise BenchError("`llgo-wasm link -v` printed no 'asyncify+exnref <s> s, <A> B -> <B> B' line")
                seconds.append(float(match.group(1)))
                sizes = (int(match.group(2)), int(match.group(3)))
        except BenchError as error:
            add_missing("asyncify link", "P1", f"asyncify ({mode})", "-O2", str(error))
            continue
        add_row("wasm-opt time", "P1", f"asyncify ({mode})", "--asyncify -O2 --translate-to-exnref",
                [s * 1000 for s in seconds], "ms")
        add_row("module size", "P1", "core (before wasm-opt)", "clang link output", [sizes[0]], "B")
        add_row("module size", "P1", f"asyncify ({mode})", "final module, -O2", [output.stat().st_size], "B")
        programs[mode] = Program("P1", "asyncify" if mode == "narrowed" else "asyncify (wide)", output,
                                 [node, str(wasi_runner)])

    # The baseline: the same core module through the same wasm-opt pipeline minus --asyncify.
    try:
        plan_out, _ = run(base + ["--dry-run", "--json", "-o", str(out_dir / "plain.wasm")] + link_inputs)
        plan = json.loads(plan_out)
        steps = {step["name"]: step for step in plan["steps"]}
        if "link" not in steps or "asyncify+exnref" not in steps:
            raise BenchError(f"the link plan has no 'link' or 'asyncify+exnref' step: {list(steps)}")
        core = out_dir / "plain.core.wasm"
        link_args = list(steps["link"]["args"])
        link_args[link_args.index("-o") + 1] = str(core)
        run([steps["link"]["tool"]] + link_args)
        opt = steps["asyncify+exnref"]
        opt_args = [a for a in opt["args"] if a != "--asyncify" and not a.startswith("--pass-arg=asyncify")]
        opt_args[opt_args.index(opt["inputs"][0])] = str(core)
        plain_module = out_dir / "plain.final.wasm"
        opt_args[opt_args.index("-o") + 1] = str(plain_module)
        seconds = []
        for _ in range(settings["link_reps"]):
            start = time.perf_counter()
            run([opt["tool"]] + opt_args)
            seconds.append(time.perf_counter() - start)
        add_row("wasm-opt time", "P1", "no Asyncify", "-O2 --translate-to-exnref", [s * 1000 for s in seconds], "ms")
        add_row("module size", "P1", "no Asyncify", "final module, -O2", [plain_module.stat().st_size], "B")
        programs["wasm-opt"] = opt["tool"]
    except (BenchError, ValueError, KeyError, json.JSONDecodeError) as error:
        add_missing("module size", "P1", "no Asyncify", "final module, -O2", f"baseline link failed: {error}")
    return programs


def optimise_p1_plain_kernel(plain_program, wasm_opt, out_dir):
    """The P1 plain kernel through the same `wasm-opt -O2` the Asyncify builds get, so the CPU
    comparison differs only by the Asyncify instrumentation."""
    optimised = out_dir / "bench_cpu_plain.O2.wasm"
    run([wasm_opt, str(plain_program.path), "-O2", "-o", str(optimised)])
    return Program("P1", "plain", optimised, plain_program.engine_prefix)


# ---- Go itself ----------------------------------------------------------------------------------

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
    for depth in (1, 10):
        params = f"{settings['go_parked_count']:,} parked, depth {depth}"
        try:
            samples = []
            for _ in range(settings["parked_reps"]):
                samples += [r["bytes_per_goroutine"] for r in program.results("parked", settings["go_parked_count"], depth)]
            add_row("memory per parked G", v, b, params, [s / KIB for s in samples], "KiB",
                    note="runtime.MemStats.Sys growth")
        except BenchError as error:
            add_missing("memory per parked G", v, b, params, str(error))
    for bench, mode, count_key, params, unit in (
            ("chan ping-pong", "pingpong", "chan_rounds", "unbuffered, round trip", "ns/round trip"),
            ("chan buffered", "buffered", "buffered_items", "capacity 128, 1 producer 1 consumer", "ns/item"),
            ("select", "select", "select_rounds", "4 ready cases (+ refill)", "ns/select")):
        try:
            results = program.results(mode, settings[count_key], settings["chan_reps"] + 1, warmup=1)
            add_row(bench, v, b, params, [r["ns"] for r in results], unit)
        except BenchError as error:
            add_missing(bench, v, b, params, str(error))
    params = f"{settings['sleepers']:,} goroutines x {settings['sleeps']} x sleep 1 ms"
    try:
        walls, cpus = [], []
        for _ in range(settings["sleepers_reps"]):
            _, startup_cpu = program.results_and_cpu("sleepers", 0, 0)
            results, cpu = program.results_and_cpu("sleepers", settings["sleepers"], settings["sleeps"])
            walls.append(results[0]["wall_ms"])
            cpus.append(max(0.0, cpu - startup_cpu))
        add_row("sleepers wall", v, b, params, walls, "ms")
        add_row("sleepers CPU", v, b, params, cpus, "ms", note="process user+system time less an empty run's")
    except BenchError as error:
        add_missing("sleepers", v, b, params, str(error))


# ---- runtime benchmarks ----------------------------------------------------------------------

def bench_runtime_program(program, settings):
    v, b = program.variant, program.backend
    label = f"{v}/{b}"
    print(f"  {label}", file=sys.stderr)
    bench_yield_and_spawn(program, settings)
    bench_parked(program, settings)


def bench_yield_and_spawn(program, settings):
    """yield and spawn+exit: the same command line on bench_runtime and on bench_go."""
    v, b = program.variant, program.backend
    for goroutines in YIELD_GOROUTINES:
        for depth in YIELD_DEPTHS:
            params = f"G={goroutines} depth={depth}"
            per_g = max(1, settings["yield_total"] // goroutines)
            try:
                results = program.results("yield", goroutines, depth, per_g, settings["yield_reps"] + 1, warmup=1)
                add_row("yield", v, b, params, [r["ns"] for r in results], "ns/yield")
            except BenchError as error:
                add_missing("yield", v, b, params, str(error))
    for count in settings["spawn_counts"]:
        params = f"{count:,} serial"
        try:
            results = program.results("spawn", count, settings["spawn_reps"] + 1, warmup=1)
            note = f"contexts created: {results[-1]['contexts_created']}" if "contexts_created" in results[-1] else ""
            add_row("spawn+exit", v, b, params, [r["ns"] for r in results], "ns/goroutine", note=note)
        except BenchError as error:
            add_missing("spawn+exit", v, b, params, str(error))


def bench_parked(program, settings):
    v, b = program.variant, program.backend
    for stack, stack_label in ((0, "default stack"), (16 * KIB, "16 KiB stack")):
        params = f"{settings['parked_count']:,} parked, {stack_label}"
        try:
            samples = []
            for _ in range(settings["parked_reps"]):
                samples += [r["bytes_per_goroutine"] for r in program.results("parked", settings["parked_count"], stack)]
            add_row("memory per parked G", v, b, params, [s / KIB for s in samples], "KiB")
        except BenchError as error:
            add_missing("memory per parked G", v, b, params, str(error))


def bench_cpu(programs, settings):
    """The CPU kernel of one variant's builds (plain, Fiber, raw Asyncify, ...), run round-robin,
    one process per round, so load changes on a shared machine hit every build alike. Each
    process hashes once to warm up, then twice measured. All builds must agree on the hash."""
    params = f"hash {settings['cpu_mib']} MiB"
    samples = {id(p): [] for p in programs}
    hashes, failed = {}, set()
    for _ in range(settings["cpu_reps"]):
        for program in programs:
            if id(program) in failed:
                continue
            try:
                results = program.results("cpu", settings["cpu_mib"], 3, warmup=1)
                samples[id(program)] += [r["ms"] for r in results]
                hashes[id(program)] = results[0]["hash"]
            except BenchError as error:
                failed.add(id(program))
                add_missing("cpu kernel", program.variant, program.backend, params, str(error))
    if len(set(hashes.values())) > 1:
        for program in programs:
            add_missing("cpu kernel", program.variant, program.backend, params,
                        f"the builds disagree on the hash: {sorted(set(hashes.values()))}")
        return
    for program in programs:
        if id(program) not in failed:
            add_row("cpu kernel", program.variant, program.backend, params, samples[id(program)], "ms",
                    note=f"hash {hashes[id(program)]}")


# ---- driver benchmarks -----------------------------------------------------------------------

def bench_driver(host, work_dir, settings):
    driver_cli = host.get("driver") if host else None
    bench_prog = next((p["path"] for p in (host or {}).get("programs", []) if p["kind"] == "driver"), None)
    targets = ["wasm", "js-wasm", "wasip1", "wasip1-threads", "host"]
    n = settings["resolve_processes"]
    if driver_cli and Path(driver_cli).is_file():
        try:
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
        except BenchError as error:
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


# ---- targets ---------------------------------------------------------------------------------

targets = []


def add_target(name, measured, limit, kind, unit, detail):
    """kind 'max': measured must be <= limit; 'min': measured must be >= limit."""
    met = measured <= limit if kind == "max" else measured >= limit
    if kind == "max":
        margin = f"{(measured / limit - 1) * 100:+.1f}% vs limit" if limit else ""
    else:
        margin = f"{(measured / limit - 1) * 100:+.1f}% vs limit"
    targets.append(dict(name=name, measured=measured, limit=limit, kind=kind, unit=unit, met=met,
                        status="MET" if met else "MISSED", margin=margin, detail=detail))


def add_unmeasured_target(name, why):
    targets.append(dict(name=name, measured=None, limit=None, kind=None, unit="", met=False,
                        status="NOT MEASURED", margin="", detail=why))


def ratio_target(name, row_key, anchor_key, limit, kind="max"):
    """A target on row / anchor row, both (bench, variant, backend, params) of this run; the
    backend of a Go anchor may be None (whatever Go version ran)."""
    row, anchor = find_row(*row_key), find_row(*anchor_key)
    if row and anchor:
        add_target(name, row["median"] / anchor["median"], limit, kind, "x",
                   f"{row['median']:.1f} vs {anchor['median']:.1f} {row['unit']}")
    else:
        add_unmeasured_target(name, f"{'the ' + row_key[1] if not row else 'the ' + anchor_key[1]} row is missing")


def go_anchor(bench, variant, params):
    """The key of Go's row (its backend is the Go version that ran)."""
    row = next((r for r in rows if r["bench"] == bench and r["variant"] == variant and r["params"] == params), None)
    return (bench, variant, row["backend"] if row else "?", params)


def evaluate_targets(settings):
    # 0. against Go itself, same run (issue 17): yields and spawn+exit as ratios of Go's
    for depth, limit in ((1, 0.15), (10, 0.3)):
        params = f"G=2 depth={depth}"
        ratio_target(f"P1 yield <= {limit}x Go js/wasm's runtime.Gosched ({params})",
                     ("yield", "P1", "asyncify", params), go_anchor("yield", "Go js/wasm", params), limit)
    params = f"{max(settings['spawn_counts']):,} serial"
    ratio_target(f"P1 spawn+exit <= 0.1x Go js/wasm's ({params})", ("spawn+exit", "P1", "asyncify", params),
                 go_anchor("spawn+exit", "Go js/wasm", params), 0.1)
    ratio_target("native single-worker yield <= 2x Go native's, GOMAXPROCS=1 (G=2 depth=1)",
                 ("yield", "native", "ucontext", "G=2 depth=1"), go_anchor("yield", "Go native", "G=2 depth=1"), 2.0)
    # 1. raw-Asyncify yield <= 0.15x Emscripten Fiber yield (same variant, same shape, this run)
    for variant in ("J32", "J64"):
        for goroutines in YIELD_GOROUTINES:
            for depth in YIELD_DEPTHS:
                params = f"G={goroutines} depth={depth}"
                name = f"{variant} raw-Asyncify yield <= 0.15x Fiber yield ({params})"
                fast, fiber = find_row("yield", variant, "asyncify", params), find_row("yield", variant, "emscripten-fiber", params)
                if fast and fiber:
                    add_target(name, fast["median"] / fiber["median"], 0.15, "max", "x",
                               f"{fast['median']:.1f} ns vs {fiber['median']:.1f} ns")
                else:
                    add_unmeasured_target(name, "a yield row is missing")
    # 2. P1 spawn+exit <= 150 ns (context pooling)
    for count in settings["spawn_counts"]:
        params = f"{count:,} serial"
        row = find_row("spawn+exit", "P1", "asyncify", params)
        name = f"P1 spawn+exit <= 150 ns ({params})"
        if row:
            add_target(name, row["median"], 150.0, "max", "ns", row["note"])
        else:
            add_unmeasured_target(name, "the P1 spawn row is missing")
    # 3. Asyncify module growth <= 15% with narrowing (P1, against the same pipeline without --asyncify)
    plain = find_row("module size", "P1", "no Asyncify")
    for mode in ("narrowed", "wide"):
        row = find_row("module size", "P1", f"asyncify ({mode})")
        name = f"P1 Asyncify module growth <= 15% ({mode}{'' if mode == 'narrowed' else ', for reference'})"
        if row and plain:
            add_target(name, (row["median"] / plain["median"] - 1) * 100, 15.0, "max", "%",
                       f"{int(row['median']):,} B vs {int(plain['median']):,} B without Asyncify")
        else:
            add_unmeasured_target(name, "a module size row is missing")
    # 4. CPU-bound slowdown from Asyncify <= 5% (kernel inside an Asyncify build vs the plain build)
    for row in [r for r in rows if r["bench"] == "cpu kernel" and r["backend"] not in ("plain", "ucontext")]:
        base = find_row("cpu kernel", row["variant"], "plain")
        name = f"{row['variant']} CPU slowdown from Asyncify <= 5% ({row['backend']} build)"
        if base:
            add_target(name, (row["median"] / base["median"] - 1) * 100, 5.0, "max", "%",
                       f"{row['median']:.2f} ms vs {base['median']:.2f} ms without Asyncify")
        else:
            add_unmeasured_target(name, f"the {row['variant']} plain kernel row is missing")
    # 5. memory per parked goroutine against the seeds' 128 KiB default reservation
    for row in [r for r in rows if r["bench"] == "memory per parked G" and "default stack" in r["params"]]:
        add_target(f"{row['variant']}/{row['backend']} memory per parked goroutine <= 128 KiB (default stack)",
                   row["median"], 128.0, "max", "KiB", f"{row['params']}")
    # 6. driver (issue 3's figures)
    row = find_row("driver: resolve per process", "native", "llgo-wasm resolve --json")
    baseline = find_row("driver: resolve per process", "native", "/bin/true (process baseline)")
    if row and baseline:
        add_target("llgo-wasm resolve per process <= 2x /bin/true", row["median"] / baseline["median"], 2.0, "max", "x",
                   f"{row['median']:.2f} ms vs {baseline['median']:.2f} ms, wall time incl. process start")
    else:
        add_unmeasured_target("llgo-wasm resolve per process <= 2x /bin/true", "row missing")
    row = find_row("driver: in-library resolve", "native", "C++ API (resolve_target)")
    if row:
        add_target("in-library resolve <= 20 us (C++ API)", row["median"], 20.0, "max", "us", "descriptors loaded")
    else:
        add_unmeasured_target("in-library resolve <= 20 us", "row missing")
    ours, theirs = find_row("driver: cache-key hashing", "native", "llgo-wasm cache key"), \
        find_row("driver: cache-key hashing", "native", "sha256sum (baseline)")
    if ours and theirs:
        add_target("cache-key hashing >= 0.8x sha256sum throughput", ours["median"] / theirs["median"], 0.8, "min", "x",
                   f"{ours['median']:.0f} MB/s vs {theirs['median']:.0f} MB/s")
    else:
        add_unmeasured_target("cache-key hashing >= 0.8x sha256sum throughput", "a hashing row is missing")


# ---- output ----------------------------------------------------------------------------------

def fmt(value):
    if value >= 1e6:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:,.1f}"
    return f"{value:.3g}" if value < 1 else f"{value:.2f}"


def print_table():
    header = ("benchmark", "variant", "backend", "parameters", "min", "median", "max", "unit", "n")
    table = [header] + [(r["bench"], r["variant"], r["backend"], r["params"], fmt(r["min"]), fmt(r["median"]),
                         fmt(r["max"]), r["unit"], str(r["reps"])) for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for i, line in enumerate(table):
        print("  ".join(cell.rjust(widths[j]) if 4 <= j <= 6 or j == 8 else cell.ljust(widths[j])
                        for j, cell in enumerate(line)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    if missing:
        print(f"\nMISSING ({len(missing)}):")
        for m in missing:
            print(f"  {m['bench']} {m['variant']}/{m['backend']} {m['params']}: {m['reason']}")
    print("\nTargets (ratios measured in this run):")
    for t in targets:
        if t["measured"] is None:
            print(f"  NOT MEASURED  {t['name']}: {t['detail']}")
        else:
            print(f"  {t['status']:<7} {t['name']}: measured {t['measured']:.3g} {t['unit']} "
                  f"(limit {t['limit']:g} {t['unit']}, {t['margin']}; {t['detail']})")


SERIES_COLORS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1"]


def write_svg(path):
    """Grouped bars of median yield cost (log scale), one group per shape, one bar per variant/backend."""
    yield_rows = [r for r in rows if r["bench"] == "yield"]
    series = []
    for r in yield_rows:
        key = (r["variant"], r["backend"])
        if key not in series:
            series.append(key)
    groups = [f"G={g} depth={d}" for g in YIELD_GOROUTINES for d in YIELD_DEPTHS]
    width, height, left, top, bottom = 960, 460, 70, 40, 110
    plot_w, plot_h = width - left - 20, height - top - bottom
    values = [r["median"] for r in yield_rows] or [1.0]
    import math
    lo = 10 ** math.floor(math.log10(max(min(values), 1e-3)))
    hi = 10 ** math.ceil(math.log10(max(values)))
    if hi <= lo:
        hi = lo * 10

    def y_of(v):
        return top + plot_h * (1 - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">Goroutine yield cost (median ns per llgo_gosched, log scale)</text>']
    decade = lo
    while decade <= hi * 1.0001:
        y = y_of(decade)
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{decade:g} ns</text>')
        decade *= 10
    group_w = plot_w / len(groups)
    bar_w = group_w * 0.8 / max(1, len(series))
    for gi, group in enumerate(groups):
        gx = left + gi * group_w + group_w * 0.1
        out.append(f'<text x="{left + gi * group_w + group_w / 2:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{group}</text>')
        for si, (variant, backend) in enumerate(series):
            name = f"{variant} {backend}"
            r = find_row("yield", variant, backend, group)
            if not r:
                continue
            x, y = gx + si * bar_w, y_of(r["median"])
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w * 0.92:.1f}" height="{top + plot_h - y:.1f}" '
                       f'fill="{SERIES_COLORS[si % len(SERIES_COLORS)]}"><title>{name} {group}: {r["median"]:.1f} ns '
                       f'(min {r["min"]:.1f}, max {r["max"]:.1f})</title></rect>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="black"/>')
    out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="black"/>')
    for si, name in enumerate(f"{variant} {backend}" for variant, backend in series):
        lx, ly = left + (si % 4) * 220, top + plot_h + 40 + (si // 4) * 18
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{SERIES_COLORS[si % len(SERIES_COLORS)]}"/>')
        out.append(f'<text x="{lx + 18}" y="{ly}">{name}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n")


# ---- main ------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny counts, for development")
    parser.add_argument("--build-prefix", default=str(ROOT / "build") + "/",
                        help="preset X was built in BUILD_PREFIX + X (default: build/)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    args = parser.parse_args()
    settings = QUICK if args.quick else FULL
    started = time.perf_counter()

    node, node_version = find_node()
    wasi_runner = ROOT / "tests" / "runners" / "run-wasi.mjs"
    if not wasi_runner.is_file():
        wasi_runner = ROOT / "bench" / "wasi-run.mjs"
    runtime, plain, p1_inputs, host = discover(args.build_prefix, node, wasi_runner)
    work_dir = ROOT / "build" / "bench"   # links, generated inputs (ignored by git)

    print("linking P1 through llgo-wasm link (narrowed and wide) ...", file=sys.stderr)
    p1 = {}
    if p1_inputs:
        p1 = link_p1(p1_inputs, work_dir / "p1", node, wasi_runner, settings)
    else:
        add_missing("P1 runtime benchmarks", "P1", "asyncify", "-", "no P1 link inputs (wasip1 preset not built)")
    if "narrowed" in p1:
        runtime.append(p1["narrowed"])
    if "P1" in plain:
        try:
            if "wasm-opt" not in p1:
                raise BenchError("no wasm-opt from the P1 link plan")
            plain["P1"] = optimise_p1_plain_kernel(plain["P1"], p1["wasm-opt"], work_dir / "p1")
        except BenchError as error:
            add_missing("cpu kernel", "P1", "plain", "-", f"wasm-opt -O2 of the plain kernel failed: {error}")
            del plain["P1"]

    print("runtime benchmarks ...", file=sys.stderr)
    for program in runtime:
        bench_runtime_program(program, settings)
    print("Go itself (bench/go) ...", file=sys.stderr)
    try:
        for program in build_go_programs(work_dir / "go", node):
            bench_go_program(program, settings)
    except BenchError as error:
        add_missing("all Go benchmarks", "Go", "-", "-", str(error))
    print("cpu kernel ...", file=sys.stderr)
    cpu_programs = runtime + ([p1["wide"]] if "wide" in p1 else []) + list(plain.values())
    for variant in ("native", "J32", "J64", "P1"):
        group = [p for p in cpu_programs if p.variant == variant]
        if group:
            bench_cpu(group, settings)
    # Module sizes of the Emscripten builds (whole .wasm; informational, each program differs).
    for program in [p for p in runtime if p.variant in ("J32", "J64")] + [p for v, p in plain.items() if v in ("J32", "J64")]:
        module = wasm_file_of(program)
        if module.is_file():
            add_row("module size", program.variant, program.backend, "emcc output .wasm", [module.stat().st_size], "B")

    print("driver benchmarks ...", file=sys.stderr)
    bench_driver(host, work_dir, settings)

    evaluate_targets(settings)
    print_table()
    args.out.mkdir(parents=True, exist_ok=True)
    elapsed = time.perf_counter() - started
    document = dict(
        generated=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        mode="quick" if args.quick else "full", settings=settings, elapsed_seconds=round(elapsed, 1),
        machine=dict(platform=platform.platform(), cpus=os.cpu_count(), node=node_version,
                     python=platform.python_version()),
        yield_definition="ns per llgo_gosched call (one switch to the next goroutine in FIFO order)",
        results=rows, missing=missing, targets=targets)
    (args.out / "latest.json").write_text(json.dumps(document, indent=1) + "\n")
    write_svg(args.out / "yield.svg")
    print(f"\nwrote {args.out / 'latest.json'} and {args.out / 'yield.svg'} ({elapsed:.0f} s)")
    return 1 if missing or any(t["measured"] is None for t in targets) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as error:
        print(f"bench/run.py: {error}", file=sys.stderr)
        sys.exit(1)
