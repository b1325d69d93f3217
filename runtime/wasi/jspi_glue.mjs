// jspi_glue.mjs - the switch of the JSPI context backend (runtime/src/wasmcontext_jspi.c) for P1
// on a JavaScript host: a WASI module run by Node's WASI (tests/runners/run-wasi.mjs), with
// JavaScript Promise Integration (WebAssembly.Suspending / WebAssembly.promising). The same
// design as J32's Emscripten library runtime/emscripten/jspi_glue.js (docs/runtime.md, JSPI),
// as a plain ES module: the C side imports these functions from module "llgo_jspi"
// (import_module/import_name); createJspiHost returns them, the suspending ones wrapped in
// WebAssembly.Suspending, and runs the host loop's entry (_start) and every goroutine's first
// frame (the export llgo_jspi_run) through WebAssembly.promising.
//
// The host loop suspends in llgo_jspi_switch on a promise that a context resolves when it
// suspends (llgo_jspi_suspend), returns (llgo_jspi_finish) or exits (llgo_jspi_exit); a
// suspended context waits on a promise whose resolver is kept here under its id, until the host
// or another context's hand-off (llgo_jspi_handoff) resolves it. When nothing
// is runnable, the idle wait (runtime/src/idle_wait_wasip1.c) suspends the host loop on a timer
// (llgo_jspi_idle), so the event loop runs meanwhile.
//
// Failures are never silent: a context's stack that ends with anything but the exit sentinel
// ends the program through `fail` (the runner's: proc_exit's exit object becomes the exit status,
// a trap exits 134); a SuspendError (a goroutine blocked below a JavaScript frame) is a Go-style
// fatal error, exit 2 (the C side's catch_all, runtime/src/wasmcontext_jspi_guard.S, has stopped
// every stack through llgo_jspi_refused while the error unwound, before the host or context the
// import woke could run);
// a wasm exception that leaves a context (a longjmp to a jmp_buf none of its frames set) is
// reported to the host as ESCAPED.
//
// The cap on live contexts per engine (llgo_jspi_engine_cap) is jspi_glue.js's own function,
// taken from that file (evaluated with a stand-in for Emscripten's addToLibrary), so its
// knowledge lives once. The module runs in Node (tests/runners/run-wasi.mjs) and in a page
// (tests/browser/page/harness.js): it reads that file from the file system or fetches it, beside
// this one, and imports nothing of Node's up front.

// What the host's llgo_jspi_switch returns (wasmcontext_jspi.c's OUTCOME_*).
const SUSPENDED = 0;
const RETURNED = 1;
const ESCAPED = 2;

const SUSPEND_BELOW_JS_FRAME =
  'fatal error: a goroutine blocked or yielded below a JavaScript frame (JavaScript called into ' +
  'Go, and that call blocked on a channel, lock or timer); the JSPI backend cannot suspend ' +
  'JavaScript frames. Restructure: have the JavaScript code start a goroutine and return ' +
  'instead of blocking inside the call.';

// J32's library object (runtime/emscripten/jspi_glue.js): its functions, as Emscripten would
// link them. Only pure functions of it are used here (llgo_jspi_engine_cap). Under Node the
// file is read and its functions get Node's require (for /proc/sys/vm/max_map_count); in a page
// it is fetched, and they read the user agent.
async function emscriptenLibrary() {
  const url = new URL('../emscripten/jspi_glue.js', import.meta.url);
  let source;
  let require;
  if (typeof process === 'object' && process.versions && process.versions.node) {
    const { readFileSync } = await import('node:fs');
    const { createRequire } = await import('node:module');
    source = readFileSync(url, 'utf8');
    require = createRequire(import.meta.url);
  } else {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`cannot fetch ${url}: HTTP ${response.status}`);
    source = await response.text();
  }
  let library = null;
  // eslint-disable-next-line no-new-func
  new Function('addToLibrary', 'require', source)((object) => { library = object; }, require);
  if (!library || typeof library.llgo_jspi_engine_cap !== 'function') {
    throw new Error('runtime/emscripten/jspi_glue.js defines no llgo_jspi_engine_cap');
  }
  return library;
}

// The cap on live goroutines of this engine (0: none beyond memory): see jspi_glue.js.
export async function jspiEngineCap() {
  return (await emscriptenLibrary()).llgo_jspi_engine_cap();
}

// The host's other imports (WASI's), made safe to call from a goroutine's stack: each function
// becomes a plain JavaScript function that calls it. A goroutine of the jspi context runs on a
// secondary stack (a WebAssembly.promising call), and V8 runs an import that is a plain JavaScript
// function on its central stack. Node's WASI functions are API functions with fast C entries,
// which a module's call reaches straight from the secondary stack; fd_write's allocates
// (uvwasi through node::mem), which can make V8 collect garbage, and V8 then aborts the process
// ("Check failed: isolate_->IsOnCentralStack()" in Heap::CollectGarbage). Seen on Node 24.22
// (V8 13.6), not on Node 26.12: about one run in 40 of
// stacks.P1.node-wasi.jspi.separate-parked-shallow-after-deep, one in two under
// --stress-compaction, every run of host_events' host-call-collects-garbage.
// Returns a new import object; `imports` is left as it was. The host's instantiate applies it.
function centralStackImports(imports) {
  const result = {};
  for (const [name, namespace] of Object.entries(imports)) {
    const wrapped = {};
    for (const [field, value] of Object.entries(namespace)) {
      wrapped[field] = typeof value === 'function' && name !== 'llgo_jspi'
        ? function (...args) { return value(...args); }
        : value;
    }
    result[name] = wrapped;
  }
  return result;
}

