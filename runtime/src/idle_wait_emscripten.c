//llgo:build js && wasm
/*
 * idle_wait_emscripten.c - the single worker's idle wait and host events under
 * Emscripten (J32, J64): the worker never blocks the JavaScript thread, it
 * returns to the event loop (Go's js/wasm does the same: beforeIdle,
 * wasm_exec.js).
 *
 * When nothing is runnable, the idle wait arms one JavaScript timer for the
 * next deadline (setTimeout, cleared and re-armed each time) and returns
 * LLGO_IDLE_RETURN_TO_HOST: llgo_sched_run returns, and so does llgo_run_main
 * the first time (llgo_platform_leave_to_host: the C `main` returns while the
 * runtime is kept alive; its value is ignored, the program ends later with
 * main's status through llgo_platform_main_returned). The timer, a settled
 * host wait or a host callback re-enter the scheduler through the export
 * llgo_host_resume, from a fresh JavaScript task (a timer or a microtask), so
 * the page or the Node process runs its own callbacks meanwhile. The re-entry
 * is an export call: with the emscripten-fiber backend the host loop is a
 * fiber too, and Emscripten rewinds a fiber through the export it was unwound
 * from.
 *
 * Deadlock: with no timer, no unsettled host wait and no live host callback,
 * nothing can ever ready a goroutine: the idle wait says so at once and the
 * program dies with Go's message. Otherwise the worker waits in the event loop;
 * under Node, when the loop runs empty ('beforeExit': nothing can settle a wait
 * or call a callback any more) it re-enters once more to die of the deadlock,
 * as Go's wasm_exec.js does. A browser page has no such moment: the program
 * just waits.
 *
 * Host waits and callbacks live in heap tables indexed by their id (id - 1), so
 * JavaScript only ever passes small integers (no pointers: J64's would be
 * BigInts).
 */
#include "blocking.h"
#include "exit_process.h"
#include "gstate.h"
#include "scheduler.h"

#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

EM_JS_DEPS(llgo_host_events, "$callUserCallback,$runtimeKeepalivePush,$handleException");

/* JavaScript calls the export llgo_host_resume through callUserCallback. Under the JSPI
 * context backend the export is wrapped in WebAssembly.promising (the host loop suspends inside
 * it) and returns a Promise: an exit or failure inside it rejects that Promise instead of
 * throwing, so the three calls below give a rejection the handler callUserCallback gives a throw.
 * (EM_JS bodies are not macro-expanded: the call is written out each time.) */

/* Arms the one resume timer `ms` milliseconds from now (rounded up: a timer
 * that fires early only costs another wait), or clears it (ms < 0). */
EM_JS(void, llgo_host_arm, (double ms), {
  var host = Module['llgoHost'] || (Module['llgoHost'] = {timer: null, queued: false});
  if (host.timer !== null) {
    clearTimeout(host.timer);
    host.timer = null;
  }
  if (ms >= 0) {
    host.timer = setTimeout(function() {
      host.timer = null;
      callUserCallback(function() {
        var resumed = _llgo_host_resume(0);
        if (resumed && typeof resumed.then === 'function') resumed.then(null, handleException);
      });
    }, Math.ceil(ms));
  }
});

/* Re-enters the scheduler from a microtask (once, however many events came). */
EM_JS(void, llgo_host_kick, (void), {
  var host = Module['llgoHost'] || (Module['llgoHost'] = {timer: null, queued: false});
  if (host.queued) {
    return;
  }
  host.queued = true;
  queueMicrotask(function() {
    host.queued = false;
    callUserCallback(function() {
        var resumed = _llgo_host_resume(0);
        if (resumed && typeof resumed.then === 'function') resumed.then(null, handleException);
      });
  });
});

/* Keeps the runtime alive after the C `main` returns (EXIT_RUNTIME=1 would end
 * it there) and, under Node, re-enters once more when the event loop runs
 * empty ('beforeExit'), to report the deadlock. */
EM_JS(void, llgo_host_keep_alive, (void), {
  runtimeKeepalivePush();
  if (typeof process === 'object' && process && typeof process.on === 'function') {
    process.on('beforeExit', function() {
      callUserCallback(function() {
        var resumed = _llgo_host_resume(1);
        if (resumed && typeof resumed.then === 'function') resumed.then(null, handleException);
      });
    });
  }
});

