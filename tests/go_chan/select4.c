/* select4.c - Go's test/chan/select4.go: a select statement proceeds when a value
 * is ready.
 *
 * `case *f() = <-c1:` assigns through f() only if that case is chosen, so f (which
 * prints "BUG: called f") must not run: the port receives into a temporary and
 * assigns after the select, as Go's compiler does. */
#include "go_chan.h"

static int *f(void) {
  fprintf(stderr, "BUG: called f\n");
  return go_new(sizeof(int));
}

int go_chan_select4(int argc, char **argv) {
  (void)argc;
  (void)argv;
  static struct {
    int a;
  } x;
  llgo_chan *c = llgo_chan_make(sizeof(int), 1);
  llgo_chan *c1 = llgo_chan_make(sizeof(int), 0);
  int v = 42;
  llgo_chan_send(c, &v);
  int from_c1, from_c;
  llgo_select_case cases[2] = {{c1, LLGO_SELECT_RECV, &from_c1}, {c, LLGO_SELECT_RECV, &from_c}};
  switch (llgo_select(cases, 2, 1, NULL)) {
  case 0:
    *f() = from_c1; /* nothing */
    break;
  case 1:
    x.a = from_c;
    if (x.a != 42) {
      fprintf(stderr, "BUG: %d\n", x.a);
    }
    break;
  }
  printf("select4: ok, x.a=%d\n", x.a);
  return 0;
}
