#!/usr/bin/env bash
# tools/run-tests.sh [--full]: set up the toolchain (idempotent) and run the test suite.
#
# The default tier (no argument; what README's second command and CI run) runs every case of every
# test program at least once on every variant and context backend, each engine kind on a
# representative subset, the host code under ASan+UBSan with the runtime's line coverage, and each
# fuzzer for 10 s. --full adds the whole cross product: every case on every engine, the other
# optimisation levels, the plain native tree's cases, 1,000 random scheduler programs per backend,
# the cases that need the wall clock, and 60 s per fuzzer (docs/testing.md).
#
# The trees are the presets of CMakePresets.json, built in this order and tested after all are
# built (so ctest keeps the cores busy across trees):
#   1. the tree that installs (preset `install`): the driver, the CLI and the test checker, built
#      once, plain; its tests install it, runtimes included, and build programs against it
#   2. every other preset without its own instrumentation, on those tools
#      (LLGO_WASM_HOST_TOOLS_FROM): each builds only its target's runtime and programs
#   3. the presets that instrument the host code (sanitizers and coverage, fuzzing): each builds
#      the driver once more, instrumented
# The install tree takes the runtimes the target trees built (LLGO_WASM_INSTALL_RUNTIMES_FROM).
# A target built by an instrumented tree too (the host) runs its test-program cases there in the
# default tier; its plain tree's are full-tier (LLGO_WASM_PROGRAM_CASES_TIER=full).
#
# Ends with one summary line "N passed, N failed" over all ctest cases, the case count of each
# tier, the time of each tree and the 15 slowest cases. Exit status 0 only if every tree passed.
#   PRESETS="install wasip1" tools/run-tests.sh   only those presets (the tools' tree comes first
#                                                 whenever another needs it).
# Logs: build/logs/ (test-<preset>.log, junit-<preset>.xml, failures.txt, summary.txt).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

full=0
case "${1:-}" in
  "") ;;
  --full) full=1 ;;
  *) echo "usage: tools/run-tests.sh [--full]" >&2; exit 2 ;;
esac

bash tools/setup-toolchain.sh || { echo "toolchain setup failed" >&2; exit 1; }

# Host code compiles through ccache, its cache in this checkout's build/ (a fresh clone measures
# what CI measures; paths are hashed relative to the checkout).
if command -v ccache >/dev/null; then
  export LLGO_WASM_HOST_COMPILER_LAUNCHER=${LLGO_WASM_HOST_COMPILER_LAUNCHER-ccache}
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
fi
jobs=$(nproc)
mkdir -p build/logs
rm -f build/logs/junit-*.xml build/logs/lasttest-*.log build/logs/times.txt build/logs/counts.txt
failures=build/logs/failures.txt   # what each failed case printed; .ci/run prints it last
: > "$failures"

