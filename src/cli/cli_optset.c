/*
 * cli_optset.c — the options a command line gave (cli_optset.h).
 */
#include "cli_optset.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>

bool cli_optset_init(cli_optset *s, int argc) {
  s->n = 0;
  s->cap = argc > 0 ? (size_t)argc : 0;
  s->v = calloc(s->cap + 1, sizeof *s->v);
  return s->v != NULL;
}

void cli_optset_free(cli_optset *s) {
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

void cli_optset_note(cli_optset *s, const char *a) {
  if (a[0] == '-' && a[1] && s->n < s->cap) s->v[s->n++] = a;
}

/* a is name, or name=VALUE */
static bool is(const char *a, const char *name) {
  size_t n = strlen(name);
  return !strncmp(a, name, n) && (!a[n] || a[n] == '=');
}

static bool in(const char *a, const char *const *names) {
  for (size_t k = 0; names[k]; k++)
    if (is(a, names[k])) return true;
  return false;
}

const char *cli_optset_any(const cli_optset *s, const char *const *names) {
  for (size_t i = 0; i < s->n; i++)
    if (in(s->v[i], names)) return s->v[i];
  return NULL;
}

const char *cli_optset_other(const cli_optset *s, const char *const *names) {
  for (size_t i = 0; i < s->n; i++)
    if (!in(s->v[i], names)) return s->v[i];
  return NULL;
}

int cli_optset_outputs(const cli_optset *s, bool svg, bool report) {
  static const char *const svg_opts[] = {"--icicle", "--min-width", NULL}, *const top[] = {"--top", NULL};
  const char *x;
  if (!svg && (x = cli_optset_any(s, svg_opts)))
    return cli_die(SCP_ERR_USAGE, "%s shapes the flamegraphs, and --format asks for no svg", x);
  if (!report && cli_optset_any(s, top))
    return cli_die(SCP_ERR_USAGE, "--top: the rows of the report, and none is written (--format has no report) "
                   "or printed (-q, or a scenario: its summary)");
  return 0;
}
