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
//                      @bjorn3/browser_wasi_shim: argv, environ, stdout/stderr, proc_exit.
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

async function runWasi({ module, args, env }) {
  let wasi;
  let instance;
  const name = module.split('/').pop();
  const decoders = { 1: new TextDecoder(), 2: new TextDecoder() };
  const output = (fd) => (bytes) => write(fd, decoders[fd].decode(bytes, { stream: true }));
  try {
    const shim = await import('/vendor/browser_wasi_shim/index.js');
    wasi = new shim.WASI(
      [name, ...args],
      Object.entries(env).map(([key, value]) => `${key}=${value}`),
      [new shim.OpenFile(new shim.File([])), new shim.ConsoleStdout(output(1)), new shim.ConsoleStdout(output(2))],
      { debug: false }, // the shim's default logs every call to the console
    );
    const compiled = await WebAssembly.compileStreaming(fetch(module));
    instance = await WebAssembly.instantiate(compiled, { wasi_snapshot_preview1: wasi.wasiImport });
    if (typeof instance.exports._start !== 'function') {
      write(2, `harness: ${module} is not a WASI command: it exports no _start function\n`);
      return exit(EXIT_CANNOT_LOAD);
    }
  } catch (error) {
    write(2, `harness: cannot load ${module}: ${describe(error)}\n`);
    return exit(EXIT_CANNOT_LOAD);
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
