#!/usr/bin/env node
// Runs a WASI preview1 command module (the P1 variant) under Node's node:wasi.
//
//   node run-wasi.mjs MODULE.wasm [ARG...]
//
// The guest sees argv = [MODULE.wasm, ARG...] and this process's environment; stdin, stdout and
// stderr are this process's. Its exit status (proc_exit, or 0 when _start returns) becomes ours.
// No directory is pre-opened: the guest has no file-system access.
//
// Our own statuses: 2 for a usage error, 126 when the module cannot be read, compiled or
// instantiated, 134 when it traps (like a C abort(): wasi-libc's abort is a trap), 125 when it
// asks poll_oneoff for an ABSOLUTE clock subscription: Node's WASI (uvwasi) would hang on it (it
// subtracts the realtime clock in unsigned arithmetic and ignores the clock id), so the runner
// refuses it loudly instead. With LLGO_WASM_POLL_AUDIT=1 it prints, when the module ends, what
// poll_oneoff was asked for (the runtime's idle wait must use relative clocks only; a goroutine
// waiting for an fd shares the call with the next timer's clock; how many clocks waited more than
// 1 ms: none under the jspi context, whose idle wait waits in the event loop instead).
// A module of the jspi context (one that imports module "llgo_jspi") runs with JavaScript Promise
// Integration: its imports come from runtime/wasi/jspi_glue.mjs, wrapped in WebAssembly.Suspending,
// and _start is called through WebAssembly.promising and awaited (node:wasi's start would call it
// synchronously; it only lends the module its memory here). proc_exit then throws an exit object of
// this runner's, which ends the program with that status, from _start or from any goroutine's
// stack; a trap on any stack exits 134. Should the event loop run empty while _start is still
// suspended (a stack waits on a promise nothing can settle), the runner says so with Go's
// deadlock message and exits 2: never 0, and never Node's own 13 for an unsettled await.
// Limits: tested with Node 24 (exnref modules need it); threads need run-wasi-threads.mjs.

import { readFile } from 'node:fs/promises';

const EXIT_USAGE = 2;
const EXIT_CANNOT_LOAD = 126;
const EXIT_TRAP = 134;
const EXIT_ABSOLUTE_CLOCK = 125;

// node:wasi warns that it is experimental on every run; the guest's stderr is not the place.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'ExperimentalWarning') console.error(warning);
});
const { WASI } = await import('node:wasi');

function die(status, message) {
  console.error(`run-wasi: ${message}`);
  process.exit(status);
}

const [modulePath, ...guestArguments] = process.argv.slice(2);
if (!modulePath || modulePath === '--help' || modulePath === '-h') {
  die(EXIT_USAGE, 'usage: node run-wasi.mjs MODULE.wasm [ARG...]');
}

let instance;
let wasi;

// poll_oneoff, refusing absolute clock subscriptions. A subscription is 48 bytes: userdata (u64),
// tag (u8 at 8; 0 = clock), then the clock's id (u32 at 16), timeout (u64 at 24), precision
// (u64 at 32) and flags (u16 at 40; bit 0 = absolute).
const pollAudit = { calls: 0, clocks: 0, waitingClocks: 0, fdReads: 0, fdReadsWithClock: 0 };
function auditedPollOneoff(pollOneoff) {
  return (subscriptions, events, count, eventCount) => {
    const view = new DataView(instance.exports.memory.buffer);
    pollAudit.calls++;
    let fdReads = 0;
    let clocks = 0;
    for (let i = 0; i < count; i++) {
      const subscription = subscriptions + i * 48;
      if (view.getUint8(subscription + 8) === 1) fdReads++;
      if (view.getUint8(subscription + 8) !== 0) continue;
      clocks++;
      pollAudit.clocks++;
      if (view.getBigUint64(subscription + 24, true) > 1000000n) pollAudit.waitingClocks++;
      if (view.getUint16(subscription + 40, true) & 1) {
        die(EXIT_ABSOLUTE_CLOCK, `${modulePath} asked poll_oneoff for an absolute clock subscription ` +
          `(timeout ${view.getBigUint64(subscription + 24, true)}); Node's WASI hangs on those, use relative ones`);
      }
    }
    pollAudit.fdReads += fdReads;
    if (fdReads > 0 && clocks > 0) pollAudit.fdReadsWithClock++;
    return pollOneoff(subscriptions, events, count, eventCount);
  };
}

