/*
 * cmd_bench.c — `scprof bench FILE.json [-o DIR] [--baseline B.json]
 * [--save-baseline B.json] [--max-increase PCT] [--matrix] [--network N]`:
 * runs every case of a bench file in this process, each a scenario file of
 * either chain run as `scprof profile --scenario` runs it (its outputs in
 * DIR/NN-LABEL/, under DIR/COLUMN/ with --matrix), and writes the costs as
 * a markdown table (stdout and DIR/bench.md) and DIR/bench.json.
 *
 *   {"max_increase": 2.5,
 *    "matrix": ["p-token", "token-2022"],
 *    "cases": [{"label": "transfer", "scenario": "transfer.json"},
 *              {"label": "bad_mint", "scenario": "bad.json",
 *               "expect": "fail", "error": "Custom(2)", "max_increase": 0},
 *              {"label": "xfer", "scenario": {"p-token": "p.json",
 *                                             "token-2022": "t22.json"}}]}
 *
 * Paths are relative to the bench file.  A case's scenario that writes one
 * profile is one row; one that writes several gives a row each, LABEL/NAME.
 * A failed run fails the bench (with its status) unless its case says
 * "expect": "fail" (and, with "error", the failure's line contains it);
 * with a baseline, a cost that grew by more than the case's
 * "max_increase" (else --max-increase, else the file's) fails it with 11.
 * Without --matrix a case's scenario object runs its first column only.
 */
#include "bench.h"
#include "solana/scp_sol_scenario.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct bench_cli {
  const char *file, *out_dir, *baseline, *save, *network, *formats;
  bool matrix, quiet, has_max;
  double max_increase;
} bench_cli;

static bool parse_pct(const char *s, double *v) {
  char *end;
  double d = strtod(s, &end);
  if (!*s || *end || !(d >= 0) || d > 1e6) return false;
  *v = d;
  return true;
}

static int parse_args(int argc, char **argv, bench_cli *c) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *val;
    const char **dest = !strcmp(a, "-o") || !strcmp(a, "--out") ? &c->out_dir
                        : !strcmp(a, "--baseline")             ? &c->baseline
                        : !strcmp(a, "--save-baseline")        ? &c->save
                        : !strcmp(a, "--network")              ? &c->network
                        : !strcmp(a, "-f") || !strcmp(a, "--format") ? &c->formats
                                                                : NULL;
    if (dest) {
      if (!(val = cli_option_value(argc, argv, &i, "a value"))) return usage;
      *dest = val;
    } else if (!strcmp(a, "--max-increase")) {
      if (!(val = cli_option_value(argc, argv, &i, "a percentage"))) return usage;
      if (!parse_pct(val, &c->max_increase))
        return cli_die(SCP_ERR_USAGE, "--max-increase: '%s' is not a percentage >= 0", val);
      c->has_max = true;
    } else if (!strcmp(a, "--matrix")) {
      c->matrix = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      c->quiet = true;
    } else if (a[0] == '-' && a[1]) {
      return cli_die(SCP_ERR_USAGE, "unknown option %s (see scprof --help)", a);
    } else if (c->file) {
      return cli_die(SCP_ERR_USAGE, "bench takes one file, not '%s' too", a);
    } else {
      c->file = a;
    }
  }
  if (!c->file) return cli_die(SCP_ERR_USAGE, "bench needs FILE.json (see scprof --help)");
  return 0;
}

/* ---- the bench file ---- */

static bool keys_ok(json_t *o, const char *const *keys, const char **bad) {
  const char *k;
  json_t *v;
  json_object_foreach(o, k, v) {
    bool known = false;
    for (const char *const *p = keys; *p; p++) known |= !strcmp(*p, k);
    if (!known) {
      *bad = k;
      return false;
    }
  }
  return true;
}

/* A label is a folder name: letters, digits and -_. only. */
static bool label_ok(const char *s) {
  if (!*s || strlen(s) > 100 || *s == '.') return false;
  return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.") == strlen(s);
}

static char *resolve(const char *base, const char *name) {
  const char *slash = strrchr(base, '/');
  char *p = NULL;
  if (name[0] == '/' || !slash) return strdup(name);
  return asprintf(&p, "%.*s/%s", (int)(slash - base), base, name) < 0 ? NULL : p;
}

