//llgo:build js && wasm
/*
 * clock_wait_emscripten.c - the single worker's idle wait under Emscripten (J32,
 * J64), until the worker learns to return to the JavaScript event loop (a
 * setTimeout, resumed there: docs/runtime.md, "Limits").
 *
 * Under Node the worker sleeps in Atomics.wait on a private SharedArrayBuffer
 * (Node allows it on the main thread): no CPU is burnt, but the event loop does
 * not run meanwhile. Where Atomics.wait is refused (a browser's main thread) it
 * busy-waits on performance.now() and says so once on the console, so a page
 * that spins is never silent about it. Emscripten's own nanosleep would always
 * busy-wait.
 */
#include <emscripten/em_js.h>
#include <stdint.h>

void llgo_clock_wait(int64_t ns);

EM_JS(void, llgo_host_block_ms, (double ms), {
  if (typeof SharedArrayBuffer === 'function' && typeof Atomics === 'object') {
    try {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
      return;
    } catch (e) {
      /* refused on this thread: fall through */
    }
  }
  if (!Module['llgoWarnedSpin']) {
    Module['llgoWarnedSpin'] = true;
    console.warn('llgo runtime: waiting for a timer by spinning (Atomics.wait is not allowed here)');
  }
  var end = performance.now() + ms;
  while (performance.now() < end) {
  }
});

void llgo_clock_wait(int64_t ns) {
  if (ns <= 0) {
    return;
  }
  llgo_host_block_ms((double)ns / 1e6);
}
