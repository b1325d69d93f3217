//llgo:build llgo.context_ucontext && arm64
/*
 * wasmcontext_native_aarch64.S - the native context switch for aarch64 (AAPCS64).
 * llgo_wasmcontext_native_switch(void **save, void *load): stores x19-x30 and
 * d8-d15 below sp, stores sp in *save, loads `load` and restores the same
 * layout from there (see first_frame in wasmcontext_native.c for a fresh
 * context's), returning through x30. llgo_wasmcontext_native_start is that
 * first frame's x30: it calls x19(x20).
 */
  .text
  .globl llgo_wasmcontext_native_switch
  .type llgo_wasmcontext_native_switch,%function
llgo_wasmcontext_native_switch:
  sub sp, sp, #160
  stp x19, x20, [sp, #0]
  stp x21, x22, [sp, #16]
  stp x23, x24, [sp, #32]
  stp x25, x26, [sp, #48]
  stp x27, x28, [sp, #64]
  stp x29, x30, [sp, #80]
  stp d8, d9, [sp, #96]
  stp d10, d11, [sp, #112]
  stp d12, d13, [sp, #128]
  stp d14, d15, [sp, #144]
  mov x2, sp
  str x2, [x0]
  mov sp, x1
  ldp x19, x20, [sp, #0]
  ldp x21, x22, [sp, #16]
  ldp x23, x24, [sp, #32]
  ldp x25, x26, [sp, #48]
  ldp x27, x28, [sp, #64]
  ldp x29, x30, [sp, #80]
  ldp d8, d9, [sp, #96]
  ldp d10, d11, [sp, #112]
  ldp d12, d13, [sp, #128]
  ldp d14, d15, [sp, #144]
  add sp, sp, #160
  ret
  .size llgo_wasmcontext_native_switch, .-llgo_wasmcontext_native_switch

  .globl llgo_wasmcontext_native_start
  .type llgo_wasmcontext_native_start,%function
llgo_wasmcontext_native_start:
  mov x0, x20
  blr x19
  brk #0
  .size llgo_wasmcontext_native_start, .-llgo_wasmcontext_native_start

  .section .note.GNU-stack,"",%progbits
