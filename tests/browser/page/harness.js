// harness.js: runs one llgo-wasm program in this page the way a web application would, and
// reports what a process would: its stdout and stderr bytes and its exit status.
//
// run-in-chromium.mjs calls window.llgoHarness.run({ kind, module, args, env }) after it has
// exposed two functions to the page: __llgoWrite(fd, text) and __llgoExit(status). Every write
// and the exit go through the same channel, so the runner sees them in program order.
//   kind 'emscripten'  module is an Emscripten ES-module build (.mjs, EXPORT_ES6 + MODULARIZE):
//                      imported, started with arguments and an environment (Module.env, read by
//                      runtime/emscripten/host_environment_pre.js); its status comes from onExit.
//   kind 'wasi'        module is a WASI preview 1 command (.wasm), run on the main thread through
//                      @bjorn3/browser_wasi_shim: argv, environ, stdout/stderr, proc_exit (its
//                      poll_oneoff replaced for one clock subscription, see below). A module of
//                      the jspi context (it imports module "llgo_jspi") gets the glue
//                      runtime/wasi/jspi_glue.mjs (served under /runtime/) and runs _start
//                      through WebAssembly.promising, as tests/runners/run-wasi.mjs does under
//                      Node: proc_exit from any goroutine's stack ends the program with its
//                      status, a trap with 134, and the idle host loop waits in the page's event
//                      loop (a page's loop never runs empty, so a stack waiting forever is the
//                      runner's timeout, never a silent 0).
// Statuses the harness itself gives (as tests/runners/run-wasi.mjs does): 126 when the module
// cannot be fetched, compiled or instantiated, 134 when it traps or aborts.
const EXIT_CANNOT_LOAD = 126;
const EXIT_TRAP = 134;

const write = (fd, text) => window.__llgoWrite(fd, text);
let exited = false;
function exit(status) {
  if (exited) return; // a second report (e.g. abort after exit) changes nothing
  exited = true;
  window.__llgoExit(status);
}
function describe(error) {
  return error && error.stack ? String(error.stack) : String(error);
}

// Emscripten ends a program by throwing ExitStatus; where that escapes a callback it is the
// normal end, already reported through onExit, not an error of the page.
function isExitStatus(error) {
  return error && error.name === 'ExitStatus';
}
window.addEventListener('error', (event) => {
  if (isExitStatus(event.error)) event.preventDefault();
});
window.addEventListener('unhandledrejection', (event) => {
  if (isExitStatus(event.reason)) event.preventDefault();
});

async function runEmscripten({ module, args, env }) {
  let createModule;
  try {
    ({ default: createModule } = await import(module));
  } catch (error) {
    write(2, `harness: cannot import ${module}: ${describe(error)}\n`);
    return exit(EXIT_CANNOT_LOAD);
  }
  if (typeof createModule !== 'function') {
    write(2, `harness: ${module} has no default export; build it with -o NAME.mjs (EXPORT_ES6, MODULARIZE)\n`);
    return exit(EXIT_CANNOT_LOAD);
  }
  try {
    await createModule({
      arguments: args,
      env,
      print: (line) => write(1, line + '\n'),
      printErr: (line) => write(2, line + '\n'),
      onExit: (status) => exit(status),
      onAbort: (what) => {
        write(2, `harness: ${module} aborted: ${what}\n`);
        exit(EXIT_TRAP);
      },
    });
  } catch (error) {
    if (isExitStatus(error)) return exit(error.status);
    write(2, `harness: ${module} failed: ${describe(error)}\n`);
    exit(EXIT_TRAP);
  }
}

// The shim's poll_oneoff (0.4.2) measures a relative clock subscription on the clock it names:
// wasi-libc's nanosleep names CLOCK_REALTIME, which the shim reads from Date (1 ms steps), so a
// 20 ms sleep could end after 19.0x ms of the monotonic clock the program measures it with (seen
// in CI: 'sleep 20 ms: TOO SHORT'). It also never writes the event count. This replacement serves
// the one-clock-subscription form (what nanosleep and the runtime's idle wait issue): a relative
// timeout is a duration and is waited on the monotonic clock, read exactly as the shim's
// clock_time_get reads it, so the program never sees a sleep shorter than it asked for; an
// absolute one waits on its own clock. Everything else goes to the shim.
const CLOCKID_REALTIME = 0;
const CLOCKID_MONOTONIC = 1;
const EVENTTYPE_CLOCK = 0;
const SUBCLOCKFLAGS_ABSTIME = 1;
// a subscription: userdata u64 @0, tag u8 @8, clock: id u32 @16, timeout u64 @24, precision u64 @32, flags u16 @40
const EVENT_SIZE = 32; // userdata u64, error u16 @8, type u8 @10, fd_readwrite @16
const monotonicNow = () => BigInt(Math.round(performance.now() * 1e6)); // the shim's clock_time_get
const realtimeNow = () => BigInt(Date.now()) * 1000000n;

