#!/usr/bin/env python3
"""program_cases.py: the case file of a test program (tests/harness/test_program.h), read once.

A case file is JSON:

  {"requirements": {"<name>": {"only" | "unless": ["<variant>/<backend>", ...], "why": "...",
                               "known_bug": true (optional)}},
   "cases": {"<case>": {"exit": N, "stdout": "...", "stderr": "...", "stderr_has": "...",
                        "requires": ["<requirement>", ...], "about": "a note"}}}

Patterns are fnmatch-style over "<variant>/<backend>" (variants native P1 P1T J32 J64; backends
ucontext ucontext-separate pthread asyncify asyncify-separate emscripten-fiber), e.g. "*/pthread", "native/ucontext". A case whose
requirement does not hold on a variant/backend is skipped there with the requirement's reason.
A "known_bug" requirement still runs the case where it fails: the case is reported skipped while
it fails (the bug is still there) and fails once it passes (remove the requirement then).
stdout and stderr are exact texts; "stdout" defaults to "" and "stderr" to "" unless
"stderr_has" (a substring, for messages that carry backend details) is given instead.
"stdin": {"after_line": "...", "after_ms": N, "data": "..."} feeds the program's stdin through a
pipe: nothing until the program has printed the line after_line on stdout (optional: from its
start otherwise), then nothing for N more milliseconds, then the data, then end of file (a case
that waits for its stdin to become readable). Counting from the line and not from the start keeps
a slow engine start (a loaded machine) from delivering the data before the program waits for it.
"env": {"NAME": "value"} adds to the program's environment (e.g. a runner's audit switch).
"timing": "<why>" marks a case that needs the wall clock (one sentence saying why): it runs only
in the full tier, serially. "tier" names the tier a case belongs to. This script accepts both
fields and does not act on them.

Command line (used by cmake/LlgoTestPrograms.cmake at configure time):
  program_cases.py list CASE_FILE VARIANT BACKEND
prints one line per case: "<case>", or "<case> needs <requirement>" when it does not apply there,
or "<case> known-bug <requirement>" when a known bug holds it back there.
"""
import fnmatch
import json
import sys

FIELDS = {"exit", "stdout", "stderr", "stderr_has", "requires", "about", "stdin", "env", "timing", "tier"}


class CaseFileError(Exception):
    pass


def load(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except json.JSONDecodeError as error:
        raise CaseFileError(f"{path}:{error.lineno}:{error.colno}: {error.msg}")
    except OSError as error:
        raise CaseFileError(f"cannot read the case file {path}: {error.strerror}")
    requirements = data.get("requirements", {})
    cases = data.get("cases")
    if not isinstance(cases, dict) or not cases:
        raise CaseFileError(f"{path}: no \"cases\" object")
    for name, case in cases.items():
        unknown = set(case) - FIELDS
        if unknown:
            raise CaseFileError(f"{path}: case {name!r}: unknown field(s) {sorted(unknown)}; "
                                f"known: {sorted(FIELDS)}")
        if not isinstance(case.get("exit"), int):
            raise CaseFileError(f"{path}: case {name!r}: \"exit\" (an integer) is required")
        stdin = case.get("stdin")
        if stdin is not None and (not isinstance(stdin, dict)
                                  or not {"after_ms", "data"} <= set(stdin)
                                  or not set(stdin) <= {"after_line", "after_ms", "data"}
                                  or not isinstance(stdin["after_ms"], int)
                                  or not isinstance(stdin["data"], str)
                                  or not isinstance(stdin.get("after_line", ""), str)):
            raise CaseFileError(f"{path}: case {name!r}: \"stdin\" must be "
                                f"{{\"after_line\": \"...\" (optional), \"after_ms\": N, "
                                f"\"data\": \"...\"}}")
        env = case.get("env", {})
        if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
            raise CaseFileError(f"{path}: case {name!r}: \"env\" must map names to strings")
        if "stderr" in case and "stderr_has" in case:
            raise CaseFileError(f"{path}: case {name!r}: give \"stderr\" or \"stderr_has\", not both")
        for requirement in case.get("requires", []):
            rule = requirements.get(requirement)
            if rule is None:
                raise CaseFileError(f"{path}: case {name!r} requires {requirement!r}, which "
                                    f"\"requirements\" does not define")
            if ("only" in rule) == ("unless" in rule) or "why" not in rule:
                raise CaseFileError(f"{path}: requirement {requirement!r} needs \"why\" and "
                                    f"exactly one of \"only\" and \"unless\"")
    return data


def unmet_requirement(data, case_name, variant, backend):
    """None when the case applies to variant/backend, else the first requirement it fails."""
    where = f"{variant}/{backend}"
    for requirement in data["cases"][case_name].get("requires", []):
        rule = data["requirements"][requirement]
        matches = any(fnmatch.fnmatchcase(where, p) for p in rule.get("only", rule.get("unless")))
        if matches != ("only" in rule):
            return requirement
    return None


def skip_reason(data, case_name, variant, backend):
    """None when the case applies to variant/backend, else (why it does not, known bug?)."""
    requirement = unmet_requirement(data, case_name, variant, backend)
    if requirement is None:
        return None
    rule = data["requirements"][requirement]
    return f"needs {requirement}: {rule['why']}", bool(rule.get("known_bug"))


def main(argv):
    if len(argv) != 5 or argv[1] != "list":
        print("usage: program_cases.py list CASE_FILE VARIANT BACKEND", file=sys.stderr)
        return 2
    try:
        data = load(argv[2])
    except CaseFileError as error:
        print(f"program_cases.py: {error}", file=sys.stderr)
        return 1
    for name in data["cases"]:
        requirement = unmet_requirement(data, name, argv[3], argv[4])
        if requirement is None:
            print(name)
        else:
            kind = "known-bug" if data["requirements"][requirement].get("known_bug") else "needs"
            print(f"{name} {kind} {requirement}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
