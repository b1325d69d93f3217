/* go_chan_main.c - the test program that runs the ports of Go's test/chan
 * (go_chan.h), one case per process (tests/harness/test_program.h). Expected
 * results per case: cases.json (exit status, exact stdout and stderr; which
 * variant/backend a case needs). */
#include "go_chan.h"
#include "test_program.h"

/* goroutines with 64 goroutines: where each goroutine is an OS thread (a Worker
 * under Node for P1T), 10,000 at once do not fit. */
static int goroutines_64(int argc, char **argv) {
  (void)argc;
  char count[] = "64";
  char *args[] = {argv[0], count, NULL};
  return go_chan_goroutines(2, args);
}

static const test_case cases[] = {
    {"doubleselect", go_chan_doubleselect, NULL},
    {"fifo", go_chan_fifo, NULL},
    {"goroutines", go_chan_goroutines, NULL},
    {"goroutines-64", goroutines_64, NULL},
    {"nonblock", go_chan_nonblock, NULL},
    {"select", go_chan_select, NULL},
    {"select3", go_chan_select3, NULL},
    {"select4", go_chan_select4, NULL},
    {"select6", go_chan_select6, NULL},
    {"select7", go_chan_select7, NULL},
    {"sieve1", go_chan_sieve1, NULL},
    {"sendstmt", go_chan_sendstmt, NULL},
    {"zerosize", go_chan_zerosize, NULL},
};

TEST_PROGRAM_WITHOUT_LEAK_CHECK

int main(int argc, char **argv) { return TEST_PROGRAM_MAIN(argc, argv, cases); }
