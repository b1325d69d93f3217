"""The runtime benchmarks of one program (a variant and backend, or Go itself): yield, spawn+exit,
memory per parked goroutine, channels, select, sleeping goroutines and the CPU kernel."""
import sys

from .programs import BenchError, max_rss_kib, results_of
from .results import add_missing, add_row
from .settings import KIB, PARKED_DEPTHS, YIELD_DEPTHS, YIELD_GOROUTINES

# Channel and select benchmarks (row, mode of bench_runtime and bench/go, settings key of the count,
# parameters, unit), measured on Go itself and on every variant/backend of this runtime.
CHANNEL_BENCHES = (
    ("chan ping-pong", "pingpong", "chan_rounds", "unbuffered, round trip", "ns/round trip"),
    ("chan buffered", "buffered", "buffered_items", "capacity 128, 1 producer 1 consumer", "ns/item"),
    ("select", "select", "select_rounds", "4 ready cases (+ refill)", "ns/select"))


def bench_channels(program, settings):
    """The CHANNEL_BENCHES rows of one program (Go's or this runtime's)."""
    v, b = program.variant, program.backend
    for bench, mode, count_key, params, unit in CHANNEL_BENCHES:
        try:
            results = program.results(mode, settings[count_key], settings["chan_reps"] + 1, warmup=1)
            add_row(bench, v, b, params, [r["ns"] for r in results], unit)
        except BenchError as error:
            add_missing(bench, v, b, params, str(error))


def sleepers_params(settings, goroutines=None):
    return f"{goroutines or settings['sleepers']:,} goroutines x {settings['sleeps']} x sleep 1 ms"


def bench_runtime_program(program, settings):
    v, b = program.variant, program.backend
    label = f"{v}/{b}"
    print(f"  {label}", file=sys.stderr)
    bench_yield_and_spawn(program, settings)
    bench_parked(program, settings)


def spawn_warmup_reps(count):
    """Repetitions dropped before spawn+exit is measured: enough for 100,000 spawns. One repetition
    of 5,000 (1-7 ms) ends before V8 has optimised the hot functions (measured on P1: 150-330 ns
    per spawn through 8 repetitions with its baseline tier on, 118-140 ns with --no-liftoff), so
    a short run would measure the engine's tier-up, on Go js/wasm as much as here."""
    return max(1, -(-100_000 // count))


def measure_spawn(program, count, settings):
    """spawn+exit samples (ns per goroutine) and the last RESULT, after spawn_warmup_reps."""
    warmup = spawn_warmup_reps(count)
    results = program.results("spawn", count, settings["spawn_reps"] + warmup, warmup=warmup)
    return [r["ns"] for r in results], results[-1]


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
    bench_spawn(program, settings)


def bench_spawn(program, settings):
    """spawn+exit at each of the settings' counts."""
    v, b = program.variant, program.backend
    for count in settings["spawn_counts"]:
        params = f"{count:,} serial"
        try:
            samples, last = measure_spawn(program, count, settings)
            note = f"contexts created: {last['contexts_created']}" if "contexts_created" in last else ""
            add_row("spawn+exit", v, b, params, samples, "ns/goroutine", note=note)
        except BenchError as error:
            add_missing("spawn+exit", v, b, params, str(error))


def bench_parked(program, settings):
    v, b = program.variant, program.backend
    count = settings["parked_count_shared"] if program.stacks == "shared" else settings["parked_count"]
    for depth in PARKED_DEPTHS:
        params = parked_params(count, depth)
        try:
            samples = []
            for _ in range(settings["parked_reps"]):
                samples += [r["bytes_per_goroutine"] for r in program.results("parked", count, 0, depth)]
            add_row("memory per parked G", v, b, params, samples, "B")
        except BenchError as error:
            add_missing("memory per parked G", v, b, params, str(error))


def bench_yield_depths(program, depths, settings):
    """yield with G=2 at each of `depths` (the rows bench_yield_and_spawn writes, at other depths)."""
    v, b = program.variant, program.backend
    for depth in depths:
        params = f"G=2 depth={depth}"
        try:
            results = program.results("yield", 2, depth, settings["yield_total"] // 2, settings["yield_reps"] + 1, warmup=1)
            add_row("yield", v, b, params, [r["ns"] for r in results], "ns/yield")
        except BenchError as error:
            add_missing("yield", v, b, params, str(error))


def bench_parked_resident(program, settings):
    """Memory per parked goroutine with 16 KiB stacks, depth 1, two ways: the linear memory the
    program reports, and the whole process's (an engine's own stacks included), from the peak
    resident memory of a run with many parked less a run with few, per goroutine."""
    v, b = program.variant, program.backend
    count, few = settings["parked_count"], 100
    params = f"{count:,} parked, depth=1, 16 KiB stack"
    try:
        linear, resident = [], []
        for _ in range(settings["parked_reps"]):
            out_many, rss_many = max_rss_kib(program.command("parked", count, 16 * KIB, 1), env=program.env)
            _, rss_few = max_rss_kib(program.command("parked", few, 16 * KIB, 1), env=program.env)
            linear += [r["bytes_per_goroutine"] / KIB for r in results_of(out_many)]
            resident.append((rss_many - rss_few) / (count - few))
        add_row("memory per parked G", v, b, params + ", linear memory", linear, "KiB")
        add_row("memory per parked G", v, b, params + ", process resident", resident, "KiB")
    except BenchError as error:
        add_missing("memory per parked G", v, b, params, str(error))


def parked_params(count, depth):
    return f"{count:,} parked, depth={depth}"


def bench_blocking_program(program, settings):
    """Channels, select and sleeping goroutines on one variant/backend: the rows bench_go_program
    measures on Go itself, with the same names and parameters, so they compare in one table."""
    v, b = program.variant, program.backend
    bench_channels(program, settings)
    note = ("the worker returns to Node's event loop while it waits (a setTimeout, whole "
            "milliseconds)" if program.waits_in_event_loop else "")
    # The full load, and a light one where the work is a few percent of the wall time, so
    # CPU time close to the wall time could only be spinning.
    # A light-load repetition lasts ~13 ms: V8 is still compiling the module's optimised tier in
    # background threads during the first few, and that counts as process CPU time (P1: 2-8 ms
    # in repetitions 1-4, 1.2-2.6 ms after), so four are dropped.
    for goroutines, warmup in ((settings["sleepers"], 1), (settings["light_sleepers"], 4)):
        params = sleepers_params(settings, goroutines)
        try:
            results = program.results("sleepers", goroutines, settings["sleeps"], 1000,
                                      settings["sleepers_reps"] + warmup, warmup=warmup)
            add_row("sleepers wall", v, b, params, [r["wall_ms"] for r in results], "ms",
                    note=f"ideal {results[0]['ideal_ms']:g} ms" + (f"; {note}" if note else ""))
            add_row("sleepers CPU", v, b, params, [r["cpu_ms"] for r in results], "ms",
                    note="process CPU time" + (f"; {note}" if note else ""))
        except BenchError as error:
            add_missing("sleepers", v, b, params, str(error))


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