function oneClockPollOneoff(memory, shimPollOneoff) {
  return (inPtr, outPtr, nsubscriptions, neventsPtr) => {
    const view = new DataView(memory().buffer);
    if (nsubscriptions !== 1 || view.getUint8(inPtr + 8) !== EVENTTYPE_CLOCK) {
      return shimPollOneoff(inPtr, outPtr, nsubscriptions, neventsPtr);
    }
    const clock = view.getUint32(inPtr + 16, true);
    const timeout = view.getBigUint64(inPtr + 24, true);
    const absolute = (view.getUint16(inPtr + 40, true) & SUBCLOCKFLAGS_ABSTIME) !== 0;
    if (clock !== CLOCKID_REALTIME && clock !== CLOCKID_MONOTONIC) {
      return shimPollOneoff(inPtr, outPtr, nsubscriptions, neventsPtr);
    }
    const now = absolute && clock === CLOCKID_REALTIME ? realtimeNow : monotonicNow;
    const end = absolute ? timeout : now() + timeout;
    while (now() < end) {
      // the main thread has nothing to yield to: a WASI command runs synchronously (as the shim does)
    }
    new Uint8Array(memory().buffer, outPtr, EVENT_SIZE).fill(0);
    const out = new DataView(memory().buffer);
    out.setBigUint64(outPtr, view.getBigUint64(inPtr, true), true); // userdata
    out.setUint8(outPtr + 10, EVENTTYPE_CLOCK);
    out.setUint32(neventsPtr, 1, true);
    return 0;
  };
}

async function runWasi({ module, args, env }) {
  let wasi;
  let instance;
  let shim;
  let jspiHost = null;
  const name = module.split('/').pop();
  const decoders = { 1: new TextDecoder(), 2: new TextDecoder() };
  const output = (fd) => (bytes) => write(fd, decoders[fd].decode(bytes, { stream: true }));
  // The jspi context's end: proc_exit's exit object from any stack, else a trap.
  const jspiFail = (error) => {
    if (error instanceof shim.WASIProcExit) return exit(error.code);
    write(2, `harness: ${module} trapped: ${describe(error)}\n`);
    return exit(EXIT_TRAP);
  };
  try {
    shim = await import('/vendor/browser_wasi_shim/index.js');
    wasi = new shim.WASI(
      [name, ...args],
      Object.entries(env).map(([key, value]) => `${key}=${value}`),
      [new shim.OpenFile(new shim.File([])), new shim.ConsoleStdout(output(1)), new shim.ConsoleStdout(output(2))],
      { debug: false }, // the shim's default logs every call to the console
    );
    const imports = { ...wasi.wasiImport };
    imports.poll_oneoff = oneClockPollOneoff(() => instance.exports.memory, wasi.wasiImport.poll_oneoff);
    const compiled = await WebAssembly.compileStreaming(fetch(module));
    const allImports = { wasi_snapshot_preview1: imports };
    if (WebAssembly.Module.imports(compiled).some((entry) => entry.module === 'llgo_jspi')) {
      const jspi = await import('/runtime/wasi/jspi_glue.mjs');
      jspiHost = await jspi.createJspiHost({
        fail: jspiFail,
        fatal: (message, status) => {
          write(2, `${message}\n`);
          exit(status);
        },
      });
    }
    instance = await (jspiHost ? jspiHost.instantiate(compiled, allImports) : WebAssembly.instantiate(compiled, allImports));
    if (typeof instance.exports._start !== 'function') {
      write(2, `harness: ${module} is not a WASI command: it exports no _start function\n`);
      return exit(EXIT_CANNOT_LOAD);
    }
  } catch (error) {
    write(2, `harness: cannot load ${module}: ${describe(error)}\n`);
    return exit(EXIT_CANNOT_LOAD);
  }
  if (jspiHost) {
    // The shim only lends the module its memory here (its start would call _start synchronously).
    wasi.start({ exports: { memory: instance.exports.memory, _start() {} } });
    jspiHost.start(instance).then(() => exit(0), jspiFail);
    return;
  }
  let status;
  try {
    status = wasi.start(instance); // proc_exit's status, or 0 when _start returns
  } catch (error) {
    write(2, `harness: ${module} trapped: ${describe(error)}\n`);
    return exit(EXIT_TRAP);
  }
  exit(status);
}

window.llgoHarness = {
  run(spec) {
    const runner = { emscripten: runEmscripten, wasi: runWasi }[spec.kind];
    if (!runner) throw new Error(`harness: unknown kind ${spec.kind}`);
    // Not awaited: the runner learns the end through __llgoExit.
    runner(spec).catch((error) => {
      write(2, `harness: ${describe(error)}\n`);
      exit(EXIT_TRAP);
    });
  },
};
