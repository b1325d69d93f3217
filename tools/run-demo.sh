#!/usr/bin/env bash
# tools/run-demo.sh: the main job. Sets up the toolchain (idempotent), resolves the targets
# with the driver, builds every variant from its preset, and runs the scheduler demo on each under
# its engine, printing one line per variant run: variant, engine, backend, result, wall time.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash tools/setup-toolchain.sh || { echo "toolchain setup failed" >&2; exit 1; }

PRESETS=${PRESETS:-"native j32 j64 wasip1 wasip1-stack-switching wasip1-threads"}
mkdir -p build   # a fresh clone has no build/ yet: every log below lives there
status=0
rows=()
for p in $PRESETS; do
  echo "=== building preset $p"
  if ! { cmake --preset "$p" >/dev/null && cmake --build --preset "$p"; } > "build/demo-$p.log" 2>&1; then
    echo "build of preset $p FAILED; see build/demo-$p.log"; tail -n 20 "build/demo-$p.log"; status=1; continue
  fi
  if [ "$p" = native ] && [ -x build/native/driver/cli/llgo-wasm ]; then
    echo "=== resolved targets (llgo-wasm resolve)"
    for req in "--target wasm" "--goos js --goarch wasm" "--goos wasip1 --goarch wasm" \
               "--goos wasip1 --goarch wasm --env LLGO_WASI_THREADS=1" ""; do
      # shellcheck disable=SC2086
      build/native/driver/cli/llgo-wasm resolve $req || status=1
    done
  fi
  # The demo cases are the ctest cases labelled "demo"; their names are
  # <kind>.<variant>.<engine>[.<backend>].<mode>.
  junit=build/$p/demo-junit.xml
  rm -f "$junit"
  ctest --preset "$p" -L demo --output-junit "$PWD/$junit" > "build/demo-$p-ctest.log" 2>&1 || status=1
  if [ ! -s "$junit" ] || ! grep -q '<testcase' "$junit"; then
    echo "preset $p ran no demo case; see build/demo-$p-ctest.log"; status=1; continue
  fi
  if [ -f "$junit" ]; then
    while IFS= read -r row; do rows+=("$row"); done < <(python3 - "$junit" <<'PY'
import sys, xml.etree.ElementTree as ET
for tc in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    parts = tc.get("name").split(".")
    variant, engine = parts[1], parts[2]
    backend = parts[3] if len(parts) > 4 else "-"
    result = "ok" if tc.get("status") == "run" else "FAILED"
    print(f"{variant:8} {engine:18} {backend:18} {result:7} {float(tc.get('time')):7.2f} s   {tc.get('name')}")
PY
)
  fi
done
echo
printf '%-8s %-18s %-18s %-7s %9s\n' variant engine backend result "wall"
printf '%s\n' "${rows[@]}"
exit $status
