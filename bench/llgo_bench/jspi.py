"""JSPI (context `jspi` on J32, issue 28): the figures the backend is judged by, beside raw
Asyncify (the J32 `asyncify` backend, shared stacks) and Go js/wasm in the same run.

On this run's Node (24): yield with G=2 at depths 1, 10, 30 and 50 of jspi, raw Asyncify and each
Go's js/wasm build, round-robin by process (bench "jspi yield": a change of load hits them alike),
memory per parked goroutine with 16 KiB stacks in linear memory and in process resident memory
(an engine's own stacks included), and the module (`.wasm` and emcc's `.js`) against the same
program linked without context support. spawn+exit and the CPU kernel are the runtime job's
rows. In headless Chromium (the target's browser engine, the `.mjs` build): the same yields,
round-robin with Go js/wasm in a page of its own, and the module sizes.

With them, round-robin too, the engine's floor: bench/jspi_floor.mjs, a bare wasm module whose
two promising calls hand control to each other through one Suspending import, nothing else (the
variant "J32" backend "engine floor"): what a JSPI switch costs on this Node before the runtime
adds anything.

Then the comparisons (ratios without a limit) and the issue's target: jspi's yield at depth 10
and at depth 50 <= 0.5x Go js/wasm's runtime.Gosched at the same depth (the faster Go)."""
import hashlib
import json
import os
import sys

from .go import go_anchor_row, go_label
from .programs import Program, wasm_file_of
from .programs import BenchError
from .results import add_comparison, add_missing, add_ratio_target, add_row, find_row, rows
from .runtime import bench_parked_resident
from .settings import ROOT

VARIANT = "J32"
BACKEND = "jspi"
BASELINE = "asyncify"
DEPTHS = [1, 10, 30, 50]
YIELD = "jspi yield"   # the rows of interleaved_yields (bench "yield" is the runtime job's, one program at a time)
FLOOR = "engine floor" # the backend name of bench/jspi_floor.mjs's rows
ROUNDS = 3             # interleaved_yields: processes per program and depth, round-robin


# A page that runs a Go js/wasm program with Go's own wasm_exec.js (which writes the program's
# output through console.log, line by line) and shows it: run-in-chromium.mjs's `page` mode
# prints the page's text as its stdout and exits with <body data-exit-status>.
GO_PAGE = """<!doctype html>
<meta charset="utf-8">
<pre id="out"></pre>
<script src="wasm_exec.js"></script>
<script type="module">
const out = document.getElementById('out');
console.log = (...parts) => { out.textContent += parts.join(' ') + '\\n'; };
let status = 0;
try {
  const go = new Go();
  go.argv = ARGV;
  go.exit = (code) => { status = code; };
  const bytes = await (await fetch('program.wasm')).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  await go.run(instance);
} catch (error) {
  out.textContent += 'FAIL: ' + error + '\\n';
  status = 1;
}
document.body.dataset.exitStatus = String(status);
</script>
"""


class GoInChromium(Program):
    """A Go js/wasm program of this run in headless Chromium: each command line gets a page of
    its own (build/bench/go-chromium/<hash>/: the page, Go's wasm_exec.js and the module,
    hard-linked), run by tests/browser/run-in-chromium.mjs in `page` mode."""

    def __init__(self, go_program, browser, pages):
        node, _runner, wasm_exec = go_program.engine_prefix
        super().__init__(f"Go js/wasm, {browser.variant.split(', ', 1)[1]}", go_program.backend, go_program.path,
                         [node, ROOT / "tests" / "browser" / "run-in-chromium.mjs", "page"])
        self.env = browser.env  # the browser's (CHROMIUM, LLGO_WASM_NODE_MODULES)
        self.wasm_exec, self.pages = wasm_exec, pages

    def command(self, *args):
        argv = [self.path.name, *map(str, args)]
        key = hashlib.sha256(json.dumps([str(self.path), argv]).encode()).hexdigest()[:16]
        page = self.pages / key
        page.mkdir(parents=True, exist_ok=True)
        (page / "index.html").write_text(GO_PAGE.replace("ARGV", json.dumps(argv)))
        for name, source in (("wasm_exec.js", self.wasm_exec), ("program.wasm", self.path)):
            target = page / name
            if target.exists():
                target.unlink()
            os.link(source, target)
        return [*self.engine_prefix, str(page)]


