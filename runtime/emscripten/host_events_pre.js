// host_events_pre.js: linked with --pre-js into every Emscripten program
// (targets/emscripten-base.json). Module.llgoAwait(id, promise) settles the runtime's host wait
// `id` (llgo_host_wait_begin, llgo_runtime.h) when `promise` settles: fulfilled with
// (ok 1, Number(value)), rejected with (ok 0, NaN). It returns a Promise that resolves once the
// wait is woken; waking an id that is not an unsettled wait rejects it.
Module['llgoAwait'] = function (id, promise) {
  function wake(ok, value) {
    if (Module['_llgo_host_wake'](id, ok, value) !== 0) {
      throw new Error('llgoAwait: ' + id + ' is not an unsettled host wait');
    }
  }
  return Promise.resolve(promise).then(
    function (value) { wake(1, Number(value)); },
    function () { wake(0, NaN); });
};
