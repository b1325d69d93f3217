#!/usr/bin/env python3
"""check_scheddiff.py: differential scheduler test. Random goroutine programs, generated from
seeds, run on the real runtime under one engine (tests/runtime/scheddiff.c); each program's event
trace must equal the one Go's semantics give on a single FIFO worker, computed here by a model.
Every variant and backend is compared with the same model, so their traces are identical.

  check_scheddiff.py [--seeds FIRST:COUNT] [--timeout S] -- COMMAND ARGS...   run and compare
  check_scheddiff.py --print SEED                                             show one program
  check_scheddiff.py --program ONE-LINE-FORM -- COMMAND ARGS...               run one program

The programs use spawn (llgo_go), yield (llgo_gosched), park/ready (a wait for a goroutine's
end), defer, panic, recover, Goexit, nested defers (defers inside deferred calls) and deep
recursion before a switch. The generator and the model are the spec of the program format; the
C side only interprets it (scheddiff.c has the format). One engine process runs all programs.

On a mismatch the first failing seed is shrunk (operations removed or inlined while the runtime
still disagrees with the model, each try one engine run) and printed as a minimal reproduction:
the program in Go-like form, its one-line form, the expected and actual traces, and the command
that reruns it.

Model (Go 1.19's semantics, the runtime's documented scheduler): one FIFO run queue; llgo_go
appends, llgo_gosched moves the running goroutine to the back, llgo_ready appends, a goroutine
runs until it yields, parks or ends. Panics run deferred calls newest first; recover in a
deferred call run by a panic stops it (nil during Goexit, in calls run by a normal return, and
once recovered); a panic leaving a deferred call aborts the panic that ran it; recovering a
panic that aborted a Goexit resumes the Goexit.
"""
import argparse
import collections
import random
import re
import shlex
import subprocess
import sys
import time

from engine_command import expand_environment

# ---- programs -----------------------------------------------------------------------------------
# An op is (kind, id, arg): arg is a list of ops for s/w/W/c/d, the depth for k, else None.
COMPOUND = "swWcd"


def generate(seed):
    """The program of `seed`: a list of ops. Budgets keep it small (at most ~40 ops)."""
    rng = random.Random(seed)
    next_id = [1]
    budget = [rng.randint(10, 45)]

    def new_id():
        next_id[0] += 1
        return next_id[0] - 1

    def block(depth, in_defer, deferred_body):
        ops = []
        for _ in range(rng.randint(1, 6)):
            if budget[0] <= 0:
                break
            budget[0] -= 1
            weights = {"e": 2, "y": 3, "k": 1, "p": 1 + depth}
            if deferred_body:
                weights["r"] = 4
            if depth < 4:
                weights.update({"s": 2, "w": 2, "W": 1, "c": 3, "d": 4})
            if not in_defer:
                weights["x"] = 1
            kind = rng.choices(list(weights), list(weights.values()))[0]
            ident = new_id()
            if kind in COMPOUND:
                # A goroutine starts outside any deferred call; a deferred body is one.
                child_in_defer = in_defer and kind == "c" or kind == "d"
                ops.append((kind, ident, block(depth + 1, child_in_defer, kind == "d")))
            elif kind == "k":
                ops.append((kind, ident, rng.choice([1, 8, 40, 120])))
            else:
                ops.append((kind, ident, None))
            if kind in "px":
                break  # nothing after it would run
        return ops

    return block(0, False, False)


def serialize(ops):
    out = []
    for kind, ident, arg in ops:
        if kind in COMPOUND:
            out.append(f"{kind}{ident}[{serialize(arg)}]")
        elif kind == "k":
            out.append(f"k{ident}:{arg}")
        else:
            out.append(f"{kind}{ident}")
    return "".join(out)


def parse(text):
    """The ops of a program's one-line form (the inverse of serialize)."""
    tokens = re.findall(r"([a-zA-Z])(\d+)(?::(\d+))?(\[)?|(\])", text)
    position = [0]

    def block():
        ops = []
        while position[0] < len(tokens):
            kind, ident, depth, opens, closes = tokens[position[0]]
            position[0] += 1
            if closes:
                return ops
            if opens:
                ops.append((kind, int(ident), block()))
            elif kind == "k":
                ops.append((kind, int(ident), int(depth)))
            else:
                ops.append((kind, int(ident), None))
        return ops

    return block()


