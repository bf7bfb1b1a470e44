/*
 * out_shared.c — what the writers of one profile's files share
 * (scp_out_shared, scp_out.h): its frames' labels and each node's
 * children in display order, which every writer would otherwise work out
 * again for each file.  Made by the thread that writes the files and read
 * only after, so nothing in it is shared between threads while it
 * changes.
 */
#include "output/out_private.h"

#include <stdlib.h>

int scp_out_shared_new(const scp_profile *p, scp_out_shared **out) {
  *out = NULL;
  scp_out_shared *s = calloc(1, sizeof *s);
  if (!s) return SCP_ERR_NOMEM;
  s->p = p;
  if (scp_out_labels_build(p, &s->labels) || scp_out_kids_build(p, &s->labels, &s->kids)) {
    scp_out_shared_free(s);
    return SCP_ERR_NOMEM;
  }
  *out = s;
  return SCP_OK;
}

void scp_out_shared_free(scp_out_shared *s) {
  if (!s) return;
  scp_out_kids_free(&s->kids);
  scp_out_labels_free(&s->labels);
  free(s);
}

/* s holds p's labels and children (a writer given another profile's
 * makes its own) */
static bool made_of(const scp_out_shared *s, const scp_profile *p) { return s && s->p == p; }

int scp_out_tree(const scp_profile *p, const scp_out_shared *s, scp_out_labels *l, scp_out_kids *k) {
  if (made_of(s, p)) {
    *l = s->labels;
    *k = s->kids;
    return SCP_OK;
  }
  *l = (scp_out_labels){0};
  *k = (scp_out_kids){0};
  if (scp_out_labels_build(p, l) || scp_out_kids_build(p, l, k)) return SCP_ERR_NOMEM;
  return SCP_OK;
}

void scp_out_tree_done(const scp_profile *p, const scp_out_shared *s, scp_out_labels *l, scp_out_kids *k) {
  if (!made_of(s, p)) {
    scp_out_kids_free(k);
    scp_out_labels_free(l);
  }
  *l = (scp_out_labels){0};
  *k = (scp_out_kids){0};
}
