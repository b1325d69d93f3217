#!/usr/bin/env python3
"""check_module.py: check a final module the way an engine will see it.

  check_module.py --target-json RESOLVED.json [--wasm-opt PATH] PROGRAM

PROGRAM is a WebAssembly module (WASI: app.wasm) or a loader script whose module lies beside it
under the same name (Emscripten: app.js -> app.wasm). Reads the module with independent tools
(wabt's wasm-objdump for sections, Binaryen's wasm-opt --print for instructions), not with the
driver that linked it, and checks, for every target:
  no legacy exception handling (try, delegate, rethrow): a published module uses the standard
       exnref form (try_table) or none; legacy EH is deprecated and standalone engines refuse it
       (WasmEdge: "Deprecated 'delegate' instruction");
  the exception-handling model the resolved target says the module carries (capabilities.eh.final,
       per context: context-eh): "emscripten" or "none" - no wasm exception handling at all (no
       try_table); "exnref" - no Emscripten JS-assisted exceptions or SjLj (no env.invoke_* import);
and, for a WASI module, what the resolved target's capabilities (`llgo-wasm resolve --json`) promise:
  without threads: no shared memory; only wasi_snapshot_preview1 imports (no pthread,
       thread-spawn, wasi-threads or asyncify.* import); exports _start and memory;
  with threads: a shared memory (imported or defined) that starts at its maximum, so it never
       grows (V8 lets a thread keep a grown shared memory's old size for memory.fill bounds:
       docs/p1t.md, Limits); a wasi.thread-spawn import; exports _start;
  stack-switching: the switch instructions are there (cont.new, resume, suspend: the context's
       glue was merged), and nothing is imported from a merged module; without the capability
       there are none. wabt 1.0.32 cannot read continuation types, so such a module's sections
       are read from wasm-opt --print as well.
  engine stacks without stack switching (effective capability engine-stacks: JSPI on a JavaScript
       host, e.g. P1's jspi context): the switch is the JavaScript glue's, so the module also
       imports module llgo_jspi (runtime/wasi/jspi_glue.mjs), at least its llgo_jspi_switch and
       llgo_jspi_suspend, and exports llgo_jspi_run;
  engine stacks, or capabilities.asyncify "none": no Asyncify at all (no asyncify.* import, no
       asyncify_* export), and with capabilities.eh.final "exnref" its SjLj is there as try_table.
Prints what it found; exits 1 with every violation listed.
"""
import argparse
import json
import os
import re
import subprocess
import sys


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr}")
    return r.stdout


def section(module, name):
    """The -x details of one section; empty when the module has no such section (an imported
    memory leaves no Memory section, which wasm-objdump reports as an error)."""
    r = subprocess.run(["wasm-objdump", "-x", "-j", name, module], capture_output=True, text=True)
    if r.returncode != 0:
        if "Section not found" in r.stderr + r.stdout:
            return ""
        sys.exit(f"FAIL: wasm-objdump -x -j {name} {module} exited {r.returncode}:\n{r.stderr}")
    return r.stdout


