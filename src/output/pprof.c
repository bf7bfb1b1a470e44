/*
 * pprof.c — pprof's profile.proto, encoded by hand (the message is small and
 * flat; a protobuf library would be a heavy dependency for it) and gzipped,
 * which is what `go tool pprof` expects.
 *
 * A sample is one (node, source line) with self cost.  Its stack is a list
 * of locations, leaf first; consecutive inlined frames and the function
 * they were inlined into share one location, listed innermost first, so
 * pprof shows inline frames the way it does for native code.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- protobuf wire format ---------------------------------------------- */

/* v as a varint at o (at most 10 bytes); returns its length */
static size_t pb_varint_at(uint8_t *o, uint64_t v) {
  size_t n = 0;
  do {
    o[n] = (uint8_t)(v & 0x7f);
    v >>= 7;
    if (v) o[n] |= 0x80;
    n++;
  } while (v);
  return n;
}

static void pb_varint(scp_buf *b, uint64_t v) {
  uint8_t tmp[10];
  scp_buf_put(b, tmp, pb_varint_at(tmp, v));
}

static void pb_uint(scp_buf *b, unsigned field, uint64_t v) {
  uint8_t *o = (uint8_t *)scp_buf_room(b, 20);
  if (!o) return;   /* b has failed: nothing more reaches it */
  o += pb_varint_at(o, (uint64_t)field << 3);  /* wire type 0 */
  o += pb_varint_at(o, v);
  scp_buf_commit(b, (char *)o);
}

/* Field, length and bytes in one append when they are short (a sample,
 * a location); a long run of bytes (a fed piece of samples) is copied
 * by scp_buf_put after its head. */
enum { PB_SHORT = 4096 };
static void pb_bytes(scp_buf *b, unsigned field, const void *data, size_t len) {
  uint8_t *o = (uint8_t *)scp_buf_room(b, 20 + (len < PB_SHORT ? len : 0));
  if (!o) return;
  o += pb_varint_at(o, (uint64_t)field << 3 | 2);  /* length-delimited */
  o += pb_varint_at(o, len);
  if (len < PB_SHORT) {
    if (len) memcpy(o, data, len);
    scp_buf_commit(b, (char *)o + len);
    return;
  }
  scp_buf_commit(b, (char *)o);
  scp_buf_put(b, data, len);
}

/* A nested message built in `msg`, then emptied for reuse. */
static void pb_msg(scp_buf *b, unsigned field, scp_buf *msg) {
  if (msg->oom) b->oom = true;
  pb_bytes(b, field, msg->data, msg->len);
  msg->len = 0;
}

/* ---- profile ----------------------------------------------------------- */

typedef struct pp_ctx {
  const scp_profile *p;
  unsigned nm;
  scp_strtab strings;    /* the profile's string_table; id 0 is "" */
  scp_strtab lockeys;    /* location key -> id (ids from 1) */
  scp_buf locations;     /* encoded Location messages, in id order */
  scp_buf msg, locmsg, inner, key, ids;  /* scratch */
  /* per node, the location it last had on its own (no inlined frames
   * with it) and the line it had it at: a parent's location recurs in
   * every sample below it.  loc_id 0: none yet */
  uint32_t *loc_id, *loc_line;
  bool oom;
} pp_ctx;

static uint64_t pp_str(pp_ctx *c, const char *s) {
  uint32_t id = scp_strtab_intern(&c->strings, s);
  if (id == UINT32_MAX) c->oom = true;
  return id == UINT32_MAX ? 0 : id;
}

static unsigned node_kind(const scp_profile *p, uint32_t n) {
  uint32_t f = p->nodes[n].frame;
  return f < p->nframes ? p->frames[f].kind : SCP_KIND_ROOT;
}

/* The id of the location holding frames fids[0..n) with lines[0..n)
 * (innermost first), creating it on first use. */