function reportPollAudit() {
  if (process.env.LLGO_WASM_POLL_AUDIT !== '1') return;
  console.error(`run-wasi: poll_oneoff audit: ${pollAudit.clocks > 0 ? 'relative clock subscriptions only' : 'no clock subscription'}`);
  console.error(`run-wasi: poll_oneoff audit: ${pollAudit.calls} calls, ${pollAudit.clocks} clock subscriptions`);
  console.error(`run-wasi: poll_oneoff audit: ${pollAudit.waitingClocks} clock subscriptions waited more than 1 ms`);
  console.error(`run-wasi: poll_oneoff audit: ${pollAudit.fdReads} fd_read subscriptions, ` +
    `${pollAudit.fdReadsWithClock} calls with fd_read and clock subscriptions together`);
  if (pollAudit.fdReadsWithClock > 0) {
    console.error('run-wasi: poll_oneoff audit: fd_read and clock subscriptions shared one call');
  }
}
// The jspi context's run (see the top): its exit status, once.
class ProcExit {
  constructor(code) {
    this.code = code;
  }
}
let jspiHost = null;
let jspiSettled = false;
function jspiFinish(status) {
  if (jspiSettled) return;
  jspiSettled = true;
  reportPollAudit();
  process.exit(status);
}
function jspiFail(error) {
  if (error instanceof ProcExit) {
    jspiFinish(error.code);
    return;
  }
  console.error(`run-wasi: ${modulePath} trapped: ${error?.stack ?? error}`);
  jspiFinish(EXIT_TRAP);
}

try {
  const bytes = await readFile(modulePath);
  const module = await WebAssembly.compile(bytes);
  let jspi = null;
  if (WebAssembly.Module.imports(module).some((entry) => entry.module === 'llgo_jspi')) {
    // Imported only here: for every module it would cost each P1 run about 2 ms of start-up.
    jspi = await import('../../runtime/wasi/jspi_glue.mjs');
  }
  wasi = new WASI({
    version: 'preview1',
    args: [modulePath, ...guestArguments],
    env: process.env,
    returnOnExit: true,
  });
  const imports = wasi.getImportObject();
  const wasiImports = imports.wasi_snapshot_preview1;
  imports.wasi_snapshot_preview1 = { ...wasiImports, poll_oneoff: auditedPollOneoff(wasiImports.poll_oneoff) };
  if (jspi) {
    imports.wasi_snapshot_preview1.proc_exit = (code) => {
      throw new ProcExit(code);
    };
    jspiHost = await jspi.createJspiHost({
      fail: jspiFail,
      fatal: (message, status) => {
        console.error(message);
        jspiFinish(status);
      },
    });
  }
  instance = await (jspiHost ? jspiHost.instantiate(module, imports) : WebAssembly.instantiate(module, imports));
} catch (error) {
  die(EXIT_CANNOT_LOAD, `cannot load ${modulePath}: ${error.message}`);
}

if (typeof instance.exports._start !== 'function') {
  die(EXIT_CANNOT_LOAD, `${modulePath} is not a WASI command: it exports no _start function`);
}

if (jspiHost) {
  // node:wasi takes the module's memory from a command whose _start does nothing.
  wasi.start({ exports: { memory: instance.exports.memory, _start() {} } });
  process.on('beforeExit', () => {
    if (jspiSettled) return;
    console.error('fatal error: all goroutines are asleep - deadlock!\n' +
      `(run-wasi: ${modulePath}'s _start is still suspended, and nothing is left that could resume it)`);
    jspiFinish(2);
  });
  jspiHost.start(instance).then(() => jspiFinish(0), jspiFail);
} else {
  try {
    process.exitCode = wasi.start(instance);
    reportPollAudit();
  } catch (error) {
    die(EXIT_TRAP, `${modulePath} trapped: ${error.stack ?? error}`);
  }
}
