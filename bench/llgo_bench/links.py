"""P1: the benchmark linked through `llgo-wasm link` with and without switch-point narrowing
(module sizes, wasm-opt time), against the same core module optimised without --asyncify."""
import json
import re
import time

from .programs import BenchError, Program, run
from .results import add_missing, add_row

LINK_STEP_LINE = re.compile(r"asyncify\+exnref ([0-9.]+) s, (\d+) B -> (\d+) B")


def link_p1_other_backend(inputs, out_dir):
    """Links a P1 benchmark of another stack mode (narrowed only) for the runtime benchmarks."""
    objects = inputs["objects"].split("|")
    link_inputs = objects + inputs["archives"] + list(inputs.get("ldflags", []))
    output = out_dir / f"bench_runtime_{inputs['backend'].replace('-', '_')}.wasm"
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        run([inputs["driver"], "link", "--target", inputs["target"], "--context", inputs["context"],
             "--stacks", inputs["stacks"], "-O2", "-o", str(output)] + link_inputs)
    except BenchError as error:
        add_missing("P1 runtime benchmarks", inputs["variant"], inputs["backend"], "-", f"link failed: {error}")
        return None
    return Program(inputs["variant"], inputs["backend"], output, inputs["engine"], stacks=inputs.get("stacks"))


def link_p1(inputs, out_dir, settings):
    """Links the P1 benchmark (narrowed and wide), measures sizes and wasm-opt times, and
    returns {"narrowed": Program, "wide": Program} for the runtime benchmarks."""
    driver = inputs["driver"]
    objects = inputs["objects"].split("|")
    link_inputs = objects + inputs["archives"] + list(inputs.get("ldflags", []))
    base = [driver, "link", "--target", inputs["target"], "--context", inputs["context"], "--stacks", inputs["stacks"],
            "-O2"]
    out_dir.mkdir(parents=True, exist_ok=True)
    programs = {}
    # "no-check": narrowed, without the link's stack-overflow check (--stack-check off): the
    # baseline of the check's cost, from the same objects in the same run.
    for mode, extra in (("narrowed", []), ("wide", ["--no-asyncify-narrowing"]),
                        ("no-check", ["--stack-check", "off"])):
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
            add_missing("asyncify link", inputs["variant"], f"asyncify ({mode})", "-O2", str(error))
            continue
        label = {"narrowed": "asyncify (narrowed)", "wide": "asyncify (wide)", "no-check": "asyncify (no stack check)"}[mode]
        add_row("wasm-opt time", inputs["variant"], label, "--asyncify -O2 --translate-to-exnref",
                [s * 1000 for s in seconds], "ms")
        if mode == "narrowed":
            add_row("module size", inputs["variant"], "core (before wasm-opt)", "clang link output", [sizes[0]], "B")
        add_row("module size", inputs["variant"], label, "final module, -O2", [output.stat().st_size], "B")
        programs[mode] = Program(inputs["variant"], {"narrowed": "asyncify", "wide": "asyncify (wide)",
                                        "no-check": "asyncify (no stack check)"}[mode], output,
                                 inputs["engine"], stacks=inputs.get("stacks"))

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
        add_row("wasm-opt time", inputs["variant"], "no Asyncify", "-O2 --translate-to-exnref", [s * 1000 for s in seconds], "ms")
        add_row("module size", inputs["variant"], "no Asyncify", "final module, -O2", [plain_module.stat().st_size], "B")
        programs["wasm-opt"] = opt["tool"]
    except (BenchError, ValueError, KeyError, json.JSONDecodeError) as error:
        add_missing("module size", inputs["variant"], "no Asyncify", "final module, -O2", f"baseline link failed: {error}")
    return programs


def optimise_p1_plain_kernel(plain_program, wasm_opt, out_dir):
    """The P1 plain kernel through the same `wasm-opt -O2` the Asyncify builds get, so the CPU
    comparison differs only by the Asyncify instrumentation."""
    optimised = out_dir / "bench_cpu_plain.O2.wasm"
    run([wasm_opt, str(plain_program.path), "-O2", "-o", str(optimised)])
    return Program(plain_program.variant, "plain", optimised, plain_program.engine_prefix)
