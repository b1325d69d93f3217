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
# The trees are the presets of CMakePresets.json (tools/presets.py says which and how), built in
# this order, each tested as soon as it is built while the next one builds:
#   1. the tree that installs (preset `install`): the driver, the CLI and the test checker, built
#      once, plain; its tests install it, with the runtimes the target trees built, and build
#      programs against it
#   2. every other preset without its own instrumentation, on those tools: each builds only its
#      target's runtime and programs
#   3. the preset that instruments the host code (native-sanitize: one clang tree for ASan+UBSan,
#      the runtime's coverage and the fuzzers): it builds the driver once more, instrumented
# A target built by an instrumented tree too (the host) runs its test-program cases there in the
# default tier; its plain tree's are full-tier.
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

run_t0=$(date +%s)
# Emscripten's tools start Python for every compile and link: give them the interpreter itself
# (EMSDK_PYTHON), not a version manager's shim in PATH (pyenv's costs about 0.45 s of CPU per
# start, more than half of what an emcc compile costs; docs/testing.md, Measured).
if [ -z "${EMSDK_PYTHON:-}" ] && command -v python3 >/dev/null; then
  EMSDK_PYTHON=$(python3 -c 'import sys; print(sys.executable)') && export EMSDK_PYTHON
fi
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

# The presets to build, in order, each with its role and this run's options (tools/presets.py).
mapfile -t plan < <(python3 tools/presets.py plan tests $([ $full = 1 ] && echo --full) --only "${PRESETS:-}") || exit 1
if [ ${#plan[@]} -eq 0 ]; then echo "no preset to run" >&2; exit 1; fi

label_filter=(-LE full)
[ $full = 1 ] && label_filter=()
failed_list=build/logs/failed-presets.txt
: > "$failed_list"

# ctest of one built tree, after counting its cases per tier.
test_tree() {
  local p=$1 t0 log rc record
  echo "=== test $p"
  t0=$(date +%s)
  log=build/logs/test-$p.log
  { ctest --test-dir "build/$p" -N -LE full | sed -n 's/^Total Tests: /default /p'
    ctest --test-dir "build/$p" -N -L full | sed -n 's/^Total Tests: /full /p'; } |
    sed "s/^/$p /" >> build/logs/counts.txt
  ctest --test-dir "build/$p" -j "$jobs" --output-on-failure --timeout 600 --no-tests=error \
        "${label_filter[@]}" --output-junit "$PWD/build/logs/junit-$p.xml" >> "$log" 2>&1
  rc=$?
  echo "=== tested $p: $(grep -E '^[0-9]+% tests passed' "$log" | tail -n 1)"
  if [ $rc != 0 ]; then
    echo "$p" >> "$failed_list"
    record=build/$p/Testing/Temporary/LastTest.log
    [ -f "$record" ] && cp "$record" "build/logs/lasttest-$p.log"
    python3 tools/failed-tests.py "$p" "build/logs/lasttest-$p.log" >> "$failures"
  fi
  if ctest --test-dir "build/$p" -N -R '^runtime\.coverage$' | grep -q '^Total Tests: 1$'; then
    echo "=== runtime line coverage (clang source-based, native tests, $p):"
    ctest --test-dir "build/$p" -R '^runtime\.coverage$' -V 2>&1 | sed -n 's/^[0-9]*: \(.*%\|file .*\)$/  \1/p'
  fi
  echo "test $p $(( $(date +%s) - t0 ))" >> build/logs/times.txt
}

# Two lanes: this one configures and builds the trees in order; the test lane runs each tree's
# ctest as soon as its build is done, one tree at a time, so a tree's tests run while the next
# tree builds (a configure step or a ctest's last slow cases leave a core idle otherwise). The
# install tree is tested last: its tests install the runtimes the other trees built.
queue=build/logs/.test-queue
rm -f "$queue"; mkfifo "$queue"
( while read -r p; do test_tree "$p"; done < "$queue" ) &
lane=$!
exec 3> "$queue"
held=()
for entry in "${plan[@]}"; do
  IFS=$'\t' read -r -a fields <<<"$entry"
  p=${fields[0]} role=${fields[1]} options=("${fields[@]:2}")
  echo "=== build $p (${options[*]})"
  t0=$(date +%s)
  log=build/logs/test-$p.log
  if { cmake --preset "$p" --fresh "${options[@]}" && cmake --build --preset "$p"; } > "$log" 2>&1; then
    if [ "$role" = tools ]; then held+=("$p"); else echo "$p" >&3; fi
  else
    echo "$p" >> "$failed_list"
    { echo "--- $p: configure or build failed; its last lines (all of it: $log):"
      tail -n 25 "$log" | sed 's/^/    /'; } | tee -a "$failures"
  fi
  echo "build $p $(( $(date +%s) - t0 ))" >> build/logs/times.txt
done
for p in "${held[@]}"; do echo "$p" >&3; done
exec 3>&-
wait "$lane"
rm -f "$queue"
mapfile -t bad_presets < "$failed_list"
echo "run all $(( $(date +%s) - run_t0 ))" >> build/logs/times.txt

python3 tools/test-report.py build/logs "$full" "${bad_presets[@]}" | tee build/logs/summary.txt
[ ${#bad_presets[@]} -eq 0 ]
