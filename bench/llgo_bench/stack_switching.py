"""Stack switching (the preset whose bench job is "stack-switching", Node 26, the only engine
that runs it): yield at several depths, spawn+exit, memory per parked goroutine, the module
size against the same program without context support, and their targets."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .programs import BenchError, run
from .results import add_growth_target, add_missing, add_ratio_target, add_row, find_row
from .runtime import bench_parked_resident, bench_yield_depths, measure_spawn
from .settings import ROOT

STACK_SWITCHING_DEPTHS = [1, 10, 30, 50]
NODE26 = "P1, Node 26"  # the variant label of every row of this section


def find_node26():
    """Node >= 26 (WebAssembly stack switching behind --experimental-wasm-wasmfx): NODE26, the
    setup's toolchain.env, node26 on PATH."""
    candidates = [os.environ.get("NODE26", "")]
    toolchain = Path(os.environ.get("LLGO_WASM_TOOLCHAIN_DIR") or
                     Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "llgo-wasm" / "toolchain-v1")
    env_file = toolchain / "toolchain.env"
    if env_file.is_file():
        candidates += re.findall(r"^LLGO_WASM_NODE26=(.*)$", env_file.read_text(), re.M)
    candidates.append(shutil.which("node26") or "")
    for node in filter(None, candidates):
        if Path(node).is_file():
            version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
            match = re.match(r"v(\d+)\.", version)
            if match and int(match.group(1)) >= 26:
                return node
    raise BenchError("Node >= 26 not found (looked at NODE26, toolchain.env's LLGO_WASM_NODE26, node26 on PATH); "
                     "run tools/setup-toolchain.sh or set NODE26")


def link_stack_switching(inputs, out_dir):
    """Links the stack-switching benchmark through `llgo-wasm link` and the same core module
    through the same wasm-opt step without the glue merge: the program without context support.
    Returns the linked module's path."""
    driver = inputs["driver"]
    link_inputs = inputs["objects"].split("|") + inputs["archives"] + list(inputs.get("ldflags", []))
    base = [driver, "link", "--target", inputs["target"], "--context", inputs["context"], "-O2"]
    env = dict(os.environ, LLGO_WASM_ROOT=str(ROOT))
    out_dir.mkdir(parents=True, exist_ok=True)
    output = out_dir / "bench_runtime_stack_switching.wasm"
    run(base + ["-o", str(output)] + link_inputs, env=env)
    add_row("module size", NODE26, "stack-switching", "final module, -O2", [output.stat().st_size], "B")
    # The baseline below never gets the link's stack-overflow check (a step of the link plan after
    # wasm-opt, with a target of its own: "P1 stack check module growth"), so the size target
    # compares it with the same link without the check: what context support alone adds.
    unchecked = out_dir / "bench_runtime_stack_switching_no_check.wasm"
    run(base + ["--stack-check", "off", "-o", str(unchecked)] + link_inputs, env=env)
    add_row("module size", NODE26, "stack-switching (no stack check)", "final module, -O2, --stack-check off",
            [unchecked.stat().st_size], "B")
    try:
        plan = json.loads(run(base + ["--dry-run", "--json", "-o", str(out_dir / "plain.wasm")] + link_inputs, env=env)[0])
        steps = {step["name"]: step for step in plan["steps"]}
        core = out_dir / "no-context.core.wasm"
        link_args = list(steps["link"]["args"])
        link_args[link_args.index("-o") + 1] = str(core)
        run([steps["link"]["tool"]] + link_args)
        opt = steps["wasm-opt+exnref"]
        opt_args = [a for a in opt["args"] if not a.startswith("--remove-exports")]
        opt_args[opt_args.index(opt["inputs"][0])] = str(core)
        plain_module = out_dir / "no-context.final.wasm"
        opt_args[opt_args.index("-o") + 1] = str(plain_module)
        run([opt["tool"]] + opt_args)
        add_row("module size", NODE26, "no context support", "the same core, wasm-opt -O2 without the glue merge",
                [plain_module.stat().st_size], "B")
    except (BenchError, ValueError, KeyError, json.JSONDecodeError) as error:
        add_missing("module size", NODE26, "no context support", "-", f"baseline link failed: {error}")
    return output


def bench_stack_switching(programs, settings):
    """Yield at every depth, spawn+exit and parked memory for each program (stack switching and
    raw Asyncify, both on Node 26)."""
    for program in programs:
        v, b = program.variant, program.backend
        print(f"  {v}/{b}", file=sys.stderr)
        bench_yield_depths(program, STACK_SWITCHING_DEPTHS, settings)
        params = f"{settings['spawn_counts'][0]:,} serial"
        try:
            samples, _ = measure_spawn(program, settings["spawn_counts"][0], settings)
            add_row("spawn+exit", v, b, params, samples, "ns/goroutine")
        except BenchError as error:
            add_missing("spawn+exit", v, b, params, str(error))
        bench_parked_resident(program, settings)


def evaluate_stack_switching_targets():
    yields = {(b, d): find_row("yield", NODE26, b, f"G=2 depth={d}")
              for b in ("stack-switching", "asyncify") for d in STACK_SWITCHING_DEPTHS}
    add_ratio_target("stack switching: yield at depth 50 <= 1.2x depth 1", yields["stack-switching", 50],
                     yields["stack-switching", 1], 1.2, "depth 1", "the depth-1 row is missing")
    add_ratio_target("stack switching: yield at depth 30 <= 0.6x raw Asyncify (both Node 26)", yields["stack-switching", 30],
                     yields["asyncify", 30], 0.6, "raw Asyncify", "the raw-Asyncify row is missing")
    add_growth_target("stack switching: module size within 1% of no context support (both without the stack check)",
                      find_row("module size", NODE26, "stack-switching (no stack check)"),
                      find_row("module size", NODE26, "no context support"),
                      1.0, lambda row, base: f"{int(row['median']):,} B vs {int(base['median']):,} B")
    add_growth_target("stack switching: CPU-bound time within 1% of no context support",
                      find_row("cpu kernel", NODE26, "stack-switching"), find_row("cpu kernel", NODE26, "plain"),
                      1.0, lambda row, base: f"{row['median']:.2f} ms vs {base['median']:.2f} ms (plain kernel)")
