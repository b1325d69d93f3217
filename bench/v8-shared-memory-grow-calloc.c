// v8-shared-memory-grow-calloc.c: the V8 shared-memory growth trap of
// bench/v8-shared-memory-grow.mjs, through P1T's own C library: threads calloc while others grow
// the heap (dlmalloc's sbrk is a memory.grow), and a thread that was inside malloc (in its spin
// lock, say) while another thread grew can clear its new block with a memory.fill that V8
// bounds-checks against the memory's old size: "memory access out of bounds" in calloc. Every access is in
// bounds; the program prints "done" and exits 0 on an engine without the bug.
//
// Build it twice, with a small initial memory (exposed) and with initial = maximum (P1T's link,
// docs/p1t.md), and run each under the threads runner (PREFIX: the toolchain,
// ~/.cache/llgo-wasm/toolchain-v1 by default):
//
//   clang-19 --target=wasm32-wasip1-threads --sysroot=PREFIX/wasi-sysroot-threads \
//     -resource-dir PREFIX/clang-resource-19 -pthread -matomics -mbulk-memory -O2 \
//     bench/v8-shared-memory-grow-calloc.c -o calloc-grows.wasm \
//     -Wl,--import-memory,--export-memory,--shared-memory,--max-memory=268435456,--initial-memory=2097152
//   node tests/runners/run-wasi-threads.mjs calloc-grows.wasm      # 134 when it trapped
//
// (--initial-memory=268435456 for the control.) The figures are in docs/p1t.md, "Why the initial
// size stays at the maximum".
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { WAVES = 8, THREADS = 6, BLOCKS = 40 };

static void *allocate(void *seed_argument) {
  unsigned seed = (unsigned)(size_t)seed_argument;
  unsigned char *blocks[BLOCKS];
  for (int i = 0; i < BLOCKS; i++) {
    seed = seed * 1103515245u + 12345u;
    size_t size = 4096 + (seed >> 8) % (96 * 1024);   // 4 to 100 KiB: the heap keeps growing
    blocks[i] = calloc(1, size);
    if (!blocks[i]) {
      fprintf(stderr, "calloc(1, %zu) failed\n", size);
      exit(3);
    }
    if (blocks[i][size - 1] != 0) {
      fprintf(stderr, "calloc returned a block that is not cleared\n");
      exit(4);
    }
  }
  for (int i = 0; i < BLOCKS; i += 2) free(blocks[i]);   // keep half: the next wave grows further
  return 0;
}

int main(void) {
  for (int wave = 0; wave < WAVES; wave++) {
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; i++) {
      if (pthread_create(&threads[i], 0, allocate, (void *)(size_t)(wave * 100 + i + 1)) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 5;
      }
    }
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], 0);
  }
  puts("done");
  return 0;
}
