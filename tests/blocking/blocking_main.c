/* blocking_main.c - the `blocking` test program: one case per process
 * (tests/harness/test_program.h) from the four areas' tables, plus the event log
 * and allocation helpers of blocking_test.h. */
#include "blocking_test.h"
#include "test_program.h"

#include <pthread.h>

static char event_log[8192];
static size_t event_length;
static pthread_mutex_t event_lock = PTHREAD_MUTEX_INITIALIZER;

void event(const char *format, ...) {
  char line[256];
  va_list args;
  va_start(args, format);
  vsnprintf(line, sizeof line, format, args);
  va_end(args);
  pthread_mutex_lock(&event_lock);
  size_t n = strlen(line);
  if (event_length + n + 2 < sizeof event_log) {
    if (event_length > 0) {
      event_log[event_length++] = ',';
    }
    memcpy(event_log + event_length, line, n + 1);
    event_length += n;
  }
  pthread_mutex_unlock(&event_lock);
}

const char *events(void) { return event_log; }

void *test_new(size_t size) {
  void *p = calloc(1, size ? size : 1);
  if (p == NULL) {
    llgo_fatal("out of memory");
  }
  return p;
}

void wait_parked(_Atomic(llgo_g *) *slot) {
  /* 60 s: on P1T the goroutine is a thread in a new Worker, which a loaded
   * machine may take seconds to start. */
  int64_t deadline = llgo_nanotime() + 60000 * MS;
  while (*slot == NULL || llgo_test_g_status(*slot) != LLGO_G_WAITING) {
    EXPECT(llgo_nanotime() < deadline, "a goroutine did not park within 60 s");
    llgo_gosched();
  }
}

static const blocking_case *const tables[] = {chan_cases, select_cases, sync_cases, timer_cases};

TEST_PROGRAM_WITHOUT_LEAK_CHECK

int main(int argc, char **argv) {
  test_case all[128];
  size_t count = 0;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
    for (const blocking_case *c = tables[t]; c->name != NULL; c++) {
      REQUIRE(count < sizeof all / sizeof all[0]);
      all[count++] = (test_case){c->name, c->main_fn, NULL};
    }
  }
  return test_program_main(argc, argv, all, count);
}
