/*
 * cli_pipe.c — a scenario's profiles written on worker threads (see
 * cli_pipe.h).
 *
 * N jobs are N threads in all: the main thread,
 * which runs the calls and builds the profiles, and N - 1 writers.  More
 * busy threads than CPUs lose: on 2 CPUs, 1,000 ATA create+close
 * transactions took 1.56 s with the main thread and two writers and
 * 1.13 s with one writer (both threads stay busy, nothing is switched
 * out).
 *
 * Jobs have sequence numbers in submission order; job k lives in
 * ring[k % cap] from its submission until the main thread has printed
 * what it held.  Workers take jobs in order; only the main thread prints,
 * and only the oldest job once it is done, so the output is in order.  A
 * job's held text is the main thread's messages since the job before it
 * (pre) and then its own (out): with N = 1 they would have come out in
 * that order too.  Once a job has failed, later jobs are not written
 * (their files would go to a folder that is thrown away) and nothing
 * after it is printed.
 *
 * What a worker runs shares nothing that changes: the profile is its
 * own, the options are read-only, and the writers (src/output) and what
 * they call (src/util) keep no mutable static state (every static there
 * is const; no strtok, localtime or setlocale; sorts are qsort_r with
 * their context; each pprof file has its own zlib stream).  Files go to
 * distinct paths; strerror keeps its buffer per thread (glibc 2.32 on).
 */
#include "cli_pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

typedef struct job {
  cli_pipe_item it;
  scp_buf pre, out;     /* held output: records of stream, length, bytes */
  int status;
  int state;            /* JOB_*, under the pipe's lock */
} job;

struct cli_pipe {
  cli_pipe_fn fn;
  const void *ctx;
  unsigned nthreads;
  pthread_t threads[CLI_PIPE_MAX_JOBS];
  pthread_mutex_t lock;
  pthread_cond_t work, done;
  job **ring;
  size_t cap;
  uint64_t submitted, taken, printed;   /* taken: by workers; printed: main only */
  uint64_t failed_at;                   /* the first job known to have failed */
  bool closing;
  int fail;                             /* printed a failed job: its status */
  scp_buf main_held;                    /* the main thread's, since the last job */
};

/* Where this thread's output goes instead of stdout and stderr (NULL: there). */
static _Thread_local scp_buf *held;

bool cli_pipe_hold(int stream, const void *data, size_t len) {
  if (!held) return false;
  uint8_t s = (uint8_t)stream;
  scp_buf_put(held, &s, 1);
  scp_buf_put(held, &len, sizeof len);
  scp_buf_put(held, data, len);
  return true;
}

bool cli_pipe_is_jobs(const char *a) {
  return !strncmp(a, "-j", 2) || !strcmp(a, "--jobs") || !strncmp(a, "--jobs=", 7);
}

int cli_pipe_jobs_option(int argc, char **argv, int *i, unsigned *jobs) {
  const char *a = argv[*i], *val;
  /* -jN and --jobs=N as make takes them, besides -j N and --jobs N */
  if (a[1] == 'j' && a[2]) val = a + 2;
  else if (!strncmp(a, "--jobs=", 7)) val = a + 7;
  else if (!(val = cli_option_value(argc, argv, i, "a number of threads"))) return scp_exit_status(SCP_ERR_USAGE);
  uint64_t n = 0;
  if (!cli_parse_u64(val, &n) || n < 1 || n > CLI_PIPE_MAX_JOBS)
    return cli_die(SCP_ERR_USAGE, "--jobs: '%s' is not a number of threads from 1 to %d", val, CLI_PIPE_MAX_JOBS);
  *jobs = (unsigned)n;
  return 0;
}

unsigned cli_pipe_default_jobs(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > CLI_PIPE_DEFAULT_MAX ? CLI_PIPE_DEFAULT_MAX : (unsigned)n;
}

/* The job's files, on whichever thread runs it. */
static int run_job(const cli_pipe *pp, job *j) {
  return pp->fn(&j->it, pp->ctx);
}

static void job_free(job *j) {
  if (!j) return;
  scp_profile_destroy(j->it.p);
  scp_buf_free(&j->it.extra);
  free(j->it.name);
  free(j->it.dir);
  free(j->it.shown);
  scp_buf_free(&j->pre);
  scp_buf_free(&j->out);
  free(j);
}

static void *worker(void *arg) {
  cli_pipe *pp = arg;
  pthread_mutex_lock(&pp->lock);
  for (;;) {
    while (pp->taken == pp->submitted && !pp->closing) pthread_cond_wait(&pp->work, &pp->lock);
    if (pp->taken == pp->submitted) break;
    uint64_t k = pp->taken++;
    job *j = pp->ring[k % pp->cap];
    j->state = JOB_RUNNING;
    bool skip = k > pp->failed_at;
    pthread_mutex_unlock(&pp->lock);
    int status = 0;
    if (!skip) {
      held = &j->out;
      status = run_job(pp, j);
      held = NULL;
    }
    /* the profile's memory goes back now, not when the job is printed */
    scp_profile_destroy(j->it.p);
    j->it.p = NULL;
    pthread_mutex_lock(&pp->lock);
    j->status = status;
    j->state = JOB_DONE;
    if (status && k < pp->failed_at) pp->failed_at = k;
    pthread_cond_broadcast(&pp->done);
  }
  pthread_mutex_unlock(&pp->lock);
  return NULL;
}

