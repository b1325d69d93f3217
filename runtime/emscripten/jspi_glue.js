// jspi_glue.js - Emscripten JS library: the switch of the JSPI context backend
// (runtime/src/wasmcontext_jspi.c) on J32 and J64, with JavaScript Promise Integration
// (WebAssembly.Suspending / WebAssembly.promising). Linked by the descriptor's context-ldflags
// with -sJSPI, which wraps main and llgo_host_resume (the host loop's entries) and
// llgo_jspi_run (every goroutine's first frame) in WebAssembly.promising, and the imports
// marked __async here in WebAssembly.Suspending. docs/runtime.md (JSPI) has the design.
//
// The host loop suspends in llgo_jspi_switch on a promise that a context resolves when it
// suspends (llgo_jspi_suspend), returns (llgo_jspi_finish) or exits (llgo_jspi_exit). A context
// is one llgo_jspi_run call on a stack of its own; a suspended one waits on a promise whose
// resolver is kept here under its id until the host, or another context, switches to it again:
// a context hands control to the next one directly (llgo_jspi_handoff: the scheduler's run queue
// chooses it, as the host loop would), so the host's promise is resolved by whichever context of
// that chain gives control back.
//
// Failures are never silent: a context's stack that ends with an exception other than the exit
// sentinel ends the program (a SuspendError - the context tried to suspend below a JavaScript
// frame - with a Go-style fatal error saying how to restructure; anything else as Emscripten
// reports an uncaught exception). On Node 24 a SuspendError comes right after the suspending
// import ran, in the same job, so the host it woke or the context it resumed would run first:
// the C side calls the imports through a catch_all (runtime/src/wasmcontext_jspi_guard.S) whose
// handler (llgo_jspi_refused) stops every stack (llgo_jspi_stop) while the error unwinds, so
// every stack that then comes back from a switch, or starts, parks for good (llgo_jspi_halt)
// instead of going on - the host does not even look for deadlock - and throws a SuspendError
// on, which the failure handler, one microtask later, reports as it ends the program. A wasm exception that leaves a context (a longjmp to a jmp_buf none of its frames
// set) is reported to the host as ESCAPED.
addToLibrary({
  $llgoJspi__deps: ['$handleException', 'emscripten_force_exit', 'llgo_jspi_stop'],
  $llgoJspi: {
    exitSentinel: {llgoJspiExit: true},
    host: null,         // resolves the host's pending llgo_jspi_switch
    waiting: [],        // context id -> resolver of its pending suspension (a dense array: ids are
                        // small, one per context; a slot is cleared, never deleted, since an
                        // object's or array's delete leaves V8's fast path: 11% of a yield)
    dead: false,        // a context failed: the program is ending, nothing runs on
    never: null,        // the promise llgo_jspi_halt parks stacks on
    // What the host's llgo_jspi_switch returns (wasmcontext_jspi.c's OUTCOME_*).
    SUSPENDED: 0, RETURNED: 1, ESCAPED: 2,
    wakeHost(outcome) {
      var resolve = llgoJspi.host;
      llgoJspi.host = null;
      if (resolve && !llgoJspi.dead) resolve(outcome);
    },
    failed(e) {
      if (e === llgoJspi.exitSentinel) return;
      if (e instanceof WebAssembly.Exception && llgoJspi.host) {
        // A wasm exception left the context: only a longjmp to a jmp_buf none of its frames
        // set throws one here (C has no other). The host reports it (LLGO_WASMCONTEXT_ESCAPED).
        llgoJspi.wakeHost(llgoJspi.ESCAPED);
        return;
      }
      llgoJspi.dead = true;
      _llgo_jspi_stop();
      if (typeof WebAssembly.SuspendError == 'function' && e instanceof WebAssembly.SuspendError) {
        err('fatal error: a goroutine blocked or yielded below a JavaScript frame ' +
            '(JavaScript called into Go, and that call blocked on a channel, lock, timer or ' +
            'host wait); the JSPI backend cannot suspend JavaScript frames. Restructure: ' +
            'have the JavaScript callback start a goroutine (llgo_host_callback_new) and ' +
            'return, or have Go wait on the JavaScript Promise (llgo_host_wait_begin / ' +
            'Module.llgoAwait), instead of blocking inside the call.\n(' + e + ')');
        try {
          _emscripten_force_exit(2);
        } catch (exit) {
          handleException(exit);
        }
        return;
      }
      handleException(e);
    },
    start() {
      _llgo_jspi_run().then(null, llgoJspi.failed);
    },
  },

  // Host: runs context `id` (starting its entry when `first`) until it gives control back;
  // returns how (SUSPENDED, RETURNED, ESCAPED).
  llgo_jspi_switch__deps: ['$llgoJspi', 'llgo_jspi_run'],
  llgo_jspi_switch__async: true,
  llgo_jspi_switch: (id, first) => new Promise((resolve) => {
    llgoJspi.host = resolve;
    if (first) {
      // A new stack starts from a microtask, once the host has suspended.
      queueMicrotask(llgoJspi.start);
    } else {
      var waiting = llgoJspi.waiting;
      var resume = waiting[id];
      waiting[id] = undefined;
      resume();
    }
  }),

  // Context `id`: gives control back to the host; returns when the host, or a context's
  // hand-off, switches to it again.
  llgo_jspi_suspend__deps: ['$llgoJspi'],
  llgo_jspi_suspend__async: true,
  llgo_jspi_suspend: (id) => new Promise((resolve) => {
    llgoJspi.waiting[id] = resolve;
    llgoJspi.wakeHost(llgoJspi.SUSPENDED);
  }),

  // Context `from`: suspends and runs context `to` (starting its entry when `first`: the C side
  // has set `llgo_jspi_run`'s context), without the host; returns when `from` is switched to again.
  llgo_jspi_handoff__deps: ['$llgoJspi', 'llgo_jspi_run'],
  llgo_jspi_handoff__async: true,
  llgo_jspi_handoff: (from, to, first) => new Promise((resolve) => {
    var waiting = llgoJspi.waiting;
    waiting[from] = resolve;
    if (first) {
      queueMicrotask(llgoJspi.start); // a new stack starts from a microtask, once `from` has suspended
    } else {
      var resume = waiting[to];
      waiting[to] = undefined;
      resume();
    }
  }),

  // Context: the engine refused to suspend it (wasmcontext_jspi_guard.S's catch_all, while the
  // SuspendError unwinds): stops every stack at once and throws a SuspendError on to failed().
  llgo_jspi_refused__deps: ['$llgoJspi', 'llgo_jspi_stop'],
  llgo_jspi_refused: () => {
    _llgo_jspi_stop();
    throw new WebAssembly.SuspendError('trying to suspend JS frames (a goroutine yielded or blocked ' +
                                       'below a JavaScript frame)');
  },

  // Any stack, after llgo_jspi_stop: parks it for good (the program is ending).
  llgo_jspi_halt__deps: ['$llgoJspi'],
  llgo_jspi_halt__async: true,
  llgo_jspi_halt: () => llgoJspi.never || (llgoJspi.never = new Promise(() => {})),

  // The most contexts this engine holds at once, 0 for no cap beyond memory. V8 14 maps two
  // memory areas for every suspended JSPI stack and aborts the whole process (uncatchable
  // "StackMemory ... out of memory") when Linux's vm.max_map_count runs out: Node 26.12 at about
  // 32,600 stacks under the default 65530; Node 24 (V8 13.6) held 1,000,000. Under Node the cap
  // keeps 30,000 of those 65,530 mappings' worth (46%, leaving the rest to the heap and code),
  // scaled to the machine's setting when it can be read. A Chromium renderer (V8 14 from
  // Chrome 140) maps more of its own and cannot read the setting: Chromium 156 held 21,000 and
  // crashed the tab at 22,000 ("V8 process OOM (StackMemory::StackSegment::StackSegment)",
  // measured under the default setting), so the cap there is 15,000. Other browsers: no cap known.
  llgo_jspi_engine_cap: () => {
    if (typeof process == 'object' && process.versions && process.versions.v8) {
      if (parseInt(process.versions.v8, 10) < 14) return 0;
      var maps = 65530;
      try {
        maps = parseInt(require('fs').readFileSync('/proc/sys/vm/max_map_count', 'utf8'), 10) || maps;
      } catch (e) {
        // not Linux, or no require (an ES module): the default setting
      }
      return Math.max(1, Math.min(0x7fffffff, Math.floor(maps * 30000 / 65530)));
    }
    // Chromium and the browsers built on it (their major version: V8's major times ten).
    var agent = typeof navigator == 'object' && navigator.userAgent || '';
    var chrome = /(?:Chrome|Chromium)\/(\d+)/.exec(agent);
    return chrome && parseInt(chrome[1], 10) >= 140 ? 15000 : 0;
  },

  // Context: its entry returned (llgo_jspi_run returns right after).
  llgo_jspi_finish__deps: ['$llgoJspi'],
  llgo_jspi_finish: () => llgoJspi.wakeHost(llgoJspi.RETURNED),

  // Context: abandons its stack (unwound by the sentinel, which its llgo_jspi_run promise
  // rejects with and failed() ignores).
  llgo_jspi_exit__deps: ['$llgoJspi'],
  llgo_jspi_exit: () => {
    llgoJspi.wakeHost(llgoJspi.RETURNED);
    throw llgoJspi.exitSentinel;
  },

  // Host: context `id` will never be resumed (destroyed or re-armed while suspended): its
  // stack becomes garbage with its promise.
  llgo_jspi_forget__deps: ['$llgoJspi'],
  llgo_jspi_forget: (id) => {
    llgoJspi.waiting[id] = undefined;
  },
});
