// emscripten-env-pre.js: linked with --pre-js into the Emscripten fixtures. Emscripten gives a
// program a fixed default environment; a Go program (and the fixture's modes) expect the host
// process's environment, so under Node copy process.env into ENV before main runs. A program that
// never reads its environment (no getenv) has no ENV at all: nothing to copy.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process === 'object' && process.env && typeof ENV === 'object') {
    for (var key in process.env) ENV[key] = process.env[key];
  }
});
