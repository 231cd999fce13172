/* sum.c: an outside C MPI program with the installed DLB library's C layer (dlb/dlb.h) inside
 * (ctest install_c_mpi, tests/install/run_c_test.sh). It owns MPI; under each policy named on its
 * command line it runs one index-only loop (the library hands out iterations and moves no data;
 * each rank sums what it computed, and the program reduces the sums with its own MPI_Reduce),
 * checks the total and the iteration count against a sequential loop, then checks the errors:
 * a bad policy and a NULL body are DLB_ERR_USAGE with a message naming them, on every rank, and
 * the job goes on; then the typed parameters (dlb_session_params): SS with a prefetch of 0.5 gives
 * the same total, a prefetch of 1 is DLB_ERR_USAGE naming it. Under each policy, and on the
 * one-sided path (DLB_PATH_ONE_SIDED, SS), dlb_parallel_reduce of values whose sum depends on the
 * order (1e16, small ones, -1e16) must give the bits of the sequential blocked reference, by sum
 * and by a user operation, on every rank. Prints "dlb_c: rank R: POLICY: OK" per policy and
 * "dlb_c: rank R: done".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlb/dlb.h"

enum { N = 5000 };

struct partial {
  double sum;
  int64_t count;
};

static double value(int64_t i) { return (double)(i % 13) + 0.5; }

static void body(int64_t i, void* user) {
  struct partial* p = (struct partial*)user;
  p->sum += value(i);
  p->count += 1;
}

/* Iteration i costs 1 to 5 units: what the library balances by. */
static double cost(int64_t i, void* user) {
  (void)user;
  return 1e-6 * (double)(1 + i % 5);
}

/* Order-sensitive values, and the documented blocked order: blocks of max(1, ceil(n / 1024))
 * iterations, each folded in order from the identity, then the blocks in order. */
static double mixed(int64_t i, void* user) {
  (void)user;
  return i % 3 == 0 ? 1e16 + (double)i : i % 3 == 1 ? 1.0 + 1e-3 * (double)i : -1e16;
}
static double half_and_add(double a, double b, void* user) {
  (void)user;
  return 0.5 * a + b;
}
static double blocked(int64_t n, int user_op) {
  const int64_t B = n > 1024 ? (n + 1023) / 1024 : 1;
  double result = 0.0;
  for (int64_t b = 0; b * B < n; ++b) {
    double acc = 0.0;
    for (int64_t i = b * B; i < n && i < (b + 1) * B; ++i)
      acc = user_op ? half_and_add(acc, mixed(i, NULL), NULL) : acc + mixed(i, NULL);
    result = user_op ? half_and_add(result, acc, NULL) : result + acc;
  }
  return result;
}

static int failures = 0;

static void check(int ok, int rank, const char* what) {
  if (!ok) {
    printf("dlb_c: rank %d: FAILED: %s\n", rank, what);
    ++failures;
  }
}

/* The loop's reductions on session s: the reference's bits, by sum and by a user operation. */
static int reduce_checked(dlb_session s, int rank, const char* what) {
  double got = 0.0, want = blocked(N, 0);
  int rc = dlb_parallel_reduce(s, N, NULL, mixed, DLB_REDUCE_SUM, NULL, 0.0, NULL, &got);
  if (rc != DLB_OK) return rc;
  if (memcmp(&got, &want, sizeof got) != 0) {
    printf("dlb_c: rank %d: FAILED: %s: sum %.17g, the reference %.17g\n", rank, what, got, want);
    ++failures;
  }
  want = blocked(N, 1);
  rc = dlb_parallel_reduce(s, N, NULL, mixed, DLB_REDUCE_USER, half_and_add, 0.0, NULL, &got);
  if (rc == DLB_OK && memcmp(&got, &want, sizeof got) != 0) {
    printf("dlb_c: rank %d: FAILED: %s: user op %.17g, the reference %.17g\n", rank, what, got,
           want);
    ++failures;
  }
  return rc;
}

