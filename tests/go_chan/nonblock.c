/* nonblock.c - Go's test/chan/nonblock.go: channel operations that test for
 * blocking, with several sizes and types of operands (int32, int64, bool, string),
 * unbuffered and with a buffer of 1.
 *
 * Every send and receive is a select with a default case that is retried, with a
 * short sleep() between tries (two ticks of a 10 us ticker and three Goscheds),
 * until the goroutine on the other side is ready. Differences: Go's string is a
 * `const char *` here (compared with strcmp); labelled loops are loops over a
 * helper that tries one select; a select gives up after 10,000 tries (as Go's)
 * and 30 s, not the tries alone. */
#include "go_chan.h"

#include <stdint.h>
#include <string.h>

static llgo_chan *ticker; /* time.Tick(10 * 1000): 10 us */

static void go_sleep(void) {
  llgo_chan_recv(ticker, NULL);
  llgo_chan_recv(ticker, NULL);
  llgo_gosched();
  llgo_gosched();
  llgo_gosched();
}

#define MAX_TRIES 10000 /* Up to 100ms per test. */
/* And at least 30 s: on P1T the other side is a thread in a Worker that a loaded
 * machine may take seconds to start, longer than 10,000 tries of 20 us. */
#define MIN_WAIT (30000 * (int64_t)1000000)

static llgo_chan *sync_chan;

static void strobe(void) {
  int yes = 1;
  llgo_chan_send(sync_chan, &yes);
}

static void i32receiver(void *c) {
  int32_t v;
  llgo_chan_recv(c, &v);
  if (v != 123) llgo_panic("i32 value");
  strobe();
}
static void i32sender(void *c) {
  int32_t v = 234;
  llgo_chan_send(c, &v);
  strobe();
}
static void i64receiver(void *c) {
  int64_t v;
  llgo_chan_recv(c, &v);
  if (v != 123456) llgo_panic("i64 value");
  strobe();
}
static void i64sender(void *c) {
  int64_t v = 234567;
  llgo_chan_send(c, &v);
  strobe();
}
static void breceiver(void *c) {
  _Bool v;
  llgo_chan_recv(c, &v);
  if (!v) llgo_panic("b value");
  strobe();
}
static void bsender(void *c) {
  _Bool v = 1;
  llgo_chan_send(c, &v);
  strobe();
}
static void sreceiver(void *c) {
  const char *v;
  llgo_chan_recv(c, &v);
  if (strcmp(v, "hello") != 0) llgo_panic("s value");
  strobe();
}
static void ssender(void *c) {
  const char *v = "hello again";
  llgo_chan_send(c, &v);
  strobe();
}

/* select { case c <- *value (or *value = <-c): done; default: try++ ... sleep() },
 * until it proceeds. Go prints "<what> buffer= N" before panicking "fail" for the
 * int32 cases (buffer >= 0 here), and panics "<what>" for the others. */
static void until_done(llgo_chan *c, llgo_select_dir dir, void *value, const char *what, int buffer) {
  int try = 0;
  int64_t start = llgo_nanotime();
  for (;;) {
    llgo_select_case cas = {c, dir, value};
    if (llgo_select(&cas, 1, 0, NULL) == 0) {
      return;
    }
    try++;
    if (try > MAX_TRIES && llgo_nanotime() - start > MIN_WAIT) {
      if (buffer >= 0) fprintf(stderr, "%s buffer= %d\n", what, buffer);
      llgo_panic(buffer >= 0 ? "fail" : what);
    }
    go_sleep();
  }
}

/* select { case v = <-c: panic(message); default: } */
static void expect_blocked(llgo_chan *c, void *value, const char *message) {
  llgo_select_case cas = {c, LLGO_SELECT_RECV, value};
  if (llgo_select(&cas, 1, 0, NULL) == 0) {
    llgo_panic(message);
  }
}

int go_chan_nonblock(int argc, char **argv) {
  (void)argc;
  (void)argv;
  int32_t i32;
  int64_t i64;
  _Bool b;
  const char *s;
  llgo_timer *tick_timer = llgo_time_new_ticker(10 * 1000, &ticker);
  (void)tick_timer;
  sync_chan = llgo_chan_make(sizeof(int), 0);

  for (int buffer = 0; buffer < 2; buffer++) {
    llgo_chan *c32 = llgo_chan_make(sizeof(int32_t), (size_t)buffer);
    llgo_chan *c64 = llgo_chan_make(sizeof(int64_t), (size_t)buffer);
    llgo_chan *cb = llgo_chan_make(sizeof(_Bool), (size_t)buffer);
    llgo_chan *cs = llgo_chan_make(sizeof(const char *), (size_t)buffer);

    expect_blocked(c32, &i32, "blocked i32sender");
    expect_blocked(c64, &i64, "blocked i64sender");
    expect_blocked(cb, &b, "blocked bsender");
    expect_blocked(cs, &s, "blocked ssender");

    llgo_go(i32receiver, c32);
    int32_t v32 = 123;
    until_done(c32, LLGO_SELECT_SEND, &v32, "i32receiver", buffer);
    llgo_chan_recv(sync_chan, NULL);

    llgo_go(i32sender, c32);
    if (buffer > 0) llgo_chan_recv(sync_chan, NULL);
    until_done(c32, LLGO_SELECT_RECV, &i32, "i32sender", buffer);
    if (i32 != 234) llgo_panic("i32sender value");
    if (buffer == 0) llgo_chan_recv(sync_chan, NULL);

    llgo_go(i64receiver, c64);
    int64_t v64 = 123456;
    until_done(c64, LLGO_SELECT_SEND, &v64, "i64receiver", -1);
    llgo_chan_recv(sync_chan, NULL);

    llgo_go(i64sender, c64);
    if (buffer > 0) llgo_chan_recv(sync_chan, NULL);
    until_done(c64, LLGO_SELECT_RECV, &i64, "i64sender", -1);
    if (i64 != 234567) llgo_panic("i64sender value");
    if (buffer == 0) llgo_chan_recv(sync_chan, NULL);

    llgo_go(breceiver, cb);
    _Bool vb = 1;
    until_done(cb, LLGO_SELECT_SEND, &vb, "breceiver", -1);
    llgo_chan_recv(sync_chan, NULL);

    llgo_go(bsender, cb);
    if (buffer > 0) llgo_chan_recv(sync_chan, NULL);
    until_done(cb, LLGO_SELECT_RECV, &b, "bsender", -1);
    if (!b) llgo_panic("bsender value");
    if (buffer == 0) llgo_chan_recv(sync_chan, NULL);

    llgo_go(sreceiver, cs);
    const char *vs = "hello";
    until_done(cs, LLGO_SELECT_SEND, &vs, "sreceiver", -1);
    llgo_chan_recv(sync_chan, NULL);

    llgo_go(ssender, cs);
    if (buffer > 0) llgo_chan_recv(sync_chan, NULL);
    until_done(cs, LLGO_SELECT_RECV, &s, "ssender", -1);
    if (strcmp(s, "hello again") != 0) llgo_panic("ssender value");
    if (buffer == 0) llgo_chan_recv(sync_chan, NULL);
  }
  printf("nonblock: ok, 16 non-blocking exchanges (4 types, buffers 0 and 1)\n");
  return 0;
}
