/*
 * out_fixture.h — profiles built by hand for the stage 4 writer tests and
 * the golden/viewer generator (gen_out.c).  The writers only need a
 * finished struct scp_profile, so these helpers fill it directly instead of
 * running an engine.  Header-only (static functions): included by one .c.
 */
#ifndef OUT_FIXTURE_H
#define OUT_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/scp_out.h"

#define FX_CHECK(c)                                                      \
  do {                                                                   \
    if (!(c)) {                                                          \
      fprintf(stderr, "%s:%d: fixture check failed: %s\n", __FILE__,     \
              __LINE__, #c);                                             \
      abort();                                                           \
    }                                                                    \
  } while (0)

/* ---- building profiles by hand ----------------------------------------
 * The profile builder (scp_prof_build) needs an engine and a resolver; the
 * writers only need the finished struct, so the tests fill it directly. */

static inline scp_profile *prof_new(uint64_t cpu_limit, uint64_t mem_limit) {
  scp_profile *p = calloc(1, sizeof *p);
  FX_CHECK(p);
  p->nmetrics = 2;
  p->metrics[0] = (scp_metric){"CPU", "instructions", cpu_limit};
  p->metrics[1] = (scp_metric){"Memory", "bytes", mem_limit};
  FX_CHECK((scp_strtab_intern(&p->strs, "")) == (0));
  /* frame 0 / node 0: the root */
  FX_CHECK(scp_grow(&p->frames, &p->capframes, 1, sizeof *p->frames));
  p->frames[p->nframes++] = (scp_prof_frame){.kind = SCP_KIND_ROOT};
  FX_CHECK(scp_grow(&p->nodes, &p->capnodes, 1, sizeof *p->nodes));
  p->nodes[p->nnodes++] = (scp_prof_node){.parent = SCP_NODE_NONE,
                                          .first_child = SCP_NODE_NONE,
                                          .next_sibling = SCP_NODE_NONE};
  return p;
}

static inline uint32_t str(scp_profile *p, const char *s) {
  uint32_t id = scp_strtab_intern(&p->strs, s);
  FX_CHECK((id) != (UINT32_MAX));
  return id;
}

static inline uint32_t frame(scp_profile *p, const char *name, const char *file,
                      uint32_t decl_line, scp_kind kind) {
  for (uint32_t i = 0; i < p->nframes; i++) {
    const scp_prof_frame *f = &p->frames[i];
    if (strcmp(scp_prof_str(p, f->name), name) == 0 && f->kind == kind) return i;
  }
  FX_CHECK(scp_grow(&p->frames, &p->capframes, p->nframes + 1, sizeof *p->frames));
  p->frames[p->nframes] = (scp_prof_frame){.name = str(p, name), .file = str(p, file),
                                           .decl_line = decl_line, .kind = (uint8_t)kind,
                                           .source = SCP_SRC_DWARF};
  return (uint32_t)p->nframes++;
}

/* Appends a node as the last child of parent, with its self costs. */
static inline uint32_t node(scp_profile *p, uint32_t parent, uint32_t fr, uint64_t calls,
                     uint64_t cpu, uint64_t mem) {
  FX_CHECK(scp_grow(&p->nodes, &p->capnodes, p->nnodes + 1, sizeof *p->nodes));
  uint32_t id = (uint32_t)p->nnodes++;
  scp_prof_node *n = &p->nodes[id];
  *n = (scp_prof_node){.frame = fr, .parent = parent, .first_child = SCP_NODE_NONE,
                       .next_sibling = SCP_NODE_NONE,
                       .depth = p->nodes[parent].depth + 1, .calls = calls};
  n->self[0] = cpu;
  n->self[1] = mem;
  uint32_t *link = &p->nodes[parent].first_child;
  while (*link != SCP_NODE_NONE) link = &p->nodes[*link].next_sibling;
  *link = id;
  return id;
}

static inline void call_site(scp_profile *p, uint32_t n, const char *file, uint32_t line) {
  p->nodes[n].call_file = str(p, file);
  p->nodes[n].call_line = line;
}

/* Lines of a node must be added right after the node (kept contiguous). */
static inline void line(scp_profile *p, uint32_t n, const char *file, uint32_t ln,
                 uint64_t cpu, uint64_t mem) {
  FX_CHECK(scp_grow(&p->lines, &p->caplines, p->nlines + 1, sizeof *p->lines));
  scp_prof_node *nd = &p->nodes[n];
  if (nd->nlines == 0) nd->lines_first = (uint32_t)p->nlines;
  FX_CHECK((nd->lines_first + nd->nlines) == (p->nlines));
  scp_prof_line *l = &p->lines[p->nlines++];
  *l = (scp_prof_line){.file = str(p, file), .line = ln};
  l->cost[0] = cpu;
  l->cost[1] = mem;
  nd->nlines++;
}

static inline void meta(scp_profile *p, const char *k, const char *v) {
  FX_CHECK(scp_grow(&p->meta, &p->capmeta, p->nmeta + 1, sizeof *p->meta));
  p->meta[p->nmeta++] = (scp_meta){str(p, k), str(p, v)};
}

/* Inclusive costs: children always come after their parent here. */
static inline void finish(scp_profile *p) {
  for (size_t i = 0; i < p->nnodes; i++)
    memcpy(p->nodes[i].total, p->nodes[i].self, sizeof p->nodes[i].total);
  for (size_t i = p->nnodes; i-- > 1;)
    for (unsigned m = 0; m < SCP_MAX_METRICS; m++)
      p->nodes[p->nodes[i].parent].total[m] += p->nodes[i].total[m];
}

static inline void prof_free(scp_profile *p) {
  scp_strtab_free(&p->strs);
  free(p->frames);
  free(p->nodes);
  free(p->lines);
  free(p->meta);
  free(p);
}

/*
 * The main fixture (CPU limit 10,000; no memory limit):
 *   root
 *   ├ main (src/lib.rs:10)        self 100 / 10, lines 11: 60/10, 12: 40
 *   │ ├ helper (src/util.rs:20)   inlined at src/lib.rs:12, self 50, line util.rs:21
 *   │ ├ host:vec_push_back        called at lib.rs:11, 3 calls, self 30 / 64
 *   │ └ compute (src/math.rs:5)   called at lib.rs:12, self 200, lines 6: 150, 7: 50
 *   │   └ compute                 called at math.rs:7, self 20, line 6
 *   │     └ host:vec_push_back    called at math.rs:6, self 10 / 16
 *   └ vm:instantiate              self 1000 / 500
 * Totals: CPU 1,410, Memory 590.
 */
static inline scp_profile *fixture(void) {
  scp_profile *p = prof_new(10000, 0);
  p->title = str(p, "scprof: demo.wasm run");
  meta(p, "contract", "demo.wasm");
  meta(p, "function", "run");
  uint32_t fmain = frame(p, "main", "src/lib.rs", 10, SCP_KIND_GUEST);
  uint32_t fhelp = frame(p, "helper", "src/util.rs", 20, SCP_KIND_INLINED);
  uint32_t fpush = frame(p, "host:vec_push_back", "", 0, SCP_KIND_HOST);
  uint32_t fcomp = frame(p, "compute", "src/math.rs", 5, SCP_KIND_GUEST);
  uint32_t fvm = frame(p, "vm:instantiate", "", 0, SCP_KIND_VM);
  uint32_t m = node(p, 0, fmain, 1, 100, 10);
  line(p, m, "src/lib.rs", 11, 60, 10);
  line(p, m, "src/lib.rs", 12, 40, 0);
  uint32_t h = node(p, m, fhelp, 1, 50, 0);
  call_site(p, h, "src/lib.rs", 12);
  line(p, h, "src/util.rs", 21, 50, 0);
  call_site(p, node(p, m, fpush, 3, 30, 64), "src/lib.rs", 11);
  uint32_t c1 = node(p, m, fcomp, 1, 200, 0);
  call_site(p, c1, "src/lib.rs", 12);
  line(p, c1, "src/math.rs", 6, 150, 0);
  line(p, c1, "src/math.rs", 7, 50, 0);
  uint32_t c2 = node(p, c1, fcomp, 1, 20, 0);
  call_site(p, c2, "src/math.rs", 7);
  line(p, c2, "src/math.rs", 6, 20, 0);
  call_site(p, node(p, c2, fpush, 1, 10, 16), "src/math.rs", 6);
  node(p, 0, fvm, 1, 1000, 500);
  finish(p);
  return p;
}

/* The fixture after a change: compute got slower, vm set-up cheaper, a new
 * host call appeared. */
static inline scp_profile *fixture_after(void) {
  scp_profile *p = fixture();
  for (size_t i = 0; i < p->nnodes; i++) {
    const char *name = scp_prof_str(p, p->frames[p->nodes[i].frame].name);
    if (strcmp(name, "compute") == 0 && p->nodes[i].depth == 2) {
      p->nodes[i].self[0] += 300;
      p->lines[p->nodes[i].lines_first].cost[0] += 300;  /* math.rs:6 */
    }
    if (strcmp(name, "vm:instantiate") == 0) p->nodes[i].self[0] -= 400;
  }
  call_site(p, node(p, 1, frame(p, "host:map_get", "", 0, SCP_KIND_HOST), 2, 80, 32),
            "src/lib.rs", 12);
  finish(p);
  return p;
}

#endif
