// v8-shared-memory-grow.mjs: a reduced reproducer of V8's stale bound for memory.fill and
// memory.copy on a shared WebAssembly memory that another thread has grown (docs/p1t.md, "Why the
// initial size stays at the maximum"; issue 31, point 4). Standalone: no build, no wabt; the wasm
// module is emitted as bytes below.
//
//   node bench/v8-shared-memory-grow.mjs [--trials N] [--case NAME]... [--list]
//   node bench/v8-shared-memory-grow.mjs --chromium [PATH] [--node-modules DIR] [same options]
//
// Without --case it runs the smallest trigger and its controls (the cases spin-main-*: the JS main
// thread grows, one new Worker touches the page), 20 trials each; `--case all` runs every case;
// `--case X` takes every case whose name is X or has X as one of its dash-separated parts
// (`--case spin`, `--case copy`, `--case race-worker`). Node's V8 flags apply to its Workers too:
// `node --no-liftoff bench/v8-shared-memory-grow.mjs` tries the optimising tier alone.
//
// One trial: a fresh shared memory (1 page initial, MAXIMUM_PAGES maximum), a NEW Worker (the
// victim) that instantiates the module, and a grower (the JS main thread, or another Worker
// running wasm memory.grow). The grower adds a page and only then tells the victim its address
// through an atomic store (or Atomics.notify); the victim touches that page. Everything the victim
// touches is inside the memory as grown, and the victim learnt the address after the grow
// (sequentially consistent atomics), so every access is in bounds and a trap is an engine bug.
//
// Prints, per case, the traps over the trials and the victim's view of memory.size, then the engine
// (Node and V8 version, or Chromium's user agent). Exit status: 0 when no case trapped, 1 when one
// did (reproduced), 2 on a usage error, 3 when the harness itself failed (a trial hung, a worker
// could not start).
//
// With --chromium it starts Chromium (default $CHROMIUM, else /usr/bin/chromium) headless through
// playwright-core (from --node-modules DIR, $LLGO_WASM_NODE_MODULES, or the toolchain's npm folder),
// serves this file from a loopback server with the cross-origin-isolation headers that
// SharedArrayBuffer needs, and runs the same cases in a page with Web Workers.

const PAGE = 65536;
const MAXIMUM_PAGES = 16384;            // 1 GiB: V8 reserves it at creation, touches none of it
const TRIAL_TIMEOUT_MS = 20000;         // hang guard only (a trial takes tens of milliseconds)
const DEFAULT_TRIALS = 20;
// Words of the mailbox at address 0 (page 0 is there from the start).
const READY = 0;     // the victim is inside its wasm activation (or its JS wait)
const ADDRESS = 1;   // the byte address of the page the grower added (0: not yet)
const TOP = 2;       // race cases: the end of memory after the grower's latest growth
const STOP = 3;      // race cases: the victims are done, the grower stops

// ---------------------------------------------------------------------------------------------
// The module, as bytes. It imports env.memory (shared, 1 page, maximum MAXIMUM_PAGES) and exports:
//   grow(pages) -> old pages              memory.grow
//   await_grow(mailbox) -> old pages      spin until READY != 0, memory.grow(1), publish ADDRESS
//                                         (atomic store, then memory.atomic.notify)
//   at_OP(address, length) -> pages       OP on [address, address + length); memory.size after
//   await_OP(mailbox, length) -> pages    set READY, spin (no call, no JS) until ADDRESS != 0,
//                                         then OP on [ADDRESS, ADDRESS + length); memory.size after
// The OPs: fill (memory.fill), copy (memory.copy from address 0), store (plain i32.store at both
// ends), atomic (i32.atomic.store at both ends), size_fill (memory.size, then memory.fill; the
// size it read is returned), grow0_fill (memory.grow(0), then memory.fill).

const uleb = (value) => {
  const out = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
};
const sleb = (value) => {
  const out = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(byte & 0x40)) || (value === -1 && (byte & 0x40))) return [...out, byte];
    out.push(byte | 0x80);
  }
};
const name = (text) => [...uleb(text.length), ...new TextEncoder().encode(text)];
const vector = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];

