/*
 * cli_cases.c — what `diff` and `check` read: one profile (a report.json or
 * a profile folder), or a folder of several (a scenario's or a bench's
 * output: NN-LABEL/ folders, each with its report.json), and how two such
 * sets are paired, first by label and then by order.
 */
#include "cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* "NN-LABEL": the number before the dash (at least two digits, as the
 * runners write it), or 0 when the name is not one. */
static unsigned long case_number(const char *name, const char **label) {
  size_t n = strspn(name, "0123456789");
  if (n < 2 || n > 9 || name[n] != '-' || !name[n + 1]) return 0;
  *label = name + n + 1;
  return strtoul(name, NULL, 10);
}

static int by_number(const void *a, const void *b) {
  const cli_case *x = a, *y = b;
  return x->number < y->number ? -1 : x->number > y->number ? 1 : strcmp(x->label, y->label);
}

static int add_case(cli_cases *c, unsigned long number, const char *label, const char *path) {
  cli_case *v = realloc(c->v, (c->n + 1) * sizeof *v);
  if (!v) return cli_die(SCP_ERR_NOMEM, "out of memory");
  c->v = v;
  v[c->n] = (cli_case){.number = number, .label = strdup(label), .path = strdup(path)};
  if (!v[c->n].label || !v[c->n].path) {
    free(v[c->n].label);
    free(v[c->n].path);
    return cli_die(SCP_ERR_NOMEM, "out of memory");
  }
  c->n++;
  return 0;
}

/* The NN-LABEL folders of dir that hold a report.json, and at the top
 * level those a level down too (a bench's case that ran a scenario). */
static int scan_dir(const char *dir, const char *prefix, unsigned long parent, cli_cases *c) {
  bool nested = !prefix;
  DIR *d = opendir(dir);
  if (!d) return cli_die(SCP_ERR_IO, "%s: cannot open the folder", dir);
  const char *json = scp_out_format_file(SCP_FMT_JSON);
  int st = 0;
  for (struct dirent *e; !st && (e = readdir(d));) {
    const char *label;
    unsigned long number = case_number(e->d_name, &label);
    char sub[4096], report[4200], name[600];
    if (!number || snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub || !is_dir(sub))
      continue;
    snprintf(report, sizeof report, "%s/%s", sub, json);
    /* a nested case is its parent's number and LABEL/NN-NAME, in order */
    snprintf(name, sizeof name, "%s%s%.500s", prefix ? prefix : "", prefix ? "/" : "", prefix ? e->d_name : label);
    if (access(report, F_OK) == 0) st = add_case(c, prefix ? parent : number, name, sub);
    else if (nested) st = scan_dir(sub, name, number, c);
  }
  closedir(d);
  return st;
}

/* The cases of dir, in number order (nested ones in their folders' order). */
static int scan_folder(const char *dir, cli_cases *c) {
  const char *json = scp_out_format_file(SCP_FMT_JSON);
  int st = scan_dir(dir, NULL, 0, c);
  if (st) return st;
  if (!c->n)
    return cli_die(SCP_ERR_IO, "%s: no %s and no NN-LABEL/%s folders (a profile, scenario or bench "
                   "output folder)", dir, json, json);
  qsort(c->v, c->n, sizeof *c->v, by_number);
  return 0;
}

int cli_cases_load(const char *path, cli_cases *out) {
  *out = (cli_cases){0};
  char report[4200];
  snprintf(report, sizeof report, "%s/%s", path, scp_out_format_file(SCP_FMT_JSON));
  if (!is_dir(path) || access(report, F_OK) == 0) return add_case(out, 0, path, path);
  out->folder = true;
  int st = scan_folder(path, out);
  if (st) cli_cases_free(out);
  return st;
}

void cli_cases_free(cli_cases *c) {
  for (size_t i = 0; i < c->n; i++) {
    free(c->v[i].label);
    free(c->v[i].path);
  }
  free(c->v);
  *c = (cli_cases){0};
}

int cli_cases_pair(const cli_cases *a, const cli_cases *b, size_t *pair) {
  bool *used = calloc(a->n + 1, 1);
  if (!used) return cli_die(SCP_ERR_NOMEM, "out of memory");
  for (size_t j = 0; j < b->n; j++) {
    pair[j] = SIZE_MAX;
    for (size_t i = 0; i < a->n && pair[j] == SIZE_MAX; i++)
      if (!used[i] && !strcmp(a->v[i].label, b->v[j].label)) used[i] = true, pair[j] = i;
  }
  /* what has no namesake pairs with the next unpaired case, in order */
  size_t i = 0;
  for (size_t j = 0; j < b->n; j++) {
    if (pair[j] != SIZE_MAX) continue;
    while (i < a->n && used[i]) i++;
    if (i == a->n) break;
    used[i] = true;
    pair[j] = i;
  }
  free(used);
  return 0;
}
