/*
 * out_private.h — helpers shared by the writers of scp_out (stage 4).
 * Not part of any public interface: hidden visibility, scp_out_ prefix.
 */
#ifndef SCP_OUT_PRIVATE_H
#define SCP_OUT_PRIVATE_H

#include "output/scp_out.h"

#include <string.h>

/* One display label per frame (scp_out_label), built once per write so the
 * writers do not rebuild strings for every node. */
typedef struct scp_out_labels {
  char *text;            /* all labels, NUL-separated */
  const char **label;    /* label[frame] points into text */
  size_t n;
} scp_out_labels;

/* Returns SCP_OK or SCP_ERR_NOMEM (then *l is empty and needs no free). */
SCP_HIDDEN int scp_out_labels_build(const scp_profile *p, scp_out_labels *l);
SCP_HIDDEN void scp_out_labels_free(scp_out_labels *l);

static inline const char *scp_out_label_of(const scp_out_labels *l,
                                           uint32_t frame) {
  return frame < l->n ? l->label[frame] : "[unknown]";
}

/* Children of every node in display order: by label bytewise, then frame
 * kind, then node id (stable even for equal labels).  The children of
 * node n are ids[start[n] .. start[n+1]). */
typedef struct scp_out_kids {
  uint32_t *start;       /* nnodes + 1 entries */
  uint32_t *ids;
} scp_out_kids;

SCP_HIDDEN int scp_out_kids_build(const scp_profile *p, const scp_out_labels *l,
                                  scp_out_kids *k);
SCP_HIDDEN void scp_out_kids_free(scp_out_kids *k);

/* scp_out_shared: the labels and children of the profile p. */
struct scp_out_shared {
  const scp_profile *p;
  scp_out_labels labels;
  scp_out_kids kids;
};

/* The labels and children of p for a writer: those of s when s was made
 * of p (borrowed: read only), else built.  Returns SCP_OK or
 * SCP_ERR_NOMEM; either way scp_out_tree_done(p, s, l, k) ends them
 * (freeing only what was built). */
SCP_HIDDEN int scp_out_tree(const scp_profile *p, const scp_out_shared *s, scp_out_labels *l,
                            scp_out_kids *k);
SCP_HIDDEN void scp_out_tree_done(const scp_profile *p, const scp_out_shared *s, scp_out_labels *l,
                                  scp_out_kids *k);

/* Which frame of one profile is which of the other (diff_match.c): a
 * key per frame of each side, equal keys being the same frame.  Named
 * guest functions are matched by name and file, then by name, then by
 * body hash; func[N] by body hash; the rest by label.  matched / only[0] / only[1]: the distinct guest
 * functions in both, only in before, only in now; by_body: those of
 * them matched by body hash. */
typedef struct scp_out_match {
  scp_strtab keys;
  uint32_t *key[2];              /* [side][frame]: key id; side 0 before, 1 now */
  scp_out_labels labels[2];
  uint8_t *seen;                 /* [key]: bit 0 a before frame has it, bit 1 a now frame */
  uint8_t *counted;              /* [key]: bit 0 counted, bit 1 paired by body hash */
  uint32_t *now_frame;           /* [key]: the first now frame with it, UINT32_MAX none */
  const scp_profile *side[2];    /* the two profiles (borrowed) */
  size_t matched, by_body, only[2];
} scp_out_match;

/* Returns SCP_OK or SCP_ERR_NOMEM (m left empty). */
SCP_HIDDEN int scp_out_match_build(const scp_profile *before, const scp_profile *now,
                                   scp_out_match *m);
/* The label a frame of side shows in a diff: the new profile's label of
 * its key when it has one, else its own. */
SCP_HIDDEN const char *scp_out_match_label(const scp_out_match *m, unsigned side, uint32_t frame);
SCP_HIDDEN void scp_out_match_free(scp_out_match *m);

/* Stable sort of ids by cmp(ctx, a, b) (C has no qsort with a context).
 * Returns SCP_OK or SCP_ERR_NOMEM (ids unchanged). */