const op = {
  get: (i) => [0x20, ...uleb(i)], set: (i) => [0x21, ...uleb(i)], tee: (i) => [0x22, ...uleb(i)],
  i32: (v) => [0x41, ...sleb(v)], add: [0x6a], sub: [0x6b], shl: [0x74], eqz: [0x45], drop: [0x1a],
  size: [0x3f, 0x00], grow: [0x40, 0x00], fill: [0xfc, 0x0b, 0x00], copy: [0xfc, 0x0a, 0x00, 0x00],
  store: (offset) => [0x36, 0x02, ...uleb(offset)],
  atomicLoad: (offset) => [0xfe, 0x10, 0x02, ...uleb(offset)],
  atomicStore: (offset) => [0xfe, 0x17, 0x02, ...uleb(offset)],
  atomicNotify: (offset) => [0xfe, 0x00, 0x02, ...uleb(offset)],
  loop: [0x03, 0x40], brIf: (depth) => [0x0d, ...uleb(depth)], end: [0x0b],
};

// OP on [local A, A + local L); the function's result is left on the stack.
const OPERATIONS = {
  fill: (A, L) => [...op.get(A), ...op.i32(0), ...op.get(L), ...op.fill, ...op.size],
  copy: (A, L) => [...op.get(A), ...op.i32(0), ...op.get(L), ...op.copy, ...op.size],
  store: (A, L) => [...op.get(A), ...op.i32(1), ...op.store(0),
    ...op.get(A), ...op.get(L), ...op.add, ...op.i32(4), ...op.sub, ...op.i32(1), ...op.store(0), ...op.size],
  atomic: (A, L) => [...op.get(A), ...op.i32(1), ...op.atomicStore(0),
    ...op.get(A), ...op.get(L), ...op.add, ...op.i32(4), ...op.sub, ...op.i32(1), ...op.atomicStore(0), ...op.size],
  size_fill: (A, L) => [...op.size, ...op.get(A), ...op.i32(0), ...op.get(L), ...op.fill],
  grow0_fill: (A, L) => [...op.i32(0), ...op.grow, ...op.drop, ...op.get(A), ...op.i32(0), ...op.get(L), ...op.fill, ...op.size],
};

const spinWhileZero = (mailbox, word) =>
  [...op.loop, ...op.get(mailbox), ...op.atomicLoad(4 * word), ...op.eqz, ...op.brIf(0), ...op.end];

export function moduleBytes() {
  const types = [[0x60, 1, 0x7f, 1, 0x7f], [0x60, 2, 0x7f, 0x7f, 1, 0x7f]]; // (i32)->i32, (i32,i32)->i32
  const functions = [];   // { name, type, locals (extra i32s), body }
  functions.push({ name: 'grow', type: 0, locals: 0, body: [...op.get(0), ...op.grow] });
  // await_grow(mailbox): local 1 = old size.
  functions.push({
    name: 'await_grow', type: 0, locals: 1, body: [
      ...spinWhileZero(0, READY),
      ...op.i32(1), ...op.grow, ...op.set(1),
      ...op.get(0), ...op.get(1), ...op.i32(16), ...op.shl, ...op.atomicStore(4 * ADDRESS),
      ...op.get(0), ...op.i32(1), ...op.atomicNotify(4 * ADDRESS), ...op.drop,
      ...op.get(1)],
  });
  for (const [operation, emit] of Object.entries(OPERATIONS)) {
    functions.push({ name: `at_${operation}`, type: 1, locals: 0, body: emit(0, 1) });
    // await_OP(mailbox = local 0, length = local 1); local 2 = the address.
    functions.push({
      name: `await_${operation}`, type: 1, locals: 1, body: [
        ...op.get(0), ...op.i32(1), ...op.atomicStore(4 * READY),
        ...spinWhileZero(0, ADDRESS),
        ...op.get(0), ...op.atomicLoad(4 * ADDRESS), ...op.set(2),
        ...emit(2, 1)],
    });
  }
  const memoryImport = [...name('env'), ...name('memory'), 0x02, 0x03, ...uleb(1), ...uleb(MAXIMUM_PAGES)];
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector(types)),
    ...section(2, vector([memoryImport])),
    ...section(3, vector(functions.map((f) => uleb(f.type)))),
    ...section(7, vector(functions.map((f, index) => [...name(f.name), 0x00, ...uleb(index)]))),
    ...section(10, vector(functions.map((f) => {
      const locals = f.locals ? vector([[...uleb(f.locals), 0x7f]]) : [0];
      const body = [...locals, ...f.body, ...op.end];
      return [...uleb(body.length), ...body];
    }))),
  ];
  return new Uint8Array(bytes);
}

// ---------------------------------------------------------------------------------------------
// The cases. victim: how the new Worker meets the page (spin: inside one wasm activation, entered
// right after instantiation, spinning on an atomic load; wait: a JS Atomics.wait that sleeps
// until the address is published, then a call into wasm; race: instantiate while the grower keeps
// growing, then at once touch the last page). grower: main (JS memory.grow on the JS main thread)
// or worker (wasm memory.grow in a Worker of its own, itself new). op: what the victim does.

