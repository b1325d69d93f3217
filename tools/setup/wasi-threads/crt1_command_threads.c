// crt1-command.o for the wasm32-wasip1-threads sysroot: the `_start` of a WASI command.
//
// Why it replaces wasi-libc 2022's: that one leaves constructors to the linker, and wasm-ld then
// wraps *every* export of a command in __wasm_call_ctors/__wasm_call_dtors, wasi_thread_start
// included, so each new thread would re-run the constructors and, when it ends, the atexit
// handlers and the stdio flush of the whole process. Calling __wasm_call_ctors here, explicitly,
// tells wasm-ld that the module manages it, and it wraps nothing (newer wasi-libc does the same).
// `_start` runs once per process: every thread instantiates the module, only the first starts.

#include <stdlib.h>

extern void __wasm_call_ctors(void);
extern int __original_main(void);
extern void __wasm_call_dtors(void);

__attribute__((__export_name__("_start"))) void _start(void) {
  static volatile int started;
  if (__atomic_exchange_n(&started, 1, __ATOMIC_SEQ_CST)) __builtin_trap();

  __wasm_call_ctors();
  // __original_main is the program's main, or libc's argv-reading wrapper around it.
  int status = __original_main();
  // atexit handlers, destructors, stdio flush.
  __wasm_call_dtors();
  if (status != 0) exit(status);
}
