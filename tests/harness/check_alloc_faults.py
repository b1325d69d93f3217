#!/usr/bin/env python3
"""check_alloc_faults.py: allocator fault injection. Runs one goroutine program (channels,
select, timers, spawn, wait, defer, panic, recover, Goexit, recursion: every kind of allocation
the runtime makes) under
tests/runtime/scheddiff.c once to count the runtime's allocations (M), then once per N in 1..M
with the N-th allocation failing (llgo_test_fail_allocation). Each of those runs must end in the
documented fatal error, "fatal error: ...out of memory allocating <what>" and exit status 2: no
crash (signal, trap), no hang (timeout), no other output on stderr. A run with N = M + 1 must
finish normally with the trace of the run without injection.

  check_alloc_faults.py [--timeout S] [--sample K] -- COMMAND ARGS...

--sample K fails K of the allocations instead of every one: the first K/2 (the program's start:
the main goroutine, its first channels and timers) and the rest spread evenly over the others,
the last one included (the default test tier; the full tier fails each in turn). The summary
names the allocation kinds the runs reached.

Single-worker backends only (scheddiff.c is not thread-safe); the pthread backend's allocations
(its goroutine records) are not covered.
"""
import argparse
import collections
import re
import subprocess
import sys

import check_scheddiff
from engine_command import expand_environment

# The workload: the blocking workout first (channels, a close waking many, a large value,
# select over many cases, many timers, a sleep; scheddiff.c), then goroutines started directly
# and waited for, deferred calls, panics recovered in a deferred call and by the goroutine's
# base, a Goexit, recursion before a yield.
WORKLOAD = "b0s1[d2[r3]p4]w5[y6d7[e8]x9]c10[d11[r12]p13]k14:8W15[e16d17[r18]]s19[c20[d21[e22]x23]]"
FATAL = re.compile(r"^fatal error: (.*: )?out of memory allocating "
                   r"(a goroutine|a goroutine stack|a deferred call|a panic record|a channel"
                   r"|the goroutines a close wakes|a select's poll order|the timer heap|a timer"
                   r"|a waiter|a waiter's element buffer)( \(\d+ bytes\))?$")
# Tools' own notices that may precede the runtime's message (ASan on swapcontext).
IGNORED = re.compile(r"^==\d+==WARNING: ASan doesn't fully support makecontext/swapcontext")


def run(command, arguments, timeout):
    return subprocess.run(expand_environment(command) + arguments, capture_output=True, text=True, timeout=timeout)


def trace_of(stdout):
    for line in stdout.splitlines():
        if line.startswith("0 "):
            return line[2:]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--sample", type=int, default=0, metavar="K")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no engine command after --")
    expected = check_scheddiff.model(check_scheddiff.parse(WORKLOAD))

    clean = run(command, [WORKLOAD], args.timeout)
    counted = re.search(r"^allocations (\d+)$", clean.stdout, re.M)
    if clean.returncode != 0 or counted is None or trace_of(clean.stdout) != expected:
        print(f"the run without injection failed (exit {clean.returncode}):\n{clean.stdout}{clean.stderr}")
        print(f"expected trace: {expected}")
        return 1
    total = int(counted.group(1))

    failures = []
    messages = collections.Counter()
    chosen = list(range(1, total + 2))
    if 0 < args.sample < total:
        head = args.sample // 2
        rest = args.sample - head
        spread = {head + 1 + (i * (total - head - 1)) // max(rest - 1, 1) for i in range(rest)}
        chosen = sorted(set(range(1, head + 1)) | spread | {total, total + 1})
    for nth in chosen:
        where = f"allocation {nth} of {total}"
        rerun = " ".join(command + ["--fail-allocation", str(nth), repr(WORKLOAD)])
        try:
            result = run(command, ["--fail-allocation", str(nth), WORKLOAD], args.timeout)
        except subprocess.TimeoutExpired:
            failures.append(f"{where}: hung (no exit after {args.timeout:.0f} s); rerun: {rerun}")
            continue
        stderr = [line for line in result.stderr.splitlines() if not IGNORED.match(line)]
        if nth == total + 1:
            if result.returncode != 0 or trace_of(result.stdout) != expected:
                failures.append(f"no allocation failing (N = {nth}): exit {result.returncode}, "
                                f"stdout {result.stdout!r}, stderr {result.stderr!r}")
            continue
        if result.returncode != 2 or len(stderr) != 1 or not FATAL.match(stderr[0]):
            failures.append(f"{where}: exit {result.returncode}, stderr {result.stderr.strip()!r} "
                            f"(wanted exit 2 and one 'fatal error: ... out of memory allocating ...' line); "
                            f"rerun: {rerun}")
            continue
        messages[FATAL.match(stderr[0]).group(2)] += 1
    for failure in failures:
        print(failure)
    summary = ", ".join(f"{what} x{count}" for what, count in sorted(messages.items()))
    tried = len(chosen) - 1
    which = "each failing in turn" if tried == total else f"{tried} of them failing in turn (a sample)"
    print(f"{total} allocations, {which}: {tried - len(failures)} ended in the fatal error "
          f"({summary}); with none failing the program finished normally")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
