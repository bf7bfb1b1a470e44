/*
 * cli_util.c — helpers every scprof subcommand uses (see cli.h).
 */
#include "cli.h"
#include "cli_pipe.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* "scprof: PREFIX" then the message, under the text rule of everything
 * scprof writes (scp_buf_put_safe): a name from a hostile module cannot
 * send control characters to the terminal. */
static void put_line(const char *prefix, const char *fmt, va_list ap) {
  char *msg = NULL;
  int n = vasprintf(&msg, fmt, ap);
  scp_buf b = {0};
  scp_buf_puts(&b, "scprof: ");
  scp_buf_puts(&b, prefix);
  if (n >= 0) scp_buf_put_safe(&b, msg, (size_t)n);
  else scp_buf_puts(&b, fmt);
  scp_buf_putc(&b, '\n');
  if (!b.oom && !cli_pipe_hold(2, b.data, b.len)) fwrite(b.data, 1, b.len, stderr);
  scp_buf_free(&b);
  free(msg);
}

int cli_die(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  put_line("", fmt, ap);
  va_end(ap);
  return scp_exit_status(status);
}

void cli_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  put_line("warning: ", fmt, ap);
  va_end(ap);
}

bool cli_parse_u64(const char *s, uint64_t *v) {
  uint64_t x = 0;
  bool digit = false;
  for (; *s; s++) {
    if ((*s == ',' || *s == '_') && digit) continue;
    if (!isdigit((unsigned char)*s)) return false;
    unsigned d = (unsigned)(*s - '0');
    if (x > (UINT64_MAX - d) / 10) return false;  /* would overflow */
    x = x * 10 + d;
    digit = true;
  }
  if (!digit) return false;
  *v = x;
  return true;
}

void cli_warn_truncated(const scp_profile *p, const char *shown) {
  for (size_t i = 0; i < p->nmeta; i++)
    if (!strcmp(scp_prof_str(p, p->meta[i].key), "call tree"))
      cli_warn("%s: %s", shown, scp_prof_str(p, p->meta[i].value));
}

int cli_shape_option(int argc, char **argv, int *i, scp_tree_opts *shape) {
  const char *a = argv[*i];
  if (!strcmp(a, "--fold-recursion")) {
    shape->fold_recursion = true;
    return 0;
  }
  const char *val = cli_option_value(argc, argv, i, "a number of nodes");
  if (!val) return scp_exit_status(SCP_ERR_USAGE);
  if (!cli_parse_u64(val, &shape->max_nodes) || shape->max_nodes == UINT64_MAX)
    return cli_die(SCP_ERR_USAGE, "%s: '%s' is not a number of nodes", a, val);
  if (!shape->max_nodes)
    return cli_die(SCP_ERR_USAGE, "%s: 0 is not a budget (give a positive number)", a);
  return 0;
}

bool cli_parse_min_width(const char *s, double *pct) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !(v >= 0 && v <= 100)) return false;
  *pct = v == 0 ? -1 : v;
  return true;
}

const char *cli_option_value(int argc, char **argv, int *i, const char *what) {
  if (*i + 1 >= argc || !argv[*i + 1][0]) {
    cli_die(SCP_ERR_USAGE, "%s needs %s", argv[*i], what);
    return NULL;
  }
  return argv[++*i];
}

int cli_find_metric(const scp_profile *p, const char *name) {
  size_t len = strlen(name);
  if (len == 0) return -1;
  for (unsigned m = 0; m < p->nmetrics; m++) {
    const char *mn = p->metrics[m].name ? p->metrics[m].name : "";
    if (strncasecmp(mn, name, len) == 0) return (int)m;
  }
  uint64_t idx;
  if (cli_parse_u64(name, &idx) && idx < p->nmetrics) return (int)idx;
  return -1;
}

int cli_make_dir(const char *dir) { return cli_make_dir_as(dir, dir); }

