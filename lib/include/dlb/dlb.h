/* dlb/dlb.h: the DLB library inside a C (or, through the Fortran module `dlb`, a Fortran) MPI
 * program: the C layer over dlb::mpi::session (dlb/mpi.hpp), for a loop whose iterations the
 * library hands out and balances while the program keeps its own data.
 *
 * The program owns MPI (MPI_Init before the first session, MPI_Finalize after the last). Every
 * rank of the communicator creates the session (collective); every rank computes, rank 0 of it
 * also the master (the option master-rank = dedicated, dlb_session_create_with: a master that
 * only balances). A loop is index-only: the library calls body(i, user) once for every iteration
 * 0..n-1, on whichever rank the policy gives it to, and moves no data; what the iterations compute
 * stays on the rank that computed it, to be combined by the program (an MPI_Reduce, say), or
 * returned by the library reduced in a fixed order (dlb_parallel_reduce).
 *
 * Every function returns DLB_OK or an error code, and no C++ exception crosses this header;
 * dlb_error_message() gives the text of the calling thread's last error. A session that failed
 * (DLB_ERR_RUN) is over: free it; a new one on the same communicator starts clean. Every wait is
 * bounded by the session's timeout (120 s unless the option "timeout" says otherwise).
 *
 *   dlb_session s;
 *   if (dlb_session_create(MPI_COMM_WORLD, "TSS", &s) != DLB_OK) { ... dlb_error_message() ... }
 *   dlb_parallel_for(s, n, cost, body, &mine);   // cost may be NULL
 *   dlb_session_finish(s);
 *   dlb_session_free(&s);
 *   MPI_Reduce(&mine.sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
 */
#ifndef DLB_DLB_H
#define DLB_DLB_H

#include <mpi.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
enum {
  DLB_OK = 0,
  DLB_ERR_USAGE = 1, /* a bad argument or parameter: the same on every rank */
  DLB_ERR_RUN = 2,   /* the run failed (a rank's body failed, a rank stopped answering, ...) */
  DLB_ERR_OTHER = 3  /* anything else (out of memory, ...) */
};

/* One session of the library on one communicator (opaque). */
typedef struct dlb_session_s* dlb_session;

/* The body of a loop: iteration i, with the program's pointer. Must not return across a
 * longjmp; a C++ body may throw (its message is then the run's error). */
typedef void (*dlb_body_fn)(int64_t i, void* user);
/* A body that can fail: 0 for done, any other value stops the loop on every rank, and the loop
 * returns DLB_ERR_RUN on every rank, the message naming the rank, the value and the iteration
 * (dlb_parallel_for_rc). */
typedef int (*dlb_body_rc_fn)(int64_t i, void* user);
/* What iteration i costs relative to the others (seconds of work, or any consistent unit);
 * NULL: every iteration the same. Used by the cost model and the load balancing only. */
typedef double (*dlb_cost_fn)(int64_t i, void* user);

/* Creates the session on `comm` (collective). `policy`: any policy name (GDDLB, AUTO-ALL, SS,
 * TSS, CSS:4, ...); NULL or "": the environment's DLB_POLICY, else the library's default. */
int dlb_session_create(MPI_Comm comm, const char* policy, dlb_session* session);

/* The same with further options of the library, as name/value pairs ("timeout", "30";
 * "quiet", NULL for a flag); `count` pairs in `names` and `values`. */
int dlb_session_create_with(MPI_Comm comm, const char* policy, int count, const char* const* names,
                            const char* const* values, dlb_session* session);

/* The same for Fortran: the communicator as Fortran's integer handle (converted only once MPI is
 * known to be initialized and not finalized: DLB_ERR_USAGE otherwise, as in C). */
int dlb_session_create_f(MPI_Fint comm, const char* policy, dlb_session* session);

/* The same for Fortran with options: `timeout_s` > 0 the session's timeout in seconds (0: the
 * default, 120 s), `prefetch` as dlb_session_params's, `options` the further options as a
 * command line's words ("--quiet --master-rank dedicated"; NULL or "": none). */