# Every preset's role, from CMakePresets.json: "tools" (builds and installs the driver), "own"
# (instruments the host code, so builds its own), or "target" (uses the tools' tree); and the
# options its configuration gets in this run.
mapfile -t plan < <(python3 - "$full" "${PRESETS:-}" <<'PY'
import json, sys
full, only = sys.argv[1] == "1", sys.argv[2].split()
presets = {p["name"]: p for p in json.load(open("CMakePresets.json"))["configurePresets"]}
def cache(p):
    values = {}
    for parent in ([p["inherits"]] if isinstance(p.get("inherits"), str) else p.get("inherits", [])):
        values.update(cache(presets[parent]))
    values.update(p.get("cacheVariables", {}))
    return values
visible = [n for n, p in presets.items() if not p.get("hidden")]
info = {n: cache(presets[n]) for n in visible}
on = lambda v: str(v).upper() in ("ON", "TRUE", "1", "YES")
def role(n):
    c = info[n]
    if c.get("LLGO_WASM_TREE_TESTS", "ON") == "OFF":
        return "tools"
    if any(on(c.get(k, "OFF")) for k in ("LLGO_WASM_SANITIZE", "LLGO_WASM_COVERAGE", "LLGO_WASM_FUZZ")):
        return "own"
    return "target"
tools = [n for n in visible if role(n) == "tools"]
if len(tools) != 1:
    sys.exit(f"CMakePresets.json: expected one preset with LLGO_WASM_TREE_TESTS=OFF (the install tree), found {tools}")
tools = tools[0]
instrumented_targets = {info[n].get("LLGO_WASM_TARGET") for n in visible
                        if role(n) == "own" and not on(info[n].get("LLGO_WASM_FUZZ", "OFF"))}
chosen = [n for n in visible if not only or n in only]
unknown = [n for n in only if n not in visible]
if unknown:
    sys.exit(f"PRESETS names {unknown}, which CMakePresets.json does not have: {visible}")
if any(role(n) == "target" for n in chosen) and tools not in chosen:
    chosen.insert(0, tools)
order = [n for n in chosen if role(n) == "tools"] + [n for n in chosen if role(n) == "target"] + \
        [n for n in chosen if role(n) == "own"]
for n in order:
    options = []
    if full:
        options.append("-DLLGO_WASM_FULL_TESTS=ON")
    if role(n) == "tools":
        options.append("-DLLGO_WASM_INSTALL_RUNTIMES_FROM=build")
    elif role(n) == "target":
        options.append(f"-DLLGO_WASM_HOST_TOOLS_FROM=build/{tools}")
        if info[n].get("LLGO_WASM_TARGET") in instrumented_targets:
            options.append("-DLLGO_WASM_PROGRAM_CASES_TIER=full")
    print(n + " " + " ".join(options))
PY
) || exit 1
if [ ${#plan[@]} -eq 0 ]; then echo "no preset to run" >&2; exit 1; fi

built=() bad_presets=()
for entry in "${plan[@]}"; do
  read -r p options <<<"$entry"
  echo "=== build $p${options:+ ($options)}"
  t0=$(date +%s)
  log=build/logs/test-$p.log
  # shellcheck disable=SC2086
  if { cmake --preset "$p" --fresh $options && cmake --build --preset "$p"; } > "$log" 2>&1; then
    built+=("$p")
  else
    bad_presets+=("$p")
    { echo "--- $p: configure or build failed; its last lines (all of it: $log):"
      tail -n 25 "$log" | sed 's/^/    /'; } | tee -a "$failures"
  fi
  echo "build $p $(( $(date +%s) - t0 ))" >> build/logs/times.txt
done

label_filter=(-LE full)
[ $full = 1 ] && label_filter=()
for p in "${built[@]}"; do
  echo "=== test $p"
  t0=$(date +%s)
  log=build/logs/test-$p.log
  { ctest --test-dir "build/$p" -N -LE full | sed -n 's/^Total Tests: /default /p'
    ctest --test-dir "build/$p" -N -L full | sed -n 's/^Total Tests: /full /p'; } |
    sed "s/^/$p /" >> build/logs/counts.txt
  ctest --test-dir "build/$p" -j "$jobs" --output-on-failure --timeout 600 --no-tests=error \
        "${label_filter[@]}" --output-junit "$PWD/build/logs/junit-$p.xml" >> "$log" 2>&1
  rc=$?
  tail -n 3 "$log" | sed 's/^/    /'
  if [ $rc != 0 ]; then
    bad_presets+=("$p")
    record=build/$p/Testing/Temporary/LastTest.log
    [ -f "$record" ] && cp "$record" "build/logs/lasttest-$p.log"
    python3 tools/failed-tests.py "$p" "build/logs/lasttest-$p.log" >> "$failures"
  fi
  if ctest --test-dir "build/$p" -N -R '^runtime\.coverage$' | grep -q '^Total Tests: 1$'; then
    echo "=== runtime line coverage (gcov, native tests, $p):"
    ctest --test-dir "build/$p" -R '^runtime\.coverage$' -V 2>&1 | sed -n 's/^[0-9]*: \(.*%\|file .*\)$/  \1/p'
  fi
  echo "test $p $(( $(date +%s) - t0 ))" >> build/logs/times.txt
done

python3 tools/test-report.py build/logs "$full" "${bad_presets[@]}" | tee build/logs/summary.txt
[ ${#bad_presets[@]} -eq 0 ]
