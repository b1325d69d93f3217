"""The corpus: real programs (zlib's minigzip, the sqlite3 shell) and the goroutine benchmark,
built through a target's toolchain file without Asyncify, with wide Asyncify and with the
call-graph narrowing: module size, link time, a CPU-bound run, and their targets."""
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from .discovery import presets
from .programs import BenchError, run
from .results import add_growth_target, add_missing, add_row, add_target, add_unmeasured_target, find_row, rows
from .settings import ROOT, TIMEOUT_SECONDS

CORPUS_MODES = ("none", "wide", "narrowed")
# The goroutine benchmark over a runtime without the collector's safepoint (narrowed only).
NO_SAFEPOINT = "goroutines-no-gc-safepoint"
DRIVER_STEP = re.compile(r"llgo-wasm link: \[\d+/\d+\] (\S+) ([0-9.]+) s(?:, (.*))?")


def corpus_sources(work_dir):
    out, _ = run(["bash", str(ROOT / "bench" / "corpus" / "fetch-sources.sh"), str(work_dir / "corpus-src")], timeout=1800)
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def corpus_target(driver, preset):
    """What the corpus needs to know about a preset's target: its name and toolchain file
    (CMakePresets.json), and from `llgo-wasm resolve --json`: the variant (a display label), the
    Asyncify mode, the output extension and the Node engine that runs the default output."""
    cache = presets.load()[preset]
    target = cache["LLGO_WASM_TARGET"]
    resolved = json.loads(run([driver, "resolve", "--json", "--target", target, "--context", "asyncify"])[0])
    extension = resolved["output"]["default-extension"]
    engine = next(e for _, e in sorted(resolved["engines"].items())
                  if e["command"][0] == "node" and not e.get("optional") and not e.get("sampled")
                  and e.get("extension", "") in ("", extension))
    return dict(preset=preset, target=target, variant=resolved["variant"],
                toolchain=cache["LLGO_WASM_TARGET_TOOLCHAIN_FILE"].replace("${sourceDir}", str(ROOT)),
                post_link=resolved["capabilities"]["asyncify"] == "post-link",
                extension=extension, engine=engine["command"])


def build_corpus(facts, driver, sources, work_dir):
    """Configures bench/corpus with the target's toolchain file and links every program in every
    mode, one target at a time so each link's `llgo-wasm link -v` lines can be read. Returns
    {(program, mode): {"path", "steps": {step: (seconds, detail)}}}."""
    variant = facts["variant"]
    build = work_dir / f"corpus-{facts['preset']}"
    run(["cmake", "-S", ROOT / "bench" / "corpus", "-B", build, "-G", "Ninja",
         f"-DCMAKE_TOOLCHAIN_FILE={facts['toolchain']}", "-DCMAKE_BUILD_TYPE=Release",
         "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG", f"-DLLGO_WASM_SOURCE_ROOT={ROOT}", f"-DLLGO_WASM_DRIVER={driver}",
         f"-DLLGO_WASM_TARGET={facts['target']}", f"-DZLIB_SOURCE_DIR={sources['ZLIB_SOURCE_DIR']}",
         f"-DSQLITE_AMALGAMATION_DIR={sources['SQLITE_AMALGAMATION_DIR']}"], timeout=900)
    manifest = json.loads((build / "corpus-manifest.json").read_text())
    built = {}
    for entry in manifest["programs"]:
        if facts.get("programs") and entry["program"] not in facts["programs"]:
            continue
        name = f"{entry['program']}_{entry['mode']}"
        try:
            out, err = run(["cmake", "--build", build, "--target", name, "-j", "2"], timeout=3600)
            Path(entry["path"]).touch()  # so the next build of the same target relinks nothing
            steps = {m.group(1): (float(m.group(2)), m.group(3) or "") for m in DRIVER_STEP.finditer(out + err)}
            built[(entry["program"], entry["mode"])] = dict(path=Path(entry["path"]), steps=steps)
        except BenchError as error:
            add_missing("corpus build", variant, entry["mode"], entry["program"], str(error))
    return built


def corpus_wasm(facts, path):
    return path if facts["extension"] == ".wasm" else path.with_suffix(".wasm")


def corpus_command(facts, node, path, *args):
    command = [str(path) if word == "{program}" else word.replace("{root}", str(ROOT)) for word in facts["engine"]]
    return [node, *command[1:], *args]


