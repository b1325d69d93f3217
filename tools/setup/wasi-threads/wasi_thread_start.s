# Entry point of every thread started through the wasi-threads `thread-spawn` import.
#
# The host calls the exported `wasi_thread_start(tid, start_arg)` on a fresh instance that shares
# linear memory with the spawner. At that point `__stack_pointer` still holds the value the module
# was instantiated with (the main thread's stack), so the new thread must switch to its own stack
# before any C code runs: a C prologue would already push a frame onto the main thread's stack.
# That is why this one function is assembly. `start_arg` points at a `struct __pthread` whose first
# word is the top of the thread's stack (see pthread_wasi_threads.c, which does everything else,
# including TLS set-up, in `__llgo_wasi_thread_start_C`).

	.text

	.export_name	wasi_thread_start, wasi_thread_start

	.globaltype	__stack_pointer, i32
	.functype	__llgo_wasi_thread_start_C (i32, i32) -> ()

	.hidden	wasi_thread_start
	.globl	wasi_thread_start
	.type	wasi_thread_start,@function

wasi_thread_start:
	.functype	wasi_thread_start (i32, i32) -> ()
	local.get	1
	i32.load	0
	global.set	__stack_pointer
	local.get	0
	local.get	1
	call	__llgo_wasi_thread_start_C
	end_function
