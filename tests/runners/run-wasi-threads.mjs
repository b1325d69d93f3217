#!/usr/bin/env node
// Runs a wasi-threads command module (the P1T variant: wasm32-wasip1-threads) under Node.
//
//   node run-wasi-threads.mjs MODULE.wasm [ARG...]
//
// The module must import a shared memory (link with --import-memory --shared-memory
// --max-memory=N; --export-memory too, which node:wasi needs) and may import
// `wasi.thread-spawn`. Every WebAssembly thread, the main one included, runs in a worker_threads
// Worker with its own instance of the module, the one shared memory and its own node:wasi
// instance (same argv and environment); a Worker whose thread ended is reused for the next one.
// This JS main thread never runs guest code: it only starts workers and ends the process. That matters because a guest thread blocked in
// memory.atomic.wait cannot receive messages, so the exit request of another thread must reach
// a thread that is never blocked.
//
//   thread-spawn(start_arg)  takes the next thread id from a shared counter, asks the main thread
//                            for a worker that calls wasi_thread_start(id, start_arg), and
//                            returns the id at once (or -1 when the id space is exhausted).
//   proc_exit(code), from any thread, ends the whole process with that code. A main thread
//                            whose _start returns ends it with 0.
//
// Our own statuses: 2 for a usage error, 126 when the module cannot be read, compiled or
// instantiated, or does not import a shared memory, 134 when any thread traps.
// Limits: tested with Node 24 (exnref modules need it); writes of different threads to stdout
// and stderr are not ordered with each other; no directory is pre-opened.

import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const EXIT_USAGE = 2;
const EXIT_CANNOT_LOAD = 126;
const EXIT_TRAP = 134;
// wasi-threads thread ids are positive and below 2^29.
const MAXIMUM_THREAD_ID = 0x1fffffff;

process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'ExperimentalWarning') console.error(warning);
});

// ---------------------------------------------------------------------------------------------
// Reading the memory import's limits. WebAssembly.Module.imports() names imports but does not
// give a memory's limits or whether it is shared, so read the import section of the binary.

class BinaryReader {
  constructor(bytes) {
    this.bytes = bytes;
    this.offset = 0;
  }
  byte() {
    if (this.offset >= this.bytes.length) throw new Error('truncated module');
    return this.bytes[this.offset++];
  }
  unsignedLeb() {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.byte();
      result |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
      if ((byte & 0x80) === 0) return result;
    }
  }
  u32() {
    return Number(this.unsignedLeb());
  }
  name() {
    const length = this.u32();
    const text = new TextDecoder().decode(this.bytes.subarray(this.offset, this.offset + length));
    this.offset += length;
    return text;
  }
  limits() {
    const flags = this.byte();
    const minimum = this.unsignedLeb();
    const maximum = flags & 0x01 ? this.unsignedLeb() : undefined;
    return { shared: (flags & 0x02) !== 0, memory64: (flags & 0x04) !== 0, minimum, maximum };
  }
}

