#!/usr/bin/env python3
"""Line coverage of the runtime's C sources, from gcov data of a build tree.

Usage: runtime_coverage.py --build-dir DIR [--gcov GCOV] [--require-full FILE.c ...] [--reset]

Runs `gcov --stdout` on every .gcda file of a runtime source (runtime/src/*.c) found
under DIR, merges the results per source file (a line counts as covered if any
object executed it), and prints per-file and total line coverage. Lines marked
LCOV_EXCL_LINE, or between LCOV_EXCL_START and LCOV_EXCL_STOP, are not counted
(the lcov convention; used only for guards that cannot run, e.g. after a call that
never returns). Exits 1 if a --require-full file is below 100% or has no data.
--reset deletes those .gcda files instead (run before the tests).
"""
import argparse
import os
import subprocess
import sys

TESTS_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
RUNTIME_SRC = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "runtime", "src"))


def runtime_sources():
    return sorted(f for f in os.listdir(RUNTIME_SRC) if f.endswith(".c"))


def gcda_files(build_dir, names):
    for root, _dirs, files in os.walk(build_dir):
        for f in files:
            # CMake objects are NAME.c.o, so gcc writes NAME.c.gcda.
            if f.endswith(".gcda") and f[: -len(".gcda")] in names:
                yield os.path.join(root, f)


def parse_gcov_stdout(text, wanted, lines_by_file):
    current = None
    excluded = False
    for raw in text.splitlines():
        parts = raw.split(":", 2)
        if len(parts) < 3:
            continue
        count, number, source = parts[0].strip(), parts[1].strip(), parts[2]
        if number == "0":
            if source.startswith("Source:"):
                path = source[len("Source:"):]
                name = os.path.basename(path)
                # Not a test program of the same name (tests/fixtures/scheduler.c); the
                # runtime's files are compiled in place or from copies in the build tree.
                in_runtime = not os.path.realpath(path).startswith(os.path.realpath(TESTS_DIR) + os.sep)
                current = name if name in wanted and in_runtime else None
                excluded = False
            continue
        if current is None or not number.isdigit():
            continue
        if "LCOV_EXCL_START" in source:
            excluded = True
        if "LCOV_EXCL_STOP" in source:
            excluded = False
            continue
        if excluded or "LCOV_EXCL_LINE" in source or count == "-":
            continue
        executed = not (count.startswith("#") or count.startswith("="))
        table = lines_by_file.setdefault(current, {})
        line = int(number)
        table[line] = table.get(line, False) or executed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--gcov", default="gcov")
    parser.add_argument("--require-full", action="append", default=[])
    parser.add_argument("--reset", action="store_true")
    args = parser.parse_args()

    names = set(runtime_sources())
    files = list(gcda_files(os.path.abspath(args.build_dir), names))
    if args.reset:
        for f in files:
            os.remove(f)
        print(f"removed {len(files)} runtime .gcda file(s)")
        return 0

    lines_by_file = {}
    for gcda in files:
        result = subprocess.run(
            [args.gcov, "--stdout", "--object-directory", os.path.dirname(gcda), gcda],
            capture_output=True, text=True, cwd=os.path.dirname(gcda))
        if result.returncode != 0:
            print(f"gcov failed on {gcda}:\n{result.stderr}", file=sys.stderr)
            return 1
        parse_gcov_stdout(result.stdout, names, lines_by_file)

    failed = False
    total_lines = total_covered = 0
    print(f"{'file':32} {'lines':>7} {'covered':>8} {'percent':>8}")
    for name in sorted(lines_by_file):
        table = lines_by_file[name]
        covered = sum(1 for hit in table.values() if hit)
        total_lines += len(table)
        total_covered += covered
        percent = 100.0 * covered / len(table) if table else 100.0
        print(f"{name:32} {len(table):7} {covered:8} {percent:7.2f}%")
        if name in args.require_full and covered != len(table):
            missing = sorted(line for line, hit in table.items() if not hit)
            print(f"  {name} must be fully covered; lines not executed: {missing}")
            failed = True
    percent = 100.0 * total_covered / total_lines if total_lines else 0.0
    print(f"{'TOTAL':32} {total_lines:7} {total_covered:8} {percent:7.2f}%")
    for name in args.require_full:
        if name not in lines_by_file:
            print(f"no coverage data for {name}: build with -DLLGO_WASM_COVERAGE=ON and run the tests")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
