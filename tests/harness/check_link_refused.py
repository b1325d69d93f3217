#!/usr/bin/env python3
"""check_link_refused.py: a link that must FAIL, naming why.

  check_link_refused.py --symbol NAME --output FILE -- BUILD COMMAND...

Removes FILE (the program the command links), runs the command, and passes only if it exits
non-zero, its output (stdout and stderr) names NAME, and FILE was not written. Used for programs
that call llgo_gc_alloc on a target or context backend without the gc-roots capability: the
runtime's gc_refused.c makes their link fail on the undefined symbol NAME (docs/gc.md).
"""
import argparse
import os
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--symbol", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no build command after --")
    if os.path.exists(args.output):
        os.remove(args.output)
    result = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=args.timeout)
    output = result.stdout + result.stderr
    failures = []
    if result.returncode == 0:
        failures.append("the link succeeded (exit status 0); it must fail")
    if args.symbol not in output:
        failures.append(f"the output does not name {args.symbol}")
    if os.path.exists(args.output):
        failures.append(f"{args.output} was written")
    if failures:
        print("FAIL: " + "; ".join(failures))
        print("command: " + " ".join(command))
        print(output[-4000:])
        return 1
    print(f"the link failed (exit status {result.returncode}) naming {args.symbol}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
