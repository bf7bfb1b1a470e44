/*
 * size_mark.c — the size tree next to execution profiles of the same
 * file (scp_size_mark): which code never ran in them.  A function ran
 * when some profile has a guest node of its name that was called; a line
 * of code ran when some profile booked cost that ran on it (less what was
 * charged ahead) in a frame of the same name.  Both trees come from the
 * same symbol mapper over the same bytes, so frame names and (file, line)
 * of the same code agree.
 */
#include "size/size_private.h"

#include <stdio.h>
#include <string.h>

/* "name\x01file\x01line" into buf; its length. */
static size_t line_key(char *buf, size_t size, const char *name, const char *file, uint32_t line) {
  int n = snprintf(buf, size, "%s%c%s%c%u", name, 1, file, 1, line);
  return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

static bool is_code(const scp_profile *p, uint32_t node) {
  uint8_t k = p->frames[p->nodes[node].frame].kind;
  return k == SCP_KIND_GUEST || k == SCP_KIND_INLINED;
}

/* What ran in run: function names (value 1) and line keys (value 2). */
static int index_run(scp_bmap *ran, const scp_profile *run) {
  char key[1200];
  bool added;
  for (size_t i = 0; i < run->nnodes; i++) {
    const scp_prof_node *n = &run->nodes[i];
    if (!is_code(run, (uint32_t)i)) continue;
    const char *name = scp_prof_str(run, run->frames[n->frame].name);
    if (run->frames[n->frame].kind == SCP_KIND_GUEST && n->calls &&
        !scp_bmap_put(ran, name, strlen(name), &added))
      return SCP_ERR_NOMEM;
    for (uint32_t k = 0; k < n->nlines; k++) {
      const scp_prof_line *l = &run->lines[n->lines_first + k];
      if (l->cost[0] <= l->ahead) continue;
      size_t len = line_key(key, sizeof key, name, scp_prof_str(run, l->file), l->line);
      size_t *v = scp_bmap_put(ran, key, len, &added);
      if (!v) return SCP_ERR_NOMEM;
      *v = 2;
    }
  }
  return SCP_OK;
}

/* The guest function node id is in (itself, or the one its inlined code
 * sits in). */
static uint32_t function_of(const scp_profile *p, uint32_t id) {
  while (id && p->frames[p->nodes[id].frame].kind != SCP_KIND_GUEST) id = p->nodes[id].parent;
  return id;
}

int scp_size_mark(scp_profile *p, const scp_profile *const *runs, size_t nruns,
                  scp_size_mark_result *res, scp_error *err) {
  memset(res, 0, sizeof *res);
  if (p->nmetrics != 1) return scp_fail(err, SCP_ERR_ARG, "not a size profile, or marked already");
  scp_bmap ran = {0};
  int rc = SCP_OK;
  for (size_t r = 0; r < nruns && !rc; r++) rc = index_run(&ran, runs[r]);
  char key[1200];
  for (size_t i = 1; i < p->nnodes && !rc; i++) {
    scp_prof_node *n = &p->nodes[i];
    n->self[1] = 0;
    if (!is_code(p, (uint32_t)i)) continue;
    uint32_t fn = function_of(p, (uint32_t)i);
    const char *fname = scp_prof_str(p, p->frames[p->nodes[fn].frame].name);
    bool fn_ran = fn && scp_bmap_get(&ran, fname, strlen(fname));
    if (fn == i) {
      res->functions++;
      res->functions_ran += fn_ran;
    }
    const char *name = scp_prof_str(p, p->frames[n->frame].name);
    for (uint32_t k = 0; k < n->nlines; k++) {
      scp_prof_line *l = &p->lines[n->lines_first + k];
      size_t len = line_key(key, sizeof key, name, scp_prof_str(p, l->file), l->line);
      size_t *v = fn_ran ? scp_bmap_get(&ran, key, len) : NULL;
      l->cost[1] = v && *v == 2 ? 0 : l->cost[0];
      n->self[1] += l->cost[1];
      res->code += l->cost[0];
      res->never_run += l->cost[1];
    }
  }
  scp_bmap_free(&ran);
  if (rc) return scp_fail(err, rc, "out of memory");
  p->nmetrics = 2;
  p->metrics[1] = (scp_metric){.name = "Never run", .unit = "bytes", .limit = 0};
  p->nodes[0].self[1] = 0;
  scp_prof_totals(p);
  return SCP_OK;
}
