//llgo:build llgo.context_ucontext && arm64
/*
 * wasmcontext_native_aarch64.S - the native context switch for aarch64 (AAPCS64).
 * llgo_wasmcontext_native_switch(void **save, void *load): stores below sp what
 * AAPCS64 makes callee-saved (x19-x28, the frame pointer x29, the link register
 * x30, d8-d15, and FPCR, whose rounding/flush-to-zero/default-NaN controls a
 * callee must preserve, like MXCSR and the x87 control word on x86-64), stores
 * sp in *save, loads `load` and restores the same layout from there, returning
 * through x30. The frame is 176 bytes (22 slots, the last one padding) so sp
 * stays 16-byte aligned:
 *   [0..9] x19-x28  [10] x29  [11] x30  [12..19] d8-d15  [20] fpcr  [21] -
 * first_frame in wasmcontext_native.c builds a fresh context's: x19 = the
 * function, x20 = its argument, x30 = llgo_wasmcontext_native_start, FPCR 0
 * (round to nearest, no flush to zero: the default). llgo_wasmcontext_native_start
 * calls x19(x20) with sp at the stack top (16-byte aligned) and x29 = 0, which
 * ends the frame-pointer chain for unwinders and debuggers.
 */
  .text
  .p2align 2
  .globl llgo_wasmcontext_native_switch
  .type llgo_wasmcontext_native_switch,%function
llgo_wasmcontext_native_switch:
  sub sp, sp, #176
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
  mrs x9, fpcr
  str x9, [sp, #160]
  mov x9, sp
  str x9, [x0]
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
  ldr x9, [sp, #160]
  msr fpcr, x9
  add sp, sp, #176
  ret
  .size llgo_wasmcontext_native_switch, .-llgo_wasmcontext_native_switch

  .p2align 2
  .globl llgo_wasmcontext_native_start
  .type llgo_wasmcontext_native_start,%function
llgo_wasmcontext_native_start:
  mov x0, x20
  blr x19
  brk #0 /* context_main never returns */
  .size llgo_wasmcontext_native_start, .-llgo_wasmcontext_native_start

  .section .note.GNU-stack,"",%progbits
