"""Discovery: which presets each job of the run uses (their vendor entry in CMakePresets.json, read
through tools/presets.py), the bench-manifest.json their builds wrote (bench/superbuild.cmake in
build/<preset>, bench/wasm-variant.cmake in its target build, build/<preset>/target), and how a
program of their target runs (its engine, from `llgo-wasm resolve --json`)."""
import importlib.util
import json
import os
import shutil
from pathlib import Path

from .programs import BenchError, Program, run, toolchain_dir
from .results import add_missing
from .settings import ROOT


def _load_presets_module():
    spec = importlib.util.spec_from_file_location("presets", ROOT / "tools" / "presets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


presets = _load_presets_module()


def load_manifest(path):
    if not path.is_file():
        raise BenchError(f"{path} not found: build the preset first (bash bench/run.sh does)")
    return json.loads(path.read_text())


def preset_dir(prefix, preset):
    path = Path(prefix + preset)
    return path if path.is_absolute() else ROOT / path


def target_facts(driver, target, node):
    """What the benchmarks need to know about `target`, from `llgo-wasm resolve --json`: the command
    that runs its programs, up to the program (the first of its engines, by name, that runs the
    default output and is neither optional nor sampled, its `node` this run's Node), and whether
    its worker waits in the JavaScript event loop (the runtime's idle wait for `js && wasm`)."""
    resolved = json.loads(run([driver, "resolve", "--json", "--target", target])[0])
    extension = resolved["output"]["default-extension"]
    engine = next((e for _, e in sorted(resolved["engines"].items())
                   if not e.get("optional") and not e.get("sampled") and e.get("extension", "") in ("", extension)),
                  None)
    if engine is None or engine["command"][-1] != "{program}":
        raise BenchError(f"target {target} has no engine that runs its default output with the program last")
    tags = resolved["effective"]["build-tags"]
    return dict(prefix=engine_prefix(engine, node), waits_in_event_loop="js" in tags and "wasm" in tags,
                engines=resolved["engines"])


def engine_prefix(engine, node):
    """An engine's command up to the program, with this run's Node and the checkout's root."""
    return [node if word == "node" else word.replace("{root}", str(ROOT)) for word in engine["command"][:-1]]


def engine_environment(engine):
    """What an engine's runner needs besides its command: for a browser (label "browser"), where
    Chromium and the npm packages are (CHROMIUM, else `chromium` on PATH; LLGO_WASM_NODE_MODULES,
    else the toolchain's npm folder), as cmake/LlgoWasmBrowserTests.cmake tells the tests."""
    if "browser" not in engine.get("labels", []):
        return None
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or ""
    modules = os.environ.get("LLGO_WASM_NODE_MODULES") or str(toolchain_dir() / "npm" / "node_modules")
    if not Path(chromium).is_file() or not (Path(modules) / "playwright-core" / "package.json").is_file():
        raise BenchError(f"Chromium ({chromium or 'not on PATH'}) or playwright-core (under {modules}) is missing: "
                         "run tools/setup-toolchain.sh, or set CHROMIUM / LLGO_WASM_NODE_MODULES")
    return dict(CHROMIUM=chromium, LLGO_WASM_NODE_MODULES=modules)


def discover(build_prefix, node):
    """Returns (runtime programs, plain-kernel programs by variant, P1 link inputs (one per
    backend, the default stack mode first), host manifest, other programs). Other programs:
    "engine": runtime programs built for another engine of their target (a browser), variant
    "<variant>, <engine>"; "no-context": modules of a backend's program linked without context
    support (sizes only, never run), backend "<backend> (no context support)"."""
    runtime, plain, p1_inputs, host = [], {}, [], None
    others = dict(engine=[], no_context=[])
    for preset in presets.bench_presets("driver"):
        try:
            host = load_manifest(preset_dir(build_prefix, preset) / "bench-manifest.json")
        except BenchError as error:
            add_missing("driver benchmarks", "native", "-", "-", str(error))
    for preset in presets.bench_presets("runtime"):
        try:
            manifest = load_manifest(preset_dir(build_prefix, preset) / "target" / "bench-manifest.json")
            facts = target_facts(manifest["driver"], manifest["target"], node)
        except (BenchError, ValueError, KeyError) as error:
            add_missing(f"all {preset} benchmarks", preset, "-", "-", str(error))
            continue
        variant, prefix = manifest["variant"], facts["prefix"]
        for entry in manifest["programs"]:
            if entry["kind"] == "runtime":
                runtime.append(Program(variant, entry["context"], entry["path"], prefix, stacks=entry.get("stacks"),
                                       waits_in_event_loop=facts["waits_in_event_loop"]))
            elif entry["kind"] == "cpu-plain":
                plain[variant] = Program(variant, "plain", entry["path"], prefix)
            elif entry["kind"] == "runtime-engine":
                engine = facts["engines"][entry["engine"]]
                try:
                    env = engine_environment(engine)
                except BenchError as error:
                    add_missing(f"{entry['context']} on {entry['engine']}", variant, entry["context"], "-", str(error))
                    continue
                others["engine"].append(Program(f"{variant}, {entry['engine']}", entry["context"], entry["path"],
                                                engine_prefix(engine, node), env=env, stacks=entry.get("stacks")))
            elif entry["kind"] == "runtime-no-context":
                others["no_context"].append(Program(variant, f"{entry['context']} (no context support)", entry["path"], []))
            elif entry["kind"] == "runtime-objects":
                p1_inputs.append(dict(entry, driver=manifest["driver"], target=manifest["target"], variant=variant,
                                      engine=prefix))
    return runtime, plain, p1_inputs, host, others