# Go-like text of the operations without a block ({i}: id, {a}: depth).
SIMPLE_GO = {"e": 'event("e{i}")', "y": 'runtime.Gosched(); event("y{i}")',
             "k": 'recurse({a}) /* Gosched at the bottom, then event("k{i}") */',
             "r": 'event("r{i}=", recover())', "p": 'panic("p{i}")', "x": "runtime.Goexit()"}


def render(ops, indent="    "):
    """The program in Go-like form, for a reproduction."""
    lines = []
    for kind, ident, arg in ops:
        if kind in SIMPLE_GO:
            lines.append(indent + SIMPLE_GO[kind].format(i=ident, a=arg))
        else:
            head = {"s": "go func() {", "c": "func() {", "d": "defer func() {",
                    "w": "done := goWithDone(func() {", "W": "done := goWithDone(func() {"}[kind]
            if kind == "d":
                lines.append(f'{indent}{head} event("d{ident}")')
            else:
                lines.append(f"{indent}{head}")
            lines.extend(render(arg, indent + "    "))
            tail = {"s": "}()", "c": f'}}(); event("c{ident}")', "d": "}()",
                    "w": f'}}); <-done; event("w{ident}")',
                    "W": f'}}); runtime.Gosched(); <-done; event("w{ident}")'}[kind]
            lines.append(indent + tail)
    return lines


# ---- the model ----------------------------------------------------------------------------------

