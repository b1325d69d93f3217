#!/usr/bin/env bash
# run-fuzzer.sh FUZZER SEED_DIR WORK_DIR SECONDS [extra libFuzzer flags...]
#
# Runs one libFuzzer binary for SECONDS over its seed corpus plus a work corpus (which keeps
# what it finds between runs), and fails on any crash, leak, timeout (10 s per input), out of
# memory (2 GiB) or sanitizer report; the offending input is written under WORK_DIR/../artifacts
# and a command to reproduce it is printed. Prints libFuzzer's last status line (coverage, corpus
# size) and final statistics (executions, executions per second) as the last lines.
set -uo pipefail
# Absolute paths: a fuzzer may change its working directory (fuzz_c_api does).
fuzzer=$(realpath -m "$1") seeds=$(realpath -m "$2") work=$(realpath -m "$3") seconds=$4
shift 4
name=$(basename "$fuzzer")
artifacts=$(dirname "$work")/artifacts
mkdir -p "$work" "$artifacts"
log=$(dirname "$work")/$(basename "$work").log
# Leaks are checked (ASan's LeakSanitizer); UBSan stops at the first report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$artifacts/$name-" "$@" "$work" "$seeds" >"$log" 2>&1
status=$?
corpus_files=$(find "$work" -type f | wc -l)
if [ $status -ne 0 ]; then
  tail -n 60 "$log"
  echo "FAIL $name: libFuzzer exited $status (log: $log)"
  for artifact in "$artifacts/$name-"*; do
    [ -e "$artifact" ] && echo "  reproduce: $fuzzer $artifact"
  done
  exit 1
fi
# The last status line (cov: edges covered, ft: features, corp: corpus entries/size), the totals.
grep -E '^#[0-9]+' "$log" | tail -n 1
grep -E '^Done [0-9]+ runs|^stat::' "$log"
echo "PASS $name: ${seconds} s, work corpus $corpus_files files"
