/* A freestanding C file compiled to wasm32 with several feature sets at build time, so the
 * wasm module fuzzer starts from real LLVM output: branches, br_table, i64 and float math,
 * loads and stores, calls through a table, SIMD (with -msimd128), atomics and bulk memory
 * (with -matomics -mbulk-memory), and setjmp/longjmp lowered to wasm exception handling
 * (with -mexception-handling -mllvm -wasm-enable-sjlj). Nothing here runs. */
typedef long jmp_buf[8];
int setjmp(jmp_buf environment);
void longjmp(jmp_buf environment, int value) __attribute__((noreturn));
void host_report(int value);

static jmp_buf unwind_to;
static int table_a(int x) { return x * 3; }
static int table_b(int x) { return x ^ 0x5a5a; }
static int (*const table[])(int) = {table_a, table_b};

int classify(int value) {
  switch (value & 7) {
    case 0: return 11;
    case 1: return 23;
    case 2: return 37;
    case 3: return -41;
    case 5: return 59;
    default: return value;
  }
}

long long mix64(long long a, long long b) {
  for (int i = 0; i < 16; ++i) a = (a << 7) ^ (b >> 3) ^ (long long)0x9e3779b97f4a7c15ULL;
  return a / (b | 1) + (a % 1000003);
}

double blend(double x, float y) { return x * 0.5 + (double)y / 3.0 - (double)(long long)x; }

void copy_and_fill(unsigned char* destination, const unsigned char* source, unsigned long size) {
  __builtin_memcpy(destination, source, size);
  __builtin_memset(destination + size, 0xab, 64);
}

int counter_bump(int* counter) { return __atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST); }

#ifdef __wasm_simd128__
typedef int v4i32 __attribute__((vector_size(16)));
v4i32 add_lanes(v4i32 a, v4i32 b) { return a + b * 3; }
#endif

int indirect(int which, int x) { return table[which & 1](x); }

static void fail_deep(int depth) {
  if (depth == 0) longjmp(unwind_to, 7);
  fail_deep(depth - 1);
  host_report(depth);
}

int guarded(int depth) {
  int code = setjmp(unwind_to);
  if (code != 0) return code;
  fail_deep(depth);
  return 0;
}
