//llgo:build llgo
/*
 * stack_size.c - the C stack sizes a program runs with (docs/runtime.md, "Stacks"). A program
 * may choose its own: `LLGO_STACK_SIZE(bytes);` in its source, or `llgo-wasm link --stack-size`
 * (or LLGO_WASM_STACK_SIZE), which compiles the same definition into the link. Without one, the
 * target's sizes apply, compiled in from its descriptor by the target build:
 *   LLGO_DEFAULT_STACK_SIZE   default-stack-size: the running stack with shared stacks (every
 *                             goroutine's and main's), and main's with separate stacks;
 *   LLGO_SEPARATE_STACK_SIZE  separate-stack-size: each goroutine's own stack with separate
 *                             stacks and on the pthread backend.
 * A program's size replaces the one that applies; with separate stacks main never gets less than
 * the default.
 */
#include "stack_size.h"

#ifndef LLGO_DEFAULT_STACK_SIZE
#error "compile the runtime with -DLLGO_DEFAULT_STACK_SIZE=<default-stack-size from llgo-wasm resolve --json>"
#endif
#ifndef LLGO_SEPARATE_STACK_SIZE
#error "compile the runtime with -DLLGO_SEPARATE_STACK_SIZE=<separate-stack-size from llgo-wasm resolve --json>"
#endif

/* The program's own size, when it has one (a weak reference: absent, its address is null). */
extern const size_t llgo_stack_size __attribute__((weak));

size_t llgo_goroutine_stack_size(int shared_stacks) {
  if (&llgo_stack_size != NULL) {
    return llgo_stack_size;
  }
  return shared_stacks ? (size_t)LLGO_DEFAULT_STACK_SIZE : (size_t)LLGO_SEPARATE_STACK_SIZE;
}

size_t llgo_main_stack_size(int shared_stacks) {
  size_t size = llgo_goroutine_stack_size(shared_stacks);
  if (shared_stacks) {
    return size; /* one running stack for all */
  }
  return size < (size_t)LLGO_DEFAULT_STACK_SIZE ? (size_t)LLGO_DEFAULT_STACK_SIZE : size;
}