def bench_corpus_variant(facts, built, node, work_dir, settings):
    variant = facts["variant"]
    for (program, mode), entry in sorted(built.items()):
        add_row("corpus size", variant, mode, program, [corpus_wasm(facts, entry["path"]).stat().st_size], "B")
        link = entry["steps"].get("asyncify+exnref") or entry["steps"].get("asyncify") or entry["steps"].get("link")
        if link:
            add_row("corpus link time", variant, mode, f"{program} ({'wasm-opt' if facts['post_link'] else 'emcc'})",
                    [link[0] * 1000], "ms")
        analysis = entry["steps"].get("asyncify-analysis") or entry["steps"].get("asyncify-report")
        if analysis:
            match = re.search(r"(\d+) of (\d+) functions can reach a switch point", analysis[1])
            seconds = re.search(r"analysis ([0-9.]+) s", analysis[1])
            note = f"{match.group(1)} of {match.group(2)} functions can switch" if match else analysis[1][:120]
            called = re.search(r"switch points called: (.*)$", analysis[1])
            if called and mode == "narrowed":
                corpus_switch_points[(variant, program)] = called.group(1).split()
                note += f"; calls {called.group(1)}"
            if match:
                add_row("corpus functions that can switch", variant, mode, program, [int(match.group(1))], "functions",
                        note=f"of {match.group(2)}")
            if seconds:
                add_row("corpus analysis time", variant, mode, program, [float(seconds.group(1)) * 1000], "ms", note=note)
    # CPU-bound runs, round-robin over the modes that run (goroutines: the switching program).
    data = work_dir / "corpus-gzip-input.bin"
    if not data.is_file() or data.stat().st_size != settings["corpus_gzip_mib"] << 20:
        rng = random.Random(11)
        words = [bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(4000)]
        chunks, size = [], 0
        while size < settings["corpus_gzip_mib"] << 20:
            chunk = b" ".join(rng.choice(words) for _ in range(64)) + b"\n"
            chunks.append(chunk)
            size += len(chunk)
        data.write_bytes(b"".join(chunks)[: settings["corpus_gzip_mib"] << 20])
    rows_sql = (f"CREATE TABLE t(a INTEGER, b TEXT); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c "
                f"WHERE x<{settings['corpus_rows']}) INSERT INTO t SELECT x, printf('%08x', (x*2654435761)%4294967296) FROM c; "
                f"CREATE INDEX tb ON t(b); SELECT count(*), sum(a) FROM t WHERE b > '8';")
    workloads = {"minigzip": (["-9"], data, f"compress {settings['corpus_gzip_mib']} MiB"),
                 "sqlite3": ([":memory:", rows_sql], None, f"{settings['corpus_rows']:,} rows, index, query"),
                 "goroutines": (["cpu", "4", "1"], None, "bench_runtime cpu kernel, 4 MiB"),
                 NO_SAFEPOINT: (["cpu", "4", "1"], None, "bench_runtime cpu kernel, 4 MiB")}
    for program, (args, stdin_path, label) in workloads.items():
        modes = [m for m in CORPUS_MODES if (program, m) in built and not (program.startswith("goroutines") and m == "none")]
        samples, outputs = {m: [] for m in modes}, {}
        for _ in range(settings["corpus_reps"]):
            for mode in modes:
                command = corpus_command(facts, node, built[(program, mode)]["path"], *args)
                try:
                    with open(stdin_path or os.devnull, "rb") as stdin:
                        start = time.perf_counter()
                        proc = subprocess.run(command, stdin=stdin, capture_output=True, timeout=TIMEOUT_SECONDS)
                        elapsed = time.perf_counter() - start
                    if proc.returncode != 0:
                        raise BenchError(f"exit status {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
                    samples[mode].append(elapsed * 1000)
                    outputs[mode] = hashlib.sha256(proc.stdout).hexdigest()[:12] if not program.startswith("goroutines") else "-"
                except (BenchError, subprocess.TimeoutExpired) as error:
                    add_missing("corpus run", variant, mode, program, str(error))
                    modes = [m for m in modes if m != mode]
        if len(set(outputs.values())) > 1:
            add_missing("corpus run", variant, "all", program, f"the builds disagree on the output: {outputs}")
            continue
        for mode in modes:
            if samples[mode]:
                add_row("corpus run", variant, mode, f"{program}: {label}", samples[mode], "ms",
                        note=f"output sha256 {outputs.get(mode, '?')}, whole process")


def bench_corpus(manifests, node, work_dir, settings):
    driver = next((m.get("driver") for m in manifests if m and m.get("driver") and Path(m["driver"]).is_file()), None)
    if not driver:
        add_missing("corpus", "-", "-", "-", "no llgo-wasm driver among the built presets")
        return
    try:
        sources = corpus_sources(work_dir)
    except BenchError as error:
        add_missing("corpus", "-", "-", "-", f"sources: {error}")
        return
    chosen = []
    for preset in settings.get("corpus_presets") or presets.bench_presets("corpus"):
        try:
            chosen.append(dict(corpus_target(driver, preset), programs=settings.get("corpus_programs")))
        except (BenchError, OSError, ValueError, KeyError, StopIteration) as error:
            add_missing("corpus", preset, "-", "-", f"{type(error).__name__}: {error}")
    # Post-link targets first: the driver runs their wasm-opt step itself, and issue 15's targets
    # bind on them first.
    for facts in sorted(chosen, key=lambda facts: not facts["post_link"]):
        print(f"  corpus {facts['preset']} ...", file=sys.stderr)
        try:
            corpus_facts[facts["variant"]] = facts
            built = build_corpus(facts, driver, sources, work_dir)
        except (BenchError, OSError, ValueError, KeyError, StopIteration) as error:
            add_missing("corpus", facts["preset"], "-", "-", f"{type(error).__name__}: {error}")
            continue
        bench_corpus_variant(facts, built, node, work_dir, settings)


# Issue 15's targets bind on P1 and J32 (display labels of the rows); other variants are shown for reference.
CORPUS_BINDING_VARIANTS = ("P1", "J32")
corpus_facts = {}  # variant -> corpus_target(), for the variants the corpus ran on
corpus_switch_points = {}  # (variant, program) -> the switch points the narrowed link found it calls


def corpus_targets():
    for variant, facts in corpus_facts.items():
        if not facts.get("programs") or "goroutines" in facts["programs"]:
            safepoint_targets(variant)
        for program in facts.get("programs") or ("minigzip", "sqlite3", "goroutines"):
            if program == NO_SAFEPOINT:
                continue
            none, narrowed = find_row("corpus size", variant, "none", program), find_row("corpus size", variant, "narrowed", program)
            limit = 8.0 if program == "goroutines" else 3.0
            # The +3% targets are for programs that never reach a switch point: one that calls a
            # host import the target's Asyncify treats as a switch point (Emscripten's fd_sync,
            # for IDBFS) is not such a program, and is shown for reference with what it calls.
            calls = corpus_switch_points.get((variant, program)) if program != "goroutines" else None
            reference = (f" (for reference: it calls the switch point{'s' if len(calls) > 1 else ''} {', '.join(calls)})"
                         if calls else " (for reference)")
            binding = program == "goroutines" or (variant in CORPUS_BINDING_VARIANTS and not calls)
            name = f"{variant} {program}: size with narrowed Asyncify <= +{limit:g}% vs none{'' if binding else reference}"
            wide = find_row("corpus size", variant, "wide", program)
            add_growth_target(name, narrowed, none, limit, lambda row, base: f"{int(row['median']):,} B vs {int(base['median']):,} B"
                              + (f"; wide {(wide['median'] / base['median'] - 1) * 100:+.1f}%" if wide else ""))
            if program != "goroutines":
                label = next((r["params"] for r in rows if r["bench"] == "corpus run" and r["variant"] == variant
                              and r["params"].startswith(program + ":")), None)
                base = label and find_row("corpus run", variant, "none", label)
                fast = label and find_row("corpus run", variant, "narrowed", label)
                name = f"{variant} {program}: CPU with narrowed Asyncify <= +3% vs none{'' if binding else reference}"
                add_growth_target(name, fast, base, 3.0,
                                  lambda row, base: f"{row['median']:.0f} ms vs {base['median']:.0f} ms (whole process, median)")
            if facts["post_link"]:  # the driver runs wasm-opt itself, so its time is its own
                none_time = find_row("corpus link time", variant, "none", f"{program} (wasm-opt)")
                narrowed_time = find_row("corpus link time", variant, "narrowed", f"{program} (wasm-opt)")
                analysis = find_row("corpus analysis time", variant, "narrowed", program)
                name = f"{variant} {program}: wasm-opt time with narrowed Asyncify <= 1.3x without"
                if none_time and narrowed_time:
                    total = narrowed_time["median"] + (analysis["median"] if analysis else 0)
                    add_target(name, total / none_time["median"], 1.3, "max", "x",
                               f"{total:.0f} ms (analysis included) vs {none_time['median']:.0f} ms")
                else:
                    add_unmeasured_target(name, "a link time row is missing")
                if analysis and narrowed_time:
                    add_target(f"{variant} {program}: call-graph analysis <= 10% of wasm-opt time",
                               analysis["median"] / narrowed_time["median"] * 100, 10.0, "max", "%",
                               f"{analysis['median']:.1f} ms vs {narrowed_time['median']:.0f} ms")


def safepoint_targets(variant):
    """What the collector's safepoint costs a program that never collects (issue 27: <= +3% in
    size and CPU): the goroutine benchmark over the runtime as it is against the same without
    the safepoint (LLGO_NO_GC_SAFEPOINT), both narrowed."""
    with_size, without_size = (find_row("corpus size", variant, "narrowed", p) for p in ("goroutines", NO_SAFEPOINT))
    add_growth_target(f"{variant} goroutines: size with the collector's safepoint <= +3% vs without", with_size, without_size,
                      3.0, lambda row, base: f"{int(row['median']):,} B vs {int(base['median']):,} B")
    label = "bench_runtime cpu kernel, 4 MiB"
    with_run, without_run = (find_row("corpus run", variant, "narrowed", f"{p}: {label}") for p in ("goroutines", NO_SAFEPOINT))
    add_growth_target(f"{variant} goroutines: CPU with the collector's safepoint <= +3% vs without", with_run, without_run,
                      3.0, lambda row, base: f"{row['median']:.0f} ms vs {base['median']:.0f} ms (whole process, median)")
