"""Running benchmark programs: one command with its failure in the program's own words, the
RESULT lines a program prints, the Node that runs wasm, and a Program (a module and its engine)."""
import json
import os
import re
import resource
import shutil
import subprocess
import tempfile
from pathlib import Path

from .settings import TIMEOUT_SECONDS


class BenchError(Exception):
    """A benchmark could not run; the message says what and where."""


def run(cmd, timeout=TIMEOUT_SECONDS, env=None, cwd=None):
    """Runs cmd; returns (stdout, stderr). Raises BenchError with the command's own words."""
    cmd = [str(part) for part in cmd]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise BenchError(f"timed out after {timeout} s: {' '.join(map(str, cmd))}")
    except OSError as error:
        raise BenchError(f"cannot run {cmd[0]}: {error}")
    if proc.returncode != 0:
        lines = [l for l in (proc.stdout + proc.stderr).splitlines() if l.strip()]
        fails = [l for l in lines if l.startswith("FAIL")] or lines[-3:]
        raise BenchError(f"exit status {proc.returncode} from {Path(str(cmd[min(1, len(cmd) - 1)])).name}: "
                         + " | ".join(fails)[:400])
    return proc.stdout, proc.stderr


def results_of(stdout):
    out = []
    for line in stdout.splitlines():
        if line.startswith("FAIL"):
            raise BenchError(line)
        if line.startswith("RESULT "):
            out.append(json.loads(line[len("RESULT "):]))
    if not out:
        raise BenchError("the program printed no RESULT line")
    return out


def toolchain_dir():
    """The toolchain tools/setup-toolchain.sh set up: $LLGO_WASM_TOOLCHAIN_DIR, else its default."""
    return Path(os.environ.get("LLGO_WASM_TOOLCHAIN_DIR") or
                Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "llgo-wasm" / "toolchain-v1")


def find_node():
    candidates = []
    if os.environ.get("NODE"):
        candidates.append(os.environ["NODE"])
    candidates.append(str(toolchain_dir() / "bin" / "node"))
    if shutil.which("node"):
        candidates.append(shutil.which("node"))
    for node in candidates:
        if Path(node).is_file():
            version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
            match = re.match(r"v(\d+)\.", version)
            if match and int(match.group(1)) >= 24:
                return node, version
    raise BenchError("Node >= 24 not found (looked at NODE, $LLGO_WASM_TOOLCHAIN_DIR/bin/node, PATH); "
                     "run tools/setup-toolchain.sh or set NODE")


class Program:
    """One runnable benchmark program: how to start it on its engine."""

    def __init__(self, variant, backend, path, engine_prefix, env=None, stacks=None, waits_in_event_loop=False):
        self.variant, self.backend, self.path = variant, backend, Path(path)
        self.engine_prefix = engine_prefix
        self.env = None if env is None else dict(os.environ, **env)
        self.stacks = stacks  # "shared" / "separate" for runtime programs
        self.waits_in_event_loop = waits_in_event_loop  # its worker idles in the JavaScript event loop

    def command(self, *args):
        return [*self.engine_prefix, str(self.path), *map(str, args)]

    def results(self, *args, warmup=0):
        """Runs the program; drops the first `warmup` RESULT lines (V8 compiles wasm with its
        baseline tier first and optimises hot functions later, so a first repetition is slow)."""
        if not self.path.is_file():
            raise BenchError(f"{self.path} was not built")
        return results_of(run(self.command(*args), env=self.env)[0])[warmup:]

    def results_and_cpu(self, *args):
        """results() plus the CPU time (user + system, ms) of the whole process."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        results = self.results(*args)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return results, cpu * 1000


def wasm_file_of(program):
    """The .wasm module behind a program (Emscripten: next to the .js)."""
    return program.path.with_suffix(".wasm")


def max_rss_kib(command, env=None):
    """Runs `command` (in `env`, default ours); returns (stdout, its peak resident memory in KiB,
    from wait4)."""
    with tempfile.TemporaryFile(mode="w+") as errors:
        child = subprocess.Popen([str(c) for c in command], stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        stdout = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        child.stdout.close()
        if child.returncode != 0:
            errors.seek(0)
            raise BenchError(f"exit status {child.returncode} from {' '.join(map(str, command))}: {errors.read().strip()[-400:]}")
    return stdout, usage.ru_maxrss
