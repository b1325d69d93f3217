//llgo:build llgo
/*
 * stack_size.h - runtime-internal: the C stack sizes a program runs with (stack_size.c).
 */
#ifndef LLGO_STACK_SIZE_H
#define LLGO_STACK_SIZE_H

#include <stddef.h>

/* What llgo_go gives a goroutine: with shared stacks the shared stack's size, with separate
 * stacks (and threads) each goroutine's own. */
size_t llgo_goroutine_stack_size(int shared_stacks);
/* Main's: the same; with separate stacks never less than the target's default-stack-size. */
size_t llgo_main_stack_size(int shared_stacks);

#endif