typedef int (*scp_out_cmp)(void *ctx, uint32_t a, uint32_t b);
SCP_HIDDEN int scp_out_sort_ids(uint32_t *ids, size_t n, scp_out_cmp cmp, void *ctx);
/* The first k of ids[0..*n) as scp_out_sort_ids would order them, in
 * ids[0..min(*n, k)), which becomes *n.  Up to SCP_OUT_TOP_PICKED of them
 * (a report's top 20 of a few hundred frames) without sorting the rest:
 * each id is kept, in place, only when it comes before the last of those
 * kept so far; more than that, by sorting them all.  Returns SCP_OK or
 * SCP_ERR_NOMEM. */
#define SCP_OUT_TOP_PICKED 64
SCP_HIDDEN int scp_out_top_ids(uint32_t *ids, size_t *n, size_t k, scp_out_cmp cmp, void *ctx);

/* Per-frame sums over the whole tree: self costs and calls of every node of
 * the frame, and inclusive cost counted once per path (a recursive frame's
 * inner activations are inside its outer one).  Returns a calloc'd array of
 * nframes entries, or NULL on OOM. */
typedef struct scp_out_frame_agg {
  uint64_t self[SCP_MAX_METRICS];
  uint64_t total[SCP_MAX_METRICS];
  uint64_t calls;
  bool seen;                        /* some node has this frame */
} scp_out_frame_agg;
SCP_HIDDEN scp_out_frame_agg *scp_out_frame_aggregate(const scp_profile *p,
                                                      const scp_out_kids *k);

/* "file:line"; "file (no line)" for line 0 (compiler-generated code);
 * "?" stands for an unknown file. */
SCP_HIDDEN void scp_out_put_location(scp_buf *b, const char *file, uint32_t line);

/* Decimal without separators; much cheaper than printf in hot loops. */
SCP_HIDDEN void scp_out_put_u64(scp_buf *b, uint64_t v);

/* "12.34%" of part/whole; "-" when whole is 0. */
SCP_HIDDEN void scp_out_put_pct(scp_buf *b, uint64_t part, uint64_t whole);

/* ---- a row built on the stack, appended in one go ---------------------
 * A writer that puts out thousands of rows (report.json's instructions)
 * builds each in a local array with these and appends it once: a buffer
 * append per field costs more than the field.  The caller sizes the array
 * for the longest row it builds. */
static inline char *scp_out_cpy(char *o, const char *s, size_t n) {
  memcpy(o, s, n);
  return o + n;
}
/* a string literal, its length known at compile time */
#define SCP_OUT_LIT(o, s) scp_out_cpy((o), "" s, sizeof(s) - 1)
/* decimal, at most 20 bytes: its length first, then the digits from the
 * right straight into place (no copy of a variable length); inlined
 * always, as its callers are rows of a few numbers each, written by the
 * thousand, where gcc would otherwise call it */
static inline __attribute__((always_inline)) char *scp_out_dec(char *o, uint64_t v) {
  /* most numbers in a profile's rows (a cost, a count) have one or two
   * digits: those need no length worked out */
  if (v < 10) {
    *o = (char)('0' + v);
    return o + 1;
  }
  if (v < 100) return scp_dec_u64(o + 2, v) + 2;
  static const uint64_t p10[20] = {
      1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
      100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
      10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
      100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};
  /* digits from the bit length (log10 2 ~ 1233 / 4096), then one
   * comparison for the power of ten between */
  unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1);
  unsigned n = (bits * 1233u) >> 12;
  n += n < 20 && v >= p10[n];
  n += !n;
  return scp_dec_u64(o + n, v) + n;
}

/* x with prec (0 to 6) decimals, as printf's "%.*f" writes it: room for
 * SCP_OUT_FIXED_ROOM bytes at o (printf's text of the largest double) */
#define SCP_OUT_FIXED_ROOM 330
SCP_HIDDEN char *scp_out_fixed(char *o, double x, int prec);

