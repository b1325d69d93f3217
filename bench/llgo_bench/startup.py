"""Start-up and size (issue 31): the hello-goroutines program (bench/hello_goroutines.c; the same
program in Go, bench/go/hello) on every variant and on Go 1.24's js/wasm, wasip1 and native
builds: its module size raw and Brotli-11 compressed (Debian's `brotli`), the memory the module
declares (initial and maximum), and the time from process start to exit (the whole process: the
engine's start, compiling the module, the program, the exit)."""
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .discovery import load_manifest, preset_dir, presets, target_facts
from .go import build_go_package
from .programs import BenchError, Program, run, wasm_file_of
from .results import add_missing, add_row
from .settings import ROOT

EXPECTED = "hello from 10 goroutines: sum 55"
WASM_PAGE = 65536


def _leb(data, pos):
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos


def _limits(data, pos):
    flags = data[pos]
    initial, pos = _leb(data, pos + 1)
    maximum = None
    if flags & 1:
        maximum, pos = _leb(data, pos)
    return dict(initial=initial * WASM_PAGE, maximum=None if maximum is None else maximum * WASM_PAGE,
                shared=bool(flags & 2), memory64=bool(flags & 4)), pos


def declared_memory(path):
    """The first memory a module defines or imports: initial and maximum bytes (maximum None when
    the module declares none), shared, memory64. Reads the import and memory sections."""
    data = Path(path).read_bytes()
    if data[:4] != b"\0asm":
        raise BenchError(f"{path} is not a WebAssembly module")
    pos = 8
    while pos < len(data):
        section, pos = data[pos], pos + 1
        size, pos = _leb(data, pos)
        end = pos + size
        if section == 2:   # imports: module, name, kind, description
            count, p = _leb(data, pos)
            for _ in range(count):
                for _ in range(2):
                    length, p = _leb(data, p)
                    p += length
                kind, p = data[p], p + 1
                if kind == 0x02:
                    return _limits(data, p)[0]
                if kind == 0x00:
                    _, p = _leb(data, p)
                elif kind == 0x01:
                    _, p = _limits(data, p + 1)
                elif kind == 0x03:
                    p += 2
                elif kind == 0x04:
                    _, p = _leb(data, p + 1)
                else:
                    raise BenchError(f"{path}: import kind {kind} not understood")
        elif section == 5:
            count, p = _leb(data, pos)
            if count:
                return _limits(data, p)[0]
        pos = end
    raise BenchError(f"{path} declares no memory")


def brotli_size(path):
    brotli = shutil.which("brotli")
    if brotli is None:
        raise BenchError("`brotli` not on PATH (Debian's brotli, a host package of tools/setup-toolchain.sh)")
    out = subprocess.run([brotli, "-c", "-q", "11", str(path)], capture_output=True, check=True).stdout
    return len(out)


def start_to_exit_ms(program, reps):
    """Wall milliseconds from process start to exit, `reps` times; the output must be EXPECTED."""
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        stdout = run(program.command(), env=program.env)[0]
        samples.append((time.perf_counter() - t0) * 1000)
        if stdout.strip() != EXPECTED:
            raise BenchError(f"printed {stdout.strip()[:200]!r}, expected {EXPECTED!r}")
    return samples


def module_of(program):
    """The file a server would send: the .wasm (Emscripten's beside its .js), or a native executable."""
    if program.path.suffix == ".js":
        return wasm_file_of(program)
    return program.path


def measure(program, settings):
    v, b = program.variant, program.backend
    params = "10 goroutines, 1 round trip each"
    try:
        add_row("hello: start to exit", v, b, params, start_to_exit_ms(program, settings["startup_reps"]), "ms",
                note="process wall time: engine start, compile, run, exit")
    except BenchError as error:
        add_missing("hello: start to exit", v, b, params, str(error))
        return
    module = module_of(program)
    add_row("hello: size", v, b, "raw", [module.stat().st_size], "B", note=module.name)
    try:
        add_row("hello: size", v, b, "Brotli-11", [brotli_size(module)], "B", note=module.name)
    except (BenchError, subprocess.CalledProcessError) as error:
        add_missing("hello: size", v, b, "Brotli-11", str(error))
    if module.suffix == ".wasm":
        try:
            memory = declared_memory(module)
            kind = ("shared " if memory["shared"] else "") + ("memory64" if memory["memory64"] else "memory32")
            add_row("hello: declared memory", v, b, "initial", [memory["initial"]], "B",
                    note=kind + ("" if memory["maximum"] is not None else ", no maximum declared"))
            if memory["maximum"] is not None:
                add_row("hello: declared memory", v, b, "maximum", [memory["maximum"]], "B", note=kind)
        except (BenchError, IndexError) as error:
            add_missing("hello: declared memory", v, b, "-", str(error))


def hello_programs(build_prefix, node):
    """The hello-goroutines program of every preset with the bench job "startup"."""
    programs = []
    for preset in presets.bench_presets("startup"):
        try:
            manifest = load_manifest(preset_dir(build_prefix, preset) / "target" / "bench-manifest.json")
            facts = target_facts(manifest["driver"], manifest["target"], node)
            entry = next((e for e in manifest["programs"] if e["kind"] == "hello"), None)
            if entry is None:
                raise BenchError(f"{preset}: its bench manifest has no hello program")
            programs.append(Program(manifest["variant"], entry["context"], entry["path"], facts["prefix"]))
        except (BenchError, ValueError, KeyError) as error:
            add_missing("hello: start to exit", preset, "-", "-", str(error))
    return programs


def go_hello_programs(out_dir, node, wasi_runner):
    """bench/go/hello built by Go 1.24 (every Go from 1.21: js/wasm, wasip1, native)."""
    return build_go_package("hello", "hello", out_dir, node, wasi_runner, minimum_minor=21)


def bench_memory_reserve(node, settings):
    """What a shared memory of P1T's maximum (256 MiB) costs at creation on this Node, with a small
    initial size (Go's 2.25 MiB) and with the initial at the maximum (P1T's, docs/p1t.md)."""
    script = ROOT / "bench" / "memory-reserve.mjs"
    for label, initial in (("initial 2.25 MiB", 36), ("initial 256 MiB", 4096)):
        params = f"shared, maximum 256 MiB, {label}"
        try:
            results = [Program("Node", "shared memory", script, [node]).results(initial, 4096, 1)[0]
                       for _ in range(settings["startup_reps"])]
            add_row("memory: reserved at creation", "P1T", "shared memory", params,
                    [r["reserved_kib"] for r in results], "KiB", note="VmSize growth")
            add_row("memory: resident at creation", "P1T", "shared memory", params,
                    [r["resident_kib"] for r in results], "KiB", note="VmRSS growth")
        except BenchError as error:
            add_missing("memory: reserved at creation", "P1T", "shared memory", params, str(error))


def bench_startup(build_prefix, node, wasi_runner, work_dir, settings):
    print("start-up and size (hello-goroutines) ...", file=sys.stderr)
    for program in hello_programs(build_prefix, node) + go_hello_programs(work_dir / "go-hello", node, wasi_runner):
        print(f"  {program.variant}/{program.backend}", file=sys.stderr)
        measure(program, settings)
    bench_memory_reserve(node, settings)
