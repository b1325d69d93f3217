// emscripten-env-pre.js: linked with --pre-js into the Emscripten fixtures. Emscripten gives a
// program a fixed default environment; a Go program (and the fixture's modes) expect the host
// process's environment, so under Node copy process.env into ENV before main runs.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process === 'object' && process.env) {
    for (var key in process.env) ENV[key] = process.env[key];
  }
});
