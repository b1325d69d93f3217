/*
 * test_gstate.c - G/M/P ids, the checked status machine (every legal and
 * illegal transition), the live count with its main-called-Goexit bit, status
 * names, and fatal: it prints "fatal error: <msg>", exits 2, and code after a
 * failed guard never runs.
 */
#include "gstate.h"
#include "test_harness.h"

static const int all_statuses[] = {LLGO_G_IDLE, LLGO_G_RUNNABLE, LLGO_G_RUNNING,
                                   LLGO_G_WAITING, LLGO_G_DEAD};

static int is_legal(int from, int to) {
  return (from == LLGO_G_IDLE && to == LLGO_G_RUNNABLE) ||
         (from == LLGO_G_RUNNABLE && to == LLGO_G_RUNNING) ||
         (from == LLGO_G_RUNNING &&
          (to == LLGO_G_RUNNABLE || to == LLGO_G_WAITING || to == LLGO_G_DEAD)) ||
         (from == LLGO_G_WAITING && to == LLGO_G_RUNNABLE) ||
         (from == LLGO_G_DEAD && to == LLGO_G_IDLE);
}

static void noop(void *arg) { (void)arg; }

static int transition_from, transition_to;

static void illegal_transition_child(void) {
  llgo_g g;
  llgo_g_init(&g, noop, NULL, 0);
  atomic_store(&g.status, transition_from);
  llgo_casgstatus(&g, transition_from, transition_to);
  printf("fell through the guard\n");
}

static void wrong_current_status_child(void) {
  llgo_g g;
  llgo_g_init(&g, noop, NULL, 0); /* idle */
  llgo_casgstatus(&g, LLGO_G_RUNNING, LLGO_G_DEAD);
  printf("fell through the guard\n");
}

static void fatal_child(void) {
  printf("before");
  llgo_fatal("invariant broken");
}

static void long_fatal_child(void) {
  char message[2000];
  memset(message, 'x', sizeof message - 1);
  message[sizeof message - 1] = '\0';
  llgo_fatal(message);
}

static void test_ids(void) {
  llgo_gstate_reset();
  CHECK(llgo_next_g_id() == 1);
  CHECK(llgo_next_g_id() == 2);
  CHECK(llgo_next_m_id() == 1);
  CHECK(llgo_next_p_id() == 0);
  CHECK(llgo_next_p_id() == 1);
  llgo_g g;
  llgo_g_init(&g, noop, &g, 1);
  CHECK(g.id == 3 && g.fn == noop && g.arg == &g && g.is_main == 1);
  CHECK(llgo_test_g_id(&g) == 3 && llgo_test_g_id(NULL) == 0);
  CHECK(llgo_test_g_status(&g) == LLGO_G_IDLE && llgo_test_g_status(NULL) == -1);
  llgo_gstate_reset();
  CHECK(llgo_next_g_id() == 1 && llgo_next_m_id() == 1 && llgo_next_p_id() == 0);
}

static void test_legal_transitions(void) {
  llgo_g g;
  llgo_g_init(&g, noop, NULL, 0);
  const int path[][2] = {{LLGO_G_IDLE, LLGO_G_RUNNABLE},   {LLGO_G_RUNNABLE, LLGO_G_RUNNING},
                         {LLGO_G_RUNNING, LLGO_G_RUNNABLE}, {LLGO_G_RUNNABLE, LLGO_G_RUNNING},
                         {LLGO_G_RUNNING, LLGO_G_WAITING},  {LLGO_G_WAITING, LLGO_G_RUNNABLE},
                         {LLGO_G_RUNNABLE, LLGO_G_RUNNING}, {LLGO_G_RUNNING, LLGO_G_DEAD},
                         {LLGO_G_DEAD, LLGO_G_IDLE}};
  for (size_t i = 0; i < sizeof path / sizeof path[0]; i++) {
    llgo_casgstatus(&g, path[i][0], path[i][1]);
    CHECK(llgo_test_g_status(&g) == path[i][1]);
  }
}

static void test_illegal_transitions_die(void) {
  char name[96];
  char expected[160];
  int checked = 0;
  for (size_t f = 0; f < 5; f++) {
    for (size_t t = 0; t < 5; t++) {
      if (is_legal(all_statuses[f], all_statuses[t])) {
        continue;
      }
      transition_from = all_statuses[f];
      transition_to = all_statuses[t];
      snprintf(name, sizeof name, "illegal %s -> %s", llgo_g_status_name(transition_from),
               llgo_g_status_name(transition_to));
      snprintf(expected, sizeof expected, "fatal error: casgstatus: illegal transition %s -> %s",
               llgo_g_status_name(transition_from), llgo_g_status_name(transition_to));
      run_in_child(name, illegal_transition_child,
                   (child_expectation){2, expected, NULL, ""});
      checked++;
    }
  }
  CHECK(checked == 25 - 7);
  transition_from = 3; /* not a status at all */
  transition_to = LLGO_G_RUNNING;
  run_in_child("illegal unknown -> _Grunning", illegal_transition_child,
               (child_expectation){2, "illegal transition unknown -> _Grunning", NULL, ""});
}

static void test_fatal(void) {
  run_in_child("cas on the wrong current status", wrong_current_status_child,
               (child_expectation){2, "fatal error: casgstatus: goroutine", NULL, ""});
  run_in_child("fatal prints and exits 2", fatal_child,
               (child_expectation){2, "fatal error: invariant broken\n", NULL, "before"});
  run_in_child("fatal truncates a long message", long_fatal_child,
               (child_expectation){2, "fatal error: xxxxxxxx", NULL, ""});
}

static void test_live_count(void) {
  llgo_gstate_reset();
  CHECK(llgo_live_g_count() == 0 && !llgo_main_called_goexit());
  llgo_live_g_started();
  llgo_live_g_started();
  llgo_live_g_started();
  CHECK(llgo_live_g_count() == 3);
  CHECK(llgo_live_g_exited(1) == 2); /* main called Goexit */
  CHECK(llgo_main_called_goexit());
  CHECK(llgo_live_g_count() == 2);
  CHECK(llgo_live_g_exited(0) == 1);
  CHECK(llgo_live_g_exited(0) == 0);
  CHECK(llgo_live_g_count() == 0 && llgo_main_called_goexit());
  llgo_gstate_reset();
  CHECK(!llgo_main_called_goexit());
}

static void test_names(void) {
  CHECK(strcmp(llgo_g_status_name(LLGO_G_IDLE), "_Gidle") == 0);
  CHECK(strcmp(llgo_g_status_name(LLGO_G_RUNNABLE), "_Grunnable") == 0);
  CHECK(strcmp(llgo_g_status_name(LLGO_G_RUNNING), "_Grunning") == 0);
  CHECK(strcmp(llgo_g_status_name(LLGO_G_WAITING), "_Gwaiting") == 0);
  CHECK(strcmp(llgo_g_status_name(LLGO_G_DEAD), "_Gdead") == 0);
  CHECK(strcmp(llgo_g_status_name(5), "unknown") == 0);
  CHECK(strcmp(llgo_p_status_name(LLGO_P_IDLE), "_Pidle") == 0);
  CHECK(strcmp(llgo_p_status_name(LLGO_P_RUNNING), "_Prunning") == 0);
  CHECK(strcmp(llgo_p_status_name(7), "unknown") == 0);
}

int main(void) {
  test_ids();
  test_legal_transitions();
  test_illegal_transitions_die();
  test_fatal();
  test_live_count();
  test_names();
  return test_harness_exit_status();
}
