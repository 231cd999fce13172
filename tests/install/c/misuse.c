/* misuse.c: an outside C MPI program that gets the C layer (dlb/dlb.h) wrong the way a program
 * can (ctest install_misuse_mpi, tests/install/run_misuse_test.sh). argv[1] names the run:
 *   before-init     dlb_session_create before MPI_Init: DLB_ERR_USAGE, and MPI_Init works after
 *   after-finalize  dlb_session_create after MPI_Finalize: DLB_ERR_USAGE
 *   run             on every rank, each case then a right session on the same communicator:
 *     body-rc          the last rank's body returns 7 (dlb_parallel_for_rc): DLB_ERR_RUN on
 *                      every rank, the message naming the value
 *     mismatched-n     the last rank's loop is 300 iterations, the others' 400: DLB_ERR_USAGE on
 *                      every rank naming the ranks and the lengths
 *     mismatched-policy  the last rank's policy SS, the others' TSS: DLB_ERR_USAGE
 *     after-finish     dlb_parallel_for after dlb_session_finish: DLB_ERR_USAGE
 *     auto-all-candidates  AUTO-ALL with --candidates GSS FAC2: runs, every iteration once
 *     policy-twice     GSS named and --strategy TSS in the options: DLB_ERR_USAGE naming both
 * Each case prints "dlb_c_misuse: rank R: CASE: rc C after T s: MESSAGE" and then
 * "dlb_c_misuse: rank R: CASE: then right" (or "then wrong").
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "dlb/dlb.h"

static int rank = 0, size = 1;

static void count(int64_t i, void* user) {
  (void)i;
  *(int64_t*)user += 1;
}

static int fails_on_last(int64_t i, void* user) {
  (void)i;
  *(int64_t*)user += 1;
  return rank == size - 1 ? 7 : 0;
}

static dlb_session create(const char* policy) {
  const char* names[] = {"quiet", "timeout"};
  const char* values[] = {NULL, "20"};
  dlb_session s = NULL;
  int rc = dlb_session_create_with(MPI_COMM_WORLD, policy, 2, names, values, &s);
  if (rc != DLB_OK) printf("dlb_c_misuse: rank %d: create %s: rc %d: %s\n", rank, policy, rc,
                           dlb_error_message());
  return s;
}

/* A loop of 500 iterations on a new session: every iteration run once over the ranks. */
static void then_right(const char* name) {
  int64_t mine = 0, total = 0;
  dlb_session s = create("GDDLB");
  int rc = s ? dlb_parallel_for(s, 500, NULL, count, &mine) : DLB_ERR_RUN;
  if (rc == DLB_OK) rc = dlb_session_finish(s);
  dlb_session_free(&s);
  MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  printf("dlb_c_misuse: rank %d: %s: then %s\n", rank, name,
         rc == DLB_OK && total == 500 ? "right" : "wrong");
}

static void report(const char* name, int rc, double start) {
  printf("dlb_c_misuse: rank %d: %s: rc %d after %.1f s: %s\n", rank, name, rc,
         MPI_Wtime() - start, dlb_error_message());
  fflush(stdout);
}

static void body_rc(void) {
  int64_t mine = 0;
  double start = MPI_Wtime();
  /* AWF keeps the two-sided path, where the master hands every rank its first chunk, so the last
   * rank's body surely runs (on the one-sided path the other ranks may take every chunk first). */
  dlb_session s = create("AWF");
  int rc = dlb_parallel_for_rc(s, 400, NULL, fails_on_last, &mine);
  report("body-rc", rc, start);
  dlb_session_free(&s);
  then_right("body-rc");
}

static void mismatched_n(void) {
  int64_t mine = 0;
  double start = MPI_Wtime();
  dlb_session s = create("GCDLB");
  int rc = dlb_parallel_for(s, rank == size - 1 ? 300 : 400, NULL, count, &mine);
  report("mismatched-n", rc, start);
  dlb_session_free(&s);
  then_right("mismatched-n");
}

static void mismatched_policy(void) {
  double start = MPI_Wtime();
  dlb_session s = NULL;
  int rc = dlb_session_create(MPI_COMM_WORLD, rank == size - 1 ? "SS" : "TSS", &s);
  report("mismatched-policy", rc, start);
  dlb_session_free(&s);
  then_right("mismatched-policy");
}

static void after_finish(void) {
  int64_t mine = 0;
  double start = MPI_Wtime();
  dlb_session s = create("SS");
  int rc = dlb_session_finish(s);
  if (rc == DLB_OK) rc = dlb_parallel_for(s, 10, NULL, count, &mine);
  report("after-finish", rc, start);
  dlb_session_free(&s);
  then_right("after-finish");
}

/* AUTO-ALL among the program's candidates: the layer's policy runs as a value; every
 * iteration once over the ranks. */
static void auto_all_candidates(void) {
  const char* names[] = {"quiet", "timeout", "candidates"};
  const char* values[] = {NULL, "20", "GSS FAC2"};
  int64_t mine = 0, total = 0;
  dlb_session s = NULL;
  int rc = dlb_session_create_with(MPI_COMM_WORLD, "AUTO-ALL", 3, names, values, &s);
  if (rc == DLB_OK) rc = dlb_parallel_for(s, 500, NULL, count, &mine);
  if (rc == DLB_OK) rc = dlb_session_finish(s);
  dlb_session_free(&s);
  MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  printf("dlb_c_misuse: rank %d: auto-all-candidates: rc %d, %lld of 500: %s\n", rank, rc,
         (long long)total, dlb_error_message());
  fflush(stdout);
}

/* The policy named and also in the options: DLB_ERR_USAGE naming both. */
static void policy_twice(void) {
  const char* names[] = {"quiet", "strategy"};
  const char* values[] = {NULL, "TSS"};
  double start = MPI_Wtime();
  dlb_session s = NULL;
  int rc = dlb_session_create_with(MPI_COMM_WORLD, "GSS", 2, names, values, &s);
  report("policy-twice", rc, start);
  dlb_session_free(&s);
  then_right("policy-twice");
}

static void unready(const char* when) {
  dlb_session s = NULL;
  int rc = dlb_session_create(MPI_COMM_WORLD, "SS", &s);
  printf("dlb_c_misuse: %s: rc %d: %s\n", when, rc, dlb_error_message());
  fflush(stdout);
}

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  if (strcmp(what, "before-init") == 0) unready("before MPI_Init");
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (strcmp(what, "before-init") == 0) {
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum == size) printf("dlb_c_misuse: rank %d: MPI_Init works\n", rank);
  } else if (strcmp(what, "after-finalize") == 0) {
    MPI_Finalize();
    unready("after MPI_Finalize");
    return 0;
  } else if (strcmp(what, "run") == 0) {
    body_rc();
    mismatched_n();
    mismatched_policy();
    after_finish();
    auto_all_candidates();
    policy_twice();
  } else {
    fprintf(stderr, "usage: misuse before-init|after-finalize|run\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Finalize();
  return 0;
}
