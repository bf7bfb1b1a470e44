/*
 * cmd_check.c — `scprof check PROFILE [--max-cpu N --max-mem N --max-cu N
 * --max-fn NAME=N ...] [--allow-failure]`: the budget gate for CI.  Prints
 * one line per limit ("ok" / "OVER" / "MISSING") and exits 0 when every
 * limit holds, with the budget status (11) when one is exceeded, and with
 * the not-found status (4) when a named function is not in the profile.  A
 * limit is inclusive: a total equal to it passes.  A run that failed fails
 * the check with its own status (10 trap, 11 budget or compute units, 12
 * host error) unless --allow-failure.  PROFILE may be a scenario's or a
 * bench's output folder: every case is checked, each under a heading.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* The option that sets a limit: the metric it limits (by name, as in the
 * profile) and whether it names a function. */
typedef struct limit_option {
  const char *flag;
  const char *metric;
  bool per_function;
} limit_option;

static const limit_option limit_options[] = {
    {.flag = "--max-cpu", .metric = "CPU", .per_function = false},
    {.flag = "--max-mem", .metric = "Memory", .per_function = false},
    {.flag = "--max-fn", .metric = "CPU", .per_function = true},
    {.flag = "--max-fn-mem", .metric = "Memory", .per_function = true},
    {.flag = "--max-fee", .metric = "Fee", .per_function = false},
    {.flag = "--max-fn-fee", .metric = "Fee", .per_function = true},
    {.flag = "--max-cu", .metric = "CU", .per_function = false},          /* Solana programs */
    {.flag = "--max-fn-cu", .metric = "CU", .per_function = true},
};

/* A limit as given, resolved against the profile once it is loaded. */
typedef struct pending_limit {
  const limit_option *opt;
  const char *value;       /* the option's text, for messages */
  char *function;          /* NULL: whole run; else owned copy of NAME */
  uint64_t max;
} pending_limit;

/* Parses "N" or "NAME=N" (the last '=' splits, so names may hold '=').
 * Returns 0 or the usage status (error printed). */
static int parse_limit(const limit_option *opt, const char *value, pending_limit *out) {
  out->opt = opt;
  out->value = value;
  out->function = NULL;
  const char *num = value;
  if (opt->per_function) {
    const char *eq = strrchr(value, '=');
    if (!eq || eq == value)
      return cli_die(SCP_ERR_USAGE, "%s: '%s' is not NAME=LIMIT", opt->flag, value);
    out->function = strndup(value, (size_t)(eq - value));
    if (!out->function) return cli_die(SCP_ERR_NOMEM, "out of memory");
    num = eq + 1;
  }
  if (!cli_parse_u64(num, &out->max))
    return cli_die(SCP_ERR_USAGE, "%s: '%s' is not a non-negative integer", opt->flag, num);
  return 0;
}

/* Lines of b that start with `prefix`. */
static size_t count_lines(const scp_buf *b, const char *prefix) {
  size_t n = 0, plen = strlen(prefix);
  for (size_t i = 0; i < b->len; i++) {
    if ((i == 0 || b->data[i - 1] == '\n') && b->len - i >= plen && !memcmp(b->data + i, prefix, plen))
      n++;
  }
  return n;
}

/* One case's check: its lines on stdout (under a heading when the input is
 * a folder of cases), *rc the scp_out_check result.  Returns 0 or the exit
 * status of an error that stops the whole check. */
static int check_case(const cli_case *c, bool heading, const pending_limit *pending, size_t nlimits,
                      scp_check_opts *co, bool quiet, int *rc) {
  scp_profile *p = NULL;
  int status = cli_load_profile(c->path, &p);
  if (status) return status;
  scp_check_limit *limits = (scp_check_limit *)co->limits;
  for (size_t i = 0; i < nlimits && !status; i++) {
    int m = cli_find_metric(p, pending[i].opt->metric);
    if (m < 0)
      status = cli_die(SCP_ERR_ARG, "%s: no %s metric for %s", c->path, pending[i].opt->metric,
                       pending[i].opt->flag);
    limits[i] = (scp_check_limit){.function = pending[i].function, .metric = (unsigned)m, .max = pending[i].max};
  }
  scp_buf b = {0};
  if (heading) scp_buf_printf(&b, "== %02lu %s\n", c->number, c->label);
  if (!status) {
    *rc = scp_out_check(p, co, &b);
    bool run_failed = p->status != SCP_OK && !co->allow_failure;
    if (*rc == SCP_ERR_ARG || *rc == SCP_ERR_NOMEM || *rc == SCP_ERR_INTERNAL)
      status = cli_die(*rc, "%s: %s", c->path, scp_strerror(*rc));
    else if (!quiet)
      status = cli_write_stdout(&b);
    if (!status && !heading && run_failed)
      status = cli_die(*rc, "%s: the run failed: %s (--allow-failure checks its costs anyway)", c->path,
                       scp_out_status_text(p));
    else if (!status && !heading && *rc == SCP_ERR_BUDGET)
      status = cli_die(*rc, "%s: over budget (%zu of %zu limits exceeded)", c->path,
                       count_lines(&b, "OVER  "), nlimits);
    else if (!status && !heading && *rc == SCP_ERR_NOTFOUND)
      status = cli_die(*rc, "%s: a function named by --max-fn is not in the profile", c->path);
    if (run_failed) *rc = -p->status;   /* told apart from a limit over */
  }
  scp_buf_free(&b);
  scp_profile_destroy(p);
  return status;
}

