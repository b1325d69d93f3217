#!/usr/bin/env python3
"""check_run.py: run one command and check its exit status and output exactly.

Used by every ctest case that runs a program under an engine, so the expectations of a case are
written where the case is declared (CMake) and this script only compares:

  check_run.py --exit N [--stdout-line L]... [--stdout-exact F] [--stderr-line L]... \
               [--env K=V]... [--timeout S] -- COMMAND ARGS...

--stdout-line/--stderr-line: the line must appear, in the given order, among the output lines.
--stdout-exact FILE: stdout must equal FILE's content. On a mismatch the whole output is printed.
"""
import argparse
import os
import subprocess
import sys


def contains_in_order(lines, wanted):
    pos = 0
    for w in wanted:
        try:
            pos = lines.index(w, pos) + 1
        except ValueError:
            return w
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--exit", type=int, required=True)
    p.add_argument("--stdout-line", action="append", default=[])
    p.add_argument("--stderr-line", action="append", default=[])
    p.add_argument("--stdout-exact")
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        p.error("no command given after --")
    env = dict(os.environ)
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
    except FileNotFoundError as e:
        print(f"FAIL: cannot run {cmd[0]}: {e}")
        return 1
    except subprocess.TimeoutExpired:
        print(f"FAIL: timed out after {a.timeout} s: {' '.join(cmd)}")
        return 1
    problems = []
    if r.returncode != a.exit:
        problems.append(f"exit status {r.returncode}, expected {a.exit}")
    out_lines, err_lines = r.stdout.splitlines(), r.stderr.splitlines()
    missing = contains_in_order(out_lines, a.stdout_line)
    if missing is not None:
        problems.append(f"stdout lacks (in order) the line: {missing!r}")
    missing = contains_in_order(err_lines, a.stderr_line)
    if missing is not None:
        problems.append(f"stderr lacks (in order) the line: {missing!r}")
    if a.stdout_exact is not None:
        with open(a.stdout_exact) as f:
            if f.read() != r.stdout:
                problems.append(f"stdout differs from {a.stdout_exact}")
    print("$ " + " ".join(cmd))
    if problems:
        print("FAIL: " + "; ".join(problems))
        print("--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
        return 1
    print(f"ok: exit {r.returncode}, {len(out_lines)} stdout lines, {len(err_lines)} stderr lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