int dlb_session_create_with_f(MPI_Fint comm, const char* policy, double timeout_s, double prefetch,
                              const char* options, dlb_session* session);

/* The session's typed parameters: dlb_session_params_default(), then the fields to change. */
typedef struct dlb_session_params {
  /* As dlb_session_create's: a policy name; NULL or "": DLB_POLICY, else the default. */
  const char* policy;
  /* > 0: the session's timeout in seconds; 0: the default, 120 s. */
  double timeout_s;
  /* The self-scheduling rules: a worker asks for its next chunk when this fraction of its
   * current chunk is left, in [0, 1); 0 (the default): when its chunk is done. */
  double prefetch;
  /* Further options as a command line's words ("--quiet"); NULL or "": none. */
  const char* options;
  /* The path of the index-only self-scheduled loops (dlb::mpi::loop_path): DLB_PATH_AUTO (the
   * default), DLB_PATH_TWO_SIDED or DLB_PATH_ONE_SIDED. */
  int path;
} dlb_session_params;

/* dlb_session_params::path. */
enum { DLB_PATH_AUTO = 0, DLB_PATH_TWO_SIDED = 1, DLB_PATH_ONE_SIDED = 2 };

/* The defaults: no policy named, the default timeout, no prefetch, no further options. */
dlb_session_params dlb_session_params_default(void);

/* Creates the session on `comm` (collective) with these parameters (NULL: the defaults). */
int dlb_session_create_params(MPI_Comm comm, const dlb_session_params* params,
                              dlb_session* session);

/* One balanced loop of `iterations` iterations (collective over the session's communicator).
 * Before it runs, every rank checks that all the others run the same loop (its length, its
 * number in the session) within the session's timeout: DLB_ERR_USAGE on every rank naming what
 * differs and on which ranks. After dlb_session_finish: DLB_ERR_USAGE. */
int dlb_parallel_for(dlb_session session, int64_t iterations, dlb_cost_fn cost, dlb_body_fn body,
                     void* user);

/* The same with a body that returns an error code (dlb_body_rc_fn). */
int dlb_parallel_for_rc(dlb_session session, int64_t iterations, dlb_cost_fn cost,
                        dlb_body_rc_fn body, void* user);

/* The operation of dlb_parallel_reduce. */
enum { DLB_REDUCE_SUM = 0, DLB_REDUCE_MIN = 1, DLB_REDUCE_MAX = 2, DLB_REDUCE_USER = 3 };
/* Iteration i's value, and a user operation (combine(identity, x) == x). */
typedef double (*dlb_value_fn)(int64_t i, void* user);
typedef double (*dlb_combine_fn)(double a, double b, void* user);

/* An index-only loop (as dlb_parallel_for) whose body returns iteration i's value: the values
 * reduced by `op` in iteration order by fixed blocks, so that *result is bitwise the same under
 * every policy, every number of ranks and both paths; on every rank. `combine` and `identity`
 * for DLB_REDUCE_USER only (NULL and ignored otherwise). Ranks whose operations differ:
 * DLB_ERR_USAGE on every rank. */
int dlb_parallel_reduce(dlb_session session, int64_t iterations, dlb_cost_fn cost,
                        dlb_value_fn body, int op, dlb_combine_fn combine, double identity,
                        void* user, double* result);

/* dlb_session_create_with_f with the path too (dlb_session_params::path). */
int dlb_session_create_path_f(MPI_Fint comm, const char* policy, double timeout_s, double prefetch,
                              const char* options, int path, dlb_session* session);

/* This rank in the session's communicator, and whether it is the master (0 or 1). */
int dlb_session_rank(dlb_session session);
int dlb_session_is_master(dlb_session session);

/* The end of the library's part (collective); the communicator is the program's alone again. */
int dlb_session_finish(dlb_session session);

/* Frees the session (finishing it if the program did not; errors are then dropped) and sets
 * *session to NULL. NULL or an already freed session: nothing. */
void dlb_session_free(dlb_session* session);

/* The calling thread's last error, "" if none; valid until its next call into the library. */
const char* dlb_error_message(void);

#ifdef __cplusplus
}
#endif

#endif /* DLB_DLB_H */