// Returns { module, name, shared, memory64, minimum, maximum } for the memory import, or null.
export function findMemoryImport(bytes) {
  const reader = new BinaryReader(bytes);
  const magicAndVersion = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  for (const expected of magicAndVersion) {
    if (reader.byte() !== expected) throw new Error('not a WebAssembly core module');
  }
  const IMPORT_SECTION = 2;
  while (reader.offset < bytes.length) {
    const sectionId = reader.byte();
    const sectionSize = reader.u32();
    const sectionEnd = reader.offset + sectionSize;
    if (sectionId === IMPORT_SECTION) {
      const count = reader.u32();
      for (let index = 0; index < count; index++) {
        const module = reader.name();
        const name = reader.name();
        const kind = reader.byte();
        if (kind === 0x00) reader.u32(); // function: type index
        else if (kind === 0x01) { reader.byte(); reader.limits(); } // table: reference type, limits
        else if (kind === 0x02) return { module, name, ...reader.limits() };
        else if (kind === 0x03) { reader.byte(); reader.byte(); } // global: value type, mutability
        else if (kind === 0x04) { reader.byte(); reader.u32(); } // tag: attribute, type index
        else throw new Error(`unknown import kind 0x${kind.toString(16)} for ${module}.${name}`);
      }
      return null;
    }
    reader.offset = sectionEnd;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Every guest thread: instantiate, then run _start (main) or wasi_thread_start (others).

class ProcessExit extends Error {
  constructor(code) {
    super(`proc_exit(${code})`);
    this.code = code;
  }
}

// Runs one guest thread in this worker: a fresh instance and node:wasi, then _start (the main
// thread, id 0) or wasi_thread_start. Returns the message for the JS main thread.
async function runGuestThread(WASI, { module, memory, memoryImport, control, args, env }, threadId, startArgument) {
  const wasi = new WASI({ version: 'preview1', args, env, returnOnExit: true });
  const wasiImports = { ...wasi.wasiImport };
  // Our proc_exit ends the whole process, from whichever thread calls it: unwind this thread
  // with a JS exception (guest code has no handler for it), then tell the JS main thread.
  wasiImports.proc_exit = (code) => {
    throw new ProcessExit(code);
  };
  const imports = {
    wasi_snapshot_preview1: wasiImports,
    wasi: {
      'thread-spawn': (startArgumentOfNewThread) => {
        const newThreadId = Atomics.add(control, 0, 1) + 1;
        if (newThreadId > MAXIMUM_THREAD_ID) return -1;
        parentPort.postMessage({ kind: 'spawn', threadId: newThreadId, startArgument: startArgumentOfNewThread });
        return newThreadId;
      },
    },
  };
  imports[memoryImport.module] = { ...(imports[memoryImport.module] ?? {}), [memoryImport.name]: memory };

  let instance;
  try {
    instance = await WebAssembly.instantiate(module, imports);
  } catch (error) {
    return { kind: 'cannot-load', message: error.message };
  }
  // node:wasi reads and writes guest memory through the instance's exported memory; hand it
  // the shared one without running _initialize or _start.
  wasi.initialize({ exports: { memory } });

  const isGuestMainThread = threadId === 0;
  const entryName = isGuestMainThread ? '_start' : 'wasi_thread_start';
  if (typeof instance.exports[entryName] !== 'function') {
    return { kind: 'cannot-load', message: `it exports no ${entryName} function` };
  }
  try {
    if (isGuestMainThread) {
      instance.exports._start();
      return { kind: 'exit', code: 0 };
    }
    instance.exports.wasi_thread_start(threadId, startArgument);
    return { kind: 'idle' };
  } catch (error) {
    if (error instanceof ProcessExit) return { kind: 'exit', code: error.code };
    return { kind: 'trap', threadId, message: error.stack ?? String(error) };
  }
}

// A worker runs the thread it was created for, then, while the process lives, any thread the JS
// main thread hands it: starting a Worker costs tens of milliseconds, reusing one almost nothing.
async function guestWorker(shared) {
  const { WASI } = await import('node:wasi');
  parentPort.postMessage(await runGuestThread(WASI, shared, shared.threadId, shared.startArgument));
  parentPort.on('message', async (request) => {
    if (request.kind === 'run') {
      parentPort.postMessage(await runGuestThread(WASI, shared, request.threadId, request.startArgument));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The JS main thread: load, check, start the guest's main thread, serve spawn requests.

function die(status, message) {
  console.error(`run-wasi-threads: ${message}`);
  process.exit(status);
}

async function supervise() {
  const [modulePath, ...guestArguments] = process.argv.slice(2);
  if (!modulePath || modulePath === '--help' || modulePath === '-h') {
    die(EXIT_USAGE, 'usage: node run-wasi-threads.mjs MODULE.wasm [ARG...]');
  }

  let module;
  let memoryImport;
  try {
    const bytes = await readFile(modulePath);
    module = await WebAssembly.compile(bytes);
    memoryImport = findMemoryImport(bytes);
  } catch (error) {
    die(EXIT_CANNOT_LOAD, `cannot load ${modulePath}: ${error.message}`);
  }
  if (!memoryImport) {
    die(EXIT_CANNOT_LOAD, `${modulePath} imports no memory; link it with --import-memory --shared-memory ` +
      '(a module without threads runs under run-wasi.mjs)');
  }
  if (!memoryImport.shared || memoryImport.maximum === undefined) {
    die(EXIT_CANNOT_LOAD, `${modulePath} imports a memory that is not shared with a maximum; link it with ` +
      '--shared-memory --max-memory=N (a module without threads runs under run-wasi.mjs)');
  }
  if (memoryImport.memory64) die(EXIT_CANNOT_LOAD, `${modulePath} imports a 64-bit memory; wasi-threads is wasm32 only`);

  const memory = new WebAssembly.Memory({
    initial: Number(memoryImport.minimum),
    maximum: Number(memoryImport.maximum),
    shared: true,
  });
  // control[0]: the last thread id handed out (the main thread has none of its own).
  const control = new Int32Array(new SharedArrayBuffer(4));
  const shared = { module, memory, memoryImport, control, args: [modulePath, ...guestArguments], env: { ...process.env } };

  let finished = false;
  const idleWorkers = [];
  const describe = (threadId) => (threadId === 0 ? 'the main thread' : `thread ${threadId}`);
  const startThread = (threadId, startArgument) => {
    const idle = idleWorkers.pop();
    if (idle) {
      idle.postMessage({ kind: 'run', threadId, startArgument });
      return;
    }
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { ...shared, threadId, startArgument },
      stdout: false,
      stderr: false,
    });
    worker.on('message', (message) => {
      if (finished) return;
      if (message.kind === 'spawn') {
        startThread(message.threadId, message.startArgument);
      } else if (message.kind === 'idle') {
        idleWorkers.push(worker);
      } else if (message.kind === 'exit') {
        finished = true;
        process.exit(message.code);
      } else if (message.kind === 'trap') {
        finished = true;
        die(EXIT_TRAP, `${modulePath} trapped in ${describe(message.threadId)}: ${message.message}`);
      } else if (message.kind === 'cannot-load') {
        finished = true;
        die(EXIT_CANNOT_LOAD, `cannot run ${modulePath}: ${message.message}`);
      }
    });
    worker.on('error', (error) => {
      if (finished) return;
      finished = true;
      die(EXIT_TRAP, `${modulePath}: a worker running guest threads failed: ${error.stack ?? error}`);
    });
  };
  startThread(0, 0);
}

// Run as a program (node run-wasi-threads.mjs ...) or as a guest-thread worker; imported as a
// module (by the tests of findMemoryImport) it does nothing.
const runAsProgram = isMainThread && process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (!isMainThread) {
  await guestWorker(workerData);
} else if (runAsProgram) {
  await supervise();
}
