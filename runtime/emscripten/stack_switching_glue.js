// stack_switching_glue.js - Emscripten JS library for the stack-switching context backend
// (runtime/src/wasmcontext_stack_switching.c) on J32.
//
// The backend calls the switch primitives of runtime/src/wasmcontext_stack_switching.wat,
// declared as imports from the module "llgo_stack_switching". The link step merges that module
// into the .wasm emcc wrote (Binaryen's wasm-merge), so they are never imported at run time.
// Emscripten's JS compiler, however, checks every import name of the linked module first and
// rejects unknown ones; these definitions satisfy that check. They abort if ever called, which
// would mean the glue was not merged (an unmerged module does not even instantiate: its
// imports come from a module Emscripten does not provide).
// Use: emcc ... -sSUPPORT_LONGJMP=wasm --js-library=runtime/emscripten/stack_switching_glue.js
addToLibrary({
  llgo_stack_switching_arm: (slot) => abort('llgo_stack_switching glue not merged'),
  llgo_stack_switching_drop: (slot) => abort('llgo_stack_switching glue not merged'),
  llgo_stack_switching_resume: (slot, self) => abort('llgo_stack_switching glue not merged'),
  llgo_stack_switching_suspend: () => abort('llgo_stack_switching glue not merged'),
  llgo_stack_switching_exit: () => abort('llgo_stack_switching glue not merged'),
  llgo_stack_switching_rethrow: () => abort('llgo_stack_switching glue not merged'),
});
