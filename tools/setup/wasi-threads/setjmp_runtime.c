// libsetjmp: the runtime half of LLVM's WebAssembly setjmp/longjmp lowering (LLVM 19 ABI:
// __wasm_setjmp, __wasm_setjmp_test, __wasm_longjmp), built on the exception-handling proposal.
// Code that calls setjmp must be compiled with `-mllvm -wasm-enable-sjlj` (LLVM 19 then emits
// legacy exception-handling instructions) and linked with -lsetjmp. The 2022 wasi-libc that the
// sysroot is built from predates this, so the sysroot script adds it.
//
// The lowering gives each function that calls setjmp an invocation id; setjmp records
// (invocation id, label); longjmp throws a __c_longjmp exception carrying the jmp_buf, and the
// catching function compares ids to find which setjmp call to resume.

#include <stddef.h>
#include <stdint.h>

struct longjmp_argument {
  void *jump_buffer;
  int value;
};

// Must fit in jmp_buf (see setjmp.h installed beside this library).
struct jump_buffer_layout {
  void *function_invocation_id;
  uint32_t label;
  struct longjmp_argument argument;  // what __wasm_longjmp throws
};

void __wasm_setjmp(void *jump_buffer, uint32_t label, void *function_invocation_id) {
  struct jump_buffer_layout *buffer = jump_buffer;
  if (label == 0 || function_invocation_id == NULL) __builtin_trap();
  buffer->function_invocation_id = function_invocation_id;
  buffer->label = label;
}

uint32_t __wasm_setjmp_test(void *jump_buffer, void *function_invocation_id) {
  struct jump_buffer_layout *buffer = jump_buffer;
  if (buffer->label == 0 || function_invocation_id == NULL) __builtin_trap();
  return buffer->function_invocation_id == function_invocation_id ? buffer->label : 0;
}

void __wasm_longjmp(void *jump_buffer, int value) {
  struct jump_buffer_layout *buffer = jump_buffer;
  buffer->argument.jump_buffer = jump_buffer;
  buffer->argument.value = value == 0 ? 1 : value;
  __builtin_wasm_throw(1, &buffer->argument);  // tag 1 is __c_longjmp
}
