#!/usr/bin/env bash
# tools/run-tests.sh: set up the toolchain (idempotent) and run every test of every preset.
#
# Runs, in order, the workflow (configure, build, ctest) of each preset below in a fresh build
# tree under build/, keeps going after a failure, and ends with one summary line
# "N passed, N failed" over all ctest cases. Exit status 0 only if every preset passed.
#   PRESETS="native wasip1" tools/run-tests.sh   runs only those presets.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash tools/setup-toolchain.sh || { echo "toolchain setup failed" >&2; exit 1; }

# Every preset builds the driver: ccache (installed by the setup) compiles each identical host
# translation unit once per run. Its cache lives in this checkout's build/ so a fresh clone
# measures what CI measures; paths are hashed relative to the checkout.
if command -v ccache >/dev/null; then
  export LLGO_WASM_HOST_COMPILER_LAUNCHER=${LLGO_WASM_HOST_COMPILER_LAUNCHER-ccache}
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
fi

# native-aarch64 (right after native, whose driver objects it reuses through ccache) cross-builds
# the native runtime for aarch64 and runs its 254 tests under qemu-aarch64: about 1 min (51 s
# measured on the 2-core machine under load; 7 min if it had to compile the driver itself).
# native-fuzz runs each libFuzzer target for LLGO_WASM_FUZZ_SECONDS (60 by default; the long
# run is a separate command, docs/reliability.md): about 150 s of fuzzing, 2 at a time.
PRESETS=${PRESETS:-"native native-aarch64 native-sanitize native-coverage native-fuzz j32 j64 wasip1 wasip1-stack-switching wasip1-threads install"}
passed=0; failed=0; bad_presets=()
mkdir -p build/logs
failures=build/logs/failures.txt   # what each failed case printed; .ci/run prints it last
: > "$failures"
for p in $PRESETS; do
  echo "=== preset $p"
  t0=$(date +%s)
  log=build/logs/test-$p.log
  cmake --workflow --preset "$p" --fresh 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  # ctest's summary: "NN% tests passed, F tests failed out of T"
  summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1)
  if [ -n "$summary" ]; then
    f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")
    t=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$summary")
    passed=$((passed + t - f)); failed=$((failed + f))
  fi
  if [ "$rc" != 0 ]; then
    bad_presets+=("$p")
    [ -n "$summary" ] || failed=$((failed + 1))   # configure/build failure: count it as a failure
    # ctest's record of this preset's run (the demo's later ctest run overwrites it in place).
    record=build/$p/Testing/Temporary/LastTest.log
    [ -f "$record" ] && cp "$record" "build/logs/lasttest-$p.log"
    if [ -n "$summary" ]; then
      python3 tools/failed-tests.py "$p" "build/logs/lasttest-$p.log" >> "$failures"
    else
      { echo "--- $p: configure or build failed (exit $rc); its last lines:"
        tail -n 15 "$log" | sed 's/^/    /'; } >> "$failures"
    fi
  fi
  if [ "$p" = native-coverage ] && [ "$rc" = 0 ]; then
    echo "=== runtime line coverage (gcov, native tests):"
    ctest --test-dir build/native-coverage -R '^runtime\.coverage$' -V 2>&1 | sed -n 's/^[0-9]*: \(.*%\|file .*\)$/  \1/p'
  fi
  echo "=== preset $p: exit $rc in $(( $(date +%s) - t0 )) s"
done
{ [ ${#bad_presets[@]} -eq 0 ] || echo "failed presets: ${bad_presets[*]}"
  echo "$passed passed, $failed failed"; } | tee build/logs/summary.txt
[ ${#bad_presets[@]} -eq 0 ]
