#!/usr/bin/env python3
"""check_go_reference.py: Go itself prints what a test program's case expects.

A case of a test program (tests/harness/test_program.h) that mirrors a Go program has that program
beside its case file (tests/runtime/go/<case>/main.go, one Go module for all of them). This builds
it with Go and runs it, natively or as js/wasm under Node, and checks it against the case file:
the same exit status, the same stdout, and the same stderr up to Go's goroutine trace line,
which Go ends with ':' and follows with a stack trace (this runtime prints the line without ':'
and has no trace; docs/runtime.md).

  check_go_reference.py --case-file F.json --case NAME --package DIR --out DIR --go GO
                        [--node NODE --wasm-exec WASM_EXEC_JS]   (js/wasm instead of native)

Go writes nothing outside --out (GOCACHE, GOPATH, GOENV off) and downloads nothing (GOPROXY=off).
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import program_cases

TRACE_LINE = re.compile(r"^goroutine \d+ \[running\]:$")


def go_environment(out):
    env = dict(os.environ)
    env.update(GOCACHE=str(out / "gocache"), GOPATH=str(out / "gopath"), GOENV="off",
               GOPROXY="off", GOFLAGS="", GO111MODULE="on", CGO_ENABLED="0")
    return env


def stderr_up_to_trace_line(stderr):
    """Go's stderr cut after its trace line, the line written as this runtime writes it."""
    lines = []
    for line in stderr.splitlines():
        if TRACE_LINE.match(line):
            lines.append(line[:-1])
            break
        lines.append(line)
    return "".join(line + "\n" for line in lines)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--case-file", required=True)
    p.add_argument("--case", required=True)
    p.add_argument("--package", required=True, type=Path)
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--go", required=True)
    p.add_argument("--node")
    p.add_argument("--wasm-exec")
    a = p.parse_args()
    case = program_cases.load(a.case_file)["cases"].get(a.case)
    if case is None:
        print(f"FAIL: {a.case_file} has no case {a.case!r}")
        return 1
    js_wasm = a.node is not None
    a.out.mkdir(parents=True, exist_ok=True)
    env = go_environment(a.out.resolve())
    binary = a.out.resolve() / (a.case + (".wasm" if js_wasm else ""))
    if js_wasm:
        env.update(GOOS="js", GOARCH="wasm")
    build = subprocess.run([a.go, "build", "-o", str(binary), "."], cwd=a.package, env=env,
                           capture_output=True, text=True)
    if build.returncode != 0:
        print(f"FAIL: go build in {a.package}:\n{build.stdout}{build.stderr}")
        return 1
    runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runners",
                          "run-go-js-wasm.cjs")
    cmd = [a.node, runner, a.wasm_exec, str(binary)] if js_wasm else [str(binary)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    expected_stderr = case.get("stderr", "")
    problems = []
    if run.returncode != case["exit"]:
        problems.append(f"Go exits {run.returncode}, the case expects {case['exit']}")
    if run.stdout != case.get("stdout", ""):
        problems.append(f"Go's stdout is {run.stdout!r}, the case expects {case.get('stdout', '')!r}")
    if stderr_up_to_trace_line(run.stderr) != expected_stderr:
        problems.append(f"Go's stderr up to its trace line is {stderr_up_to_trace_line(run.stderr)!r}, "
                        f"the case expects {expected_stderr!r}")
    print("$ " + " ".join(cmd))
    if problems:
        print("FAIL: " + "; ".join(problems))
        print("--- Go's stderr ---\n" + run.stderr)
        return 1
    print(f"ok: Go ({'js/wasm' if js_wasm else 'native'}) prints what case {a.case} expects")
    return 0


if __name__ == "__main__":
    sys.exit(main())
