"""Whole programs (issue 31): four small concurrent programs written twice, in C against the
runtime (bench/whole_programs.c) and in Go (bench/go/whole), doing the same work: the prime
sieve, a 64-stage pipeline, a worker pool with a mutex-protected map, and 10,000 time.After
selects. Each runs on the variants of the presets with the bench job "whole" and on Go 1.24's
native, js/wasm and wasip1 builds; every output must equal Go native's before any figure is
taken. Rows: wall time and the process's peak resident memory (wait4), whole process."""
import sys
import time

from .discovery import load_manifest, preset_dir, presets, target_facts
from .go import build_go_package
from .programs import BenchError, Program, max_rss_kib, run
from .results import add_missing, add_row

PROGRAMS = ("sieve", "pipeline", "pool", "timers")


def whole_programs(build_prefix, node):
    programs = []
    for preset in presets.bench_presets("whole"):
        try:
            manifest = load_manifest(preset_dir(build_prefix, preset) / "target" / "bench-manifest.json")
            facts = target_facts(manifest["driver"], manifest["target"], node)
            entries = [e for e in manifest["programs"] if e["kind"] == "whole"]
            if not entries:
                raise BenchError(f"{preset}: its bench manifest has no whole program")
            programs += [Program(manifest["variant"], e["context"], e["path"], facts["prefix"]) for e in entries]
        except (BenchError, ValueError, KeyError) as error:
            add_missing("whole programs", preset, "-", "-", str(error))
    return programs


def go_whole_programs(out_dir, node, wasi_runner):
    """bench/go/whole built by Go 1.24 (every Go from 1.21): native with GOMAXPROCS=1, js/wasm and
    wasip1 under this run's Node."""
    return build_go_package("whole", "whole", out_dir, node, wasi_runner, minimum_minor=21)


def expected_outputs(go_programs):
    """What each program must print: Go native's output (its own exit status checks the result)."""
    native = next((p for p in go_programs if p.variant == "Go native"), None)
    if native is None:
        raise BenchError("Go native's whole-program build is missing: nothing to compare outputs with")
    return {name: run(native.command(name), env=native.env)[0] for name in PROGRAMS}


def measure(program, expected, settings):
    v, b = program.variant, program.backend
    for name in PROGRAMS:
        try:
            walls, peaks = [], []
            for _ in range(settings["whole_reps"]):
                t0 = time.perf_counter()
                stdout, peak = max_rss_kib(program.command(name), env=program.env)
                walls.append((time.perf_counter() - t0) * 1000)
                peaks.append(peak)
                if stdout != expected[name]:
                    raise BenchError(f"printed {stdout.strip()[:160]!r}, Go native printed {expected[name].strip()[:160]!r}")
            add_row(f"whole: {name}", v, b, "wall", walls, "ms", note="whole process")
            add_row(f"whole: {name}", v, b, "peak RSS", peaks, "KiB", note="whole process, wait4")
        except BenchError as error:
            add_missing(f"whole: {name}", v, b, "-", str(error))


def bench_whole(build_prefix, node, wasi_runner, work_dir, settings):
    print("whole programs (sieve, pipeline, pool, timers) ...", file=sys.stderr)
    go_programs = go_whole_programs(work_dir / "go-whole", node, wasi_runner)
    try:
        expected = expected_outputs(go_programs)
    except BenchError as error:
        add_missing("whole programs", "-", "-", "-", str(error))
        return
    for program in whole_programs(build_prefix, node) + go_programs:
        print(f"  {program.variant}/{program.backend}", file=sys.stderr)
        measure(program, expected, settings)
