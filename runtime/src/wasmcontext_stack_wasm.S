//llgo:build wasm
/*
 * wasmcontext_stack_wasm.S - the module's C stack, in plain wasm: read and write __stack_pointer
 * (C cannot without a prologue of its own touching the same global), and the stack guard
 * (wasmcontext_stack_guard.h): the global __llgo_stack_guard, which the check that
 * `llgo-wasm link` adds to every write of __stack_pointer compares against, and
 * llgo_stack_overflow_trap, which that check calls with the stack pointer it refused.
 * The trap has no frame of its own: it turns the check off, moves to an emergency stack and
 * calls the report (wasmcontext_stack_guard_wasm.c), which never returns. Under wasi-threads
 * (atomics) only the first thread to overflow takes the emergency stack; another one waits there
 * until the first ends the process. Pointer width follows the target (wasm32 or wasm64).
 */
#ifdef __wasm64__
#define PTR i64
#else
#define PTR i32
#endif

  .globaltype __stack_pointer, PTR
  .functype llgo_wasmcontext_stack_overflow (PTR) -> ()

  .section .globals,"",@
  .globaltype __llgo_stack_guard, PTR
__llgo_stack_guard:

  .section .text,"",@

  .globl llgo_wasmcontext_get_stack_pointer
  .type llgo_wasmcontext_get_stack_pointer,@function
llgo_wasmcontext_get_stack_pointer:
  .functype llgo_wasmcontext_get_stack_pointer () -> (PTR)
  global.get __stack_pointer
  end_function

  .globl llgo_wasmcontext_set_stack_pointer
  .type llgo_wasmcontext_set_stack_pointer,@function
llgo_wasmcontext_set_stack_pointer:
  .functype llgo_wasmcontext_set_stack_pointer (PTR) -> ()
  local.get 0
  global.set __stack_pointer
  end_function

  .globl llgo_wasmcontext_get_stack_guard
  .type llgo_wasmcontext_get_stack_guard,@function
llgo_wasmcontext_get_stack_guard:
  .functype llgo_wasmcontext_get_stack_guard () -> (PTR)
  global.get __llgo_stack_guard
  end_function

  .globl llgo_wasmcontext_set_stack_guard
  .type llgo_wasmcontext_set_stack_guard,@function
llgo_wasmcontext_set_stack_guard:
  .functype llgo_wasmcontext_set_stack_guard (PTR) -> ()
  local.get 0
  global.set __llgo_stack_guard
  end_function

  .globl llgo_wasmcontext_switch_stack
  .type llgo_wasmcontext_switch_stack,@function
llgo_wasmcontext_switch_stack:
  .functype llgo_wasmcontext_switch_stack (PTR, PTR) -> ()
  local.get 1
  global.set __llgo_stack_guard
  local.get 0
  global.set __stack_pointer
  end_function

  .globl llgo_stack_overflow_trap
  .type llgo_stack_overflow_trap,@function
  // Nothing calls the trap until the link's check does: kept through wasm-ld's --gc-sections.
  .no_dead_strip llgo_stack_overflow_trap
llgo_stack_overflow_trap:
  .functype llgo_stack_overflow_trap (PTR) -> ()
#ifdef __wasm_atomics__
  block
  loop
  PTR.const llgo_wasmcontext_overflow_taken
  i32.const 1
  i32.atomic.rmw.xchg 0
  i32.eqz
  br_if 1
  br 0
  end_loop
  end_block
#endif
  PTR.const 0
  global.set __llgo_stack_guard
  PTR.const llgo_wasmcontext_overflow_stack_top
  PTR.load 0
  global.set __stack_pointer
  local.get 0
  call llgo_wasmcontext_stack_overflow
  unreachable
  end_function
