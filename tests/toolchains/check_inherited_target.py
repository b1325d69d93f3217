#!/usr/bin/env python3
"""A new descriptor that inherits a built-in target needs no edit outside targets/.

It writes a descriptor that inherits PARENT (a built-in target) into a temporary folder, under
a variant label no case file or CMake file may rely on (VARIANT, an existing label other than the
parent's: the schema lists the labels; here it is only a display name), and
configures the target build (cmake/wasm-variant) against it by path, as a preset would, with the
toolchain file the parent's preset uses (CMakePresets.json). Then:

  - its tests are selected: the configured tree declares the same ctest cases as the same build
    configured for PARENT, the variant label aside (every case file selects by capability, so a
    target with the parent's capabilities gets every case the parent gets; a selection by variant
    name would drop or add some);
  - its runtime is built and its programs run: it builds one backend's runtime and the
    `scenarios` test program, and runs that program's cases on the target's primary engine.

Usage: check_inherited_target.py --parent NAME [--variant LABEL] --driver LLGO-WASM
           --check-run CHECK_RUN --root CHECKOUT --work DIR [--toolchain-dir DIR]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        print(f"FAIL: {' '.join(map(str, command))} exited {result.returncode}:\n{result.stdout[-4000:]}{result.stderr[-4000:]}")
        sys.exit(1)
    return result.stdout


def configure(args, target, build):
    shutil.rmtree(build, ignore_errors=True)
    command = ["cmake", "-S", args.root / "cmake" / "wasm-variant", "-B", build, "-G", "Ninja",
               f"-DLLGO_WASM_TARGET={target}", f"-DLLGO_WASM_SOURCE_ROOT={args.root}",
               f"-DLLGO_WASM_DRIVER={args.driver}", f"-DLLGO_WASM_CHECK_RUN_PROGRAM={args.check_run}",
               f"-DCMAKE_TOOLCHAIN_FILE={args.toolchain}", "-DCMAKE_BUILD_TYPE=Release",
               "-DLLGO_WASM_BROWSER_TESTS=OFF", f"-DPython3_EXECUTABLE={sys.executable}"]
    if args.toolchain_dir:
        command.append(f"-DLLGO_WASM_TOOLCHAIN_DIR={args.toolchain_dir}")
    run(command)


def test_names(build):
    listing = run(["ctest", "-N"], cwd=build)
    return sorted(re.sub(r"^\s*Test\s+#\d+:\s*", "", line) for line in listing.splitlines() if re.match(r"^\s*Test\s+#", line))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for option in ("--parent", "--driver", "--check-run", "--work"):
        parser.add_argument(option, required=True)
    parser.add_argument("--variant", default="", help="the new target's label (default: the label of a "
                        "built-in target of the other family: an Emscripten one for a WASI parent, and the reverse)")
    parser.add_argument("--root", required=True, type=Path)
    parser.add_argument("--toolchain-dir", default="")
    args = parser.parse_args()
    presets = json.loads((args.root / "CMakePresets.json").read_text())["configurePresets"]
    toolchains = [p["cacheVariables"]["LLGO_WASM_TARGET_TOOLCHAIN_FILE"] for p in presets
                  if p.get("cacheVariables", {}).get("LLGO_WASM_TARGET") == args.parent
                  and "LLGO_WASM_TARGET_TOOLCHAIN_FILE" in p["cacheVariables"]]
    if not toolchains:
        print(f"FAIL: no preset of {args.root}/CMakePresets.json builds {args.parent} with a toolchain file")
        return 1
    args.toolchain = toolchains[0].replace("${sourceDir}", str(args.root))
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    (work / "descriptors").mkdir(parents=True)

    # The new target: a descriptor in a folder of its own, inheriting the built-in by name.
    name = f"{args.parent}-inherited"
    descriptor = work / "descriptors" / f"{name}.json"
    parent = json.loads(run([args.driver, "resolve", "--json", "--target", args.parent]))
    if not args.variant:
        # A label the case files' old name patterns treated differently from the parent's.
        family = "javascript" if "wasi" in parent["effective"]["capabilities"] else "wasi"
        for target in json.loads(run([args.driver, "targets", "--json"])):
            other = json.loads(run([args.driver, "resolve", "--json", "--target", target["name"]]))
            if family in other["effective"]["capabilities"] and other["variant"] != parent["variant"]:
                args.variant = other["variant"]
                break
        else:
            print(f"FAIL: no built-in target of the {family} family to borrow a label from")
            return 1
    descriptor.write_text(json.dumps({"name": name, "inherits": args.parent, "variant": args.variant,
                                      "//": "a new target made of an existing one, outside the checkout"}, indent=2))
    resolved = json.loads(run([args.driver, "resolve", "--json", "--target", descriptor]))
    if parent["variant"] == args.variant:
        print(f"FAIL: --variant {args.variant} is {args.parent}'s own label: give another one")
        return 1
    if resolved["name"] != name or resolved["triple"] != parent["triple"] or resolved["variant"] != args.variant:
        print(f"FAIL: {descriptor} resolved to {resolved['name']} ({resolved['triple']}), not {name} ({parent['triple']})")
        return 1

    configure(args, descriptor, work / "build")
    configure(args, args.parent, work / "parent-build")
    names = test_names(work / "build")
    # The parent's names with its label as the new target's (a dotted component of a test name).
    parent_names = sorted(".".join(args.variant if part == parent["variant"] else part for part in n.split("."))
                          for n in test_names(work / "parent-build"))
    program_cases = [n for n in names if n.startswith("scenarios.")]
    if not program_cases:
        print(f"FAIL: the target build for {descriptor} declares no scenarios case")
        return 1
    if names != parent_names:
        only_new = sorted(set(names) - set(parent_names))[:20]
        only_parent = sorted(set(parent_names) - set(names))[:20]
        print(f"FAIL: {name} declares {len(names)} cases, {args.parent} {len(parent_names)}:\n"
              f"  only {name}: {only_new}\n  only {args.parent}: {only_parent}")
        return 1
    print(f"ok: {name} declares the {len(names)} ctest cases {args.parent} declares ({len(program_cases)} scenarios cases)")

    # Its default backend's runtime and one test program, built and run on the primary engine.
    context = resolved["capabilities"]["context"]["default"]
    cid = context.replace("-", "_")
    run(["cmake", "--build", work / "build", "--target", f"scenarios_{cid}"])
    # The primary engine, as the build chooses it (LlgoTestPrograms.cmake): the first that runs the
    # default output and is neither sampled nor optional.
    default_extension = resolved["output"]["default-extension"]
    engine = next((name for name, e in resolved["engines"].items()
                   if e.get("extension", "") in ("", default_extension) and not e.get("sampled") and not e.get("optional")), "")
    pattern = rf"^scenarios\.[^.]+\.{re.escape(engine)}\.{re.escape(context)}\."
    output = run(["ctest", "-R", pattern, "-j2", "--output-on-failure"], cwd=work / "build")
    summary = [line for line in output.splitlines() if "tests passed" in line]
    print(f"ok: {name}'s scenarios program on {engine} ({context}): {summary[-1] if summary else output[-500:]}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
