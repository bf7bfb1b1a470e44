/*
 * diff_match.c — which frame of one profile is which frame of the other,
 * for `diff` between two builds of a contract.  A build that adds or
 * removes a function shifts the function indices, and an edit above a
 * function shifts its declaration line, so labels ("func[38]",
 * "swap (pool.c:120)") do not identify a function across builds.
 *
 * A guest frame with a name (DWARF, name section, symtab, export) is
 * matched by that name and its file; failing that, with a frame of the
 * other side that is itself unmatched, by name alone (one build without
 * DWARF names no file), then by body hash (scp_prof_frame.body: a
 * renamed function).  A frame known only by its index
 * (func[N]) is matched by its body hash alone.  Every other frame
 * (host functions, contracts, the VM) is matched by its label, as before.
 * A frame of a program's code (scp_prof_frame.owner_id) is all of that
 * within its program's id.  What stays unmatched is counted and listed by the report.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

static bool is_fn(const scp_prof_frame *fr) {
  return fr->kind == SCP_KIND_GUEST || fr->kind == SCP_KIND_INLINED;
}

/* The first key of frame f: "n<US>name<US>file" for a named guest frame;
 * "b<US>body<US>k" for one named only by its index (func[N]), its body
 * hash and how many frames before it have the same body, so that
 * identical bodies pair up in order; "l<US>label" for the rest. */
static void first_key(const scp_profile *p, const scp_out_labels *l, uint32_t f, scp_buf *s) {
  const scp_prof_frame *fr = &p->frames[f];
  const char *name = scp_prof_str(p, fr->name);
  s->len = 0;
  /* a program's code is matched within its program's id, and a program's
   * own frame by that id and the instruction it ran, so a program the two
   * inputs name differently is still the same program */
  if (fr->owner_id) scp_buf_printf(s, "o\x1f%s\x1f", scp_prof_str(p, fr->owner_id));
  if (fr->owner_id && fr->kind == SCP_KIND_CONTRACT) {
    scp_buf_printf(s, "i\x1f%s", scp_prof_str(p, fr->detail));
  } else if (is_fn(fr) && fr->source != SCP_SRC_RAW && *name) {
    scp_buf_printf(s, "n\x1f%s\x1f%s", name, scp_prof_str(p, fr->file));
  } else if (is_fn(fr) && fr->body) {
    unsigned k = 0;
    for (uint32_t e = 0; e < f; e++)
      k += p->frames[e].body == fr->body && is_fn(&p->frames[e]);
    scp_buf_printf(s, "b\x1f%s\x1f%u", scp_prof_str(p, fr->body), k);
  } else {
    scp_buf_printf(s, "l\x1f%s", scp_out_label_of(l, f));
  }
}

static int side_keys(const scp_profile *p, scp_out_match *m, unsigned side, scp_buf *s) {
  m->key[side] = malloc((p->nframes ? p->nframes : 1) * sizeof *m->key[side]);
  if (!m->key[side] || scp_out_labels_build(p, &m->labels[side])) return SCP_ERR_NOMEM;
  for (uint32_t f = 0; f < p->nframes; f++) {
    first_key(p, &m->labels[side], f, s);
    m->key[side][f] = s->oom ? UINT32_MAX : scp_strtab_intern(&m->keys, s->data);
    if (m->key[side][f] == UINT32_MAX) return SCP_ERR_NOMEM;
  }
  return SCP_OK;
}

/* seen[k] bit `side`: key k names a frame of that side. */
static uint8_t *presence(const scp_out_match *m, const scp_profile *const sides[2]) {
  uint8_t *seen = calloc(m->keys.n + 1, 1);
  for (unsigned s = 0; seen && s < 2; s++)
    for (uint32_t f = 0; f < sides[s]->nframes; f++) seen[m->key[s][f]] |= (uint8_t)(1u << s);
  return seen;
}

/* Whether before frame f may take now frame g's key: both functions, both
 * unmatched so far, and paired by name alone (files differ, or one side
 * has no DWARF) or by body hash. */
