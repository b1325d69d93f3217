//llgo:build llgo.context_ucontext && amd64
/*
 * wasmcontext_native_x86_64.S - the native context switch for x86-64 (System V).
 * llgo_wasmcontext_native_switch(void **save, void *load): pushes the
 * callee-saved registers and the SSE/x87 control words, stores %rsp in *save,
 * loads `load` and pops the same layout from there (see first_frame in
 * wasmcontext_native.c for a fresh context's). llgo_wasmcontext_native_start is
 * the return address of that first frame: it calls %r12(%r13) with %rsp
 * 16-byte aligned, as a call expects.
 */
  .text
  .globl llgo_wasmcontext_native_switch
  .type llgo_wasmcontext_native_switch,@function
llgo_wasmcontext_native_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size llgo_wasmcontext_native_switch, .-llgo_wasmcontext_native_switch

  .globl llgo_wasmcontext_native_start
  .type llgo_wasmcontext_native_start,@function
llgo_wasmcontext_native_start:
  movq %r13, %rdi
  callq *%r12
  ud2
  .size llgo_wasmcontext_native_start, .-llgo_wasmcontext_native_start

  .section .note.GNU-stack,"",@progbits
