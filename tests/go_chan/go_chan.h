/* go_chan.h - shared by the C ports of Go's test/chan programs (Go 1.19, Debian's
 * golang-1.19-src, /usr/share/go-1.19/test/chan/): each port is one file with one
 * entry point, run as the main goroutine by go_chan_main.c, one case per process.
 *
 * Every port keeps its Go program's checks, messages and exit statuses (Go's
 * println goes to stderr, panic(x) is llgo_panic: "panic: x", status 2). Go's
 * programs print nothing on success; each port prints one last line to stdout,
 * "<name>: ok ..." with a figure of the work done, so a program that never ran
 * cannot pass. Where a program uses something the C API does not have, its file
 * says so at the top. Goroutine arguments and anything two goroutines share live
 * in static or heap memory, never in a goroutine's locals (llgo_runtime.h). */
#ifndef GO_CHAN_H
#define GO_CHAN_H

#include "llgo_runtime.h"

#include <stdio.h>
#include <stdlib.h>

int go_chan_doubleselect(int argc, char **argv);
int go_chan_fifo(int argc, char **argv);
int go_chan_goroutines(int argc, char **argv);
int go_chan_nonblock(int argc, char **argv);
int go_chan_select(int argc, char **argv);
int go_chan_select3(int argc, char **argv);
int go_chan_select4(int argc, char **argv);
int go_chan_select6(int argc, char **argv);
int go_chan_select7(int argc, char **argv);
int go_chan_sieve1(int argc, char **argv);
int go_chan_sendstmt(int argc, char **argv);
int go_chan_zerosize(int argc, char **argv);

/* Heap memory or death (Go's new/make never fail). */
static inline void *go_new(size_t size) {
  void *p = calloc(1, size ? size : 1);
  if (p == NULL) {
    llgo_fatal("out of memory");
  }
  return p;
}


#endif /* GO_CHAN_H */
