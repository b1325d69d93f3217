"""The run: every job in order (discovery, the P1 links, the runtime benchmarks, Go itself, the
CPU kernel, stack switching, the corpus, the driver), then the targets, the table and the files
(bench/results/latest.json, bench/results/yield.svg)."""
import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path

import llgo_bench
from .corpus import bench_corpus
from .discovery import discover, load_manifest, preset_dir, presets
from .driver import bench_driver
from .jspi import bench_jspi, evaluate_jspi, jspi_compares_with
from .go import build_go_programs, bench_go_program
from .links import link_p1, link_p1_other_backend, optimise_p1_plain_kernel
from .programs import BenchError, Program, find_node, wasm_file_of
from .report import print_table, write_svg
from .results import add_missing, add_row, comparisons, missing, rows, targets
from .runtime import bench_blocking_program, bench_cpu, bench_runtime_program, bench_spawn
from .settings import FULL, QUICK, ROOT
from .startup import bench_startup
from .whole import bench_whole
from .binary_trees import bench_binary_trees
from .stack_switching import NODE26, bench_stack_switching, evaluate_stack_switching_targets, find_node26, \
    link_stack_switching
from .targets import evaluate_targets


def main():
    parser = argparse.ArgumentParser(description=llgo_bench.__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny counts, for development")
    parser.add_argument("--build-prefix", default=str(ROOT / "build") + "/",
                        help="preset X was built in BUILD_PREFIX + X (default: build/)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results")
    parser.add_argument("--no-corpus", action="store_true", help="skip the real-program corpus")
    parser.add_argument("--corpus-presets", default="", help="comma-separated subset of " + ",".join(presets.bench_presets("corpus")))
    parser.add_argument("--only-corpus", action="store_true", help="run the corpus alone (while iterating)")
    parser.add_argument("--only-jspi", action="store_true",
                        help="the jspi rows alone (bench/llgo_bench/jspi.py) with the rows they compare with (of J32 jspi and "
                             "asyncify, Go js/wasm, the J32 plain kernel: spawn+exit, the CPU kernel)")
    parser.add_argument("--corpus-programs", default="", help="comma-separated subset of minigzip,sqlite3,goroutines")
    args = parser.parse_args()
    settings = dict(QUICK if args.quick else FULL, only_corpus=args.only_corpus, only_jspi=args.only_jspi)
    started = time.perf_counter()

    node, node_version = find_node()
    wasi_runner = ROOT / "tests" / "runners" / "run-wasi.mjs"
    if not wasi_runner.is_file():
        wasi_runner = ROOT / "bench" / "wasi-run.mjs"
    work_dir = ROOT / "build" / "bench"   # links, generated inputs (ignored by git)
    if args.only_corpus:
        runtime, plain, p1_inputs, host, others = [], {}, None, None, dict(engine=[], no_context=[])
    else:
        runtime, plain, p1_inputs, host, others = discover(args.build_prefix, node)
    if args.only_jspi:
        runtime = [p for p in runtime if jspi_compares_with(p)]
        plain = {variant: program for variant, program in plain.items() if jspi_compares_with(program)}
        p1_inputs, host, args.no_corpus = [], None, True

    print("linking P1 through llgo-wasm link (narrowed and wide) ...", file=sys.stderr)
    p1 = {}
    # The variant whose link the driver runs (its benchmark comes as objects): P1.
    p1_variant = p1_inputs[0]["variant"] if p1_inputs else "P1"
    if args.only_corpus or args.only_jspi:
        pass
    elif p1_inputs:
        p1 = link_p1(p1_inputs[0], work_dir / "p1", settings)
        for other in p1_inputs[1:]:
            program = link_p1_other_backend(other, work_dir / "p1")
            if program:
                runtime.append(program)
    else:
        add_missing("P1 runtime benchmarks", "P1", "asyncify", "-", "no P1 link inputs (wasip1 preset not built)")
    if "narrowed" in p1:
        runtime.append(p1["narrowed"])
    if "no-check" in p1:
        runtime.append(p1["no-check"])  # the stack check's cost: yield and the CPU kernel without it
    if p1_variant in plain:
        try:
            if "wasm-opt" not in p1:
                raise BenchError("no wasm-opt from the P1 link plan")
            plain[p1_variant] = optimise_p1_plain_kernel(plain[p1_variant], p1["wasm-opt"], work_dir / "p1")
        except BenchError as error:
            add_missing("cpu kernel", p1_variant, "plain", "-", f"wasm-opt -O2 of the plain kernel failed: {error}")
            del plain[p1_variant]

    print("runtime benchmarks ...", file=sys.stderr)
    for program in runtime:
        if args.only_jspi:
            bench_spawn(program, settings)
            continue
        bench_runtime_program(program, settings)
        bench_blocking_program(program, settings)
    go_programs = []
    if not args.only_corpus:
        print("Go itself (bench/go) ...", file=sys.stderr)
        try:
            go_programs = build_go_programs(work_dir / "go", node, wasi_runner)
            for program in go_programs:
                if not args.only_jspi:
                    bench_go_program(program, settings)
                elif jspi_compares_with(program):
                    bench_spawn(program, settings)
        except BenchError as error:
            add_missing("all Go benchmarks", "Go", "-", "-", str(error))
        print("jspi (J32: Node, Chromium) ...", file=sys.stderr)
        bench_jspi(runtime, others, go_programs, settings, work_dir)
    if not args.only_corpus and not args.only_jspi:
        bench_startup(args.build_prefix, node, wasi_runner, work_dir, settings)
        bench_whole(args.build_prefix, node, wasi_runner, work_dir, settings)
        bench_binary_trees(args.build_prefix, node, wasi_runner, work_dir, settings)
    print("cpu kernel ...", file=sys.stderr)
    cpu_programs = runtime + ([p1["wide"]] if "wide" in p1 else []) + list(plain.values())
    for variant in dict.fromkeys(p.variant for p in cpu_programs):   # in order of discovery
        bench_cpu([p for p in cpu_programs if p.variant == variant], settings)
    # Module sizes of the builds whose program is not the module itself (Emscripten's .js beside
    # its .wasm; whole .wasm; informational, each program differs).
    for program in [p for p in runtime + list(plain.values()) if p.path.suffix not in ("", ".wasm")]:
        module = wasm_file_of(program)
        if module.is_file():
            add_row("module size", program.variant, program.backend, "emcc output .wasm", [module.stat().st_size], "B")

    if not args.only_corpus and not args.only_jspi:
        print("stack switching on Node 26 ...", file=sys.stderr)
        try:
            node26 = find_node26()
            preset = next(iter(presets.bench_presets("stack-switching")))
            manifest = load_manifest(preset_dir(args.build_prefix, preset) / "target" / "bench-manifest.json")
            inputs = next(dict(entry, driver=manifest["driver"], target=manifest["target"])
                          for entry in manifest["programs"] if entry["kind"] == "runtime-objects")
            module = link_stack_switching(inputs, work_dir / "stack-switching")
            on_node26 = [Program(NODE26, "stack-switching", module, [node26, "--experimental-wasm-wasmfx", str(wasi_runner)])]
            if "narrowed" in p1:
                on_node26.append(Program(NODE26, "asyncify", p1["narrowed"].path, [node26, str(wasi_runner)]))
            else:
                add_missing("stack switching", NODE26, "asyncify", "-", "the P1 raw-Asyncify build is missing")
            bench_stack_switching(on_node26, settings)
            kernels = on_node26 + ([Program(NODE26, "plain", plain[p1_variant].path, [node26, str(wasi_runner)])]
                                   if p1_variant in plain else [])
            bench_cpu(kernels, settings)
        except (BenchError, StopIteration) as error:
            add_missing("stack switching", NODE26, "-", "-", str(error) or "no runtime-objects entry in the manifest")

    if not args.no_corpus:
        print("corpus (real programs, three Asyncify modes) ...", file=sys.stderr)
        manifests = []
        for preset in dict.fromkeys(presets.bench_presets("driver") + presets.bench_presets("corpus")):
            for path in (preset_dir(args.build_prefix, preset) / "bench-manifest.json",
                         preset_dir(args.build_prefix, preset) / "wasm" / "bench-manifest.json"):
                if path.is_file():
                    manifests.append(json.loads(path.read_text()))
        if args.corpus_presets:
            settings = dict(settings, corpus_presets=args.corpus_presets.split(","))
        if args.corpus_programs:
            settings = dict(settings, corpus_programs=args.corpus_programs.split(","))
        bench_corpus(manifests, node, work_dir, settings)

    if not args.only_corpus and not args.only_jspi:
        print("driver benchmarks ...", file=sys.stderr)
        bench_driver(host, work_dir, settings)

    if not args.only_jspi:
        evaluate_targets(settings)
    if not args.only_corpus and not args.only_jspi:
        evaluate_stack_switching_targets()
    if not args.only_corpus:
        evaluate_jspi(settings)
    print_table()
    args.out.mkdir(parents=True, exist_ok=True)
    elapsed = time.perf_counter() - started
    document = dict(
        generated=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        mode=("quick" if args.quick else "full") + (" (--only-jspi)" if args.only_jspi else ""), settings=settings, elapsed_seconds=round(elapsed, 1),
        machine=dict(platform=platform.platform(), cpus=os.cpu_count(), node=node_version,
                     python=platform.python_version()),
        yield_definition="ns per llgo_gosched call (one switch to the next goroutine in FIFO order)",
        results=rows, missing=missing, targets=targets, comparisons=comparisons)
    (args.out / "latest.json").write_text(json.dumps(document, indent=1) + "\n")
    write_svg(args.out / "yield.svg")
    print(f"\nwrote {args.out / 'latest.json'} and {args.out / 'yield.svg'} ({elapsed:.0f} s)")
    return 1 if missing or any(t["measured"] is None for t in targets) else 0
