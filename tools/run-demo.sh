#!/usr/bin/env bash
# tools/run-demo.sh: the main job. Sets up the toolchain (idempotent), builds the driver once, each
# variant's runtime and its scheduler fixture (the demo program) and nothing else, resolves the
# targets with the driver, and runs the scheduler demo on each variant under each of its engines,
# printing one line per run: variant, engine, backend, result, wall time.
#
# The presets and how they are built come from tools/presets.py (plan demo): the install tree
# compiles the driver, the CLI and the checker (nothing else of it is built), and every target
# preset builds its runtime per context backend and the fixture on them (LLGO_WASM_DEMO_ONLY).
# A tree the test suite left (or an earlier demo) is reused as it is: not configured again, only
# brought up to date, so in CI, after the tests, nothing is configured or compiled again. Each
# preset's demo cases run while the next preset builds (two lanes, as in tools/run-tests.sh).
# PRESETS="j32 wasip1" runs only those.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Emscripten's tools start Python for every compile and link: give them the interpreter itself
# (EMSDK_PYTHON), not a version manager's shim in PATH (pyenv's costs about 0.45 s of CPU per
# start, more than half of what an emcc compile costs; docs/testing.md, Measured).
if [ -z "${EMSDK_PYTHON:-}" ] && command -v python3 >/dev/null; then
  EMSDK_PYTHON=$(python3 -c 'import sys; print(sys.executable)') && export EMSDK_PYTHON
fi

bash tools/setup-toolchain.sh || { echo "toolchain setup failed" >&2; exit 1; }
if command -v ccache >/dev/null; then
  export LLGO_WASM_HOST_COMPILER_LAUNCHER=${LLGO_WASM_HOST_COMPILER_LAUNCHER-ccache}
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
fi

mkdir -p build   # a fresh clone has no build/ yet: every log below lives there
mapfile -t plan < <(python3 tools/presets.py plan demo --only "${PRESETS:-}") || exit 1
if [ ${#plan[@]} -eq 0 ]; then echo "no preset to run" >&2; exit 1; fi
status=0
# Configure a tree only if it is not configured yet; an existing one (the test suite's) is kept.
configure() {
  local p=$1; shift
  [ -f "build/$p/CMakeCache.txt" ] || cmake --preset "$p" "$@"
}

# The demo cases of one built preset, run in the background lane: its rows go to
# build/<preset>/demo-rows.txt, a failure to build/<preset>/demo-failed.
demo_cases() {
  local p=$1 junit=build/$1/demo-junit.xml
  rm -f "$junit" "build/$p/demo-rows.txt" "build/$p/demo-failed"
  ctest --test-dir "build/$p" -L demo -j "$(nproc)" --output-junit "$PWD/$junit" > "build/demo-$p-ctest.log" 2>&1 ||
    touch "build/$p/demo-failed"
  if [ ! -s "$junit" ] || ! grep -q '<testcase' "$junit"; then
    echo "preset $p ran no demo case; see build/demo-$p-ctest.log"; touch "build/$p/demo-failed"; return
  fi
  # The demo's own cases (the junit also records the fixtures they need, such as the shared browser).
  ctest --test-dir "build/$p" -N -L demo -FA '.*' | sed -n 's/^ *Test *#[0-9]*: //p' > "build/$p/demo-cases.txt"
  python3 - "$junit" "build/$p/demo-cases.txt" > "build/$p/demo-rows.txt" <<'PY'
import sys, xml.etree.ElementTree as ET
demo = set(open(sys.argv[2]).read().split())
for tc in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if tc.get("name") not in demo:
        continue
    parts = tc.get("name").split(".")
    variant, engine = parts[1], parts[2]
    backend = parts[3] if len(parts) > 4 else "-"
    result = "ok" if tc.get("status") == "run" else "FAILED"
    print(f"{variant:8} {engine:18} {backend:18} {result:7} {float(tc.get('time')):7.2f} s   {tc.get('name')}")
PY
}

# The lane: one preset's demo cases at a time, in build order.
queue=build/.demo-queue
rm -f "$queue"; mkfifo "$queue"
( while read -r p; do demo_cases "$p"; done < "$queue" ) &
lane=$!
exec 3> "$queue"
ran=()
for entry in "${plan[@]}"; do
  IFS=$'\t' read -r -a fields <<<"$entry"
  p=${fields[0]} role=${fields[1]} options=("${fields[@]:2}")
  echo "=== building preset $p"
  log=build/demo-$p.log
  if [ "$role" = tools ]; then
    if ! { configure "$p" "${options[@]}" && cmake --build --preset "$p" --target llgo-wasm llgo_wasm_check_run; } > "$log" 2>&1; then
      echo "build of the driver (preset $p) FAILED; see $log"; tail -n 20 "$log"; exec 3>&-; wait "$lane"; exit 1
    fi
    driver=build/$p/driver/cli/llgo-wasm
    echo "=== resolved targets (llgo-wasm resolve)"
    # Every built-in target, by the request that picks it (llgo-wasm targets --json): a platform
    # default by its GOOS/GOARCH and the environment it requires, any other by its name.
    mapfile -t requests < <("$driver" targets --json | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    env = [f"--env {k}={v}" for k, v in sorted(t["requires-env"].items())]
    goos, goarch, name = t["goos"], t["goarch"], t["name"]
    print(" ".join([f"--goos {goos} --goarch {goarch}"] + env) if t["platform-default"] else f"--target {name}")
')
    [ ${#requests[@]} -gt 0 ] || { echo "llgo-wasm targets --json listed no target"; status=1; }
    for req in "${requests[@]}"; do
      # shellcheck disable=SC2086
      "$driver" resolve $req || status=1
    done
    continue
  fi
  if ! { configure "$p" "${options[@]}" && cmake --build --preset "$p"; } > "$log" 2>&1; then
    echo "build of preset $p FAILED; see $log"; tail -n 20 "$log"; status=1; continue
  fi
  # The demo cases are the ctest cases labelled "demo"; their names are
  # <kind>.<variant>.<engine>[.<backend>].<mode>. They run while the next preset builds.
  echo "$p" >&3
  ran+=("$p")
done
exec 3>&-
wait "$lane"
rm -f "$queue"
rows=()
for p in "${ran[@]}"; do
  [ -e "build/$p/demo-failed" ] && status=1
  [ -f "build/$p/demo-rows.txt" ] || continue
  while IFS= read -r row; do rows+=("$row"); done < "build/$p/demo-rows.txt"
done
echo
printf '%-8s %-18s %-18s %-7s %9s\n' variant engine backend result "wall"
printf '%s\n' "${rows[@]}"
exit $status
