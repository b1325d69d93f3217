//llgo:build llgo.context_asyncify || llgo.context_stack_switching
/*
 * wasmcontext_asyncify_sp.S - read and write the module's __stack_pointer
 * global (the C shadow stack). C cannot do this without a prologue of its own
 * touching the same global, so these two functions are plain wasm: each
 * context runs on its own C stack, and the Asyncify host loop moves
 * __stack_pointer between them. Pointer width follows the target (wasm32 or
 * wasm64).
 */
#ifdef __wasm64__
#define LLGO_PTR i64
#else
#define LLGO_PTR i32
#endif

  .globaltype __stack_pointer, LLGO_PTR

  .globl llgo_wasmcontext_get_stack_pointer
  .type llgo_wasmcontext_get_stack_pointer,@function
llgo_wasmcontext_get_stack_pointer:
  .functype llgo_wasmcontext_get_stack_pointer () -> (LLGO_PTR)
  global.get __stack_pointer
  end_function

  .globl llgo_wasmcontext_set_stack_pointer
  .type llgo_wasmcontext_set_stack_pointer,@function
llgo_wasmcontext_set_stack_pointer:
  .functype llgo_wasmcontext_set_stack_pointer (LLGO_PTR) -> ()
  local.get 0
  global.set __stack_pointer
  end_function