static int host_idle;         /* llgo_sched_run returned to the event loop (set on the way out) */
static int event_loop_empty;  /* the resume comes from Node's 'beforeExit' (until new host activity) */
static int kept_alive;

/* ---- host waits ---- */

enum { WAIT_FREE, WAIT_BEGUN, WAIT_PARKED, WAIT_SETTLED };

typedef struct host_wait {
  llgo_g *g;
  int state;
  int ok;
  double value;
  int32_t next_free; /* index + 1 of the next free slot, 0: none */
} host_wait;

static host_wait *waits;
static int32_t waits_length;
static int32_t waits_free; /* index + 1 of the first free slot, 0: none */
static int64_t waits_unsettled;

/* ---- host callbacks ---- */

typedef struct host_callback {
  llgo_go_fn fn; /* NULL: free */
  void *arg;
  int32_t next_free;
} host_callback;

static host_callback *callbacks;
static int32_t callbacks_length;
static int32_t callbacks_free;
static int64_t callbacks_live;

/* Grows a table by half (at least 16 slots); fatal when out of memory. */
static void *grow(void *table, int32_t *length, size_t slot_size, const char *what) {
  int64_t wanted = *length < 16 ? 16 : (int64_t)*length + *length / 2;
  if (wanted > INT32_MAX - 1) {
    llgo_fatalf("too many %s (%d)", what, (int)*length);
  }
  void *grown = realloc(table, (size_t)wanted * slot_size);
  if (grown == NULL) {
    llgo_fatalf("out of memory for %lld %s", (long long)wanted, what);
  }
  *length = (int32_t)wanted;
  return grown;
}

static void wake_host(void) {
  if (host_idle) {
    llgo_host_kick();
  }
}

/* ---- the idle wait ---- */

llgo_idle_wait_result llgo_platform_idle_wait(int64_t timeout_ns) {
  int loop_empty = event_loop_empty;
  event_loop_empty = 0;
  if (timeout_ns < 0 && (loop_empty || (waits_unsettled == 0 && callbacks_live == 0))) {
    return LLGO_IDLE_NOTHING_PENDING;
  }
  llgo_host_arm(timeout_ns < 0 ? -1.0 : (double)timeout_ns / 1e6);
  return LLGO_IDLE_RETURN_TO_HOST;
}

int llgo_platform_leave_to_host(void) {
  host_idle = 1;
  if (!kept_alive) {
    kept_alive = 1;
    llgo_host_keep_alive();
  }
  return 0; /* ignored: main's status ends the program later */
}

/* JavaScript's way back in (a timer, a microtask after a host event, or
 * 'beforeExit'). A resume while the scheduler runs cannot happen (the
 * scheduler only leaves to the event loop when idle); a second one queued for
 * the same idle period finds the work done and returns to the loop again. */
EMSCRIPTEN_KEEPALIVE void llgo_host_resume(int loop_empty) {
  if (!host_idle) {
    return;
  }
  host_idle = 0;
  event_loop_empty = loop_empty;
  if (llgo_sched_run() == LLGO_SCHED_MAIN_RETURNED) {
    llgo_platform_main_returned(llgo_sched_main_status());
  }
  host_idle = 1;
  if (event_loop_empty) {
    /* An idle hook other than the runtime's went back to an empty loop:
     * nothing will ever resume the program. */
    llgo_fatal(LLGO_DEADLOCK_ASLEEP);
  }
}

/* ---- public API (llgo_runtime.h) ---- */

llgo_host_wait_id llgo_host_wait_begin(void) {
  llgo_g *g = llgo_current_g_or_die("llgo_host_wait_begin");
  if (waits_free == 0) {
    int32_t old_length = waits_length;
    waits = grow(waits, &waits_length, sizeof *waits, "host waits");
    for (int32_t i = waits_length - 1; i >= old_length; i--) {
      waits[i].state = WAIT_FREE;
      waits[i].next_free = waits_free;
      waits_free = i + 1;
    }
  }
  int32_t index = waits_free - 1;
  host_wait *w = &waits[index];
  waits_free = w->next_free;
  w->g = g;
  w->state = WAIT_BEGUN;
  w->ok = 0;
  w->value = 0;
  waits_unsettled++;
  event_loop_empty = 0; /* whoever settles it has something in the loop again */
  llgo_idle_hook_needed();
  return index + 1;
}

