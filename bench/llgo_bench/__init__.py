"""bench/run.py: runs every llgo-wasm benchmark in one invocation and reports them side by side.

Called by bench/run.sh after the presets are built (those with a "llgo-wasm/bench" vendor entry in
CMakePresets.json, tools/presets.py); reads the bench-manifest.json files those builds wrote
(bench/superbuild.cmake in build/<preset>, bench/wasm-variant.cmake in each target build,
build/<preset>/target).

Runs, on every variant and backend (context backend x stack mode) under the same engine (Node >= 24
for wasm):
  runtime  yield (2/10/1,000 goroutines x call depth 1/10), spawn+exit (5,000 and 100,000 serial),
           memory per parked goroutine (100,000 parked where stacks are shared, 10,000 otherwise;
           1 and 10 frames deep), CPU kernel;
  blocking unbuffered channel ping-pong, buffered channel throughput (cap 128), select over 4
           ready cases, 10,000 goroutines sleeping 1 ms ten times (wall and CPU time): the same rows
           as Go's below, with the P1 ping-pong and the sleepers targets;
  asyncify the P1 link through `llgo-wasm link` with and without switch-point narrowing (module
           sizes, wasm-opt time) against the same core module optimised without --asyncify;
           the CPU kernel with and without Asyncify on P1, J32 and J64;
  startup  hello-goroutines (10 goroutines, one channel round trip each) on every variant (P1T
           too) and Go 1.24's js/wasm, wasip1 and native: module size raw and Brotli-11,
           declared initial/maximum memory, start to exit; and what a shared memory costs at
           creation by its initial size (bench/memory-reserve.mjs);
  whole    four whole programs (prime sieve, 64-stage pipeline, worker pool, 10,000 time.After
           selects) in C (bench/whole_programs.c) on P1, J32 and native, and in Go (bench/go/whole)
           built by Go 1.24: outputs checked equal, then wall time and peak RSS;
  stack switching (preset wasip1-stack-switching, every row on Node 26, the only engine that
           runs it): yield at call depth 1/10/30/50, spawn+exit, memory per parked goroutine
           (linear memory and the engine's resident memory), the CPU kernel and the module size,
           against raw Asyncify (the P1 build) and the same program without context support;
  driver   `llgo-wasm resolve` per process, in-library resolve (C++ and C API), cache-key
           hashing throughput against `sha256sum` on the same files;
  corpus   real programs (zlib's minigzip, the sqlite3 shell; sources from Debian's source
           packages, fetched by bench/corpus/fetch-sources.sh) and the goroutine benchmark, built
           through the toolchain files for P1, J32 and J64 without Asyncify, with wide Asyncify
           and with the call-graph narrowing: module size, link time, a CPU-bound run.
  Go       the same yield, spawn+exit and parked-memory figures measured on Go itself (bench/go,
           built by Debian bookworm's Go 1.19 and trixie's Go 1.24, the row's backend naming
           which): "Go js/wasm" under the same Node, "Go wasip1" (Go 1.24) under P1's Node WASI
           runner, "Go native" with GOMAXPROCS=1;
           plus unbuffered-channel ping-pong, buffered-channel throughput (capacity 128), select
           over 4 ready channels and 10,000 goroutines sleeping 1 ms ten times (wall and CPU),
           the anchors of the channel and timer benchmarks. Targets compare rows with them as
           ratios.
Every figure is repeated (min/median/max). Output: a table on stdout, bench/results/latest.json,
bench/results/yield.svg, and the targets (ratios in this run) with MET/MISSED and the margin.
A benchmark that cannot run (a build that failed, a crash) is reported as a missing row with its
reason and makes the exit status 1; nothing is left out silently.

Options: --quick (tiny counts, for development), --build-prefix P (the preset X was built in
P + X; default build/ of the repository), --out DIR (default: bench/results); the corpus:
--no-corpus, --only-corpus, --corpus-presets wasip1,j32,j64, --corpus-programs minigzip,sqlite3,goroutines.

One module per job: settings (counts, shapes), results (rows, missing figures, targets), programs
(running a program), discovery (presets, manifests, engines), links (the P1 link through the
driver), runtime (the runtime's benchmarks), go (Go itself), startup, whole, stack_switching, corpus, driver,
targets (their evaluation), report (table and chart), main (the run in order).
"""