int cli_make_dir_as(const char *path_in, const char *dir) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s", path_in) >= (int)sizeof path)
    return cli_die(SCP_ERR_IO, "%s: folder name too long", dir);
  /* The folder itself first: a scenario's call folder goes into a folder
   * that exists, in one system call.  Only when its parent is missing
   * is each ancestor created in turn; existing ones are fine, and a
   * non-folder in the way is reported by the final stat. */
  int made = mkdir(path, 0777);
  if (made != 0 && errno == ENOENT) {
    for (char *s = path + 1; *s; s++) {
      if (*s != '/') continue;
      *s = 0;
      mkdir(path, 0777);
      *s = '/';
    }
    made = mkdir(path, 0777);
  }
  if (made == 0) return 0;
  if (errno != EEXIST)
    return cli_die(SCP_ERR_IO, "%s: cannot create folder: %s", dir, strerror(errno));
  struct stat st;
  if (stat(path, &st) != 0)
    return cli_die(SCP_ERR_IO, "%s: cannot create folder: %s", dir, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return cli_die(SCP_ERR_IO, "%s: cannot create folder: a file of that name exists", dir);
  return 0;
}

/* A file being written.  Into a folder of the user's (cli_write_file) it
 * is written beside its target (PATH.tmpPID) and renamed over it at the
 * end, so a reader (or a CI job after a full disk) never sees half a file
 * under the real name.  Into a folder being staged (cli_outdir: the
 * _as writers and cli_write_format) nobody looks before the folder goes in
 * whole, so the file is written under its own name: a rename per file
 * would buy nothing there.  said: the name messages give; at: where the
 * bytes go (path or tmp). */
typedef struct out_file {
  char path[4096], tmp[4200], said[4096];
  const char *at;
} out_file;

static int out_file_name(out_file *o, const char *dir, const char *shown, const char *name,
                         bool staged) {
  int n = dir ? snprintf(o->path, sizeof o->path, "%s/%s", dir, name)
              : snprintf(o->path, sizeof o->path, "%s", name);
  if (n < 0 || n >= (int)sizeof o->path) return cli_die(SCP_ERR_IO, "%s: file name too long", name);
  if (shown) snprintf(o->said, sizeof o->said, "%s/%s", shown, name);
  else snprintf(o->said, sizeof o->said, "%s", name);
  o->at = o->path;
  if (!staged) {
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp%ld", o->path, (long)getpid());
    o->at = o->tmp;
  }
  return 0;
}

/* Ends the write of a closed file: when rc (the writing's status) is
 * SCP_OK, a file of the user's folder is renamed into place; else, or
 * when that fails, the file is removed and one line names it and the
 * reason (err_no: the errno of a write error). */
static int out_file_finish(out_file *o, int rc, int err_no) {
  if (rc == SCP_OK && o->at != o->path && rename(o->at, o->path) != 0) {
    rc = SCP_ERR_IO;
    err_no = errno;
  }
  if (rc == SCP_OK) return 0;
  unlink(o->at);
  if (rc == SCP_ERR_IO) return cli_die(rc, "%s: cannot write: %s", o->said, strerror(err_no));
  return cli_die(rc, "%s: %s", o->said, scp_strerror(rc));
}

/* b in one write(2) per chunk the system takes, no stdio between */
static int write_buffer(const char *dir, const char *shown, const char *name, const scp_buf *b,
                        bool staged) {
  out_file o;
  int status = out_file_name(&o, dir, shown, name, staged);
  if (status) return status;
  if (b->oom) return cli_die(SCP_ERR_NOMEM, "%s: out of memory", o.said);
  int fd = open(o.at, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) return cli_die(SCP_ERR_IO, "%s: cannot write: %s", o.said, strerror(errno));
  int rc = b->io_err ? SCP_ERR_IO : SCP_OK, err_no = EIO;
  if (rc == SCP_OK && !scp_write_all(fd, b->data, b->len)) {
    rc = SCP_ERR_IO;
    err_no = errno;
  }
  if (close(fd) != 0 && rc == SCP_OK) {
    rc = SCP_ERR_IO;
    err_no = errno;
  }
  return out_file_finish(&o, rc, err_no);
}

