#!/usr/bin/env python3
"""check_switch_path.py: what the raw Asyncify backend's switch path costs, checked on a real link.

  check_switch_path.py --driver LLGO_WASM --target NAME --context C --stacks S --out DIR -- INPUTS...

Links INPUTS (a goroutine program's objects and the runtime's archives) with the driver as a build
does (-O2, narrowed Asyncify), keeping names (-g) and printing the functions Asyncify instruments
(--print-asyncify-list), then checks:
  - nothing the descriptor declares non-switching for this context (asyncify-removelist and
    context-asyncify-removelist, read from `llgo-wasm resolve --json`) is instrumented: the host
    loop runs below the unwind's stop and must not pay Asyncify's checks on each dispatch;
  - the switch points (llgo_gosched, llgo_park) can switch (the list is read right) but are not
    instrumented: they start the unwind themselves (wasmcontext.h, "a switch point's own frame"),
    so a switch saves and restores only the user's frames. Instrumented code is told by its reads
    of Asyncify's state global: the global other than __stack_pointer that the most listed
    functions read;
  - the host loop's batch (dispatch_batch) is a function of its own in the final module: an engine
    optimises a function only for its later calls (V8 has no on-stack replacement for wasm), so a
    loop inlined into _start would run its baseline code for the whole program;
  - llgo_park_unlock does not call llgo_park: a goroutine parked on a channel has one scheduler
    frame to unwind, not two (Binaryen may also merge the two identical bodies into one).
Reads the final module with wabt's wasm-objdump and Binaryen's wasm-opt --print. Exits 1 listing
every failure.
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path


def run(cmd):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(map(str, cmd))} exited {r.returncode}:\n{r.stdout}{r.stderr}")
    return r.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--driver", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--context", required=True)
    parser.add_argument("--stacks", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--wasm-opt", default="wasm-opt")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()

    common = ["--target", args.target, "--context", args.context, "--stacks", args.stacks]
    resolved = json.loads(run([args.driver, "resolve", *common, "--json"]))
    declared = list(resolved.get("asyncify-removelist", []))
    declared += resolved.get("context-asyncify-removelist", {}).get(args.context, [])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    module = out / "switch_path.wasm"
    listed = set(run([args.driver, "link", *common, "-O2", "-g", "--print-asyncify-list", "-o", module,
                      "--", *args.inputs]).split())
    names = set(re.findall(r"<([^>]+)>", run(["wasm-objdump", "-x", "-j", "Function", module])))

    failures = []
    wrongly = sorted(set(declared) & listed)
    if wrongly:
        failures.append(f"declared non-switching for context {args.context}, but instrumented: {', '.join(wrongly)}")
    for name in ("llgo_gosched", "llgo_park"):
        if name not in listed:
            failures.append(f"{name} is a switch point, but the analysis says it cannot switch (is the list read right?)")
    if "dispatch_batch" not in names:
        failures.append("dispatch_batch is not a function of the final module (inlined into the host loop's caller?)")
    text = run([args.wasm_opt, module, "--print", "-all"])
    bodies = {m.group(1): m.group(0) for m in re.finditer(r"^ \(func \$(\S+) .*?^ \)$", text, re.S | re.M)}

    def globals_read(body):
        return set(re.findall(r"global\.get \$(\S+?)\)?$", body, re.M)) - {"__stack_pointer"}

    readers = {}
    for name in listed & bodies.keys():
        for g in globals_read(bodies[name]):
            readers[g] = readers.get(g, 0) + 1
    state = max(readers, key=readers.get) if readers else None
    if state is None:
        failures.append("no listed function reads a global: cannot tell Asyncify's instrumentation apart")
    for name in ("llgo_gosched", "llgo_park"):
        if state is not None and name in bodies and state in globals_read(bodies[name]):
            failures.append(f"{name} is instrumented (reads Asyncify's state ${state}): a switch point must start "
                            "the unwind itself (llgo_wasmcontext_suspend_here), one frame fewer per switch")
    body = re.search(r"^ \(func \$llgo_park_unlock .*?^ \)$", text, re.S | re.M)
    if body and re.search(r"\(call \$llgo_park\b(?!_)", body.group(0)):
        failures.append("llgo_park_unlock calls llgo_park: a parked channel operation unwinds two scheduler frames")

    print(f"{len(listed)} functions can switch; Asyncify's state global ${state} read by {readers.get(state, 0)}; declared non-switching for {args.context}: {len(declared)}; "
          f"dispatch_batch {'present' if 'dispatch_batch' in names else 'absent'}")
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        return 1
    print("switch path ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