static uint64_t location(pp_ctx *c, const uint32_t *fids, const uint32_t *lines, size_t n) {
  scp_buf *k = &c->key;
  k->len = 0;
  for (size_t i = 0; i < n; i++) {
    char t[24];   /* "frame:line," */
    char *o = scp_out_dec(t, fids[i]);
    *o++ = ':';
    o = scp_out_dec(o, lines[i]);
    *o++ = ',';
    scp_buf_put(k, t, (size_t)(o - t));
  }
  if (k->oom) {
    c->oom = true;
    return 0;
  }
  size_t before = c->lockeys.n;
  uint32_t id = scp_strtab_intern_n(&c->lockeys, k->data, k->len);
  if (id == UINT32_MAX) {
    c->oom = true;
    return 0;
  }
  if (c->lockeys.n > before) {
    /* new location: id, then its lines innermost first */
    pb_uint(&c->locmsg, 1, id);
    for (size_t i = 0; i < n; i++) {
      pb_uint(&c->inner, 1, (uint64_t)fids[i] + 1);
      pb_uint(&c->inner, 2, lines[i]);
      pb_msg(&c->locmsg, 4, &c->inner);
    }
    pb_msg(&c->locations, 4, &c->locmsg);
  }
  return id;
}

/* One sample: the stack of nodes path[0..depth) (root first), `leaf_line`
 * the source line in the last one, values = cost. */
static void sample(pp_ctx *c, scp_buf *out, const uint32_t *path, size_t depth,
                   uint32_t leaf_line, const uint64_t *cost, uint32_t *fids,
                   uint32_t *lines) {
  const scp_profile *p = c->p;
  /* the packed ids straight into the scratch buffer (a string builder,
   * no sink): at most one location, so one varint, per node of the path */
  scp_buf *ids = &c->ids;
  if (!scp_grow(&ids->data, &ids->cap, depth * 10 + 1, 1)) {
    c->oom = true;
    return;
  }
  size_t nids = 0;
  size_t i = depth;
  uint32_t line = leaf_line;
  while (i > 0) {
    /* one location: inlined frames up to the function that holds them */
    size_t n = 0;
    uint32_t first = path[i - 1], first_line = line;
    for (;;) {
      uint32_t node = path[--i];
      fids[n] = p->nodes[node].frame;
      lines[n] = line;
      n++;
      line = p->nodes[node].call_line;  /* where the next frame up is */
      if (node_kind(p, node) != SCP_KIND_INLINED || i == 0) break;
    }
    uint64_t loc;
    if (n == 1 && c->loc_id[first] && c->loc_line[first] == first_line) {
      loc = c->loc_id[first];   /* the same key: the id it was given */
    } else {
      loc = location(c, fids, lines, n);
      if (n == 1) c->loc_id[first] = (uint32_t)loc, c->loc_line[first] = first_line;
    }
    nids += pb_varint_at((uint8_t *)ids->data + nids, loc);
  }
  uint8_t vals[10 * SCP_MAX_METRICS];
  size_t nvals = 0;
  for (unsigned m = 0; m < c->nm; m++) nvals += pb_varint_at(vals + nvals, cost[m]);
  pb_bytes(&c->msg, 1, ids->data, nids);   /* packed location_id */
  pb_bytes(&c->msg, 2, vals, nvals);       /* packed value */
  pb_msg(out, 2, &c->msg);
}

/* ---- gzip, streamed ------------------------------------------------------
 * The encoded profile goes through deflate as it is made and the
 * compressed bytes are appended to b a piece at a time, so neither the
 * whole message nor the whole file is ever held.  deflate's output depends
 * only on the bytes fed and the flush at the end, not on how they are cut
 * into calls, so the file is the same as compressing the message at once. */

typedef struct gz_out {
  z_stream z;
  scp_buf *b;
  int rc;                /* SCP_OK, or the first failure */
} gz_out;