def _add_sizes(program, what):
    """The module's .wasm and its JavaScript (emcc's .js/.mjs) as module size rows (once)."""
    for path, kind in ((wasm_file_of(program), ".wasm"), (program.path, program.path.suffix)):
        if find_row("module size", program.variant, program.backend, f"{what} {kind}"):
            continue
        if path.is_file():
            add_row("module size", program.variant, program.backend, f"{what} {kind}", [path.stat().st_size], "B")
        else:
            add_missing("module size", program.variant, program.backend, f"{what} {kind}", f"{path} was not built")


def jspi_compares_with(program):
    """The programs whose rows the jspi comparisons read besides jspi's own (--only-jspi runs
    only these): J32 jspi and raw Asyncify, the J32 plain kernel, Go js/wasm."""
    return (program.variant == VARIANT and program.backend in (BACKEND, BASELINE, "plain")) or \
        program.variant == "Go js/wasm"


def interleaved_yields(programs, settings):
    """yield with G=2 at every depth of DEPTHS for every program, round-robin by process (ROUNDS
    rounds; each process drops its first repetition), so that a change of the machine's load
    hits every program and depth alike: rows of bench YIELD."""
    samples, failed = {}, {}
    reps = max(1, settings["yield_reps"] // ROUNDS) + 1
    for _ in range(ROUNDS):
        for depth in DEPTHS:
            for program in programs:
                key = (id(program), depth)
                if key in failed:
                    continue
                try:
                    results = program.results("yield", 2, depth, settings["yield_total"] // 2, reps, warmup=1)
                    samples.setdefault(key, []).extend(r["ns"] for r in results)
                except BenchError as error:
                    failed[key] = str(error)
    for program in programs:
        for depth in DEPTHS:
            key, params = (id(program), depth), f"G=2 depth={depth}"
            if key in failed:
                add_missing(YIELD, program.variant, program.backend, params, failed[key])
            else:
                add_row(YIELD, program.variant, program.backend, params, samples[key], "ns/yield",
                        note=f"round-robin with the other {YIELD} rows of its engine")


def bench_jspi(runtime, others, go_programs, settings, work_dir):
    node = [p for p in runtime if p.variant == VARIANT and p.backend in (BACKEND, BASELINE)]
    if not any(p.backend == BACKEND for p in node):
        add_missing("jspi", VARIANT, BACKEND, "-", f"no {VARIANT} {BACKEND} benchmark program (the j32 preset's)")
    go_js = [g for g in go_programs if g.variant == "Go js/wasm"]
    jspi = next((p for p in node if p.backend == BACKEND), None)
    # The engine's floor, on the Node the jspi program runs on.
    floor = [Program(VARIANT, FLOOR, ROOT / "bench" / "jspi_floor.mjs", jspi.engine_prefix)] if jspi else []
    print(f"  Node: yield at depths {DEPTHS}, round-robin: " + ", ".join(f"{p.variant}/{p.backend}" for p in node + floor + go_js),
          file=sys.stderr)
    interleaved_yields(node + floor + go_js, settings)
    for program in node:
        print(f"  {program.variant}/{program.backend}: parked goroutines, resident memory", file=sys.stderr)
        bench_parked_resident(program, settings)
        _add_sizes(program, "emcc output")
    for program in [p for p in others["no_context"] if p.variant == VARIANT and p.backend.startswith(BACKEND)]:
        _add_sizes(program, "emcc output")
    browser = [p for p in others["engine"] if p.variant.startswith(VARIANT + ", ") and p.backend in (BACKEND, BASELINE)]
    if not any(p.backend == BACKEND for p in browser):
        add_missing("jspi in a browser", VARIANT, BACKEND, "-", "no browser build of the jspi benchmark program")
    for program in browser:
        _add_sizes(program, "emcc output")
    # Go js/wasm's Gosched in the same browser: the anchor of the yield rows there.
    go_browser = [GoInChromium(g, browser[0], work_dir / "go-chromium") for g in go_js] if browser else []
    if browser:
        print(f"  {browser[0].variant.split(', ', 1)[1]}: yield at depths {DEPTHS}, round-robin: "
              + ", ".join(f"{p.variant}/{p.backend}" for p in browser + go_browser), file=sys.stderr)
        interleaved_yields(browser + go_browser, settings)


def evaluate_jspi(settings):
    """The comparisons of jspi with its baselines, and the issue's target."""
    name = f"{VARIANT} {BACKEND}"
    for depth in DEPTHS:
        params = f"G=2 depth={depth}"
        ours = find_row(YIELD, VARIANT, BACKEND, params)
        go = go_anchor_row(YIELD, "js/wasm", params)
        add_comparison(f"{name} yield ({params}) vs Go js/wasm Gosched", ours, go, go_label(go, "js/wasm"))
        add_comparison(f"{name} yield ({params}) vs raw Asyncify", ours, find_row(YIELD, VARIANT, BASELINE, params),
                       "asyncify")
        floor = find_row(YIELD, VARIANT, FLOOR, params)
        add_comparison(f"{name} yield ({params}) vs the engine's floor (bench/jspi_floor.mjs)", ours, floor, FLOOR)
        add_comparison(f"the engine's floor (bench/jspi_floor.mjs, {params}) vs Go js/wasm Gosched", floor, go,
                       go_label(go, "js/wasm"))
    for depth in (10, 50):
        params = f"G=2 depth={depth}"
        go = go_anchor_row(YIELD, "js/wasm", params)
        add_ratio_target(f"{name} yield ({params}) <= 0.5x Go js/wasm runtime.Gosched (Node 24, the faster Go)",
                         find_row(YIELD, VARIANT, BACKEND, params), go, 0.5, go_label(go, "js/wasm"),
                         "Go js/wasm's yield row is missing from this run")
    for count in settings["spawn_counts"]:
        params = f"{count:,} serial"
        ours = find_row("spawn+exit", VARIANT, BACKEND, params)
        add_comparison(f"{name} spawn+exit ({params}) vs raw Asyncify", ours,
                       find_row("spawn+exit", VARIANT, BASELINE, params), "asyncify")
        go = go_anchor_row("spawn+exit", "js/wasm", params)
        add_comparison(f"{name} spawn+exit ({params}) vs Go js/wasm", ours, go, go_label(go, "js/wasm"))
    parked = f"{settings['parked_count']:,} parked, depth=1, 16 KiB stack"
    for what in ("linear memory", "process resident"):
        params = f"{parked}, {what}"
        add_comparison(f"{name} memory per parked G ({what}) vs raw Asyncify",
                       find_row("memory per parked G", VARIANT, BACKEND, params),
                       find_row("memory per parked G", VARIANT, BASELINE, params), "asyncify")
    for suffix in (".wasm", ".js"):
        params = f"emcc output {suffix}"
        ours = find_row("module size", VARIANT, BACKEND, params)
        add_comparison(f"{name} module {suffix} vs no context support", ours,
                       find_row("module size", VARIANT, f"{BACKEND} (no context support)", params), "no context support")
        add_comparison(f"{name} module {suffix} vs raw Asyncify", ours,
                       find_row("module size", VARIANT, BASELINE, params), "asyncify")
    cpu = find_row("cpu kernel", VARIANT, BACKEND)
    add_comparison(f"{name} CPU kernel vs no context support (plain kernel)", cpu,
                   find_row("cpu kernel", VARIANT, "plain"), "plain")
    add_comparison(f"{name} CPU kernel vs raw Asyncify", cpu, find_row("cpu kernel", VARIANT, BASELINE), "asyncify")
    for browser in dict.fromkeys(r["variant"] for r in rows if r["variant"].startswith(VARIANT + ", ")):
        engine = browser.split(", ", 1)[1]
        for depth in DEPTHS:
            params = f"G=2 depth={depth}"
            ours = find_row(YIELD, browser, BACKEND, params)
            add_comparison(f"{browser} {BACKEND} yield ({params}) vs raw Asyncify",
                           ours, find_row(YIELD, browser, BASELINE, params), "asyncify")
            go = min((r for r in rows if r["bench"] == YIELD and r["variant"] == f"Go js/wasm, {engine}"
                      and r["params"] == params), key=lambda r: r["median"], default=None)
            add_comparison(f"{browser} {BACKEND} yield ({params}) vs Go js/wasm Gosched ({engine})", ours, go,
                           f"Go {go['backend'].removeprefix('go')} js/wasm" if go else "Go js/wasm")
        for suffix in (".wasm", ".mjs"):
            params = f"emcc output {suffix}"
            add_comparison(f"{browser} {BACKEND} module {suffix} vs raw Asyncify",
                           find_row("module size", browser, BACKEND, params),
                           find_row("module size", browser, BASELINE, params), "asyncify")

