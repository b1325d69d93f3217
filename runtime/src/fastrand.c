//llgo:build llgo
/*
 * fastrand.c - the runtime's cheap random numbers (Go's fastrand/fastrandn of
 * Go 1.19 on 64-bit targets: wyrand), used for select's random choice.
 *
 * One generator per thread (the single worker has one), seeded on first use
 * from the system's entropy (getentropy: getrandom natively, WASI random_get,
 * crypto.getRandomValues under Emscripten), so every process makes different
 * choices, as Go does. Not for cryptography.
 */
#include "blocking.h"

#include <unistd.h>

static _Thread_local uint64_t fastrand_state;
static _Thread_local int fastrand_seeded;

/* The high and low halves of a * b (Go's math.Mul64), in portable C. */
static void mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
  uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
  uint64_t low = a_lo * b_lo;
  uint64_t mid1 = a_hi * b_lo + (low >> 32);
  uint64_t mid2 = a_lo * b_hi + (uint32_t)mid1;
  *hi = a_hi * b_hi + (mid1 >> 32) + (mid2 >> 32);
  *lo = a * b;
}

static void seed(void) {
  uint64_t value = 0;
  if (getentropy(&value, sizeof value) != 0 || value == 0) {
    /* No entropy source: the clock and an address still differ between runs. */
    value = (uint64_t)llgo_nanotime() ^ (uint64_t)(uintptr_t)&fastrand_state;
  }
  fastrand_state = value;
  fastrand_seeded = 1;
}

static uint32_t fastrand(void) {
  if (!fastrand_seeded) {
    seed();
  }
  fastrand_state += 0xa0761d6478bd642full;
  uint64_t hi, lo;
  mul64(fastrand_state, fastrand_state ^ 0xe7037ed1a0b428dbull, &hi, &lo);
  return (uint32_t)(hi ^ lo);
}

uint32_t llgo_fastrandn(uint32_t n) {
  return (uint32_t)(((uint64_t)fastrand() * n) >> 32);
}
