// asyncify_intrinsics.js - Emscripten JS library for the raw Asyncify context backend
// (runtime/src/wasmcontext_asyncify.c) on J32/J64.
//
// The backend calls Binaryen's in-module intrinsics, declared as imports from the module
// "asyncify" (start_unwind, stop_unwind, start_rewind, stop_rewind). emcc -sASYNCIFY runs
// Binaryen's Asyncify pass, which replaces those imports with its own functions, so they are
// never imported at run time. Emscripten's JS compiler, however, checks every import name of
// the linked module before that pass runs and rejects unknown ones; these definitions satisfy
// that check. They abort if ever called, which would mean the Asyncify pass did not run.
// Use: emcc ... -sASYNCIFY --js-library=runtime/emscripten/asyncify_intrinsics.js
addToLibrary({
  start_unwind: (data) => abort('asyncify.start_unwind was not replaced: link with -sASYNCIFY'),
  stop_unwind: () => abort('asyncify.stop_unwind was not replaced: link with -sASYNCIFY'),
  start_rewind: (data) => abort('asyncify.start_rewind was not replaced: link with -sASYNCIFY'),
  stop_rewind: () => abort('asyncify.stop_rewind was not replaced: link with -sASYNCIFY'),
});
