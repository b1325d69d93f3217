#!/usr/bin/env python3
"""The CMake toolchain files agree with the target descriptors they build for.

A toolchain file (cmake/toolchains/*.cmake) is read by CMake before the driver exists, so it
cannot ask the driver; this check proves that what it says about a target is what the target's
descriptor says (`llgo-wasm resolve --json`), for every pairing of a target and a toolchain file
that CMakePresets.json makes (a preset's LLGO_WASM_TARGET and LLGO_WASM_TARGET_TOOLCHAIN_FILE, the
install preset's LLGO_WASM_INSTALL_RUNTIMES):

  - the compiler triple a toolchain file sets (LLGO_WASM_WASI_TRIPLE, or the cross file's
    _llgo_triple) is the descriptor's triple, spelled the same (the cross file's is Debian's
    multiarch spelling, which names /usr/<triple>: equal once the vendor "unknown" is dropped);
  - a WASI toolchain file is used for WASI targets only, with LLGO_WASM_WASI_THREADS on exactly
    when the target has threads; an Emscripten one for Emscripten targets only;
  - every -s<SETTING> a toolchain file gives emcc for compiling is in the target's effective
    cflags, every one for linking in its effective ldflags, and -sMEMORY64=1 is there exactly
    when the target has memory64.

Usage: check_toolchains.py --driver LLGO-WASM --root CHECKOUT
Prints one line per pairing and exits 1 on the first disagreement's list.
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

SET_RE = re.compile(r'^\s*set\(\s*([A-Za-z_][A-Za-z0-9_]*)\s+(.*?)\s*\)\s*$', re.M)
INCLUDE_RE = re.compile(r'^\s*include\(\s*"\$\{CMAKE_CURRENT_LIST_DIR\}/([^"]+)"', re.M)
SETTING_RE = re.compile(r'-s[A-Z_0-9]+(?:=[^\s"]*)?')


def read_toolchain(path: Path):
    """The settings of a toolchain file and of the toolchain files it includes beside it."""
    facts = {"sets": {}, "emscripten": False, "wasi": False, "compile_settings": set(), "link_settings": set()}

    def walk(file: Path):
        text = "\n".join(line.split("#", 1)[0] for line in file.read_text().splitlines())
        for name, value in SET_RE.findall(text):
            value = value.strip().strip('"')
            first = value.split()[0] if value.split() else ""
            facts["sets"].setdefault(name, first)
            settings = set(SETTING_RE.findall(value))
            if name.startswith(("CMAKE_C_FLAGS", "CMAKE_CXX_FLAGS")):
                facts["compile_settings"] |= settings
            elif name.startswith("CMAKE_EXE_LINKER_FLAGS"):
                facts["link_settings"] |= settings
        if file.name == "emscripten-common.cmake":
            facts["emscripten"] = True
        if file.name == "wasi-common.cmake":
            facts["wasi"] = True
        for included in INCLUDE_RE.findall(text):
            child = (file.parent / included).resolve()
            if child.parent == path.parent.resolve() and child.exists():
                walk(child)

    walk(path)
    return facts


def pairings(root: Path):
    presets = json.loads((root / "CMakePresets.json").read_text())["configurePresets"]
    seen = []
    for preset in presets:
        variables = preset.get("cacheVariables", {})
        target, toolchain = variables.get("LLGO_WASM_TARGET"), variables.get("LLGO_WASM_TARGET_TOOLCHAIN_FILE")
        if target and toolchain:
            seen.append((preset["name"], target, toolchain))
        for entry in filter(None, variables.get("LLGO_WASM_INSTALL_RUNTIMES", "").split(";")):
            name, _, file = entry.partition("=")
            seen.append((preset["name"] + " (LLGO_WASM_INSTALL_RUNTIMES)", name, file))
    return [(p, t.replace("${sourceDir}", str(root)), Path(f.replace("${sourceDir}", str(root)))) for p, t, f in seen]


def without_unknown_vendor(triple: str) -> str:
    parts = triple.split("-")
    if len(parts) >= 3 and parts[1] == "unknown":
        del parts[1]
    return "-".join(parts)


def disagreements(target: dict, toolchain: dict):
    problems = []
    triple = target["triple"]
    sets = toolchain["sets"]
    is_emscripten, is_wasi = "-emscripten" in triple, "-wasi" in triple
    if toolchain["emscripten"] != is_emscripten:
        problems.append(f"an {'Emscripten' if toolchain['emscripten'] else 'non-Emscripten'} toolchain file for the triple {triple}")
    if toolchain["wasi"] != is_wasi:
        problems.append(f"a {'WASI' if toolchain['wasi'] else 'non-WASI'} toolchain file for the triple {triple}")
    if "LLGO_WASM_WASI_TRIPLE" in sets and sets["LLGO_WASM_WASI_TRIPLE"] != triple:
        problems.append(f"LLGO_WASM_WASI_TRIPLE is {sets['LLGO_WASM_WASI_TRIPLE']}, the descriptor's triple {triple}")
    if "_llgo_triple" in sets and without_unknown_vendor(sets["_llgo_triple"]) != without_unknown_vendor(triple):
        problems.append(f"the toolchain's triple is {sets['_llgo_triple']}, the descriptor's {triple}")
    if toolchain["wasi"]:
        threads = sets.get("LLGO_WASM_WASI_THREADS", "OFF").upper() in ("ON", "1", "TRUE", "YES")
        if threads != target["capabilities"]["threads"]:
            problems.append(f"LLGO_WASM_WASI_THREADS is {'ON' if threads else 'OFF'}, capabilities.threads is "
                            f"{str(target['capabilities']['threads']).lower()}")
    effective = target["effective"]
    for setting in sorted(toolchain["compile_settings"] - set(effective["cflags"])):
        problems.append(f"the toolchain compiles with {setting}, which the target's effective cflags lack")
    for setting in sorted(toolchain["link_settings"] - set(effective["ldflags"])):
        problems.append(f"the toolchain links with {setting}, which the target's effective ldflags lack")
    memory64 = "-sMEMORY64=1" in toolchain["compile_settings"]
    if toolchain["emscripten"] and memory64 != target["capabilities"]["memory64"]:
        problems.append(f"-sMEMORY64=1 {'in' if memory64 else 'not in'} the toolchain, capabilities.memory64 is "
                        f"{str(target['capabilities']['memory64']).lower()}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--driver", required=True)
    parser.add_argument("--root", required=True, type=Path)
    args = parser.parse_args()
    failed = False
    found = pairings(args.root)
    if not found:
        print(f"FAIL: {args.root}/CMakePresets.json pairs no target with a toolchain file")
        return 1
    for preset, target_name, toolchain_file in found:
        resolved = subprocess.run([args.driver, "resolve", "--json", "--target", target_name], capture_output=True, text=True)
        if resolved.returncode != 0:
            print(f"FAIL: {preset}: llgo-wasm resolve --target {target_name}: {resolved.stderr.strip()}")
            failed = True
            continue
        if not toolchain_file.exists():
            print(f"FAIL: {preset}: the toolchain file {toolchain_file} does not exist")
            failed = True
            continue
        problems = disagreements(json.loads(resolved.stdout), read_toolchain(toolchain_file))
        name = toolchain_file.name
        if problems:
            failed = True
            for problem in problems:
                print(f"FAIL: {preset}: target {Path(target_name).name} with {name}: {problem}")
        else:
            print(f"ok: {preset}: target {Path(target_name).name} with {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
