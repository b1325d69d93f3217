"""binary-trees (issue 27): the Benchmarks Game's binary-trees with a goroutine per depth, written
twice, in C against the runtime's collector (bench/binary_trees.c: every node from llgo_gc_alloc,
nothing freed) and in Go (bench/go/binarytrees). Runs on the variants of the presets with the bench
job "binary-trees" (where the context has gc-roots) and on Go 1.24's native (GOMAXPROCS=1),
js/wasm and wasip1 builds, in the same run; every output must equal Go native's before any figure
is taken. Rows: wall time, peak resident memory (wait4) and the longest collection pause the
program reports on stderr (ours: the collector times each collection at its safepoint; Go:
runtime.MemStats.PauseNs), each with its ratio to Go js/wasm and Go native of this run."""
import os
import re
import subprocess
import sys
import tempfile
import time

from .discovery import load_manifest, preset_dir, presets, target_facts
from .go import build_go_package
from .programs import BenchError, Program
from .results import add_missing, add_row, find_row

BENCH = "binary-trees"
PAUSE = re.compile(r"^gc: (\d+) collections, max pause (\d+) ns$", re.M)


def our_programs(build_prefix, node):
    programs = []
    for preset in presets.bench_presets(BENCH):
        try:
            manifest = load_manifest(preset_dir(build_prefix, preset) / "target" / "bench-manifest.json")
            facts = target_facts(manifest["driver"], manifest["target"], node)
            entries = [e for e in manifest["programs"] if e["kind"] == BENCH]
            if not entries:
                raise BenchError(f"{preset}: its bench manifest has no binary-trees program (no gc-roots context?)")
            programs += [Program(manifest["variant"], e["context"], e["path"], facts["prefix"]) for e in entries]
        except (BenchError, ValueError, KeyError) as error:
            add_missing(BENCH, preset, "-", "-", str(error))
    return programs


def run_measured(command, env):
    """(stdout, stderr, wall ms, peak RSS KiB) of one run; BenchError on a non-zero exit."""
    with tempfile.TemporaryFile(mode="w+") as errors:
        t0 = time.perf_counter()
        child = subprocess.Popen([str(c) for c in command], stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        stdout = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = (time.perf_counter() - t0) * 1000
        child.stdout.close()
        errors.seek(0)
        stderr = errors.read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise BenchError(f"exit status {code} from {' '.join(map(str, command))}: {stderr.strip()[-400:]}")
    return stdout, stderr, wall, usage.ru_maxrss


def measure(program, depth, expected, reps):
    v, b = program.variant, program.backend
    params = f"depth {depth}"
    try:
        if not program.path.is_file():
            raise BenchError(f"{program.path} was not built")
        walls, peaks, pauses, collections = [], [], [], []
        for _ in range(reps):
            stdout, stderr, wall, peak = run_measured(program.command(depth), program.env)
            if expected is not None and stdout != expected:
                raise BenchError(f"printed {stdout.strip()[:160]!r}, Go native printed {expected.strip()[:160]!r}")
            match = PAUSE.search(stderr)
            if match is None:
                raise BenchError(f"no 'gc: N collections, max pause NS ns' line on stderr: {stderr.strip()[-200:]!r}")
            walls.append(wall)
            peaks.append(peak)
            collections.append(int(match.group(1)))
            pauses.append(int(match.group(2)) / 1e6)
        note = f"{min(collections)}-{max(collections)} collections"
        add_row(BENCH, v, b, params, walls, "ms", note="wall, whole process")
        add_row(f"{BENCH}: peak RSS", v, b, params, peaks, "KiB", note="whole process, wait4")
        add_row(f"{BENCH}: max GC pause", v, b, params, pauses, "ms", note=note)
        return stdout
    except BenchError as error:
        add_missing(BENCH, v, b, params, str(error))
        return None


def add_ratios(programs, depth):
    """Each of our rows' ratio to Go js/wasm and Go native of this run, in its note."""
    params = f"depth {depth}"
    for bench in (BENCH, f"{BENCH}: peak RSS", f"{BENCH}: max GC pause"):
        baselines = {name: find_row(bench, name, None, params) for name in ("Go js/wasm", "Go wasip1", "Go native")}
        for program in programs:
            row = find_row(bench, program.variant, program.backend, params)
            if row is None or program.variant.startswith("Go "):
                continue
            ratios = [f"{row['median'] / base['median']:.2f}x {name}" for name, base in baselines.items()
                      if base and base["median"] > 0]
            row["note"] = "; ".join([row["note"]] + ratios)


def bench_binary_trees(build_prefix, node, wasi_runner, work_dir, settings):
    depth = settings["binary_trees_depth"]
    print(f"binary-trees (depth {depth}) ...", file=sys.stderr)
    go_programs = build_go_package("binarytrees", "binarytrees", work_dir / "go-binarytrees", node, wasi_runner,
                                   minimum_minor=21)
    native = next((p for p in go_programs if p.variant == "Go native"), None)
    if native is None:
        add_missing(BENCH, "-", "-", "-", "Go native's binarytrees build is missing: nothing to compare outputs with")
        return
    expected = measure(native, depth, None, settings["binary_trees_reps"])
    if expected is None:
        return
    programs = [p for p in go_programs if p is not native] + our_programs(build_prefix, node)
    for program in programs:
        print(f"  {program.variant}/{program.backend}", file=sys.stderr)
        measure(program, depth, expected, settings["binary_trees_reps"])
    add_ratios(programs, depth)
