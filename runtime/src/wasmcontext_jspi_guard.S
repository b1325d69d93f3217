//llgo:build llgo.context_jspi
/*
 * wasmcontext_jspi_guard.S - the JSPI context backend's suspension points (wasmcontext_jspi.c),
 * in plain wasm: each calls the glue's Suspending import inside a catch_all, which C cannot write.
 * When the engine refuses to suspend (a JavaScript frame lies between the goroutine's first frame
 * and the import: WebAssembly.SuspendError), the import has already run on Node 24 (V8 13.6 calls
 * it before it checks), so the context it resolved or the host it woke is about to run from the
 * next microtask, before the glue's failure handler (queued when the error leaves the stack). The
 * catch calls the glue's llgo_jspi_refused while the error unwinds, synchronously: it stops every
 * stack (llgo_jspi_stop: each that comes back from a switch, or starts, then parks for good) and
 * throws a SuspendError in the refused one's place, which unwinds the goroutine on to the glue's
 * failure handler, which ends the program with its fatal error (runtime/emscripten/jspi_glue.js).
 * A fresh error, not a rethrow: translated to exnref, a rethrow keeps the caught exception in an
 * exnref local, which older wasm tools (wabt 1.0.32's wasm-objdump, the module check's) cannot
 * read. The catch_all is legacy exception handling, as the runtime's wasm SjLj is (the link
 * translates both to exnref); the descriptor's jspi context-cflags enable the feature here.
 */
#ifdef __EMSCRIPTEN__
/* The glue is an Emscripten library: its functions are imports from "env" (the default). */
#define GLUE_IMPORT(name)
#else
/* P1 on a JavaScript host: the ES module runtime/wasi/jspi_glue.mjs, module "llgo_jspi". */
#define GLUE_IMPORT(name) \
  .import_module name, llgo_jspi; \
  .import_name name, name
#endif

  .functype llgo_jspi_suspend (i32) -> ()
  GLUE_IMPORT(llgo_jspi_suspend)
  .functype llgo_jspi_handoff (i32, i32, i32) -> ()
  GLUE_IMPORT(llgo_jspi_handoff)
  .functype llgo_jspi_refused () -> ()
  GLUE_IMPORT(llgo_jspi_refused)

  .section .text.llgo_jspi_guarded_suspend,"",@
  .globl llgo_jspi_guarded_suspend
  .type llgo_jspi_guarded_suspend,@function
llgo_jspi_guarded_suspend:
  .functype llgo_jspi_guarded_suspend (i32) -> ()
  try
  local.get 0
  call llgo_jspi_suspend
  catch_all
  call llgo_jspi_refused
  unreachable
  end_try
  end_function

  .section .text.llgo_jspi_guarded_handoff,"",@
  .globl llgo_jspi_guarded_handoff
  .type llgo_jspi_guarded_handoff,@function
llgo_jspi_guarded_handoff:
  .functype llgo_jspi_guarded_handoff (i32, i32, i32) -> ()
  try
  local.get 0
  local.get 1
  local.get 2
  call llgo_jspi_handoff
  catch_all
  call llgo_jspi_refused
  unreachable
  end_try
  end_function