static bool pairs(const scp_profile *const sides[2], const scp_out_match *m, const uint8_t *seen,
                  uint32_t f, uint32_t g, bool by_body) {
  const scp_prof_frame *bf = &sides[0]->frames[f], *ng = &sides[1]->frames[g];
  if (!is_fn(bf) || seen[m->key[0][f]] != 1 || m->key[0][f] == m->key[1][g]) return false;
  if (by_body)
    return bf->body && !strcmp(scp_prof_str(sides[0], bf->body), scp_prof_str(sides[1], ng->body));
  return bf->source != SCP_SRC_RAW &&
         !strcmp(scp_prof_str(sides[0], bf->name), scp_prof_str(sides[1], ng->name));
}

/* A now function whose key the old profile lacks takes an unmatched old
 * function of the same name, else of the same body: the old frame is
 * given the new key (pass 0 by name, pass 1 by body). */
static void match_late(scp_out_match *m, const scp_profile *const sides[2], const uint8_t *seen,
                       unsigned pass) {
  const scp_profile *n = sides[1];
  for (uint32_t g = 0; g < n->nframes; g++) {
    const scp_prof_frame *ng = &n->frames[g];
    if (!is_fn(ng) || seen[m->key[1][g]] != 2) continue;
    if (pass == 0 ? ng->source == SCP_SRC_RAW || !ng->name : !ng->body) continue;
    for (uint32_t f = 0; f < sides[0]->nframes; f++) {
      if (!pairs(sides, m, seen, f, g, pass == 1)) continue;
      m->key[0][f] = m->key[1][g];
      if (pass == 1) m->counted[m->key[1][g]] |= 2;
      break;
    }
  }
}

/* What the report says about guest functions: matched, only on one side. */
static void count(scp_out_match *m, const scp_profile *const sides[2], const uint8_t *seen) {
  for (unsigned s = 0; s < 2; s++)
    for (uint32_t f = 0; f < sides[s]->nframes; f++) {
      uint32_t k = m->key[s][f];
      if (!is_fn(&sides[s]->frames[f]) || (m->counted[k] & 1)) continue;
      m->counted[k] |= 1;
      if (seen[k] != 3) {
        m->only[s]++;
        continue;
      }
      m->matched++;
      if (m->keys.strs[k][0] == 'b' || (m->counted[k] & 2)) m->by_body++;
    }
}

int scp_out_match_build(const scp_profile *before, const scp_profile *now, scp_out_match *m) {
  memset(m, 0, sizeof *m);
  const scp_profile *const sides[2] = {before, now};
  scp_buf s = {0};
  uint8_t *seen = NULL;
  int rc = SCP_ERR_NOMEM;
  if (scp_strtab_intern(&m->keys, "") != 0 || side_keys(before, m, 0, &s) ||
      side_keys(now, m, 1, &s) || !(m->counted = calloc(m->keys.n + 1, 1)) ||
      !(m->now_frame = malloc((m->keys.n + 1) * sizeof *m->now_frame)))
    goto fail;
  for (unsigned pass = 0; pass < 2; pass++) {
    free(seen);
    if (!(seen = presence(m, sides))) goto fail;
    match_late(m, sides, seen, pass);
  }
  free(seen);
  if (!(seen = presence(m, sides))) goto fail;
  count(m, sides, seen);
  memset(m->now_frame, 0xff, (m->keys.n + 1) * sizeof *m->now_frame);
  for (uint32_t g = now->nframes; g-- > 0;) m->now_frame[m->key[1][g]] = g;
  m->seen = seen;
  seen = NULL;
  m->side[0] = before;
  m->side[1] = now;
  rc = SCP_OK;
fail:
  free(seen);
  scp_buf_free(&s);
  if (rc) scp_out_match_free(m);
  return rc;
}

const char *scp_out_match_label(const scp_out_match *m, unsigned side, uint32_t frame) {
  uint32_t g = m->now_frame[m->key[side][frame]];
  /* a frame matched on both sides shows as the new profile names it */
  if (g != UINT32_MAX) return scp_out_label_of(&m->labels[1], g);
  return scp_out_label_of(&m->labels[side], frame);
}

void scp_out_match_free(scp_out_match *m) {
  for (unsigned s = 0; s < 2; s++) {
    free(m->key[s]);
    scp_out_labels_free(&m->labels[s]);
  }
  free(m->seen);
  free(m->counted);
  free(m->now_frame);
  scp_strtab_free(&m->keys);
  memset(m, 0, sizeof *m);
}