class Panic(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message
        self.aborted = []  # panics (and a Goexit) this one aborted, newest first


class Goexit(Exception):
    def __init__(self):
        super().__init__("Goexit")
        self.aborted = []


class DeferredCall:
    """What recover sees in a deferred call: the panic that runs it (None: a normal return)."""

    def __init__(self, running_for):
        self.running_for = running_for
        self.recovered = False


def model(program):
    trace = []
    queue = collections.deque()
    state = {"slots": {}}

    def run_function(ops, first_defer=None, call=None):
        defers = [first_defer] if first_defer else []
        unwinding = None
        try:
            yield from run_ops(ops, defers, call)
        except (Panic, Goexit) as e:
            unwinding = e
        if not defers:
            if unwinding:
                raise unwinding
            return
        while defers:
            deferred = defers.pop()
            running = DeferredCall(unwinding if isinstance(unwinding, Panic) else None)
            try:
                yield from deferred(running)
            except (Panic, Goexit) as newer:
                if unwinding is not None:
                    newer.aborted = newer.aborted + [unwinding] + unwinding.aborted
                unwinding = newer
                continue
            if running.recovered:
                resumed = [a for a in unwinding.aborted if isinstance(a, Goexit)]
                unwinding = resumed[0] if resumed else None
                if unwinding is not None:
                    unwinding.aborted = []
        if unwinding:
            raise unwinding

    def deferred_op(ident, body):
        def call(running):
            trace.append(f"d{ident}")
            yield from run_function(body, call=running)
        return call

    def run_ops(ops, defers, call):
        for kind, ident, arg in ops:
            if kind in ("e", "b"):  # b: scheddiff.c's blocking workout, never generated
                trace.append(f"{kind}{ident}")
            elif kind == "y":
                yield "yield"
                trace.append(f"y{ident}")
            elif kind == "k":
                yield "yield"
                trace.append(f"k{ident}")
            elif kind == "s":
                spawn(ident, arg, None)
            elif kind in "wW":
                slot = {"signaled": False, "waiter": None}
                spawn(ident, arg, slot)
                if kind == "W":
                    yield "yield"
                if not slot["signaled"]:
                    slot["waiter"] = current[0]
                    yield "park"
                trace.append(f"w{ident}")
            elif kind == "c":
                yield from run_function(arg)
                trace.append(f"c{ident}")
            elif kind == "d":
                defers.append(deferred_op(ident, arg))
            elif kind == "r":
                # Only ever generated directly in a deferred body, where `call` is that call.
                if call is not None and call.running_for is not None and not call.recovered:
                    call.recovered = True
                    trace.append(f"r{ident}={call.running_for.message}")
                else:
                    trace.append(f"r{ident}=nil")
            elif kind == "p":
                raise Panic(f"p{ident}")
            elif kind == "x":
                raise Goexit()

    def spawn(owner, body, slot):
        def finish(running):
            message = "nil"
            if running.running_for is not None and not running.recovered:
                running.recovered = True
                message = running.running_for.message
            trace.append(f"g{owner}={message}")
            if slot is not None:
                slot["signaled"] = True
                if slot["waiter"] is not None:
                    queue.append(slot["waiter"])
                    slot["waiter"] = None
            return
            yield  # a generator

        def goroutine():
            try:
                yield from run_function(body, first_defer=finish)
            except Goexit:
                pass
        queue.append(goroutine())

    current = [None]
    spawn(0, program, None)
    while queue:
        g = queue.popleft()
        current[0] = g
        try:
            if next(g) == "yield":
                queue.append(g)
        except StopIteration:
            pass
    return " ".join(trace)


# ---- running ------------------------------------------------------------------------------------

def run_engine(command, programs, timeout):
    """{index: trace} from one engine run, plus its exit status and stderr."""
    result = subprocess.run(expand_environment(command) + [serialize(p) for p in programs], capture_output=True, text=True,
                            timeout=timeout)
    traces = {}
    for line in result.stdout.splitlines():
        index, _, trace = line.partition(" ")
        if index.isdigit():
            traces[int(index)] = trace
    return traces, result.returncode, result.stderr


def disagrees(command, program, timeout):
    traces, status, stderr = run_engine(command, [program], timeout)
    actual = traces.get(0)
    return actual != model(program) or status != 0, actual, status, stderr


def smaller_variants(ops):
    """Programs one step smaller: an op removed, a compound op replaced by its body, a depth cut."""
    for i, (kind, ident, arg) in enumerate(ops):
        yield ops[:i] + ops[i + 1:]
        if kind in COMPOUND:
            yield ops[:i] + arg + ops[i + 1:]
            for smaller in smaller_variants(arg):
                yield ops[:i] + [(kind, ident, smaller)] + ops[i + 1:]
        elif kind == "k" and arg > 1:
            yield ops[:i] + [(kind, ident, 1)] + ops[i + 1:]


def shrink(command, program, timeout, budget=300):
    tries = 0
    progress = True
    while progress and tries < budget:
        progress = False
        for candidate in smaller_variants(program):
            if tries >= budget:
                break
            tries += 1
            try:
                if disagrees(command, candidate, timeout)[0]:
                    program = candidate
                    progress = True
                    break
            except subprocess.TimeoutExpired:
                program = candidate  # a hang is a disagreement too
                progress = True
                break
    return program, tries


def report(command, seed, program, timeout):
    print(f"seed {seed}: the runtime disagrees with the model; shrinking (one engine run per try) ...")
    minimal, tries = shrink(command, program, timeout)
    failed, actual, status, stderr = disagrees(command, minimal, timeout)
    print(f"minimal reproduction after {tries} tries (seed {seed}):")
    print("func main() {")
    print("\n".join(render(minimal)))
    print("}")
    print(f"program:  {serialize(minimal)}")
    print(f"expected: {model(minimal)}")
    print(f"actual:   {actual if actual is not None else '(no trace line)'}   exit status {status}")
    if stderr.strip():
        print("stderr:   " + stderr.strip().replace("\n", "\n          "))
    print("rerun:    " + " ".join(shlex.quote(w) for w in command + [serialize(minimal)]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="0:200", help="FIRST:COUNT (default 0:200)")
    parser.add_argument("--print", type=int, metavar="SEED", help="print one program and its expected trace")
    parser.add_argument("--program", help="check one program given in its one-line form (no shrinking)")
    parser.add_argument("--batch", type=int, default=500, help="programs per engine process")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.print is not None:
        program = generate(args.print)
        print("\n".join(render(program)))
        print(serialize(program))
        print(model(program))
        return 0
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no engine command after --")
    if args.program is not None:
        program = parse(args.program)
        failed, actual, status, stderr = disagrees(command, program, args.timeout)
        print(f"expected: {model(program)}\nactual:   {actual}   exit status {status}\n{stderr}")
        return 1 if failed else 0
    first, count = (int(x) for x in args.seeds.split(":"))
    seeds = list(range(first, first + count))
    started = time.monotonic()
    events = 0
    for start in range(0, len(seeds), args.batch):
        batch = seeds[start:start + args.batch]
        programs = [generate(seed) for seed in batch]
        traces, status, stderr = run_engine(command, programs, args.timeout)
        for index, (seed, program) in enumerate(zip(batch, programs)):
            expected = model(program)
            if traces.get(index) != expected:
                if index not in traces:
                    print(f"seed {seed}: no trace (the engine exited with {status} before it)")
                    if stderr.strip():
                        print("stderr: " + stderr.strip()[-2000:])
                report(command, seed, program, args.timeout)
                return 1
            events += len(expected.split())
        if status != 0:
            print(f"the engine exited with {status} after every trace matched; stderr:\n{stderr}")
            return 1
    print(f"{len(seeds)} programs (seeds {first}..{first + count - 1}), {events} events: "
          f"every trace equals the model ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