// The glue for one instance (a promise of it: the engine's cap is read first). fail(error) ends
// the program (it may throw); fatal(message, status) prints a fatal error and ends the program
// with that status. The host instantiates the module through it (instantiate) and runs it
// (start).
export async function createJspiHost({ fail, fatal }) {
  if (typeof WebAssembly.Suspending !== 'function' || typeof WebAssembly.promising !== 'function') {
    throw new Error('this engine has no JavaScript Promise Integration (WebAssembly.Suspending, ' +
      'WebAssembly.promising): the jspi context needs Node >= 24 or a browser with it (Chrome >= 137)');
  }
  const exitSentinel = { llgoJspiExit: true };
  const waiting = [];        // context id -> resolver of its pending suspension (dense: one small
                             // id per context; slots are cleared, as in jspi_glue.js)
  let host = null;           // resolves the host's pending llgo_jspi_switch
  let dead = false;          // a context failed: the program is ending, nothing runs on
  let never = null;          // the promise llgo_jspi_halt parks stacks on
  let run = null;            // llgo_jspi_run, promising
  let stop = null;           // llgo_jspi_stop
  const cap = await jspiEngineCap();

  const wakeHost = (outcome) => {
    const resolve = host;
    host = null;
    if (resolve && !dead) resolve(outcome);
  };
  const failed = (error) => {
    if (error === exitSentinel) return;
    if (error instanceof WebAssembly.Exception && host) {
      wakeHost(ESCAPED); // a longjmp left the context (C throws no other wasm exception)
      return;
    }
    dead = true;
    stop();
    if (typeof WebAssembly.SuspendError === 'function' && error instanceof WebAssembly.SuspendError) {
      fatal(`${SUSPEND_BELOW_JS_FRAME}\n(${error})`, 2);
      return;
    }
    fail(error);
  };
  const start = () => {
    run().then(null, failed);
  };

  const imports = {
    // Host: runs context `id` (starting its entry when `first`) until it gives control back.
    llgo_jspi_switch: new WebAssembly.Suspending((id, first) => new Promise((resolve) => {
      host = resolve;
      if (first) {
        queueMicrotask(start); // a new stack starts from a microtask, once the host has suspended
      } else {
        const resume = waiting[id];
        waiting[id] = undefined;
        resume();
      }
    })),
    // Context `id`: gives control back to the host; returns when the host, or a context's
    // hand-off, switches to it again.
    llgo_jspi_suspend: new WebAssembly.Suspending((id) => new Promise((resolve) => {
      waiting[id] = resolve;
      wakeHost(SUSPENDED);
    })),
    // Context `from`: suspends and runs context `to` (starting its entry when `first`), without
    // the host; returns when `from` is switched to again.
    llgo_jspi_handoff: new WebAssembly.Suspending((from, to, first) => new Promise((resolve) => {
      waiting[from] = resolve;
      if (first) {
        queueMicrotask(start); // a new stack starts from a microtask, once `from` has suspended
      } else {
        const resume = waiting[to];
        waiting[to] = undefined;
        resume();
      }
    })),
    // Context: the engine refused to suspend it (wasmcontext_jspi_guard.S's catch_all, while the
    // SuspendError unwinds): stops every stack at once and throws a SuspendError on to failed().
    llgo_jspi_refused: () => {
      stop();
      throw new WebAssembly.SuspendError('trying to suspend JS frames (a goroutine yielded or ' +
                                         'blocked below a JavaScript frame)');
    },
    // Any stack, after llgo_jspi_stop: parks it for good (the program is ending).
    llgo_jspi_halt: new WebAssembly.Suspending(() => never || (never = new Promise(() => {}))),
    // The host loop, idle: waits `ms` milliseconds in the event loop.
    llgo_jspi_idle: new WebAssembly.Suspending((ms) => new Promise((resolve) => {
      setTimeout(resolve, Math.max(0, Math.ceil(ms)));
    })),
    llgo_jspi_engine_cap: () => cap,
    // Context: its entry returned (llgo_jspi_run returns right after).
    llgo_jspi_finish: () => wakeHost(RETURNED),
    // Context: abandons its stack (unwound by the sentinel, which failed() ignores).
    llgo_jspi_exit: () => {
      wakeHost(RETURNED);
      throw exitSentinel;
    },
    // Host: context `id` will never be resumed: its stack becomes garbage with its promise.
    llgo_jspi_forget: (id) => {
      waiting[id] = undefined;
    },
  };

  return {
    // Instantiates the module with the host's imports (WASI's: an object of namespaces) and the
    // glue's. The host's functions are made safe to call from a goroutine's stack
    // (centralStackImports), so no host can forget it.
    instantiate(module, hostImports) {
      return WebAssembly.instantiate(module, { ...centralStackImports(hostImports), llgo_jspi: imports });
    },
    // Runs the command's entry (the host loop) through WebAssembly.promising: its promise
    // settles when _start returns or throws (proc_exit's exit object, a trap).
    start(instance) {
      run = WebAssembly.promising(instance.exports.llgo_jspi_run);
      stop = instance.exports.llgo_jspi_stop;
      return WebAssembly.promising(instance.exports._start)();
    },
  };
}
