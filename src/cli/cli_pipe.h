/*
 * cli_pipe.h — a scenario's profiles written on worker threads while the
 * main thread runs the next calls or transactions (`--jobs N`).
 *
 * N is the threads in all: the main thread and N - 1 workers.  A
 * profile is immutable once built: the main thread hands it over with
 * cli_pipe_submit, a worker writes its files and destroys it.  At most
 * 2N profiles are in flight, so memory stays
 * bounded however long the scenario.  What a worker (or the main thread,
 * while the pipe is open) would print on stdout or stderr is held and
 * printed by the main thread in submission order, so the output is the
 * same whatever N: a job that fails stops the run as it would with N = 1,
 * and nothing that followed it is printed.  With N = 1 there are no
 * threads: each job runs on the main thread inside cli_pipe_submit.
 */
#ifndef SCP_CLI_PIPE_H
#define SCP_CLI_PIPE_H

#include "cli.h"

/* --jobs takes 1 to CLI_PIPE_MAX_JOBS; the default is the online CPUs,
 * at most CLI_PIPE_DEFAULT_MAX. */
#define CLI_PIPE_MAX_JOBS 64
#define CLI_PIPE_DEFAULT_MAX 8

/* argv[*i] is -j N, -jN, --jobs N or --jobs=N: cli_pipe_is_jobs(argv[*i]);
 * cli_pipe_jobs_option reads N (advancing *i past it) into *jobs and
 * returns 0, or the usage exit status after its one-line error. */
bool cli_pipe_is_jobs(const char *a);
int cli_pipe_jobs_option(int argc, char **argv, int *i, unsigned *jobs);

/* The online CPUs (sysconf), from 1 to CLI_PIPE_DEFAULT_MAX. */
unsigned cli_pipe_default_jobs(void);

/* One profile to write: p is destroyed and extra freed once written. */
typedef struct cli_pipe_item {
  scp_profile *p;
  char *name;            /* what its warnings name: the input, the call */
  char *dir, *shown;     /* where, and what messages call it */
  scp_buf extra;         /* text the chain writes beside it (result.txt) */
} cli_pipe_item;

/* Writes it; returns 0 or the exit status of the one-line error printed.
 * ctx is the one given to cli_pipe_open, read by several threads at once. */
typedef int (*cli_pipe_fn)(const cli_pipe_item *it, const void *ctx);

typedef struct cli_pipe cli_pipe;

/* A pipe of jobs - 1 workers writing with fn.  Returns 0 (*out set), or the
 * exit status of the error printed (*out NULL). */
int cli_pipe_open(cli_pipe **out, unsigned jobs, cli_pipe_fn fn, const void *ctx);

/* Hands p over (also on failure: p is then destroyed and *extra freed;
 * *extra is emptied either way), to be written into dir.  Returns 0, or
 * the exit status of the first job that failed (this one with N = 1, an
 * earlier one otherwise): the caller stops and calls cli_pipe_close. */
int cli_pipe_submit(cli_pipe *pp, scp_profile *p, const char *name, const char *dir, const char *shown,
                    scp_buf *extra);

/* Waits for every job, prints what was held, ends the workers and frees
 * the pipe (NULL: nothing).  Returns the first failed job's status, else
 * status (the main thread's own). */
int cli_pipe_close(cli_pipe *pp, int status);

/* (cli_util.c) What would go to stream 1 (stdout) or 2 (stderr), held
 * when this thread's output is being held: true when it was. */
bool cli_pipe_hold(int stream, const void *data, size_t len);

#endif
