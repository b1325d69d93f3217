#!/usr/bin/env python3
"""Line coverage of the runtime's C sources, from clang's source-based coverage of a build tree.

Usage: runtime_coverage.py --build-dir DIR --profiles DIR --llvm-profdata P --llvm-cov C
                           [--require-full FILE.c ...] [--reset]

The runtime, its fixtures and unit tests are compiled with -fprofile-instr-generate
-fcoverage-mapping (cmake/LlgoRuntimeBuildFlags.cmake): every process writes its counts into
--profiles when it exits, death cases included (llgo_fatal exits with exit(), which runs the
writer). This merges them (llvm-profdata), reads the coverage mapping of every object file of a
runtime source (runtime/src/*.c, compiled as NAME.c.o) under --build-dir, and asks llvm-cov for
each file's line counts. A line counts as covered if any object executed it (the same file is
compiled once per backend). Regions are counted when they are entered, so the lines of a block
that ends in a call that exits the process count too. Lines marked LCOV_EXCL_LINE, or between
LCOV_EXCL_START and LCOV_EXCL_STOP, are not counted (the lcov convention; used only for guards
that cannot run, e.g. after a call that never returns), nor are lines of nothing but braces.
Prints per-file and total line coverage;
exits 1 if a --require-full file is below 100% (naming its lines not executed) or has no data.
--reset deletes the profiles instead (run before the tests).
"""
import argparse
import os
import re
import subprocess
import sys

TESTS_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
RUNTIME_SRC = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "runtime", "src"))


def runtime_sources():
    return sorted(f for f in os.listdir(RUNTIME_SRC) if f.endswith(".c"))


def object_files(build_dir, names):
    for root, _dirs, files in os.walk(build_dir):
        for f in files:
            # CMake objects are NAME.c.o.
            if f.endswith(".o") and f[: -len(".o")] in names:
                yield os.path.join(root, f)


BRACES_ONLY = re.compile(r"^\s*[{}]+\s*$")


def excluded_lines(name):
    """The line numbers of runtime/src/NAME that are not counted: those LCOV_EXCL_* markers leave
    out, and those that hold nothing but braces. llvm-cov gives a closing brace the count of the
    region it closes, so the `}` after an excluded `return` would read as never executed; no
    brace is code of its own (gcov does not count them either)."""
    excluded = set()
    inside = False
    with open(os.path.join(RUNTIME_SRC, name)) as f:
        for number, text in enumerate(f, 1):
            if "LCOV_EXCL_START" in text:
                inside = True
            if inside or "LCOV_EXCL_LINE" in text or BRACES_ONLY.match(text):
                excluded.add(number)
            if "LCOV_EXCL_STOP" in text:
                inside = False
    return excluded


def parse_lcov(text, wanted, lines_by_file):
    """Adds the DA records of llvm-cov's lcov export for the runtime's files to lines_by_file."""
    current = None
    for record in text.splitlines():
        if record.startswith("SF:"):
            path = record[3:]
            name = os.path.basename(path)
            # Not a test program of the same name (tests/fixtures/scheduler.c); the runtime's
            # files are compiled in place or from copies in the build tree.
            in_runtime = not os.path.realpath(path).startswith(os.path.realpath(TESTS_DIR) + os.sep)
            current = name if name in wanted and in_runtime else None
        elif record.startswith("DA:") and current is not None:
            number, count = record[3:].split(",")[:2]
            table = lines_by_file.setdefault(current, {})
            line = int(number)
            table[line] = table.get(line, False) or int(count) > 0
        elif record == "end_of_record":
            current = None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--profiles", required=True)
    parser.add_argument("--llvm-profdata", default="llvm-profdata")
    parser.add_argument("--llvm-cov", default="llvm-cov")
    parser.add_argument("--require-full", action="append", default=[])
    parser.add_argument("--reset", action="store_true")
    args = parser.parse_args()

    profiles = os.path.abspath(args.profiles)
    raw = sorted(os.path.join(profiles, f) for f in os.listdir(profiles) if f.endswith(".profraw")) \
        if os.path.isdir(profiles) else []
    if args.reset:
        for f in raw:
            os.remove(f)
        print(f"removed {len(raw)} runtime coverage profile(s) from {profiles}")
        return 0
    if not raw:
        print(f"no coverage profiles in {profiles}: build with -DLLGO_WASM_COVERAGE=ON (clang) and run the tests")
        return 1

    names = set(runtime_sources())
    objects = sorted(object_files(os.path.abspath(args.build_dir), names))
    if not objects:
        print(f"no object file of a runtime source under {args.build_dir}")
        return 1
    merged = os.path.join(os.path.dirname(profiles), "runtime.profdata")
    result = subprocess.run([args.llvm_profdata, "merge", "-sparse", "-o", merged, *raw], capture_output=True, text=True)
    if result.returncode != 0:
        print(f"llvm-profdata merge failed:\n{result.stderr}", file=sys.stderr)
        return 1
    objects_args = [objects[0]] + [a for o in objects[1:] for a in ("-object", o)]
    result = subprocess.run([args.llvm_cov, "export", "-format=lcov", "-skip-functions", "-instr-profile", merged,
                             *objects_args], capture_output=True, text=True)
    if result.returncode != 0:
        print(f"llvm-cov export failed:\n{result.stderr}", file=sys.stderr)
        return 1
    lines_by_file = {}
    parse_lcov(result.stdout, names, lines_by_file)
    for name, table in lines_by_file.items():
        for line in excluded_lines(name):
            table.pop(line, None)
    print(f"{len(raw)} profile(s), {len(objects)} object(s)")

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
            print(f"no coverage data for {name}: build with -DLLGO_WASM_COVERAGE=ON (clang) and run the tests")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