static void one_loop(const char* policy, int rank) {
  const char* names[] = {"quiet"};
  const char* values[] = {NULL};
  dlb_session s = NULL;
  struct partial mine = {0.0, 0};
  int rc = dlb_session_create_with(MPI_COMM_WORLD, policy, 1, names, values, &s);
  if (rc == DLB_OK) rc = dlb_parallel_for(s, N, cost, body, &mine);
  if (rc == DLB_OK) rc = reduce_checked(s, rank, policy);
  if (rc == DLB_OK) rc = dlb_session_finish(s);
  if (rc != DLB_OK)
    printf("dlb_c: rank %d: %s: error %d: %s\n", rank, policy, rc, dlb_error_message());
  dlb_session_free(&s);
  check(s == NULL, rank, "dlb_session_free sets the handle to NULL");
  double total = 0.0;
  int64_t count = 0;
  MPI_Reduce(&mine.sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine.count, &count, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  double expected = 0.0;
  for (int64_t i = 0; i < N; ++i) expected += value(i);
  if (rc == DLB_OK && count == N && total == expected)
    printf("dlb_c: rank 0: %s: OK\n", policy);
  else
    check(0, rank, policy);
}

static void errors(int rank) {
  dlb_session s = NULL;
  int rc = dlb_session_create(MPI_COMM_WORLD, "BOGUS", &s);
  check(rc == DLB_ERR_USAGE && s == NULL, rank, "a bad policy is DLB_ERR_USAGE");
  check(strstr(dlb_error_message(), "BOGUS") != NULL, rank, "the message names the bad policy");
  rc = dlb_session_create(MPI_COMM_WORLD, "SS", &s);
  check(rc == DLB_OK, rank, "a session after a bad one");
  rc = dlb_parallel_for(s, 10, NULL, NULL, NULL);
  check(rc == DLB_ERR_USAGE && strstr(dlb_error_message(), "body") != NULL, rank,
        "a NULL body is DLB_ERR_USAGE naming the body");
  dlb_session_free(&s);
}

static void typed(int rank) {
  dlb_session_params p = dlb_session_params_default();
  p.policy = "SS";
  p.prefetch = 0.5;
  p.options = "--quiet";
  dlb_session s = NULL;
  struct partial mine = {0.0, 0};
  int rc = dlb_session_create_params(MPI_COMM_WORLD, &p, &s);
  if (rc == DLB_OK) rc = dlb_parallel_for(s, N, cost, body, &mine);
  if (rc == DLB_OK) rc = dlb_session_finish(s);
  dlb_session_free(&s);
  check(rc == DLB_OK, rank, "a session of dlb_session_params (SS, prefetch 0.5)");
  double total = 0.0, expected = 0.0;
  MPI_Reduce(&mine.sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  for (int64_t i = 0; i < N; ++i) expected += value(i);
  check(rank != 0 || total == expected, rank, "the total with prefetch 0.5");
  p.prefetch = 0.0;
  p.path = DLB_PATH_ONE_SIDED;
  rc = dlb_session_create_params(MPI_COMM_WORLD, &p, &s);
  if (rc == DLB_OK) rc = reduce_checked(s, rank, "SS on the one-sided path");
  if (rc == DLB_OK) rc = dlb_session_finish(s);
  check(rc == DLB_OK, rank, "the reductions on the one-sided path (DLB_PATH_ONE_SIDED)");
  dlb_session_free(&s);
  p.path = DLB_PATH_AUTO;
  p.prefetch = 1.0;
  rc = dlb_session_create_params(MPI_COMM_WORLD, &p, &s);
  check(rc == DLB_ERR_USAGE && s == NULL && strstr(dlb_error_message(), "prefetch") != NULL, rank,
        "a prefetch of 1 is DLB_ERR_USAGE naming it");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int k = 1; k < argc; ++k) one_loop(argv[k], rank);
  errors(rank);
  typed(rank);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (all == 0) printf("dlb_c: rank %d: done\n", rank);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
