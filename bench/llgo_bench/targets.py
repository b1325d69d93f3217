"""The targets of a run: ratios and limits over the rows, MET or MISSED with the margin, or NOT
MEASURED when a row they compare is missing."""
from .corpus import corpus_targets
from .go import go_anchor_row, go_label
from .results import add_growth_target, add_ratio_target, add_target, add_unmeasured_target, find_row, rows
from .runtime import parked_params, sleepers_params
from .settings import YIELD_DEPTHS, YIELD_GOROUTINES
from .whole import PROGRAMS

GO_MISSING = "Go's row is missing from this run (bench/go did not build or run with that Go)"
# Which Go each platform's targets compare with (issue 31): P1 against Go 1.24's own WASI port on
# the same engine (Node's WASI, the runner P1 uses); js/wasm and native against the faster of the
# two Gos in this run.
P1_GO = ("wasip1", "go1.24")


def go_row(bench, platform, params, version="fastest"):
    """Go's own figure for the same benchmark in this run (bench/go), or None."""
    return go_anchor_row(bench, platform, params, version)


def p1_go_row(bench, params):
    return go_anchor_row(bench, P1_GO[0], params, P1_GO[1])


def evaluate_targets(settings):
    corpus_targets()
    if settings.get("only_corpus"):
        return
    # 1. P1 yield against Go 1.24 wasip1's runtime.Gosched (G=2): depth 1 <= 0.15x, depth 10 <= 0.3x
    for depth, limit in ((1, 0.15), (10, 0.3)):
        params = f"G=2 depth={depth}"
        anchor = p1_go_row("yield", params)
        add_ratio_target(f"P1 yield ({params}) <= {limit}x Go 1.24 wasip1 runtime.Gosched",
                         find_row("yield", "P1", "asyncify", params), anchor, limit,
                         go_label(anchor, "wasip1"), GO_MISSING)
    # 2. raw-Asyncify yield <= 0.15x Emscripten Fiber yield (same variant, same shape, this run)
    for variant in ("J32", "J64"):
        for goroutines in YIELD_GOROUTINES:
            for depth in YIELD_DEPTHS:
                params = f"G={goroutines} depth={depth}"
                name = f"{variant} raw-Asyncify yield <= 0.15x Fiber yield ({params})"
                fast, fiber = find_row("yield", variant, "asyncify", params), find_row("yield", variant, "emscripten-fiber", params)
                if fast and fiber:
                    add_target(name, fast["median"] / fiber["median"], 0.15, "max", "x",
                               f"{fast['median']:.1f} ns vs {fiber['median']:.1f} ns")
                else:
                    add_unmeasured_target(name, "a yield row is missing")
    # 3. P1 spawn+exit <= 0.1x Go 1.24 wasip1's
    for count in settings["spawn_counts"]:
        params = f"{count:,} serial"
        anchor = p1_go_row("spawn+exit", params)
        add_ratio_target(f"P1 spawn+exit ({params}) <= 0.1x Go 1.24 wasip1", find_row("spawn+exit", "P1", "asyncify", params),
                         anchor, 0.1, go_label(anchor, "wasip1"), GO_MISSING)
    # 4. memory per parked goroutine where stacks are shared: <= 512 B at depth 1, <= 1 KiB at depth 10
    for variant in ("P1", "J32", "J64"):
        for depth, limit in ((1, 512.0), (10, 1024.0)):
            params = parked_params(settings["parked_count_shared"], depth)
            row = find_row("memory per parked G", variant, "asyncify", params)
            name = f"{variant}/asyncify memory per parked goroutine <= {limit:g} B (depth {depth})"
            platform = "wasip1" if variant == "P1" else "js/wasm"
            anchor = (p1_go_row if variant == "P1" else lambda b, p: go_row(b, "js/wasm", p))(
                "memory per parked G", parked_params(settings["parked_count_shared"], depth))
            if row:
                add_target(name, row["median"], limit, "max", "B",
                           f"{params}" + (f"; {go_label(anchor, platform)} {anchor['median']:.0f} B" if anchor else ""))
            else:
                add_unmeasured_target(name, "the row is missing")
    # 5. native single-worker yield <= 2x Go native (GOMAXPROCS=1)
    for depth in YIELD_DEPTHS:
        params = f"G=2 depth={depth}"
        anchor = go_row("yield", "native", params)
        add_ratio_target(f"native single-worker yield ({params}) <= 2x Go native (the faster Go)",
                         find_row("yield", "native", "ucontext", params), anchor, 2.0, go_label(anchor, "native"), GO_MISSING)
    # 6. Asyncify module growth <= 15% with narrowing (P1, against the same pipeline without --asyncify)
    plain = find_row("module size", "P1", "no Asyncify")
    for mode in ("narrowed", "wide"):
        row = find_row("module size", "P1", f"asyncify ({mode})")
        name = f"P1 Asyncify module growth <= 15% ({mode}{'' if mode == 'narrowed' else ', for reference'})"
        add_growth_target(name, row, plain, 15.0,
                          lambda row, base: f"{int(row['median']):,} B vs {int(base['median']):,} B without Asyncify")
    # 6b. the stack-overflow check (issue 33), against the same narrowed build linked with
    # --stack-check off in the same run: <= 2% on the CPU kernel, <= 3% of module size; yield reported.
    checked, unchecked = find_row("cpu kernel", "P1", "asyncify"), find_row("cpu kernel", "P1", "asyncify (no stack check)")
    name = "P1 stack check CPU cost <= 2% (kernel, vs --stack-check off)"
    if checked and unchecked:
        add_target(name, (checked["median"] / unchecked["median"] - 1) * 100, 2.0, "max", "%",
                   f"{checked['median']:.2f} ms vs {unchecked['median']:.2f} ms")
    else:
        add_unmeasured_target(name, "a P1 cpu kernel row (asyncify, or asyncify (no stack check)) is missing")
    add_growth_target("P1 stack check module growth <= 3% (vs --stack-check off)",
                      find_row("module size", "P1", "asyncify (narrowed)"),
                      find_row("module size", "P1", "asyncify (no stack check)"), 3.0,
                      lambda row, base: f"{int(row['median']):,} B vs {int(base['median']):,} B without the check")
    # 7. CPU-bound slowdown from Asyncify <= 5% (kernel inside an Asyncify build vs the plain build)
    # (jspi has no Asyncify: its kernel is a comparison of bench/llgo_bench/jspi.py)
    for row in [r for r in rows if r["bench"] == "cpu kernel"
                and r["backend"] not in ("plain", "ucontext", "ucontext-separate", "jspi")
                and r["variant"] in ("J32", "J64", "P1")]:
        base = find_row("cpu kernel", row["variant"], "plain")
        name = f"{row['variant']} CPU slowdown from Asyncify <= 5% ({row['backend']} build)"
        if base:
            add_target(name, (row["median"] / base["median"] - 1) * 100, 5.0, "max", "%",
                       f"{row['median']:.2f} ms vs {base['median']:.2f} ms without Asyncify")
        else:
            add_unmeasured_target(name, f"the {row['variant']} plain kernel row is missing")
    # 8. channels against Go in the same run (issues 10, 31): P1's round trip <= 0.2x Go 1.24 wasip1's
    ours, go = find_row("chan ping-pong", "P1", "asyncify"), p1_go_row("chan ping-pong", None)
    name = "P1 unbuffered ping-pong round trip <= 0.2x Go 1.24 wasip1's"
    if ours and go:
        add_target(name, ours["median"] / go["median"], 0.2, "max", "x",
                   f"{ours['median']:.0f} ns vs {go['median']:.0f} ns ({go_label(go, 'wasip1')})")
    else:
        add_unmeasured_target(name, "a ping-pong row is missing (P1, or Go 1.24 wasip1 from bench/go)")
    # 9. 10,000 sleepers: wall time within 2x the ideal, and CPU time low. At this load the CPU
    #    time is the work: 100,000 wake-ups in a 10 ms ideal leave no room to idle (at 150 ns per
    #    wake-up the worker is busy 15 ms), so "low" is measured against Go's own runtime on the
    #    same load (Go 1.24 wasip1 for P1, the faster Go native for native). That the worker sleeps instead of
    #    spinning shows in the light load (100 goroutines): CPU time well under the wall time.
    full, light = sleepers_params(settings), sleepers_params(settings, settings["light_sleepers"])
    for variant, backend in (("P1", "asyncify"), ("native", "ucontext")):
        wall, cpu = find_row("sleepers wall", variant, backend, full), find_row("sleepers CPU", variant, backend, full)
        name = f"{variant} {full}: wall <= 2x ideal"
        if wall:
            ideal = settings["sleeps"] * 1.0
            add_target(name, wall["median"] / ideal, 2.0, "max", "x", f"{wall['median']:.1f} ms vs ideal {ideal:g} ms")
        else:
            add_unmeasured_target(name, "the sleepers row is missing")
        if variant == "P1":
            anchor, go_name = p1_go_row("sleepers CPU", full), "Go 1.24 wasip1"
        else:
            anchor, go_name = go_row("sleepers CPU", "native", full), "Go native (the faster Go)"
        add_ratio_target(f"{variant} {full}: CPU <= 0.5x {go_name}'s", cpu, anchor, 0.5,
                         go_label(anchor, "wasip1" if variant == "P1" else "native"), GO_MISSING)
        light_wall, light_cpu = find_row("sleepers wall", variant, backend, light), \
            find_row("sleepers CPU", variant, backend, light)
        name = f"{variant} {light}: CPU <= 0.5x wall (the worker sleeps, it does not spin)"
        if light_wall and light_cpu:
            add_target(name, light_cpu["median"] / light_wall["median"], 0.5, "max", "x",
                       f"{light_cpu['median']:.1f} ms CPU in {light_wall['median']:.1f} ms")
        else:
            add_unmeasured_target(name, "a light-load sleepers row is missing")
    # 10. start-up and size of hello-goroutines (issue 31): P1's start to exit <= 0.25x Go 1.24
    #     wasip1's on the same engine; every variant declares no more initial memory than Go 1.24
    #     does for the same program (P1, P1T: its wasip1 build; J32, J64: its js/wasm build).
    params = "10 goroutines, 1 round trip each"
    anchor = p1_go_row("hello: start to exit", params)
    add_ratio_target("P1 hello-goroutines start to exit <= 0.25x Go 1.24 wasip1's",
                     find_row("hello: start to exit", "P1", None, params), anchor, 0.25,
                     go_label(anchor, "wasip1"), GO_MISSING)
    for variant, platform in (("P1", "wasip1"), ("P1T", "wasip1"), ("J32", "js/wasm"), ("J64", "js/wasm")):
        ours = find_row("hello: declared memory", variant, None, "initial")
        go = go_anchor_row("hello: declared memory", platform, "initial", "go1.24")
        name = f"{variant} hello-goroutines declared initial memory <= Go 1.24 {platform}'s"
        if ours and go:
            add_target(name, ours["median"] / go["median"], 1.0, "max", "x",
                       f"{ours['median'] / 2**20:.2f} MiB vs {go['median'] / 2**20:.2f} MiB")
        else:
            add_unmeasured_target(name, "a declared-memory row is missing (ours, or Go 1.24's)")
    # 11. whole programs (issue 31): on P1 <= 0.5x Go 1.24 wasip1's wall time with no more peak
    #     memory (same engine); natively within 1.5x Go native's time (GOMAXPROCS=1 against the
    #     single-worker ucontext backend)
    for name in PROGRAMS:
        bench = f"whole: {name}"
        for params, limit, what in (("wall", 0.5, "wall time"), ("peak RSS", 1.0, "peak memory")):
            anchor = p1_go_row(bench, params)
            add_ratio_target(f"P1 {name} {what} <= {limit:g}x Go 1.24 wasip1's", find_row(bench, "P1", "asyncify", params),
                             anchor, limit, go_label(anchor, "wasip1"), GO_MISSING)
        anchor = go_anchor_row(bench, "native", "wall", "go1.24")
        add_ratio_target(f"native {name} wall time <= 1.5x Go 1.24 native's (GOMAXPROCS=1)",
                         find_row(bench, "native", "ucontext", "wall"), anchor, 1.5, go_label(anchor, "native"), GO_MISSING)
    # 11. driver (issue 3's figures)
    row = find_row("driver: resolve per process", "native", "llgo-wasm resolve --json")
    baseline = find_row("driver: resolve per process", "native", "/bin/true (process baseline)")
    if row and baseline:
        add_target("llgo-wasm resolve per process <= 2x /bin/true", row["median"] / baseline["median"], 2.0, "max", "x",
                   f"{row['median']:.2f} ms vs {baseline['median']:.2f} ms, wall time incl. process start")
    else:
        add_unmeasured_target("llgo-wasm resolve per process <= 2x /bin/true", "row missing")
    row = find_row("driver: in-library resolve", "native", "C++ API (resolve_target)")
    if row:
        add_target("in-library resolve <= 20 us (C++ API)", row["median"], 20.0, "max", "us", "descriptors loaded")
    else:
        add_unmeasured_target("in-library resolve <= 20 us", "row missing")
    ours, theirs = find_row("driver: cache-key hashing", "native", "llgo-wasm cache key"), \
        find_row("driver: cache-key hashing", "native", "sha256sum (baseline)")
    if ours and theirs:
        add_target("cache-key hashing >= 0.8x sha256sum throughput", ours["median"] / theirs["median"], 0.8, "min", "x",
                   f"{ours['median']:.0f} MB/s vs {theirs['median']:.0f} MB/s")
    else:
        add_unmeasured_target("cache-key hashing >= 0.8x sha256sum throughput", "a hashing row is missing")
