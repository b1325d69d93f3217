#!/usr/bin/env python3
"""tools/presets.py: the presets of CMakePresets.json and how a run builds them, in one place
(tools/run-tests.sh, tools/run-demo.sh, bench/run.sh and bench/run.py read it; no list of presets
is written anywhere else).

  presets.py plan tests [--full] [--only "P1 P2 ..."]
  presets.py plan demo  [--only "P1 P2 ..."]
  presets.py plan bench [--only "P1 P2 ..."]
  presets.py sync | check

plan prints one line per preset to build, in build order: "<preset> <role> <configure options...>"
(bench: "<preset> <bench jobs...>"), tab-separated (an option may hold spaces).

The configure presets are the one list. Every visible one has a build preset, a test preset
(inheriting the hidden test-base, where ctest's jobs, timeout and filter are written once) and a
workflow preset (configure, build, test), each named after it: `sync` writes those entries from
the configure presets (a test preset's own settings beyond the boilerplate, such as a longer
timeout, are kept, and so is a build or test preset of another name on a configure preset's tree,
such as the test preset native-fuzz), `check` fails when CMakePresets.json differs from what `sync` would write.
Every plan checks first. test-base's jobs is a fixed 2: version 6 of the presets' schema (CMake
3.25) takes only a number there; tools/run-tests.sh passes -j $(nproc) itself.

Every visible configure preset has a role, read from its cache variables:
  tools   LLGO_WASM_TREE_TESTS=OFF (the `install` preset): builds the driver, the CLI and the test
          checker, plain, once per run; its tests install them and build programs against them
  own     instruments the host code (LLGO_WASM_SANITIZE, LLGO_WASM_COVERAGE or LLGO_WASM_FUZZ), so
          compiles the driver once more, instrumented
  target  every other preset: builds its target's runtime and programs on the tools' tree
          (LLGO_WASM_HOST_TOOLS_FROM), compiling no driver
The tools' tree comes first whenever a target tree is built, then the target trees, then the
instrumented ones. In a test run the tools' tree installs the runtimes the target trees built
(LLGO_WASM_INSTALL_RUNTIMES_FROM; a partial run, --only, narrows its install check to the targets
it builds), and a target that an instrumented tree also builds (the host:
native-sanitize) has its plain tree's test-program cases in the full tier
(LLGO_WASM_PROGRAM_CASES_TIER=full). The tools' tree and the target trees are Release builds
(-O2, no debug information): the install tree installs the driver and their runtimes, and their
programs are built as users' are. A demo run builds the target trees only, each with its
runtime and scheduler fixture (LLGO_WASM_DEMO_ONLY). The trees that compile the driver compile it
as unity builds: its files share the JSON library's templates, which each file would otherwise
instantiate and compile again.

A preset the benchmarks build says what they do with it in its vendor entry
"llgo-wasm/bench": {"jobs": [...]}, jobs of bench/run.py: "runtime" (the runtime benchmarks of its
target), "driver" (the driver's benchmarks: it builds bench_driver), "corpus" (the real programs,
built through its toolchain file), "stack-switching" (the stack-switching section, on Node 26) and
"startup" (the hello-goroutines start-up and size rows of its target), "whole" (the four whole
programs of bench/whole_programs.c on its target, against the same programs in Go) and
"binary-trees" (bench/binary_trees.c against the collector, against the same program in Go).
bench/run.sh builds them as the presets define them, in file order.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PRESETS_FILE = os.path.join(ROOT, "CMakePresets.json")
BENCH_VENDOR = "llgo-wasm/bench"
TEST_BASE = "test-base"
WORKFLOW_STEPS = ("configure", "build", "test")


def on(value):
    return str(value).upper() in ("ON", "TRUE", "1", "YES", "Y")


def configure_presets():
    with open(PRESETS_FILE) as f:
        return {p["name"]: p for p in json.load(f)["configurePresets"]}


def synced(document):
    """The document with one build, test and workflow preset per visible configure preset, named
    after it; hidden build and test presets, and each preset's own keys beyond the boilerplate,
    kept as they are."""
    names = [p["name"] for p in document["configurePresets"] if not p.get("hidden")]

    def entries(kind, boilerplate):
        own = {p["name"]: p for p in document.get(kind, [])}
        hidden = [p for p in document.get(kind, []) if p.get("hidden")]
        # A visible entry of another name that uses a configure preset's tree (the test preset
        # native-fuzz: the fuzzers of the native-sanitize tree) is kept, after the generated ones.
        extra = [p for p in document.get(kind, [])
                 if not p.get("hidden") and p["name"] not in names and p.get("configurePreset") in names]
        return hidden + [dict(boilerplate(n), **{k: v for k, v in own.get(n, {}).items() if k not in boilerplate(n)})
                         for n in names] + extra

    return dict(document,
                buildPresets=entries("buildPresets", lambda n: {"name": n, "configurePreset": n}),
                testPresets=entries("testPresets", lambda n: {"name": n, "inherits": TEST_BASE, "configurePreset": n}),
                workflowPresets=[{"name": n, "steps": [{"type": t, "name": n} for t in WORKFLOW_STEPS]} for n in names])


def synced_text():
    with open(PRESETS_FILE) as f:
        text = f.read()
    return text, json.dumps(synced(json.loads(text)), indent=2) + "\n"


def check():
    text, expected = synced_text()
    if text != expected:
        sys.exit("CMakePresets.json: its build, test or workflow presets do not follow its configure presets "
                 "(python3 tools/presets.py sync writes them)")


def load():
    """{preset: its cache variables, inherited ones included} for every visible configure preset."""
    presets = configure_presets()

    def cache(p):
        values = {}
        parents = p.get("inherits", [])
        for parent in [parents] if isinstance(parents, str) else parents:
            values.update(cache(presets[parent]))
        values.update(p.get("cacheVariables", {}))
        return values

    return {n: cache(p) for n, p in presets.items() if not p.get("hidden")}


def bench():
    """{preset: its bench jobs} for every visible configure preset with a bench vendor entry, in
    file order."""
    return {n: p["vendor"][BENCH_VENDOR]["jobs"] for n, p in configure_presets().items()
            if not p.get("hidden") and BENCH_VENDOR in p.get("vendor", {})}


def bench_presets(job):
    """The presets whose bench jobs include `job`, in file order."""
    return [n for n, jobs in bench().items() if job in jobs]


def role(variables):
    if not on(variables.get("LLGO_WASM_TREE_TESTS", "ON")):
        return "tools"
    if any(on(variables.get(k, "OFF")) for k in ("LLGO_WASM_SANITIZE", "LLGO_WASM_COVERAGE", "LLGO_WASM_FUZZ")):
        return "own"
    return "target"


def plan_bench(only):
    jobs = bench()
    unknown = [n for n in only if n not in load()]
    if unknown:
        sys.exit(f"presets {unknown} are not in CMakePresets.json: {list(load())}")
    for n in only or jobs:
        print("\t".join([n] + jobs.get(n, [])))


INSTALL_TARGET_LISTS = ("LLGO_WASM_INSTALL_TEST_TARGETS", "LLGO_WASM_INSTALL_DEB_TEST_TARGETS",
                        "LLGO_WASM_INSTALL_FULL_TIER_TEST_TARGETS")


def install_subset(variables, built):
    """Options that narrow the tools' tree's install check to the targets a partial run builds
    (PRESETS=...): it installs the runtimes the target trees built, so a target whose tree is not
    in the run has none to install, and its consumers are left out rather than failing."""
    # A -D option is not a preset: expand the preset's ${sourceDir} here.
    source_dir = os.path.abspath(ROOT)
    runtimes = [e.replace("${sourceDir}", source_dir) for e in variables.get("LLGO_WASM_INSTALL_RUNTIMES", "").split(";") if e]
    options = ["-DLLGO_WASM_INSTALL_RUNTIMES=" + ";".join(e for e in runtimes if e.split("=", 1)[0] in built)]
    for name in INSTALL_TARGET_LISTS:
        targets = [t for t in variables.get(name, "").split(";") if t]
        options.append(f"-D{name}=" + ";".join(t for t in targets if t in built))
    return options


def plan(kind, full, only):
    check()
    if kind == "bench":
        return plan_bench(only)
    info = load()
    roles = {n: role(v) for n, v in info.items()}
    tools = [n for n, r in roles.items() if r == "tools"]
    if len(tools) != 1:
        sys.exit(f"CMakePresets.json: expected one preset with LLGO_WASM_TREE_TESTS=OFF (the install tree), found {tools}")
    tools = tools[0]
    unknown = [n for n in only if n not in info]
    if unknown:
        sys.exit(f"presets {unknown} are not in CMakePresets.json: {list(info)}")
    chosen = [n for n in info if not only or n in only]
    if kind == "demo":
        chosen = [n for n in chosen if roles[n] == "target"]
    if any(roles[n] == "target" for n in chosen) and tools not in chosen:
        chosen.insert(0, tools)
    # The targets whose test-program cases an instrumented tree runs (sanitizers or coverage; the
    # fuzzers alone build no test programs).
    instrumented = {info[n].get("LLGO_WASM_TARGET") for n in info
                    if roles[n] == "own" and any(on(info[n].get(k, "OFF")) for k in ("LLGO_WASM_SANITIZE", "LLGO_WASM_COVERAGE"))}
    order = [n for r in ("tools", "target", "own") for n in chosen if roles[n] == r]
    for n in order:
        options = []
        if roles[n] in ("tools", "own"):
            options.append("-DCMAKE_UNITY_BUILD=ON")
        if roles[n] in ("tools", "target"):
            # Release without debug information: the install tree installs the driver it builds
            # and the target trees' runtimes (debug information would name this machine's paths),
            # and the programs are built as users' are; at -O2, the level the descriptors link at
            # when a build names none. Without -g the driver's unity files compile in 0.62x the
            # CPU (gcc 12, nlohmann/json's templates: 10.4 s against 16.4 s for the largest one).
            options.append("-DCMAKE_BUILD_TYPE=Release")
            options.append("-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG")
            if roles[n] == "tools":
                options.append("-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG")
        if roles[n] == "tools":
            options.append("-DLLGO_WASM_INSTALL_RUNTIMES_FROM=build")
            if only and kind == "tests":
                options += install_subset(info[n], {info[t].get("LLGO_WASM_TARGET") for t in chosen
                                                    if roles[t] == "target"})
        if roles[n] == "target":
            options.append(f"-DLLGO_WASM_HOST_TOOLS_FROM=build/{tools}")
            if kind == "demo":
                options.append("-DLLGO_WASM_DEMO_ONLY=ON")
            else:
                options.append("-DLLGO_WASM_DEMO_ONLY=OFF")
                if info[n].get("LLGO_WASM_TARGET") in instrumented:
                    options.append("-DLLGO_WASM_PROGRAM_CASES_TIER=full")
        if kind == "tests":
            options.append(f"-DLLGO_WASM_FULL_TESTS={'ON' if full else 'OFF'}")
        print("\t".join([n, roles[n]] + options))


def main(argv):
    args = argv[1:]
    if args == ["check"]:
        check()
        return 0
    if args == ["sync"]:
        expected = synced_text()[1]
        with open(PRESETS_FILE, "w") as f:
            f.write(expected)
        return 0
    if len(args) < 2 or args[0] != "plan" or args[1] not in ("tests", "demo", "bench"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    full = "--full" in args
    only = []
    if "--only" in args:
        only = args[args.index("--only") + 1].split()
    plan(args[1], full, only)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
