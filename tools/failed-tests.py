#!/usr/bin/env python3
"""tools/failed-tests.py: what each failed ctest case printed, for the end of a test run.

  failed-tests.py PRESET LASTTEST_LOG [--lines N]

Reads ctest's own record of a run (Testing/Temporary/LastTest.log, which holds every case's
command and output) and prints, for each case that did not pass, its name, its result and the
last N lines (25 by default) of its output. tools/run-tests.sh calls it after each preset that
failed and collects what it prints in build/logs/failures.txt; .ci/run prints that file last, so
that a failure is named in the tail of a CI log, which is often all that is kept of it.
"""
import re
import sys


def cases(text):
    """Yields (name, output, result) for every case in a LastTest.log."""
    # A case's record runs from "N/M Testing: name" to its '"name" end time:' line.
    for m in re.finditer(r'^\d+/\d+ Testing: (\S+)\n(.*?)^"\1" end time:', text, re.M | re.S):
        name, body = m.group(1), m.group(2)
        out = re.search(r'^Output:\n-+\n(.*?)^<end of output>', body, re.M | re.S)
        res = re.search(r'^Test time =\s*([\d.]+) sec\n-+\n(.*)\Z', body, re.M | re.S)
        result = (" ".join(res.group(2).split()) + f" (after {res.group(1)} s)") if res \
            else "no result recorded"
        yield name, out.group(1) if out else "", result


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    preset, path = argv[1], argv[2]
    lines = int(argv[argv.index("--lines") + 1]) if "--lines" in argv else 25
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        print(f"preset {preset}: no ctest record to read ({e})")
        return 0
    found = 0
    for name, output, result in cases(text):
        if result.startswith("Test Passed. "):
            continue
        found += 1
        tail = output.rstrip("\n").splitlines()[-lines:]
        print(f"--- {preset}: {name}: {result}")
        for line in tail:
            print(f"    {line}")
    if not found:
        print(f"preset {preset}: no failed case in {path} (configure or build failed?)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