static host_wait *wait_of(llgo_host_wait_id id) {
  return id >= 1 && id <= waits_length && waits[id - 1].state != WAIT_FREE ? &waits[id - 1]
                                                                            : NULL;
}

int llgo_host_wait_end(llgo_host_wait_id id, double *value) {
  llgo_g *g = llgo_current_g_or_die("llgo_host_wait_end");
  host_wait *w = wait_of(id);
  if (w == NULL || w->g != g || w->state == WAIT_PARKED) {
    llgo_fatalf("llgo_host_wait_end: %d is not a host wait this goroutine began", (int)id);
  }
  if (w->state == WAIT_BEGUN) {
    w->state = WAIT_PARKED;
    llgo_park(); /* llgo_host_wake readies it; the slot is heap memory, not this stack */
    w = &waits[id - 1]; /* the table may have moved meanwhile */
  }
  int ok = w->ok;
  if (value != NULL) {
    *value = w->value;
  }
  w->state = WAIT_FREE;
  w->g = NULL;
  w->next_free = waits_free;
  waits_free = id;
  return ok;
}

EMSCRIPTEN_KEEPALIVE int llgo_host_wake(llgo_host_wait_id id, int ok, double value) {
  host_wait *w = wait_of(id);
  if (w == NULL || w->state == WAIT_SETTLED) {
    return -1;
  }
  event_loop_empty = 0;
  w->ok = ok != 0;
  w->value = value;
  waits_unsettled--;
  int parked = w->state == WAIT_PARKED;
  w->state = WAIT_SETTLED;
  if (parked) {
    llgo_ready(w->g);
    wake_host();
  }
  return 0;
}

llgo_host_callback_id llgo_host_callback_new(llgo_go_fn fn, void *arg) {
  if (fn == NULL) {
    llgo_fatal("llgo_host_callback_new: NULL function");
  }
  if (callbacks_free == 0) {
    int32_t old_length = callbacks_length;
    callbacks = grow(callbacks, &callbacks_length, sizeof *callbacks, "host callbacks");
    for (int32_t i = callbacks_length - 1; i >= old_length; i--) {
      callbacks[i].fn = NULL;
      callbacks[i].next_free = callbacks_free;
      callbacks_free = i + 1;
    }
  }
  int32_t index = callbacks_free - 1;
  host_callback *c = &callbacks[index];
  callbacks_free = c->next_free;
  c->fn = fn;
  c->arg = arg;
  callbacks_live++;
  llgo_idle_hook_needed();
  return index + 1;
}

static host_callback *callback_of(llgo_host_callback_id id) {
  return id >= 1 && id <= callbacks_length && callbacks[id - 1].fn != NULL ? &callbacks[id - 1]
                                                                           : NULL;
}

void llgo_host_callback_release(llgo_host_callback_id id) {
  host_callback *c = callback_of(id);
  if (c == NULL) {
    llgo_fatalf("llgo_host_callback_release: %d is not a live host callback", (int)id);
  }
  c->fn = NULL;
  c->arg = NULL;
  c->next_free = callbacks_free;
  callbacks_free = id;
  callbacks_live--;
}

EMSCRIPTEN_KEEPALIVE int llgo_host_call(llgo_host_callback_id id) {
  host_callback *c = callback_of(id);
  if (c == NULL) {
    return -1;
  }
  event_loop_empty = 0;
  llgo_go(c->fn, c->arg);
  wake_host();
  return 0;
}

int llgo_wait_readable(int fd) {
  (void)fd;
  errno = ENOTSUP; /* no fd readiness under Emscripten: wait on a Promise */
  return -1;
}

/* The host callbacks' table holds their arguments (free slots hold none). */
void llgo_platform_gc_roots(llgo_gc_root_fn fn, void *ctx) {
  if (callbacks != NULL) {
    fn(callbacks, callbacks + callbacks_length, ctx);
  }
}
