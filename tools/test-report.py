#!/usr/bin/env python3
"""tools/test-report.py: the summary at the end of tools/run-tests.sh.

  test-report.py LOG_DIR FULL [FAILED_PRESET...]

Reads what run-tests.sh left in LOG_DIR: junit-<preset>.xml (ctest --output-junit: every case
run, its status and time), counts.txt ("<preset> default|full <N>": the cases of each tier, from
`ctest -N`) and times.txt ("build|test <preset> <seconds>"), and prints the failed presets, the
time of each preset, the case count of each tier, the 15 slowest cases and, last, the line
"N passed, N failed" (N skipped, too, when any: a skipped case ran and said why it does not
apply, or that a known bug still holds it back).
"""
import collections
import glob
import os
import sys
import xml.etree.ElementTree as ET


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    log_dir, full, failed_presets = argv[1], argv[2] == "1", argv[3:]
    cases = []   # (seconds, preset, name, status)
    for path in sorted(glob.glob(os.path.join(log_dir, "junit-*.xml"))):
        preset = os.path.basename(path)[len("junit-"):-len(".xml")]
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as error:
            print(f"{path}: unreadable ({error})")
            continue
        for case in root.iter("testcase"):
            status = case.get("status", "run")
            if case.find("failure") is not None:
                status = "fail"
            elif case.find("skipped") is not None or status in ("notrun", "disabled"):
                status = "skipped"
            else:
                status = "pass" if status == "run" else status
            cases.append((float(case.get("time", 0) or 0), preset, case.get("name"), status))
    counts = collections.defaultdict(dict)
    if os.path.exists(os.path.join(log_dir, "counts.txt")):
        for line in open(os.path.join(log_dir, "counts.txt")):
            preset, tier, n = line.split()
            counts[preset][tier] = int(n)
    times = collections.defaultdict(dict)
    if os.path.exists(os.path.join(log_dir, "times.txt")):
        for line in open(os.path.join(log_dir, "times.txt")):
            phase, preset, seconds = line.split()
            times[preset][phase] = int(seconds)

    print()
    print("=== time per preset (build = configure + build; test = ctest; a tree's tests run while the next builds)")
    run = times.pop("all", {}).get("run")
    for preset, t in times.items():
        print(f"  {preset:24} build {t.get('build', 0):5d} s   test {t.get('test', 0):5d} s")
    if run is not None:
        print(f"  the whole run, setup included: {run} s ({run / 60:.1f} min) on {os.cpu_count()} cores")
    print("=== cases per tier (ctest -N; the full tier is the default tier plus the cases labelled full)")
    default = sum(c.get("default", 0) for c in counts.values())
    full_only = sum(c.get("full", 0) for c in counts.values())
    for preset, c in counts.items():
        print(f"  {preset:24} default {c.get('default', 0):5d}   full only {c.get('full', 0):5d}")
    print(f"  default tier: {default} cases; full tier: {default + full_only} cases "
          f"({full_only} more, tools/run-tests.sh --full); this run: the {'full' if full else 'default'} tier")
    print("=== the 15 slowest cases of this run")
    for seconds, preset, name, status in sorted(cases, reverse=True)[:15]:
        print(f"  {seconds:7.2f} s  {preset:22} {name}{'' if status == 'pass' else '  (' + status + ')'}")
    if failed_presets:
        print("failed presets: " + " ".join(failed_presets))
    passed = sum(1 for c in cases if c[3] == "pass")
    failed = sum(1 for c in cases if c[3] == "fail")
    skipped = sum(1 for c in cases if c[3] == "skipped")
    # A preset that did not build ran no case: it counts as one failure.
    built_or_not = {c[1] for c in cases}
    failed += sum(1 for p in failed_presets if p not in built_or_not)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
