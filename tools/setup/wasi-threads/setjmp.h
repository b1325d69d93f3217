/* setjmp.h for the llgo-wasm wasm32-wasip1-threads sysroot (installed by
 * tools/setup/wasi-threads-sysroot.sh; the 2022 wasi-libc it builds omits this header).
 * setjmp/longjmp work through LLVM's lowering: compile with `-mllvm -wasm-enable-sjlj`
 * and link with -lsetjmp. There are no signal masks on WASI, so sigsetjmp is setjmp. */
#ifndef _SETJMP_H
#define _SETJMP_H

#ifdef __cplusplus
extern "C" {
#endif

/* 32 bytes, 8-aligned: room for libsetjmp's (invocation id, label, longjmp argument). */
typedef struct __jmp_buf_tag {
	unsigned long long __jb[4];
} jmp_buf[1];
typedef jmp_buf sigjmp_buf;

int setjmp(jmp_buf) __attribute__((__returns_twice__));
_Noreturn void longjmp(jmp_buf, int);
#define _setjmp setjmp
#define _longjmp longjmp
#define sigsetjmp(buffer, save_mask) setjmp(buffer)
#define siglongjmp longjmp

#ifdef __cplusplus
}
#endif

#endif
