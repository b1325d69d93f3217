// node_environment_pre.js: linked with --pre-js into every Emscripten program (targets/emscripten-base.json).
// Emscripten gives a program a fixed default environment; a Go program expects the host process's
// environment, so under Node copy process.env into ENV before main runs (in a browser: nothing).
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process === 'object' && process.env) {
    for (var key in process.env) ENV[key] = process.env[key];
  }
});