/* Prints held records to the real streams (on the main thread, holding
 * off); a stdout that fails is the error cli_write_stdout gives.  Returns
 * 0 or that exit status. */
static int print_held(const scp_buf *b) {
  if (b->oom) return cli_die(SCP_ERR_NOMEM, "out of memory");
  for (size_t at = 0; at < b->len;) {
    uint8_t s = (uint8_t)b->data[at];
    size_t len;
    memcpy(&len, b->data + at + 1, sizeof len);
    at += 1 + sizeof len;
    if (s == 1) {
      scp_buf one = {.data = b->data + at, .len = len, .cap = len};
      int status = cli_write_stdout(&one);
      if (status) return status;
    } else {
      fwrite(b->data + at, 1, len, stderr);
    }
    at += len;
  }
  return 0;
}

/* The oldest job, done: its held output printed unless a job failed
 * before it, then freed. */
static void print_job(cli_pipe *pp, job *j) {
  scp_buf *saved = held;
  held = NULL;
  if (!pp->fail) pp->fail = print_held(&j->pre);
  if (!pp->fail) pp->fail = print_held(&j->out);
  if (!pp->fail) pp->fail = j->status;
  held = saved;
  job_free(j);
  pp->ring[pp->printed++ % pp->cap] = NULL;
}

/* Prints the jobs that are done, in order, waiting for the oldest while
 * `until` or more are not printed (the ring's size: room for one more;
 * 1: until every job is printed). */
static void print_done(cli_pipe *pp, uint64_t until) {
  while (pp->printed < pp->submitted) {
    job *j = pp->ring[pp->printed % pp->cap];
    pthread_mutex_lock(&pp->lock);
    while (j->state != JOB_DONE && pp->submitted - pp->printed >= until) pthread_cond_wait(&pp->done, &pp->lock);
    bool ready = j->state == JOB_DONE;
    pthread_mutex_unlock(&pp->lock);
    if (!ready) return;
    print_job(pp, j);
  }
}

int cli_pipe_open(cli_pipe **out, unsigned jobs, cli_pipe_fn fn, const void *ctx) {
  cli_pipe *pp = calloc(1, sizeof *pp);
  *out = NULL;
  if (!pp) return cli_die(SCP_ERR_NOMEM, "out of memory");
  pp->fn = fn;
  pp->ctx = ctx;
  pp->failed_at = UINT64_MAX;
  *out = pp;
  if (jobs <= 1) return 0;
  pp->cap = 2 * (size_t)jobs;
  if (!(pp->ring = calloc(pp->cap, sizeof *pp->ring))) {
    free(pp);
    *out = NULL;
    return cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  pthread_mutex_init(&pp->lock, NULL);
  pthread_cond_init(&pp->work, NULL);
  pthread_cond_init(&pp->done, NULL);
  /* fewer threads than asked (a limit on them) still writes the same files */
  while (pp->nthreads < jobs - 1 && !pthread_create(&pp->threads[pp->nthreads], NULL, worker, pp)) pp->nthreads++;
  if (pp->nthreads) held = &pp->main_held;
  return 0;
}

int cli_pipe_submit(cli_pipe *pp, scp_profile *p, const char *name, const char *dir, const char *shown,
                    scp_buf *extra) {
  job *j = calloc(1, sizeof *j);
  if (j) {
    j->it = (cli_pipe_item){.p = p, .name = strdup(name), .dir = strdup(dir), .shown = strdup(shown), .extra = *extra};
    p = NULL;
    memset(extra, 0, sizeof *extra);
  }
  if (!j || !j->it.name || !j->it.dir || !j->it.shown) {
    job_free(j);
    scp_profile_destroy(p);
    scp_buf_free(extra);
    return cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  if (!pp->nthreads) {
    int status = run_job(pp, j);
    job_free(j);
    return status;
  }
  print_done(pp, pp->cap);   /* room for one more */
  if (pp->fail) {
    job_free(j);
    return pp->fail;
  }
  j->pre = pp->main_held;
  memset(&pp->main_held, 0, sizeof pp->main_held);
  pthread_mutex_lock(&pp->lock);
  pp->ring[pp->submitted++ % pp->cap] = j;
  pthread_cond_signal(&pp->work);
  pthread_mutex_unlock(&pp->lock);
  return 0;
}

int cli_pipe_close(cli_pipe *pp, int status) {
  if (!pp) return status;
  if (pp->nthreads) {
    pthread_mutex_lock(&pp->lock);
    pp->closing = true;
    pthread_cond_broadcast(&pp->work);
    pthread_mutex_unlock(&pp->lock);
    print_done(pp, 1);
    for (unsigned t = 0; t < pp->nthreads; t++) pthread_join(pp->threads[t], NULL);
    held = NULL;
    /* the main thread's last words, unless a job failed before them */
    if (!pp->fail) pp->fail = print_held(&pp->main_held);
    status = pp->fail ? pp->fail : status;
    scp_buf_free(&pp->main_held);
    pthread_cond_destroy(&pp->work);
    pthread_cond_destroy(&pp->done);
    pthread_mutex_destroy(&pp->lock);
  }
  free(pp->ring);
  free(pp);
  return status;
}