def module_of(program):
    """The module a program is, or the one its loader script loads (same name, .wasm)."""
    with open(program, "rb") as f:
        if f.read(4) == b"\0asm":
            return program
    beside = os.path.splitext(program)[0] + ".wasm"
    if not os.path.exists(beside):
        sys.exit(f"FAIL: {program} is no WebAssembly module and has no {beside} beside it")
    return beside


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--target-json", required=True, help="the resolved target (llgo-wasm resolve --json)")
    p.add_argument("--wasm-opt", default="wasm-opt")
    p.add_argument("program")
    a = p.parse_args()
    with open(a.target_json) as f:
        target = json.load(f)
    a.module = module_of(a.program)
    threads = target["capabilities"]["threads"]
    wasi = "-wasi" in target["triple"]
    stack_switching = target["capabilities"].get("stack-switching", False)
    text = run([a.wasm_opt, a.module, "-all", "--print"])
    problems = []
    # Every module, whatever its target says: legacy EH prints as (try ... (do ...) (catch ...)),
    # exnref as (try_table (catch ...)), whose catch clauses are not instructions.
    legacy = re.findall(r"\((try|delegate|rethrow)(\s|\))", text)
    if legacy:
        problems.append(f"legacy exception handling left: {len(legacy)} try/delegate/rethrow "
                        f"(a final module must use exnref: the link translates it, docs/link-pipeline.md)")
    try_tables = text.count('(try_table')
    print(f"instructions: {try_tables} try_table (exnref), {len(legacy)} legacy try/delegate/rethrow")
    eh_final = target["capabilities"]["eh"]["final"]
    invokes = re.findall(r'^\s*\(import "env" "(invoke_\w+)"', text, re.M)
    if eh_final in ("emscripten", "none") and try_tables:
        problems.append(f"{try_tables} try_table (wasm exception handling) in a module whose target says "
                        f"capabilities.eh.final \"{eh_final}\" (a context with wasm SjLj needs its own context-eh)")
    if eh_final == "exnref" and invokes:
        problems.append(f"Emscripten's JS-assisted exceptions or SjLj ({len(invokes)} env.invoke_* imports, e.g. "
                        f"{invokes[0]}) in a module whose target says capabilities.eh.final \"exnref\"")
    print(f"exception handling: the target says {eh_final}; {len(invokes)} env.invoke_* imports")
    effective = target.get("effective", {}).get("capabilities", [])
    engine_stacks = "engine-stacks" in effective
    no_asyncify = engine_stacks or target["capabilities"]["asyncify"] == "none"
    if not wasi:
        # An Emscripten module: its imports and exports are its loader's business.
        return report(a.module, target, problems)

    if stack_switching:
        import_names = [f"{m}.{n}" for m, n in re.findall(r'^\s*\(import "([^"]+)" "([^"]+)"', text, re.M)]
        memory_lines = [l.strip() for l in text.splitlines() if re.match(r"\s*\((memory |import .*\(memory )", l)]
        exports = re.findall(r'^\s*\(export "([^"]+)"', text, re.M)
    else:
        imports = re.findall(r"<- ([\w.\-]+)\.([\w\-]+)", section(a.module, "Import"))
        import_names = [f"{m}.{n}" for m, n in imports]
        memory_lines = [l for l in (section(a.module, "Import") + section(a.module, "Memory")).splitlines()
                        if "memory[" in l]
        exports = re.findall(r'-> "([^"]+)"', section(a.module, "Export"))
    shared = any("shared" in l for l in memory_lines)
    switches = {op: len(re.findall(r"\(" + re.escape(op) + r"[\s)]", text))
                for op in ("cont.new", "resume", "suspend")}
    if stack_switching:
        if not all(switches.values()):
            problems.append(f"stack-switching instructions missing (the glue was not merged?): {switches}")
        print("instructions: " + ", ".join(f"{n} {op}" for op, n in switches.items()))
    elif any(switches.values()):
        problems.append(f"stack-switching instructions in a module whose target has no such capability: {switches}")

    # JSPI: the switch is imported from the JavaScript glue (engine stacks the engine keeps,
    # without the stack-switching instructions).
    jspi_glue = engine_stacks and not stack_switching
    if jspi_glue:
        for want in ("llgo_jspi.llgo_jspi_switch", "llgo_jspi.llgo_jspi_suspend"):
            if want not in import_names:
                problems.append(f"import {want} missing: a module on engine stacks without stack switching "
                                f"switches through the JSPI glue (imports: {import_names})")
        if "llgo_jspi_run" not in exports:
            problems.append(f"export llgo_jspi_run missing (every goroutine's first frame; exports: {exports})")
    if no_asyncify:
        asyncify = [n for n in import_names if n.startswith("asyncify.")] + \
                   [n for n in exports if n.startswith("asyncify_")]
        if asyncify:
            problems.append(f"Asyncify in a module whose context needs none: {asyncify}")
        if eh_final == "exnref" and not try_tables:
            problems.append("no try_table: the target says capabilities.eh.final \"exnref\", but the module's "
                            "SjLj (every defer frame's setjmp) is not there as exnref")
        print(f"no Asyncify: {len(asyncify)} asyncify.* imports or asyncify_* exports, {try_tables} try_table")

    if not threads:
        if shared:
            problems.append(f"shared memory: {memory_lines}")
        for name in import_names:
            if jspi_glue and name.startswith("llgo_jspi."):
                continue  # the JSPI glue's (checked above)
            if not name.startswith("wasi_snapshot_preview1."):
                problems.append(f"import {name} (a module without threads imports only wasi_snapshot_preview1)")
        for want in ("_start", "memory"):
            if want not in exports:
                problems.append(f"export {want} missing (exports: {exports})")
    else:
        if not shared:
            problems.append(f"no shared memory (memories: {memory_lines})")
        for line in memory_lines:
            # wasm-objdump: "pages: initial=N max=M shared"; wasm-opt --print: "(memory $m N M shared)"
            limits = re.search(r"initial=(\d+) max=(\d+)", line) or re.search(r"(\d+) (\d+) shared", line)
            if "shared" in line and (not limits or limits.group(1) != limits.group(2)):
                problems.append(f"a shared memory that can grow ({line.strip()}): link it with "
                                "--initial-memory equal to --max-memory (docs/p1t.md, Limits)")
        if "wasi.thread-spawn" not in import_names:
            problems.append(f"no wasi.thread-spawn import (imports: {import_names})")
        if "_start" not in exports:
            problems.append(f"export _start missing (exports: {exports})")
    print(f"{a.module}: {len(import_names)} imports, memory {memory_lines}, exports {exports}")
    return report(a.module, target, problems)


def report(module, target, problems):
    if problems:
        for pr in problems:
            print("FAIL: " + pr)
        return 1
    print(f"ok: {target['name']} module checks passed ({module})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