int cli_write_file(const char *dir, const char *name, const scp_buf *b) {
  return write_buffer(dir, dir, name, b, false);
}

int cli_write_file_as(const char *dir, const char *shown, const char *name, const scp_buf *b) {
  return write_buffer(dir, shown, name, b, true);
}

int cli_write_format(const char *dir, const char *shown, const char *name, const scp_profile *p,
                     const scp_out_format *of, const scp_out_opts *opts) {
  out_file o;
  int status = out_file_name(&o, dir, shown, name, true);
  if (status) return status;
  FILE *f = fopen(o.at, "wb");
  if (!f) return cli_die(SCP_ERR_IO, "%s: cannot write: %s", o.said, strerror(errno));
  /* the writer's output goes to the file a chunk at a time */
  scp_buf b = {.sink = f};
  int rc = of->write(p, opts, &b);
  if (rc == SCP_OK) rc = scp_buf_flush(&b);
  int err_no = b.sink_errno;
  scp_buf_free(&b);
  if (fclose(f) != 0 && rc == SCP_OK) {
    rc = SCP_ERR_IO;
    err_no = errno;
  }
  return out_file_finish(&o, rc, err_no);
}

int cli_write_stdout(const scp_buf *b) {
  /* a scenario's worker: printed in order by the main thread */
  if (!b->oom && cli_pipe_hold(1, b->data, b->len)) return 0;
  int rc = scp_buf_write(b, stdout);
  if (rc == SCP_OK && fflush(stdout) != 0) rc = SCP_ERR_IO;
  if (rc != SCP_OK) return cli_die(rc, "stdout: %s", rc == SCP_ERR_IO ? "write error" : scp_strerror(rc));
  return 0;
}

int cli_load_profile(const char *path, scp_profile **out) {
  *out = NULL;
  char joined[4096];
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    /* A profile folder: its JSON report holds the whole tree. */
    const char *json = scp_out_format_file(SCP_FMT_JSON);
    if (snprintf(joined, sizeof joined, "%s/%s", path, json) >= (int)sizeof joined)
      return cli_die(SCP_ERR_IO, "%s: folder name too long", path);
    if (access(joined, F_OK) != 0)
      return cli_die(SCP_ERR_IO, "%s: folder has no %s (write one with scprof profile --format json)",
                     path, json);
    path = joined;
  }
  uint8_t *text = NULL;
  size_t len = 0;
  scp_error err = {0};
  if (scp_read_file_max(path, SCP_MAX_PROFILE_BYTES, "a profile", &text, &len, &err) != SCP_OK)
    return cli_die(err.code, "%s", err.msg);
  int rc = scp_out_json_load((const char *)text, len, path, out, &err);
  free(text);
  if (rc != SCP_OK) return cli_die(rc, "%s", err.msg);
  return 0;
}

static double cpu_seconds(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_start(cli_progress *pg, const char *fmt, ...) {
  pg->on = isatty(STDERR_FILENO) == 1;
  pg->cpu_start = cpu_seconds();
  if (!pg->on) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("scprof: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs(" ...\n", stderr);
  va_end(ap);
}

void cli_progress_done(cli_progress *pg, const char *fmt, ...) {
  if (!pg->on) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("scprof: ", stderr);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (%.2f s CPU)\n", cpu_seconds() - pg->cpu_start);
  va_end(ap);
}

bool cli_parse_stroops(const char *t, int64_t *out) {
  uint64_t v;
  if (!cli_parse_u64(t, &v) || v > INT64_MAX) return false;
  *out = (int64_t)v;
  return true;
}