static int gz_begin(gz_out *g, scp_buf *b) {
  memset(g, 0, sizeof *g);
  g->b = b;
  /* windowBits 15 + 16: a gzip wrapper; zlib writes mtime 0 and no name,
   * so the bytes depend only on the input. */
  if (deflateInit2(&g->z, SCP_OUT_PPROF_GZIP_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return g->rc = SCP_ERR_NOMEM;
  return SCP_OK;
}

/* Compresses n bytes of p (Z_NO_FLUSH), or ends the stream (Z_FINISH). */
static void gz_run(gz_out *g, const void *p, size_t n, int flush) {
  unsigned char out[16384];
  const unsigned char *in = p ? p : (const unsigned char *)"";
  if (g->rc != SCP_OK) return;
  for (;;) {
    /* avail_in is an unsigned int: a larger input goes in pieces */
    uInt take = n > 1u << 30 ? 1u << 30 : (uInt)n;
    int last = take == n ? flush : Z_NO_FLUSH;
    g->z.next_in = (Bytef *)in;
    g->z.avail_in = take;
    int zr;
    do {
      g->z.next_out = out;
      g->z.avail_out = sizeof out;
      zr = deflate(&g->z, last);
      if (zr == Z_STREAM_ERROR) {
        g->rc = SCP_ERR_INTERNAL;
        return;
      }
      scp_buf_put(g->b, out, sizeof out - g->z.avail_out);
    } while (g->z.avail_out == 0 || (last == Z_FINISH && zr != Z_STREAM_END));
    in += take;
    n -= take;
    if (!n) return;
  }
}

/* Compresses what buf holds and empties it for more. */
static void gz_feed(gz_out *g, scp_buf *buf) {
  if (buf->oom && g->rc == SCP_OK) g->rc = SCP_ERR_NOMEM;
  gz_run(g, buf->data, buf->len, Z_NO_FLUSH);
  buf->len = 0;
}

static int gz_end(gz_out *g) {
  gz_run(g, NULL, 0, Z_FINISH);
  deflateEnd(&g->z);
  return g->rc;
}

/* Samples are compressed a piece at a time once this much waits. */
#define PP_FEED_BYTES 65536

/* pprof prints a value with its unit glued on ("1410instructions"), so a
 * unit of several words ("compute units") would read "6000compute units":
 * such a unit is written as the metric's name ("6000CU") instead. */
static const char *pp_unit(const scp_metric *me) {
  if (!me->unit || !*me->unit) return "count";
  if (strchr(me->unit, ' ') && me->name && *me->name) return me->name;
  return me->unit;
}

int scp_out_pprof(const scp_profile *p, unsigned metric, scp_buf *b) {
  return scp_out_pprof_sh(p, metric, NULL, b);
}

int scp_out_pprof_sh(const scp_profile *p, unsigned metric, const scp_out_shared *sh, scp_buf *b) {
  if (metric >= p->nmetrics || metric >= SCP_MAX_METRICS) return SCP_ERR_ARG;
  if (!p->nnodes) return SCP_ERR_ARG;
  int rc = SCP_ERR_NOMEM;
  pp_ctx c = {.p = p, .nm = p->nmetrics < SCP_MAX_METRICS ? p->nmetrics : SCP_MAX_METRICS};
  scp_out_labels l = {0};
  scp_out_kids k = {0};
  scp_buf body = {0}, samples = {0};
  gz_out gz;
  bool gz_open = false;
  uint32_t *todo = NULL, *path = NULL, *fids = NULL, *lines = NULL;
  size_t nn = p->nnodes;
  if (scp_strtab_intern(&c.strings, "") != 0 || scp_strtab_intern(&c.lockeys, "") != 0)
    goto fail;
  if (scp_out_tree(p, sh, &l, &k)) goto fail;
  todo = malloc(nn * sizeof *todo);
  path = malloc(nn * sizeof *path);
  fids = malloc(nn * sizeof *fids);
  lines = malloc(nn * sizeof *lines);
  c.loc_id = calloc(nn, sizeof *c.loc_id);
  c.loc_line = calloc(nn, sizeof *c.loc_line);
  if (!todo || !path || !fids || !lines || !c.loc_id || !c.loc_line) goto fail;
  if (gz_begin(&gz, b) != SCP_OK) goto fail;
  gz_open = true;

  /* sample_type: one per metric */
  for (unsigned m = 0; m < c.nm; m++) {
    const scp_metric *me = &p->metrics[m];
    pb_uint(&c.msg, 1, pp_str(&c, me->name && *me->name ? me->name : "cost"));
    pb_uint(&c.msg, 2, pp_str(&c, pp_unit(me)));
    pb_msg(&body, 1, &c.msg);
  }
  gz_feed(&gz, &body);
  /* samples, pre-order with children by label, compressed as they come;
   * the locations they name follow them, so those wait in c.locations */
  size_t ntodo = 0;
  todo[ntodo++] = 0;
  while (ntodo) {
    uint32_t id = todo[--ntodo];
    const scp_prof_node *n = &p->nodes[id];
    size_t depth = scp_out_node_path(p, id, path);
    if (id == 0) path[depth++] = 0;  /* the root's own cost: a stack of itself */
    uint64_t rest[SCP_MAX_METRICS];
    memcpy(rest, n->self, sizeof rest);
    for (uint32_t j = 0; j < n->nlines && n->lines_first + j < p->nlines; j++) {
      const scp_prof_line *ln = &p->lines[n->lines_first + j];
      bool any = false;
      for (unsigned m = 0; m < c.nm; m++) {
        any |= ln->cost[m] != 0;
        rest[m] = rest[m] > ln->cost[m] ? rest[m] - ln->cost[m] : 0;
      }
      if (any) sample(&c, &samples, path, depth, ln->line, ln->cost, fids, lines);
    }
    bool any = false;
    for (unsigned m = 0; m < c.nm; m++) any |= rest[m] != 0;
    if (any) sample(&c, &samples, path, depth, 0, rest, fids, lines);
    for (uint32_t i = k.start[id + 1]; i-- > k.start[id];) todo[ntodo++] = k.ids[i];
    if (samples.len >= PP_FEED_BYTES) gz_feed(&gz, &samples);
  }
  gz_feed(&gz, &samples);
  gz_feed(&gz, &c.locations);
  /* functions: one per frame, id = frame id + 1 */
  for (uint32_t f = 0; f < p->nframes; f++) {
    const scp_prof_frame *fr = &p->frames[f];
    const char *name = scp_prof_str(p, fr->name);
    if (!*name) name = fr->kind == SCP_KIND_ROOT ? "all" : "[unknown]";
    uint64_t sname = pp_str(&c, name);
    pb_uint(&c.msg, 1, (uint64_t)f + 1);
    /* no system_name: pprof takes a system name equal to the name for a
     * mangled one it could not demangle, and then strips everything in
     * <> and () from it, so <u32 as FromVal>::from_val and <u64 as
     * FromVal>::from_val would both show as ::from_val */
    pb_uint(&c.msg, 2, sname);
    pb_uint(&c.msg, 4, pp_str(&c, scp_prof_str(p, fr->file)));
    pb_uint(&c.msg, 5, fr->decl_line);
    pb_msg(&body, 5, &c.msg);
  }
  const scp_metric *dm = &p->metrics[metric];
  uint64_t dtype = pp_str(&c, dm->name && *dm->name ? dm->name : "cost");
  /* period_type/period: one unit of the chosen metric per unit counted */
  pb_uint(&c.msg, 1, dtype);
  pb_uint(&c.msg, 2, pp_str(&c, pp_unit(dm)));
  uint64_t title = pp_str(&c, scp_prof_str(p, p->title));
  if (c.oom) goto fail;
  for (size_t i = 0; i < c.strings.n; i++)  /* string_table, 0 = "" */
    pb_bytes(&body, 6, c.strings.strs[i], strlen(c.strings.strs[i]));
  pb_msg(&body, 11, &c.msg);
  pb_uint(&body, 12, 1);
  if (title) {  /* comment: the profile's title */
    pb_varint(&body, 13 << 3);
    pb_varint(&body, title);
  }
  pb_uint(&body, 14, dtype);
  if (body.oom || c.msg.oom || c.locmsg.oom || c.inner.oom) goto fail;
  gz_feed(&gz, &body);
  gz_open = false;
  rc = gz_end(&gz);
  if (rc == SCP_OK) rc = scp_out_done(b);
fail:
  if (gz_open) deflateEnd(&gz.z);
  free(todo);
  free(path);
  free(fids);
  free(lines);
  scp_buf_free(&body);
  scp_buf_free(&samples);
  scp_buf_free(&c.locations);
  scp_buf_free(&c.msg);
  scp_buf_free(&c.inner);
  scp_buf_free(&c.locmsg);
  scp_buf_free(&c.key);
  scp_buf_free(&c.ids);
  free(c.loc_id);
  free(c.loc_line);
  scp_strtab_free(&c.strings);
  scp_strtab_free(&c.lockeys);
  scp_out_tree_done(p, sh, &l, &k);
  return rc;
}
