"""The runtime libraries of one preset's target build through the package cache, as the build
does it (LLGO_WASM_PACKAGE_CACHE=ON, runtime/libraries.cmake): configure cmake/wasm-variant of a
checkout with the preset's target and toolchain file, then build only the runtime's library
targets. Shared by tests/cache/runtime_cache_test.py and bench/cache_bench.py."""

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path


def preset_settings(checkout, name):
    """The cache variables of a configure preset of CMakePresets.json, inherited ones included."""
    presets = {p["name"]: p for p in json.loads((Path(checkout) / "CMakePresets.json").read_text())["configurePresets"]}
    chain = []
    preset = presets[name]
    while preset:
        chain.append(preset)
        preset = presets.get(preset.get("inherits", ""))
    variables = {}
    for preset in reversed(chain):
        variables.update(preset.get("cacheVariables", {}))
    return variables


@dataclass
class RuntimeBuild:
    build_dir: Path
    seconds: float  # configure + build of the runtime's libraries
    configure_seconds: float
    hits: int
    misses: int
    targets: list  # library targets that were compiled (none when every key hit)
    warnings: list = field(default_factory=list)
    keys: dict = field(default_factory=dict)  # library name -> the short key the configure printed
    archive_dir: Path = None  # where the runtime's archives are (built or fetched)


def build_runtime_of_preset(checkout, preset, cli, remote, cache_dir, trace=None, project="wasm-variant"):
    variables = preset_settings(checkout, preset)
    return build_runtime(checkout, variables["LLGO_WASM_TARGET"], variables.get("LLGO_WASM_TARGET_TOOLCHAIN_FILE"),
                         variables.get("CMAKE_BUILD_TYPE", "RelWithDebInfo"), cli, remote, cache_dir, trace, project)


def build_runtime(checkout, target, toolchain, build_type, cli, remote, cache_dir, trace=None, project="wasm-variant",
                  runtime_only=False):
    """`toolchain`: a toolchain file, absolute or relative to the checkout ("${sourceDir}/" allowed),
    or None for the host compiler; `trace`: a file for LLGO_WASM_CACHE_TRACE. `project`: the
    preset's target build (cmake/wasm-variant: runtime, fixtures, tests) or the runtime alone as
    `cmake --install` builds it (cmake/runtime-install). `runtime_only`: configure the target
    build as the demo does (LLGO_WASM_DEMO_ONLY: the runtime's libraries through the same
    runtime/libraries.cmake, without declaring the test programs and their cases, half of a
    configure's time)."""
    checkout = Path(checkout)
    build = checkout / "build" / ("cache-" + ("" if project == "wasm-variant" else project + "-") + Path(target).stem)
    # The target build declares its tests with the checker the CLI's tree built beside it
    # (<tree>/driver/cli/llgo-wasm and <tree>/tests/harness/check_run).
    check_run = Path(cli).resolve().parents[2] / "tests" / "harness" / "check_run"
    args = ["cmake", "-S", str(checkout / "cmake" / project), "-B", str(build), "-G", "Ninja",
            "-DLLGO_WASM_TARGET=" + target, "-DLLGO_WASM_SOURCE_ROOT=" + str(checkout),
            "-DLLGO_WASM_DRIVER=" + str(cli), "-DCMAKE_BUILD_TYPE=" + build_type,
            "-DLLGO_WASM_PACKAGE_CACHE=ON", "-DLLGO_WASM_REMOTE_CACHE=" + remote,
            "-DLLGO_WASM_CACHE_DIR=" + str(cache_dir)]
    if project == "wasm-variant":
        args += ["-DLLGO_WASM_BROWSER_TESTS=OFF", "-DLLGO_WASM_CHECK_RUN_PROGRAM=" + str(check_run)]
        if runtime_only:
            args.append("-DLLGO_WASM_DEMO_ONLY=ON")
    else:
        args.append("-DCMAKE_INSTALL_LIBDIR=lib")
    if toolchain:
        args.append("-DCMAKE_TOOLCHAIN_FILE=" + str(checkout / toolchain.replace("${sourceDir}/", "")))
    env = {k: v for k, v in os.environ.items()
           if k not in ("LLGO_WASM_CACHE_DIR", "LLGO_WASM_CACHE_MAX_SIZE", "LLGO_WASM_REMOTE_CACHE", "LLGO_WASM_CACHE_TRACE")}
    if trace:
        env["LLGO_WASM_CACHE_TRACE"] = str(trace)
    started = time.monotonic()
    configure = subprocess.run(args, capture_output=True, text=True, env=env)
    configured = time.monotonic()
    if configure.returncode != 0:
        raise RuntimeError(f"{target}: configure failed:\n{configure.stdout[-3000:]}\n{configure.stderr[-3000:]}")
    listing = subprocess.run(["ninja", "-C", str(build), "-t", "targets", "all"], capture_output=True, text=True,
                             check=True).stdout
    targets = sorted({m.group(1) for m in re.finditer(r"^(llgo_(?:runtime|wasmcontext)_\w+): phony", listing, re.M)})
    if targets:
        done = subprocess.run(["ninja", "-C", str(build), "-j2", *targets], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError(f"{target}: build failed:\n{done.stdout[-3000:]}")
        if re.search(r"warning: ", done.stdout):
            configure.stderr += "\n".join(re.findall(r"llgo-wasm: warning: .*", done.stdout))
    return RuntimeBuild(build, time.monotonic() - started, configured - started, len(re.findall(r"package cache hit", configure.stdout)),
                        len(re.findall(r"package cache miss", configure.stdout)), targets,
                        re.findall(r"warning: .*", configure.stderr),
                        dict(re.findall(r"-- (\S+): package cache (?:hit|miss) ([0-9a-f]+)", configure.stdout)),
                        build / "lib" if project == "wasm-variant" else build)
