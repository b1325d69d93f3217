"""Discovery: which presets each job of the run uses (their vendor entry in CMakePresets.json, read
through tools/presets.py), the bench-manifest.json their builds wrote (bench/superbuild.cmake in
build/<preset>, bench/wasm-variant.cmake in its target build, build/<preset>/target), and how a
program of their target runs (its engine, from `llgo-wasm resolve --json`)."""
import importlib.util
import json
from pathlib import Path

from .programs import BenchError, Program, run
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
    return dict(prefix=[node if word == "node" else word.replace("{root}", str(ROOT)) for word in engine["command"][:-1]],
                waits_in_event_loop="js" in tags and "wasm" in tags)


def discover(build_prefix, node):
    """Returns (runtime programs, plain-kernel programs by variant, P1 link inputs (one per
    backend, the default stack mode first), host manifest)."""
    runtime, plain, p1_inputs, host = [], {}, [], None
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
            elif entry["kind"] == "runtime-objects":
                p1_inputs.append(dict(entry, driver=manifest["driver"], target=manifest["target"], variant=variant,
                                      engine=prefix))
    return runtime, plain, p1_inputs, host
