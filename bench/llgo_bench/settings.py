"""Settings of a bench run: repetition counts (full and --quick), the shapes every variant is
measured at, and where the repository is."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
KIB = 1024
TIMEOUT_SECONDS = 300

# yield_total: switches per repetition, over all G goroutines. 500,000 (with the first repetition
# dropped) because V8 tiers the raw-Asyncify switch path up only after a few million switches:
# with 50,000 the medians mixed tiers and swung by 15-20% between runs (docs/performance.md).
FULL = dict(corpus_reps=5, corpus_rows=150_000, corpus_gzip_mib=16,
            chan_rounds=200_000, buffered_items=2_000_000, select_rounds=1_000_000,
            chan_reps=5, sleepers=10_000, sleeps=10, sleepers_reps=5, light_sleepers=100,
            yield_total=500_000, yield_reps=5, spawn_counts=[5_000, 100_000], spawn_reps=5,
            parked_count=10_000, parked_count_shared=100_000, parked_reps=3, cpu_mib=16, cpu_reps=3, link_reps=2,
            resolve_processes=40, resolve_iterations=20_000, resolve_reps=5,
            cache_key_files=8, cache_key_file_mib=8, cache_key_reps=5, startup_reps=20, whole_reps=3,
            binary_trees_depth=16, binary_trees_reps=3)
QUICK = dict(corpus_reps=2, corpus_rows=20_000, corpus_gzip_mib=2,
             chan_rounds=10_000, buffered_items=100_000, select_rounds=100_000,
             chan_reps=2, sleepers=1_000, sleeps=2, sleepers_reps=1, light_sleepers=10,
             yield_total=4_000, yield_reps=2, spawn_counts=[5_000, 100_000], spawn_reps=2,
             parked_count=10_000, parked_count_shared=100_000, parked_reps=1, cpu_mib=4, cpu_reps=2, link_reps=1,
             resolve_processes=5, resolve_iterations=1_000, resolve_reps=2,
             cache_key_files=2, cache_key_file_mib=2, cache_key_reps=2, startup_reps=3, whole_reps=1,
             binary_trees_depth=12, binary_trees_reps=1)
YIELD_GOROUTINES = [2, 10, 1000]
YIELD_DEPTHS = [1, 10]
PARKED_DEPTHS = [1, 10]