export const CASES = [];
for (const victim of ['spin', 'wait', 'race']) {
  for (const grower of ['main', 'worker']) {
    for (const operation of Object.keys(OPERATIONS)) {
      CASES.push({ name: `${victim}-${grower}-${operation}`, victim, grower, operation });
    }
  }
}
const RACE_VICTIMS = 4;        // race cases: new Workers per trial
const RACE_GROWTH_LIMIT = 2048; // race cases: pages one trial may add at most

// ---------------------------------------------------------------------------------------------
// Workers, the same way in Node (worker_threads) and in a browser (Web Workers of this module).

const isNode = typeof process !== 'undefined' && Boolean(process.versions?.node);
let nodeWorkerThreads = null;
if (isNode) nodeWorkerThreads = await import('node:worker_threads');
const isBrowserWorker = !isNode && typeof WorkerGlobalScope !== 'undefined';

function startWorker() {
  const listeners = [];
  let worker;
  if (isNode) {
    worker = new nodeWorkerThreads.Worker(new URL(import.meta.url));
    worker.on('message', (message) => listeners.forEach((listener) => listener(message)));
    worker.on('error', (error) => listeners.forEach((listener) => listener({ kind: 'error', message: String(error?.stack ?? error) })));
  } else {
    worker = new Worker(import.meta.url, { type: 'module' });
    worker.onmessage = (event) => listeners.forEach((listener) => listener(event.data));
    worker.onerror = (event) => listeners.forEach((listener) => listener({ kind: 'error', message: event.message ?? 'worker error' }));
  }
  return {
    post: (message) => worker.postMessage(message),
    on: (listener) => listeners.push(listener),
    terminate: () => worker.terminate(),
  };
}

function workerSide(post) {
  return (request) => {
    const { module, memory, role } = request;
    const view = new Int32Array(memory.buffer, 0, 4);
    try {
      const { exports } = new WebAssembly.Instance(module, { env: { memory } });
      if (role === 'grower-once') {
        post({ kind: 'done', value: exports.await_grow(0) });
      } else if (role === 'grower-loop') {
        let grown = 0;
        while (Atomics.load(view, STOP) === 0 && grown < RACE_GROWTH_LIMIT) {
          const old = exports.grow(1);
          if (old < 0) break;
          Atomics.store(view, TOP, (old + 1) * PAGE);
          grown++;
        }
        post({ kind: 'done', value: grown });
      } else if (role === 'victim-spin') {
        post({ kind: 'done', value: exports[`await_${request.operation}`](0, PAGE) });
      } else if (role === 'victim-wait') {
        Atomics.store(view, READY, 1);
        Atomics.notify(view, READY);
        while (Atomics.load(view, ADDRESS) === 0) Atomics.wait(view, ADDRESS, 0);
        post({ kind: 'done', value: exports[`at_${request.operation}`](Atomics.load(view, ADDRESS), PAGE) });
      } else if (role === 'victim-race') {
        // The grower adds pages all the while; touch the last one this thread knows of.
        const top = Atomics.load(view, TOP);
        if (top === 0) { post({ kind: 'done', value: -1 }); return; }
        post({ kind: 'done', value: exports[`at_${request.operation}`](top - PAGE, PAGE), top });
      } else {
        post({ kind: 'error', message: `unknown role ${role}` });
      }
    } catch (error) {
      post({ kind: 'trap', message: String(error?.message ?? error) });
    }
  };
}

if (isNode && !nodeWorkerThreads.isMainThread) {
  const port = nodeWorkerThreads.parentPort;
  port.on('message', workerSide((message) => port.postMessage(message)));
} else if (isBrowserWorker) {
  self.onmessage = (event) => workerSide((message) => self.postMessage(message))(event.data);
}

// ---------------------------------------------------------------------------------------------
// The JS main thread: one trial, one case, the whole run.

const nextMessage = (worker) => new Promise((resolve) => worker.on(resolve));
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// Grows by one page from the JS main thread once the victim says it is ready, then publishes.
async function growFromMain(memory, view) {
  while (Atomics.load(view, READY) === 0) {
    const wait = Atomics.waitAsync(view, READY, 0, 1000);
    if (wait.async) await wait.value;
  }
  const old = memory.grow(1);
  Atomics.store(view, ADDRESS, old * PAGE);
  Atomics.notify(view, ADDRESS);
  return old;
}

