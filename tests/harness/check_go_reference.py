#!/usr/bin/env python3
"""check_go_reference.py: Go itself prints what a test program's case expects.

A case of a test program (tests/harness/test_program.h) that mirrors a Go program has that program
beside its case file (tests/runtime/go/<case>/main.go, one Go module for all of them). This builds
it with Go and runs it, natively or as js/wasm under Node, through the suite's checker
(tests/harness/check_run.cpp, --go-trace), which compares it with the case file: the same exit
status, the same stdout, and the same stderr up to Go's goroutine trace line, which Go ends with
':' and follows with a stack trace (this runtime prints the line without ':' and has no trace;
docs/runtime.md).

  check_go_reference.py --check-run CHECK_RUN --case-file F.json --case NAME --package DIR
                        --out DIR --go GO [--node NODE --wasm-exec WASM_EXEC_JS]   (js/wasm)

Go writes nothing outside --out (GOCACHE, GOPATH, GOENV off) and downloads nothing (GOPROXY=off).
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path


def go_environment(out):
    env = dict(os.environ)
    env.update(GOCACHE=str(out / "gocache"), GOPATH=str(out / "gopath"), GOENV="off",
               GOPROXY="off", GOFLAGS="", GO111MODULE="on", CGO_ENABLED="0")
    return env


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--check-run", required=True)
    p.add_argument("--case-file", required=True)
    p.add_argument("--case", required=True)
    p.add_argument("--package", required=True, type=Path)
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--go", required=True)
    p.add_argument("--node")
    p.add_argument("--wasm-exec")
    a = p.parse_args()
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
    sys.stdout.flush()
    return subprocess.run([a.check_run, "--case-file", a.case_file, "--case", a.case, "--go-trace",
                           "--timeout", "120", "--"] + cmd).returncode


if __name__ == "__main__":
    sys.exit(main())
