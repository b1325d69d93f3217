// jspi_floor.mjs - the engine's own cost of a JSPI goroutine switch: the floor under the J32
// `jspi` context's yield (bench/llgo_bench/jspi.py runs it round-robin with the `jspi yield` rows).
//
// A bare wasm module (below; 113 bytes) whose every "goroutine" is one WebAssembly.promising call
// of `run`: it descends DEPTH frames and then switches YIELDS times through one Suspending import,
// which keeps the caller's resolver and resolves the other goroutine's promise - the hand-off the
// runtime's glue does (runtime/emscripten/jspi_glue.js, llgo_jspi_handoff), with no scheduler, no
// C stack, no guard, nothing else: one engine suspend and resume, one promise and one microtask
// job per switch. Same command line and output as bench_runtime's yield:
//   node bench/jspi_floor.mjs yield G DEPTH YIELDS REPS
// prints REPS lines `RESULT {"bench":"yield","goroutines":G,"depth":DEPTH,"ns":...}`, ns per
// switch (G goroutines, YIELDS switches each, round-robin in start order).
//
// The module, as text (Binaryen's wasm-as made the bytes):
//   (module
//     (import "env" "switch" (func $switch (param i32)))
//     (func $descend (param $depth i32) (param $id i32) (param $n i32)
//       (if (i32.gt_u (local.get $depth) (i32.const 0))
//         (then (call $descend (i32.sub (local.get $depth) (i32.const 1)) (local.get $id) (local.get $n)))
//         (else (block $done (loop $again
//           (br_if $done (i32.eqz (local.get $n)))
//           (call $switch (local.get $id))
//           (local.set $n (i32.sub (local.get $n) (i32.const 1)))
//           (br $again))))))
//     (func (export "run") (param $id i32) (param $depth i32) (param $n i32)
//       (call $descend (local.get $depth) (local.get $id) (local.get $n))))
const MODULE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 11, 2, 96, 3, 127, 127, 127, 0, 96, 1, 127, 0, 2, 14, 1, 3, 101,
  110, 118, 6, 115, 119, 105, 116, 99, 104, 0, 1, 3, 3, 2, 0, 0, 7, 7, 1, 3, 114, 117, 110, 0, 2,
  10, 60, 2, 47, 0, 32, 0, 65, 0, 75, 4, 64, 32, 0, 65, 1, 107, 32, 1, 32, 2, 16, 1, 5, 2, 64, 3,
  64, 32, 2, 69, 13, 1, 32, 1, 16, 0, 32, 2, 65, 1, 107, 33, 2, 12, 0, 11, 0, 11, 11, 11, 10, 0,
  32, 1, 32, 0, 32, 2, 16, 1, 11,
]);

function fail(message) {
  console.log(`FAIL: ${message}`);
  process.exit(2);
}

const [what, ...numbers] = process.argv.slice(2);
const [goroutines, depth, yields, reps] = numbers.map(Number);
if (what !== 'yield' || numbers.length !== 4 || !(goroutines >= 1 && depth >= 0 && yields >= 1 && reps >= 1)) {
  fail('usage: jspi_floor.mjs yield G DEPTH YIELDS REPS');
}
if (typeof WebAssembly.Suspending !== 'function') fail('this engine has no JSPI (Node >= 24)');

const module = new WebAssembly.Module(MODULE);

// One repetition: G promising calls, each YIELDS switches; ns per switch. Exactly one goroutine
// runs at a time: a switch queues the caller and resumes the goroutine queued first (FIFO, as the
// scheduler's run queue), starting it from a microtask the first time.
async function repetition() {
  const waiting = new Array(goroutines).fill(undefined); // goroutine -> what resumes it
  const queue = [];                                       // goroutines ready to run, in order
  const next = () => {
    const id = queue.shift();
    const resume = waiting[id];
    waiting[id] = undefined;
    resume();
  };
  const imports = {
    env: {
      switch: new WebAssembly.Suspending((id) => new Promise((resolve) => {
        waiting[id] = resolve;
        queue.push(id);
        next();
      })),
    },
  };
  const run = WebAssembly.promising(new WebAssembly.Instance(module, imports).exports.run);
  const done = [];
  // A goroutine that ends hands control on.
  const launch = (id) => done.push(run(id, depth, yields).then(() => { if (queue.length > 0) next(); }));
  for (let id = 1; id < goroutines; id++) {
    waiting[id] = () => queueMicrotask(() => launch(id));
    queue.push(id);
  }
  const start = process.hrtime.bigint();
  launch(0);
  while (done.length < goroutines) await Promise.all(done); // goroutines start as they are reached
  await Promise.all(done);
  return Number(process.hrtime.bigint() - start) / (goroutines * yields);
}

for (let rep = 0; rep < reps; rep++) {
  const ns = await repetition();
  console.log(`RESULT ${JSON.stringify({ bench: 'yield', goroutines, depth, ns: Math.round(ns * 1000) / 1000 })}`);
}