async function runTrial(module, testCase) {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: MAXIMUM_PAGES, shared: true });
  const view = new Int32Array(memory.buffer, 0, 4);
  const workers = [];
  const spawn = (role) => {
    const worker = startWorker();
    workers.push(worker);
    const reply = nextMessage(worker);
    worker.post({ module, memory, role, operation: testCase.operation });
    return reply;
  };
  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve([{ kind: 'error', message: 'trial timed out' }]), TRIAL_TIMEOUT_MS); });
  const work = (async () => {
    if (testCase.victim === 'race') {
      let growing;
      if (testCase.grower === 'worker') {
        growing = spawn('grower-loop');
        while (Atomics.load(view, TOP) === 0) await tick();
      } else {
        growing = (async () => {
          let grown = 0;
          while (Atomics.load(view, STOP) === 0 && grown < RACE_GROWTH_LIMIT) {
            const old = memory.grow(1);
            Atomics.store(view, TOP, (old + 1) * PAGE);
            grown++;
            await new Promise((resolve) => (isNode ? setImmediate(resolve) : setTimeout(resolve, 0)));
          }
          return { kind: 'done', value: grown };
        })();
        await tick();
      }
      const victims = await Promise.all(Array.from({ length: RACE_VICTIMS }, () => spawn('victim-race')));
      Atomics.store(view, STOP, 1);
      return [...victims, await growing];
    }
    const victim = spawn(`victim-${testCase.victim}`);
    const grower = testCase.grower === 'worker' ? spawn('grower-once') : growFromMain(memory, view).then((value) => ({ kind: 'done', value }));
    return [await victim, await grower];
  })();
  const replies = await Promise.race([work, timeout]);
  clearTimeout(timer);
  Atomics.store(view, STOP, 1);
  await Promise.all(workers.map((worker) => worker.terminate()));
  const grownTo = memory.buffer.byteLength / PAGE;
  return { replies, grownTo };
}

export async function runCases(cases, trials, print) {
  const module = await WebAssembly.compile(moduleBytes());
  let reproduced = false;
  let harnessFailed = false;
  print(`case                        traps/trials  victim's memory.size (pages) when it did not trap`);
  for (const testCase of cases) {
    let traps = 0;
    const sizes = new Map();
    const messages = new Set();
    for (let trial = 0; trial < trials; trial++) {
      const { replies } = await runTrial(module, testCase);
      const victims = testCase.victim === 'race' ? replies.slice(0, -1) : replies.slice(0, 1);
      const failed = replies.find((reply) => reply.kind === 'error') ?? (replies.at(-1).kind === 'trap' ? replies.at(-1) : null);
      if (failed) {
        harnessFailed = true;
        print(`${testCase.name}: harness failure in trial ${trial}: ${failed.message}`);
        break;
      }
      if (victims.some((reply) => reply.kind === 'trap')) {
        traps++;
        victims.filter((reply) => reply.kind === 'trap').forEach((reply) => messages.add(reply.message));
      } else {
        for (const reply of victims) {
          if (testCase.victim === 'race') {
            const key = reply.value < 0 ? 'no page yet' : (reply.value * PAGE < reply.top ? 'stale' : 'current');
            sizes.set(key, (sizes.get(key) ?? 0) + 1);
          } else {
            // The grower added page 1 (size 1 -> 2); 1 means this thread still saw the old size.
            sizes.set(reply.value, (sizes.get(reply.value) ?? 0) + 1);
          }
        }
      }
    }
    if (traps) reproduced = true;
    const sizeText = [...sizes].map(([size, count]) => `${size}: ${count}`).join(', ') || '-';
    print(`${testCase.name.padEnd(28)}${`${traps}/${trials}`.padEnd(14)}${sizeText}${messages.size ? `  [${[...messages].join('; ')}]` : ''}`);
  }
  return harnessFailed ? 3 : reproduced ? 1 : 0;
}

function engineDescription() {
  if (isNode) return `node ${process.version}, V8 ${process.versions.v8}, ${process.arch}`;
  return navigator.userAgent;
}

