#!/usr/bin/env python3
"""check_run.py: run one command and check its exit status and output exactly.

Used by every ctest case that runs a program under an engine, so the expectations of a case are
written where the case is declared (CMake) and this script only compares:

  check_run.py --exit N [--stdout-line L]... [--stdout-exact F] [--stderr-line L]... \
               [--env K=V]... [--timeout S] -- COMMAND ARGS...

--stdout-line/--stderr-line: the line must appear, in the given order, among the output lines.
--stdout-exact FILE: stdout must equal FILE's content. On a mismatch the whole output is printed.

One case of a test program (tests/harness/test_program.h), expectations from its case file:

  check_run.py --case-file FILE.json --case NAME --where VARIANT/BACKEND -- COMMAND ARGS...

checks the exit status and the exact stdout and stderr the case file gives (feeding the stdin and
adding the environment it gives, if any); a case that does not
apply to VARIANT/BACKEND is not run: its reason is printed and the status is 77 (ctest's
SKIP_RETURN_CODE); one held back by a known bug runs, and is 77 while it fails, 1 once it passes. --stdout-names FILE.json: stdout's lines must be the file's case names (the
program's --list and its case file agree). --stderr-ignore REGEX drops matching stderr lines
first (a tool's own notices, such as ASan's warning about swapcontext).
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time

import program_cases

SKIPPED = 77


def contains_in_order(lines, wanted):
    pos = 0
    for w in wanted:
        try:
            pos = lines.index(w, pos) + 1
        except ValueError:
            return w
    return None


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run(cmd, env, timeout, stdin_feed):
    """Runs cmd to its end and returns a Result, or a "FAIL: ..." line when it cannot be run or
    runs past timeout. stdin_feed (a case's "stdin") makes its stdin a pipe that stays empty
    until the program has printed the line "after_line" on stdout (when given; from the start
    otherwise), then for "after_ms" more milliseconds, then gets "data" and end of file."""
    stdin_read = feed_end = None
    if stdin_feed is not None:
        stdin_read, feed_end = os.pipe()
    try:
        proc = subprocess.Popen(cmd, env=env, stdin=stdin_read, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    except FileNotFoundError as e:
        return f"FAIL: cannot run {cmd[0]}: {e}"
    finally:
        if stdin_read is not None:
            os.close(stdin_read)
    out, err = [], []
    line_seen = threading.Event()
    wanted = stdin_feed.get("after_line") if stdin_feed is not None else None

    def read_stdout():
        for line in proc.stdout:
            out.append(line)
            if wanted is not None and line.rstrip("\n") == wanted:
                line_seen.set()

    def read_stderr():
        err.append(proc.stderr.read())

    def feed():
        # Wait for the line (or for the program's end, which makes the write fail quietly).
        while wanted is not None and not line_seen.wait(0.05) and proc.poll() is None:
            pass
        time.sleep(stdin_feed["after_ms"] / 1000)
        try:
            os.write(feed_end, stdin_feed["data"].encode())
        except OSError:
            pass  # the program ended without reading: its output says what went wrong
        os.close(feed_end)

    readers = [threading.Thread(target=read_stdout, daemon=True),
               threading.Thread(target=read_stderr, daemon=True)]
    if stdin_feed is not None:
        readers.append(threading.Thread(target=feed, daemon=True))
    for t in readers:
        t.start()
    try:
        returncode = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return f"FAIL: timed out after {timeout} s: {' '.join(cmd)}"
    # The pipes end with the program, unless something it started still holds them.
    for t in readers[:2]:
        t.join(timeout=30)
    if any(t.is_alive() for t in readers[:2]):
        return (f"FAIL: {cmd[0]} exited with {returncode}, but its stdout or stderr stayed open "
                "30 s longer (a process it started still holds them)")
    return Result(returncode, "".join(out), "".join(err))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--exit", type=int)
    p.add_argument("--case-file")
    p.add_argument("--case")
    p.add_argument("--where", help="VARIANT/BACKEND the program was built for")
    p.add_argument("--stdout-names", metavar="CASE_FILE")
    p.add_argument("--stderr-ignore", action="append", default=[], metavar="REGEX",
                   help="drop stderr lines that match (a tool's own notices, e.g. a sanitizer's)")
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
    expected_stdout = expected_stderr = stderr_has = known_bug = stdin_feed = None
    if a.case is not None:
        if a.case_file is None or a.where is None or a.where.count("/") != 1:
            p.error("--case needs --case-file and --where VARIANT/BACKEND")
        try:
            data = program_cases.load(a.case_file)
        except program_cases.CaseFileError as error:
            print(f"FAIL: {error}")
            return 1
        if a.case not in data["cases"]:
            print(f"FAIL: {a.case_file} has no case {a.case!r}")
            return 1
        skip = program_cases.skip_reason(data, a.case, *a.where.split("/"))
        if skip is not None and not skip[1]:
            print(f"skipped on {a.where}: {skip[0]}")
            return SKIPPED
        known_bug = skip[0] if skip is not None else None
        case = data["cases"][a.case]
        a.exit = case["exit"]
        expected_stdout = case.get("stdout", "")
        stderr_has = case.get("stderr_has")
        stdin_feed = case.get("stdin")
        expected_stderr = None if stderr_has is not None else case.get("stderr", "")
    if a.exit is None:
        p.error("--exit N (or --case) is required")
    env = dict(os.environ)
    if a.case is not None:
        env.update(case.get("env", {}))
    for kv in a.env:
        k, _, v = kv.partition("=")
        env[k] = v
    r = run(cmd, env, a.timeout, stdin_feed)
    if isinstance(r, str):
        print(r)
        return 1
    if a.stderr_ignore:
        ignored = [re.compile(pattern) for pattern in a.stderr_ignore]
        r.stderr = "".join(line for line in r.stderr.splitlines(keepends=True)
                           if not any(pattern.search(line) for pattern in ignored))
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
    if expected_stdout is not None and r.stdout != expected_stdout:
        problems.append(f"stdout is {r.stdout!r}, expected {expected_stdout!r}")
    if expected_stderr is not None and r.stderr != expected_stderr:
        problems.append(f"stderr is {r.stderr!r}, expected {expected_stderr!r}")
    if stderr_has is not None and stderr_has not in r.stderr:
        problems.append(f"stderr lacks {stderr_has!r}")
    if a.stdout_names is not None:
        try:
            names = set(program_cases.load(a.stdout_names)["cases"])
        except program_cases.CaseFileError as error:
            print(f"FAIL: {error}")
            return 1
        listed = set(out_lines)
        if listed != names:
            problems.append(f"the program lists cases its case file lacks: {sorted(listed - names)}; "
                            f"the case file has cases the program lacks: {sorted(names - listed)}")
    if a.stdout_exact is not None:
        with open(a.stdout_exact) as f:
            if f.read() != r.stdout:
                problems.append(f"stdout differs from {a.stdout_exact}")
    print("$ " + " ".join(cmd))
    if known_bug is not None:
        if not problems:
            print(f"FAIL: the case passes on {a.where}, but its case file still says {known_bug} "
                  "(a known bug): remove that requirement")
            return 1
        print(f"skipped on {a.where}, {known_bug} (a known bug, still there: " + "; ".join(problems) + ")")
        return SKIPPED
    if problems:
        print("FAIL: " + "; ".join(problems))
        print("--- stdout ---\n" + r.stdout + "--- stderr ---\n" + r.stderr)
        return 1
    print(f"ok: exit {r.returncode}, {len(out_lines)} stdout lines, {len(err_lines)} stderr lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
