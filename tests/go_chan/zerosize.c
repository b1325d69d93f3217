/* zerosize.c - Go's test/chan/zerosize.go: making channels of a zero-sized type
 * ([0]byte and struct{}: element size 0), unbuffered and with a buffer of 1. */
#include "go_chan.h"

int go_chan_zerosize(int argc, char **argv) {
  (void)argc;
  (void)argv;
  llgo_chan *made[4] = {
      llgo_chan_make(0, 0), /* make(chan [0]byte) */
      llgo_chan_make(0, 1), /* make(chan [0]byte, 1) */
      llgo_chan_make(0, 0), /* make(chan struct{}) */
      llgo_chan_make(0, 1), /* make(chan struct{}, 1) */
  };
  for (int i = 0; i < 4; i++) {
    if (made[i] == NULL || llgo_chan_cap(made[i]) != (size_t)(i % 2)) {
      llgo_panic("zero-size channel made wrong");
    }
  }
  printf("zerosize: ok\n");
  return 0;
}