/* How many bytes of s, from its start and at most max, go into a JSON
 * string unchanged (printable ASCII other than '"' and '\'); s is all of
 * it when s[result] is its NUL. */
SCP_HIDDEN extern const unsigned char scp_out_json_plain_byte[256];   /* 1: such a byte */
static inline size_t scp_out_json_plain(const char *s, size_t max) {
  const unsigned char *t = scp_out_json_plain_byte;
  size_t n = 0;
  /* four bytes a bound check; each is read only when the one before was
   * plain (so not the NUL) */
  for (; max - n >= 4; n += 4) {
    if (!t[(unsigned char)s[n]]) return n;
    if (!t[(unsigned char)s[n + 1]]) return n + 1;
    if (!t[(unsigned char)s[n + 2]]) return n + 2;
    if (!t[(unsigned char)s[n + 3]]) return n + 3;
  }
  while (n < max && t[(unsigned char)s[n]]) n++;
  return n;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes at s
 * are not one (s must be NUL-terminated). */
SCP_HIDDEN size_t scp_out_utf8_len(const char *s);

/* s as a JSON string literal, quotes included.  Invalid UTF-8 bytes become
 * U+FFFD so the output always parses. */
SCP_HIDDEN void scp_out_put_json_str(scp_buf *b, const char *s);

/* The chain of a node from its root child down to it (root excluded):
 * fills path[0..depth) and returns the depth.  path must hold nnodes. */
SCP_HIDDEN size_t scp_out_node_path(const scp_profile *p, uint32_t node, uint32_t *path);

/* The flamegraph writer with an optional comparison (diff.c): when
 * `before` is non-NULL, before[n] is the inclusive cost of the matching
 * node in the older profile for each node n of p, and frames are coloured
 * by the change instead of by kind.  sh: as the _sh writers'. */
SCP_HIDDEN int scp_out_svg_with(const scp_profile *p, const scp_svg_opts *o, const uint64_t *before,
                                uint64_t before_total, const scp_out_shared *sh, scp_buf *b);

/* The writers of scp_out.h with the labels and children of sh when it was
 * made of p (scp_out_tree); sh NULL is the public writer.  The format
 * table (out.c) calls these with scp_out_opts.shared. */
SCP_HIDDEN int scp_out_json_sh(const scp_profile *p, const scp_out_shared *sh, scp_buf *b);
SCP_HIDDEN int scp_out_pprof_sh(const scp_profile *p, unsigned metric, const scp_out_shared *sh,
                                scp_buf *b);
SCP_HIDDEN int scp_out_speedscope_sh(const scp_profile *p, unsigned metric, const scp_out_shared *sh,
                                     scp_buf *b);
SCP_HIDDEN int scp_out_callgrind_sh(const scp_profile *p, const scp_out_shared *sh, scp_buf *b);
SCP_HIDDEN int scp_out_folded_sh(const scp_profile *p, unsigned metric, const scp_out_shared *sh,
                                 scp_buf *b);
SCP_HIDDEN int scp_out_report_sh(const scp_profile *p, const scp_report_opts *o, const scp_out_shared *sh,
                                 scp_buf *b);

/* How a failed run ended, in one line: Soroban's status text and its
 * message ("contract trapped: unreachable at ..."); a Solana run's message
 * alone ("instruction failed: Custom(7)"), which already says what failed,
 * or its status text when there is none. */
SCP_HIDDEN void scp_out_put_ended(scp_buf *b, const scp_profile *p);

/* Total of one metric over the whole run: the root's inclusive cost. */
static inline uint64_t scp_out_total(const scp_profile *p, unsigned metric) {
  return p->nnodes ? p->nodes[0].total[metric] : 0;
}

/* Ends a writer: SCP_ERR_NOMEM when the buffer ran out of memory,
 * SCP_ERR_IO when writing to its sink failed. */
static inline int scp_out_done(const scp_buf *b) {
  return b->oom ? SCP_ERR_NOMEM : b->io_err ? SCP_ERR_IO : SCP_OK;
}

#endif
