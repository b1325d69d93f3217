#!/usr/bin/env bash
# bench/run.sh: builds what the benchmarks need and runs them all in one invocation.
#
#   bash bench/run.sh            configure + build the presets the benchmarks use (those with a
#                                "llgo-wasm/bench" vendor entry in CMakePresets.json:
#                                python3 tools/presets.py plan bench)
#                                (cmake --preset X && cmake --build --preset X), then run
#                                bench/run.py: table on stdout, bench/results/latest.json,
#                                bench/results/yield.svg, targets with MET/MISSED.
#   bash bench/run.sh --quick    tiny repetition counts (development; figures are not reportable)
# Environment: BENCH_SKIP_BUILD=1 reuses the existing build/<preset> folders as they are;
# BENCH_PRESETS="native wasip1" limits the presets built (the others' rows are reported missing);
# BENCH_BUILD_PREFIX=build/bench- builds into build/bench-<preset> instead of the presets' own
# build/<preset> (to stay clear of another build running there).
# A preset that fails to build does not stop the others; its benchmarks are reported as missing
# and the exit status is 1.
set -uo pipefail
cd "$(dirname "$0")/.."

presets=${BENCH_PRESETS:-}
if [[ -z "$presets" ]]; then
  presets=$(python3 tools/presets.py plan bench | cut -f1) || exit 1
fi
prefix=${BENCH_BUILD_PREFIX:-build/}
failed=""
mkdir -p build/bench
if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
  for preset in $presets; do
    echo "== building preset $preset" >&2
    log="build/bench/build-$preset.log"
    if ! { cmake --preset "$preset" -B "$prefix$preset" >/dev/null && cmake --build "$prefix$preset" -j 2; } >"$log" 2>&1; then
      echo "bench/run.sh: preset $preset failed to build; see $log (last lines below)" >&2
      tail -n 15 "$log" >&2
      failed="$failed $preset"
      continue
    fi
    # The benchmark programs are not part of the default build (EXCLUDE_FROM_ALL); -k 0 builds
    # every one that can be built, and run.py reports the others as missing.
    dir="$prefix$preset/target"   # the target build (runtime benchmark programs)
    if ! { cmake --build "$prefix$preset" --target bench_programs && \
           cmake --build "$dir" --target bench_programs -- -k 0; } >>"$log" 2>&1; then
      echo "bench/run.sh: some benchmark programs of $preset did not build; see $log" >&2
      grep -E "FAILED|error" "$log" | tail -n 8 >&2
      failed="$failed $preset(bench)"
    fi
  done
fi

python3 bench/run.py --build-prefix "$prefix" "$@"
status=$?
if [[ -n "$failed" ]]; then
  echo "bench/run.sh: presets that did not build:$failed" >&2
  status=1
fi
exit $status