static int read_case(bench *b, const bench_cli *c, size_t k, json_t *j) {
  static const char *const keys[] = {"label", "scenario", "expect", "error", "max_increase", NULL};
  bench_case *x = &b->cases[k];
  const char *bad, *f = c->file;
  if (!json_is_object(j)) return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu]: not an object", f, k);
  if (!keys_ok(j, keys, &bad))
    return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu]: unknown key \"%s\"", f, k, bad);
  const char *label = json_string_value(json_object_get(j, "label"));
  if (!label || !label_ok(label))
    return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu].label: a name of letters, digits, -, _ and . is needed", f, k);
  for (size_t i = 0; i < k; i++)
    if (!strcmp(b->cases[i].label, label))
      return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu].label: \"%s\" is cases[%zu]'s too", f, k, label, i);
  if (!(x->label = strdup(label))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  json_t *sc = json_object_get(j, "scenario");
  for (size_t col = 0; col < b->ncolumns; col++) {
    json_t *v = json_is_object(sc) ? json_object_get(sc, b->columns[col]) : sc;
    if (!json_is_string(v))
      return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu].scenario%s%s: a scenario file is needed", f, k,
                     json_is_object(sc) ? "." : "", json_is_object(sc) ? b->columns[col] : "");
    if (!(x->scenario[col] = resolve(f, json_string_value(v)))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  if (json_is_object(sc) && json_object_size(sc) != b->ncolumns && c->matrix)
    return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu].scenario: one file per column of \"matrix\"", f, k);
  json_t *ex = json_object_get(j, "expect"), *er = json_object_get(j, "error"), *mi = json_object_get(j, "max_increase");
  const char *e = json_string_value(ex);
  if (ex && (!e || (strcmp(e, "ok") && strcmp(e, "fail"))))
    return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu].expect: \"ok\" or \"fail\"", f, k);
  x->expect_fail = e && !strcmp(e, "fail");
  if (er && (!json_is_string(er) || !x->expect_fail))
    return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu].error: a string, with \"expect\": \"fail\"", f, k);
  if (er && !(x->expect_error = strdup(json_string_value(er)))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  if (mi && (!json_is_number(mi) || json_number_value(mi) < 0))
    return cli_die(SCP_ERR_MALFORMED, "%s: cases[%zu].max_increase: a percentage >= 0", f, k);
  x->has_max = mi != NULL;
  x->max_increase = mi ? json_number_value(mi) : 0;
  return 0;
}

