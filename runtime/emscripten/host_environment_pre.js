// host_environment_pre.js: linked with --pre-js into every Emscripten program
// (targets/emscripten-base.json). Emscripten gives a program a fixed default environment; a Go
// program expects the host's environment. Before main runs, copy into ENV the object the host
// passed as Module.env (how a page gives one: tests/browser/page/harness.js), else, under Node,
// process.env. A program that never reads its environment (no getenv) has no ENV at all:
// nothing to copy.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  var hostEnv = Module['env'] || (typeof process === 'object' && process.env);
  if (hostEnv && typeof ENV === 'object') {
    for (var key in hostEnv) ENV[key] = hostEnv[key];
  }
});
