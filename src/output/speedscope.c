/*
 * speedscope.c — speedscope's file format: shared frames plus one "sampled"
 * profile per metric.  A sample is one CCT node with self cost (its stack,
 * root first) weighted by that cost; samples follow a pre-order walk with
 * children by label, so speedscope's time-order view reads like the
 * flamegraph.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

/* Pre-order list of all nodes but the root, children by label. */
static uint32_t *preorder(const scp_profile *p, const scp_out_kids *k, size_t *n) {
  uint32_t *order = malloc((p->nnodes ? p->nnodes : 1) * sizeof *order);
  uint32_t *todo = malloc((p->nnodes ? p->nnodes : 1) * sizeof *todo);
  size_t norder = 0, ntodo = 0;
  if (!order || !todo) {
    free(order);
    free(todo);
    return NULL;
  }
  if (p->nnodes) todo[ntodo++] = 0;
  while (ntodo) {
    uint32_t id = todo[--ntodo];
    if (id != 0) order[norder++] = id;
    for (uint32_t i = k->start[id + 1]; i-- > k->start[id];) todo[ntodo++] = k->ids[i];
  }
  free(todo);
  *n = norder;
  return order;
}

static void put_frame_name(scp_buf *b, const scp_profile *p, uint32_t f) {
  const char *name = scp_prof_str(p, p->frames[f].name);
  if (!*name) name = p->frames[f].kind == SCP_KIND_ROOT ? "all" : "[unknown]";
  scp_out_put_json_str(b, name);
}

int scp_out_speedscope(const scp_profile *p, unsigned metric, scp_buf *b) {
  return scp_out_speedscope_sh(p, metric, NULL, b);
}

int scp_out_speedscope_sh(const scp_profile *p, unsigned metric, const scp_out_shared *sh, scp_buf *b) {
  if (metric >= p->nmetrics || metric >= SCP_MAX_METRICS) return SCP_ERR_ARG;
  int rc = SCP_ERR_NOMEM;
  scp_out_labels l = {0};
  scp_out_kids k = {0};
  uint32_t *order = NULL, *path = NULL;
  size_t norder = 0;
  if (scp_out_tree(p, sh, &l, &k)) goto fail;
  if (!(order = preorder(p, &k, &norder))) goto fail;
  if (!(path = malloc((p->nnodes ? p->nnodes : 1) * sizeof *path))) goto fail;

  scp_buf_puts(b, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
  scp_buf_puts(b, "\"shared\":{\"frames\":[\n");
  for (uint32_t f = 0; f < p->nframes; f++) {
    const scp_prof_frame *fr = &p->frames[f];
    scp_buf_puts(b, f ? ",\n{\"name\":" : "{\"name\":");
    put_frame_name(b, p, f);
    if (fr->file) {
      scp_buf_puts(b, ",\"file\":");
      scp_out_put_json_str(b, scp_prof_str(p, fr->file));
    }
    if (fr->decl_line) scp_buf_printf(b, ",\"line\":%u", fr->decl_line);
    scp_buf_putc(b, '}');
  }
  scp_buf_puts(b, "\n]},\n\"profiles\":[\n");
  for (unsigned m = 0; m < p->nmetrics && m < SCP_MAX_METRICS; m++) {
    const scp_metric *me = &p->metrics[m];
    const char *unit = me->unit ? me->unit : "";
    bool bytes = strcmp(unit, "bytes") == 0;
    scp_buf t = {0};  /* profile name: "CPU (instructions)" */
    scp_buf_puts(&t, me->name && *me->name ? me->name : "cost");
    if (*unit) scp_buf_printf(&t, " (%s)", unit);
    scp_buf_puts(b, m ? ",\n{\"type\":\"sampled\",\"name\":" : "{\"type\":\"sampled\",\"name\":");
    if (t.oom) b->oom = true;
    else scp_out_put_json_str(b, t.data);
    scp_buf_free(&t);
    scp_buf_printf(b, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\n\"samples\":[",
                   bytes ? "bytes" : "none", (unsigned long long)scp_out_total(p, m));
    /* The root's own cost (if any) is a sample whose stack is the root. */
    bool first = true;
    if (p->nnodes && p->nodes[0].self[m]) {
      scp_buf_printf(b, "\n[%u]", p->nodes[0].frame);
      first = false;
    }
    for (size_t i = 0; i < norder; i++) {
      if (!p->nodes[order[i]].self[m]) continue;
      size_t depth = scp_out_node_path(p, order[i], path);
      scp_buf_puts(b, first ? "\n[" : ",\n[");
      first = false;
      for (size_t d = 0; d < depth; d++) {
        if (d) scp_buf_putc(b, ',');
        scp_out_put_u64(b, p->nodes[path[d]].frame);
      }
      scp_buf_putc(b, ']');
    }
    scp_buf_puts(b, "],\n\"weights\":[");
    first = true;
    if (p->nnodes && p->nodes[0].self[m]) {
      scp_buf_printf(b, "%llu", (unsigned long long)p->nodes[0].self[m]);
      first = false;
    }
    for (size_t i = 0; i < norder; i++) {
      uint64_t w = p->nodes[order[i]].self[m];
      if (!w) continue;
      if (!first) scp_buf_putc(b, ',');
      scp_out_put_u64(b, w);
      first = false;
    }
    scp_buf_puts(b, "]}");
  }
  scp_buf_puts(b, "\n],\n\"name\":");
  const char *title = scp_prof_str(p, p->title);
  scp_out_put_json_str(b, *title ? title : "scprof");
  scp_buf_printf(b, ",\"activeProfileIndex\":%u,\"exporter\":\"scprof\"}\n", metric);
  rc = scp_out_done(b);
fail:
  free(order);
  free(path);
  scp_out_tree_done(p, sh, &l, &k);
  return rc;
}