static int read_columns(bench *b, const bench_cli *c, json_t *m) {
  b->ncolumns = 1;
  if (!(b->columns[0] = strdup(""))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  if (!m) return c->matrix ? cli_die(SCP_ERR_USAGE, "--matrix: %s has no \"matrix\"", c->file) : 0;
  size_t n = json_array_size(m);
  if (!json_is_array(m) || n < 1 || n > BENCH_MAX_COLUMNS)
    return cli_die(SCP_ERR_MALFORMED, "%s: matrix: an array of 1 to %d names", c->file, BENCH_MAX_COLUMNS);
  for (size_t i = 0; i < n; i++) {
    const char *s = json_string_value(json_array_get(m, i));
    if (!s || !label_ok(s)) return cli_die(SCP_ERR_MALFORMED, "%s: matrix[%zu]: a name like a label", c->file, i);
    for (size_t k = 0; k < i; k++)
      if (!strcmp(s, json_string_value(json_array_get(m, k))))
        return cli_die(SCP_ERR_MALFORMED, "%s: matrix[%zu]: \"%s\" twice", c->file, i, s);
  }
  /* without --matrix: the first column alone, as a bench of its own */
  free(b->columns[0]);
  b->columns[0] = NULL;
  b->ncolumns = c->matrix ? n : 1;
  for (size_t i = 0; i < b->ncolumns; i++)
    if (!(b->columns[i] = strdup(json_string_value(json_array_get(m, i)))))
      return cli_die(SCP_ERR_NOMEM, "out of memory");
  return 0;
}

static int read_bench(bench *b, const bench_cli *c) {
  static const char *const keys[] = {"cases", "matrix", "max_increase", NULL};
  uint8_t *text = NULL;
  size_t len = 0;
  scp_error err = {0};
  if (scp_read_file_max(c->file, SCP_MAX_SCENARIO_BYTES, "a bench file", &text, &len, &err))
    return cli_die(err.code, "%s", err.msg);
  json_error_t je;
  json_t *root = json_loadb((const char *)text, len, JSON_REJECT_DUPLICATES, &je);
  free(text);
  if (!root) return cli_die(SCP_ERR_MALFORMED, "%s:%d: %s", c->file, je.line, je.text);
  const char *bad;
  json_t *cases = json_object_get(root, "cases"), *mi = json_object_get(root, "max_increase");
  int st = 0;
  if (!json_is_object(root) || !keys_ok(root, keys, &bad))
    st = cli_die(SCP_ERR_MALFORMED, "%s: unknown key \"%s\" (cases, matrix, max_increase)", c->file,
                 json_is_object(root) ? bad : "(not an object)");
  else if (!json_is_array(cases) || !json_array_size(cases))
    st = cli_die(SCP_ERR_MALFORMED, "%s: cases: a non-empty array is needed", c->file);
  else if (mi && (!json_is_number(mi) || json_number_value(mi) < 0))
    st = cli_die(SCP_ERR_MALFORMED, "%s: max_increase: a percentage >= 0", c->file);
  if (!st) st = read_columns(b, c, json_object_get(root, "matrix"));
  b->has_max = c->has_max || mi;
  b->max_increase = c->has_max ? c->max_increase : mi ? json_number_value(mi) : 0;
  if (!st && !(b->cases = calloc(json_array_size(cases), sizeof *b->cases)))
    st = cli_die(SCP_ERR_NOMEM, "out of memory");
  for (size_t k = 0; !st && k < json_array_size(cases); k++) {
    b->ncases = k + 1;
    st = read_case(b, c, k, json_array_get(cases, k));
  }
  json_decref(root);
  return st;
}

/* ---- running the cases ---- */

/* Runs `scprof profile --scenario` on the case's file with stderr kept in
 * *log (a run that fails as expected says nothing).  Returns its status. */
static int run_profile(const bench_cli *c, const char *scenario, const char *dir, FILE *log) {
  const char *argv[12];
  int argc = 0;
  argv[argc++] = "--scenario";
  argv[argc++] = scenario;
  argv[argc++] = "-o";
  argv[argc++] = dir;
  argv[argc++] = "-q";
  argv[argc++] = "--format";
  argv[argc++] = c->formats ? c->formats : "json,folded,svg,report";
  if (c->network && !scp_sol_scenario_is(scenario)) {
    argv[argc++] = "--network";
    argv[argc++] = c->network;
  }
  argv[argc] = NULL;
  fflush(stderr);
  int saved = dup(2);
  if (saved < 0 || dup2(fileno(log), 2) < 0) {
    if (saved >= 0) close(saved);
    return cli_die(SCP_ERR_IO, "cannot keep the runs' messages");
  }
  int st = cmd_profile(argc, (char **)argv);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  return st;
}

static void replay(FILE *log) {
  char line[1024];
  fflush(log);
  rewind(log);
  while (fgets(line, sizeof line, log)) fputs(line, stderr);
}

static bench_row *row_for(bench *b, size_t k, const char *label) {
  for (size_t r = 0; r < b->nrows; r++)
    if (b->rows[r].kase == k && !strcmp(b->rows[r].label, label)) return &b->rows[r];
  bench_row *v = realloc(b->rows, (b->nrows + 1) * sizeof *v);
  if (!v) return NULL;
  b->rows = v;
  memset(&v[b->nrows], 0, sizeof *v);
  v[b->nrows].kase = k;
  if (!(v[b->nrows].label = strdup(label))) return NULL;
  return &v[b->nrows++];
}

/* The profiles the case's run wrote into dir, as cells of column col. */
static int collect(bench *b, size_t k, size_t col, const char *dir) {
  cli_cases cs;
  int st = cli_cases_load(dir, &cs);
  for (size_t i = 0; !st && i < cs.n; i++) {
    char label[400];
    if (cs.n == 1) snprintf(label, sizeof label, "%s", b->cases[k].label);
    else snprintf(label, sizeof label, "%s/%02lu-%s", b->cases[k].label, cs.v[i].number, cs.v[i].label);
    bench_row *r = row_for(b, k, label);
    if (!r) st = cli_die(SCP_ERR_NOMEM, "out of memory");
    scp_profile *p = NULL;
    if (!st) st = cli_load_profile(cs.v[i].path, &p);
    if (st) break;
    bench_cell *x = &r->cell[col];
    int mem = cli_find_metric(p, "Memory"), fee = cli_find_metric(p, "Fee");
    x->present = true;
    snprintf(x->metric, sizeof x->metric, "%s", p->metrics[0].name);
    x->cost = scp_profile_total(p, 0);
    x->has_mem = mem > 0;
    x->mem = mem > 0 ? scp_profile_total(p, (unsigned)mem) : 0;
    x->has_fee = fee > 0;
    x->fee = fee > 0 ? scp_profile_total(p, (unsigned)fee) : 0;
    x->status = p->status;
    x->status_text = scp_out_status_text(p);
    x->error = strdup(p->status == SCP_OK ? "" : scp_prof_str(p, p->status_msg));
    scp_profile_destroy(p);
    if (!x->error) st = cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  cli_cases_free(&cs);
  return st;
}

static bool run_failure(int st) {
  return st == scp_exit_status(SCP_ERR_TRAP) || st == scp_exit_status(SCP_ERR_BUDGET) ||
         st == scp_exit_status(SCP_ERR_HOST);
}

/* Into top, the temporary folder of the bench's output folder. */
static int run_case(bench *b, const bench_cli *c, const char *top, size_t k, size_t col) {
  char dir[4400];
  const bench_case *x = &b->cases[k];
  if (b->ncolumns > 1) snprintf(dir, sizeof dir, "%s/%s/%02zu-%s", top, b->columns[col], k + 1, x->label);
  else snprintf(dir, sizeof dir, "%s/%02zu-%s", top, k + 1, x->label);
  FILE *log = tmpfile();
  if (!log) return cli_die(SCP_ERR_IO, "cannot keep the runs' messages");
  int st = run_profile(c, x->scenario[col], dir, log);
  /* A failed run wrote its profiles, which say how it failed: the table
   * and the verdict tell it.  Anything else (a bad scenario, a missing
   * file) stops the bench with the runner's own one line. */
  int cst = st && !run_failure(st) ? st : collect(b, k, col, dir);
  /* a run failed that wrote no profile (a set-up call or instruction):
   * nothing in the table would show it, so it stops the bench */
  bool shown = false;
  for (size_t r = 0; r < b->nrows; r++)
    shown |= b->rows[r].kase == k && b->rows[r].cell[col].present && b->rows[r].cell[col].status != SCP_OK;
  if (!cst && st && !shown) cst = st;
  if (st && (cst == st)) replay(log);
  fclose(log);
  return cst;
}

static void bench_free(bench *b) {
  for (size_t k = 0; k < b->ncases; k++) {
    free(b->cases[k].label);
    free(b->cases[k].expect_error);
    for (size_t col = 0; col < BENCH_MAX_COLUMNS; col++) free(b->cases[k].scenario[col]);
  }
  for (size_t r = 0; r < b->nrows; r++) {
    free(b->rows[r].label);
    for (size_t col = 0; col < BENCH_MAX_COLUMNS; col++) free(b->rows[r].cell[col].error);
  }
  for (size_t col = 0; col < BENCH_MAX_COLUMNS; col++) free(b->columns[col]);
  free(b->cases);
  free(b->rows);
}

static int write_outputs(bench *b, const bench_cli *c, cli_outdir *od) {
  scp_buf md = {0}, js = {0};
  bench_table(b, c->baseline != NULL, &md);
  bench_json(b, &js);
  int st = md.oom || js.oom ? cli_die(SCP_ERR_NOMEM, "out of memory") : 0;
  if (!st) st = cli_write_file_as(od->tmp, od->final, "bench.md", &md);
  if (!st) st = cli_write_file_as(od->tmp, od->final, "bench.json", &js);
  /* the folder goes in whole, or the old one stays as it was */
  if (!st) st = cli_outdir_commit(od);
  if (!st && c->save) st = cli_write_file(NULL, c->save, &js);
  if (!st && !c->quiet) st = cli_write_stdout(&md);
  scp_buf_free(&md);
  scp_buf_free(&js);
  return st;
}

/* --network prices the Soroban calls and is not passed to a Solana
 * scenario: a bench of Solana scenarios alone would take it and change
 * nothing. */
static int network_used(const bench *b, const bench_cli *c) {
  if (!c->network) return 0;
  for (size_t k = 0; k < b->ncases; k++)
    for (size_t col = 0; col < b->ncolumns; col++)
      if (b->cases[k].scenario[col] && !scp_sol_scenario_is(b->cases[k].scenario[col])) return 0;
  return cli_die(SCP_ERR_USAGE, "--network: every case of %s is a Solana scenario, and the network prices "
                 "Soroban calls (docs/fees.md)", c->file);
}

int cmd_bench(int argc, char **argv) {
  bench_cli c = {.out_dir = "scprof-bench"};
  bench b = {0};
  cli_outdir od = {0};
  int st = parse_args(argc, argv, &c);
  if (!st) st = read_bench(&b, &c);
  if (!st) st = network_used(&b, &c);
  if (!st) st = cli_outdir_begin(&od, c.out_dir);
  for (size_t col = 0; !st && col < b.ncolumns; col++)
    for (size_t k = 0; !st && k < b.ncases; k++) st = run_case(&b, &c, od.tmp, k, col);
  if (!st && c.baseline) st = bench_baseline(&b, c.baseline);
  int verdict = SCP_OK;
  if (!st) verdict = bench_judge(&b);
  if (!st) st = write_outputs(&b, &c, &od);
  cli_outdir_abort(&od);
  if (!st && verdict != SCP_OK) {
    size_t bad = 0;
    for (size_t r = 0; r < b.nrows; r++)
      for (size_t col = 0; col < b.ncolumns; col++) bad += b.rows[r].cell[col].verdict != NULL;
    st = cli_die(verdict, "%s: %zu of %zu results failed the bench (%s)", c.file, bad, b.nrows * b.ncolumns,
                 verdict == SCP_ERR_BUDGET ? "a cost grew past its limit"
                 : verdict == SCP_ERR_NOTFOUND ? "an expected failure did not happen"
                                               : "a run failed");
  }
  bench_free(&b);
  return st;
}