/* A folder of cases: every case checked; the status is the first failed
 * run's, else over budget, else not found. */
static int check_folder(const char *path, const cli_cases *cases, const pending_limit *pending,
                        size_t nlimits, scp_check_opts *co, bool quiet) {
  int status = 0, failed_run = 0;
  size_t over = 0, failed = 0;
  const char *first = NULL;
  for (size_t k = 0; k < cases->n && !status; k++) {
    int rc = SCP_OK;
    status = check_case(&cases->v[k], true, pending, nlimits, co, quiet, &rc);
    if (status || rc == SCP_OK) continue;
    if (!first) first = cases->v[k].label;
    failed++;
    if (rc < 0 && !failed_run) failed_run = -rc;
    over += rc == SCP_ERR_BUDGET;
  }
  if (status || !failed) return status;
  int code = failed_run ? failed_run : over ? SCP_ERR_BUDGET : SCP_ERR_NOTFOUND;
  return cli_die(code, "%s: %zu of %zu cases failed their check (the first: %s)", path, failed, cases->n,
                 first);
}

int cmd_check(int argc, char **argv) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  const char *profile_path = NULL;
  pending_limit *pending = calloc((size_t)argc + 1, sizeof *pending);
  scp_check_limit *limits = calloc((size_t)argc + 1, sizeof *limits);
  size_t nlimits = 0;
  int status = 0;
  bool quiet = false, allow_failure = false;
  if (!pending || !limits) {
    status = cli_die(SCP_ERR_NOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < argc && !status; i++) {
    const char *a = argv[i], *eq = strchr(a, '=');
    const limit_option *opt = NULL;
    /* Both "--max-cpu N" and "--max-cpu=N". */
    size_t flag_len = a[0] == '-' && a[1] == '-' && eq ? (size_t)(eq - a) : strlen(a);
    for (size_t k = 0; k < SCP_ARRAY_LEN(limit_options); k++)
      if (strlen(limit_options[k].flag) == flag_len && !strncmp(a, limit_options[k].flag, flag_len))
        opt = &limit_options[k];
    if (opt) {
      const char *val = a[flag_len] == '=' ? a + flag_len + 1
                        : cli_option_value(argc, argv, &i, opt->per_function ? "NAME=LIMIT" : "a limit");
      status = val ? parse_limit(opt, val, &pending[nlimits]) : usage;
      if (!status) nlimits++;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      quiet = true;
    } else if (!strcmp(a, "--allow-failure")) {
      allow_failure = true;
    } else if (a[0] == '-' && a[1] != 0) {
      status = cli_die(SCP_ERR_USAGE, "unknown option %s (see scprof --help)", a);
    } else if (!profile_path) {
      profile_path = a;
    } else {
      status = cli_die(SCP_ERR_USAGE, "check takes one profile, not '%s' too", a);
    }
  }
  if (status) goto out;
  if (!profile_path) {
    status = cli_die(SCP_ERR_USAGE, "check needs PROFILE.json (see scprof --help)");
    goto out;
  }
  if (!nlimits) {
    status = cli_die(SCP_ERR_USAGE, "check needs a limit: --max-cpu N, --max-mem N, --max-cu N or --max-fn NAME=N");
    goto out;
  }
  cli_cases cases;
  status = cli_cases_load(profile_path, &cases);
  if (status) goto out;
  scp_check_opts co = {.limits = limits, .nlimits = nlimits, .allow_failure = allow_failure};
  if (cases.folder) {
    status = check_folder(profile_path, &cases, pending, nlimits, &co, quiet);
  } else {
    int rc = SCP_OK;
    status = check_case(&cases.v[0], false, pending, nlimits, &co, quiet, &rc);
  }
  cli_cases_free(&cases);
out:
  /* <= : a limit whose number did not parse has its name copied already */
  if (pending)
    for (size_t i = 0; i <= nlimits; i++) free(pending[i].function);
  free(pending);
  free(limits);
  return status;
}