export function parseOptions(argv) {
  const options = { trials: DEFAULT_TRIALS, cases: [], list: false, chromium: null, nodeModules: null };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === '--trials' && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0) options.trials = Number(argv[++i]);
    else if (argument === '--case' && argv[i + 1]) {
      const pattern = argv[++i];
      const matching = pattern === 'all' ? CASES : CASES.filter((c) => c.name === pattern || c.name.startsWith(`${pattern}-`) || c.name.endsWith(`-${pattern}`) || c.name.includes(`-${pattern}-`));
      if (!matching.length) return { error: `no case matches ${pattern} (--list lists them)` };
      options.cases.push(...matching.filter((c) => !options.cases.includes(c)));
    } else if (argument === '--list') options.list = true;
    else if (argument === '--chromium') options.chromium = argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : '';
    else if (argument === '--node-modules' && argv[i + 1]) options.nodeModules = argv[++i];
    else return { error: `unknown option or bad value: ${argument}` };
  }
  if (!options.cases.length) options.cases = CASES.filter((c) => c.name.startsWith('spin-main-'));
  return options;
}

// In a page (the --chromium mode): run, print into the page, and report the status.
export async function runInPage(argv) {
  const options = parseOptions(argv);
  const lines = [];
  const print = (line) => { lines.push(line); console.log(line); };
  const status = await runCases(options.cases, options.trials, print);
  return { status, lines };
}

async function runChromium(options, argv) {
  const { createServer } = await import('node:http');
  const { readFileSync, existsSync } = await import('node:fs');
  const path = await import('node:path');
  const { fileURLToPath, pathToFileURL } = await import('node:url');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const chromium = options.chromium || process.env.CHROMIUM || '/usr/bin/chromium';
  const toolchainModules = path.join(process.env.LLGO_WASM_TOOLCHAIN_DIR ||
    path.join(process.env.HOME || '', '.cache', 'llgo-wasm', 'toolchain-v1'), 'npm', 'node_modules');
  const nodeModules = options.nodeModules || process.env.LLGO_WASM_NODE_MODULES || toolchainModules;
  if (!existsSync(path.join(nodeModules, 'playwright-core'))) {
    console.error(`v8-shared-memory-grow: no playwright-core in ${nodeModules} (give --node-modules DIR)`);
    return 3;
  }
  // The repository's launcher: Debian's Chromium, a fresh profile, no network.
  const { launchChromium } = await import(pathToFileURL(path.join(here, '..', 'tests', 'browser', 'chromium.mjs')).href);
  const script = readFileSync(fileURLToPath(import.meta.url));
  const forwarded = argv.filter((a, i) => !(a === '--chromium' || (argv[i - 1] === '--chromium' && a === options.chromium) ||
    a === '--node-modules' || argv[i - 1] === '--node-modules'));
  const page = `<!doctype html><meta charset="utf-8"><pre id="out"></pre><script type="module">
import { runInPage } from './repro.mjs';
window.result = runInPage(${JSON.stringify(forwarded)});
</script>`;
  const server = createServer((request, response) => {
    const isolation = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp', 'cache-control': 'no-store' };
    if (request.url === '/favicon.ico') response.writeHead(204, isolation).end();
    else if (request.url === '/') response.writeHead(200, { ...isolation, 'content-type': 'text/html' }).end(page);
    else if (request.url === '/repro.mjs') response.writeHead(200, { ...isolation, 'content-type': 'text/javascript' }).end(script);
    else response.writeHead(404, isolation).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  let browser;
  try {
    browser = await launchChromium({ executablePath: chromium, nodeModules });
    browser.page.on('console', (message) => console.log(message.text()));
    browser.page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await browser.page.goto(`http://127.0.0.1:${server.address().port}/`);
    const { status } = await browser.page.evaluate(() => window.result);
    const cdp = await browser.context.newCDPSession(browser.page);
    const version = await cdp.send('Browser.getVersion');
    console.log(`engine: ${version.product}, V8 ${version.jsVersion}`);
    return status;
  } finally {
    await browser?.close();
    server.close();
  }
}

const isProgram = isNode && nodeWorkerThreads.isMainThread && process.argv[1] &&
  (await import('node:url')).pathToFileURL((await import('node:fs')).realpathSync(process.argv[1])).href === import.meta.url;
if (isProgram) {
  const argv = process.argv.slice(2);
  const options = parseOptions(argv);
  if (options.error) {
    console.error(`v8-shared-memory-grow: ${options.error}`);
    console.error('usage: node v8-shared-memory-grow.mjs [--trials N] [--case NAME]... [--list] [--chromium [PATH]] [--node-modules DIR]');
    process.exit(2);
  }
  if (options.list) {
    for (const testCase of CASES) console.log(testCase.name);
    process.exit(0);
  }
  let status;
  if (options.chromium !== null) {
    status = await runChromium(options, argv);
  } else {
    status = await runCases(options.cases, options.trials, (line) => console.log(line));
    console.log(`engine: ${engineDescription()}`);
  }
  process.exit(status);
}
