/*
 * json.c — the JSON report (schema "scprof-report", see scp_out.h): the
 * whole profile, for other tools.  Written by hand rather than through a
 * DOM so a large tree streams straight into the buffer; the key order is
 * fixed, which keeps the output byte-deterministic.
 */
#include "output/out_private.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_text(unsigned k) {
  static const char *const names[SCP_KIND_COUNT] = {
      [SCP_KIND_ROOT] = "root", [SCP_KIND_GUEST] = "guest",
      [SCP_KIND_INLINED] = "inlined", [SCP_KIND_HOST] = "host",
      [SCP_KIND_CONTRACT] = "contract", [SCP_KIND_VM] = "vm",
      [SCP_KIND_TRUNCATED] = "truncated"};
  return k < SCP_KIND_COUNT ? names[k] : "unknown";
}

static const char *source_text(unsigned s) {
  static const char *const names[] = {
      [SCP_SRC_DWARF] = "dwarf", [SCP_SRC_NAMESEC] = "name-section",
      [SCP_SRC_SYMTAB] = "symtab", [SCP_SRC_RAW] = "raw", [SCP_SRC_HOST] = "host",
      [SCP_SRC_EXPORT] = "export"};
  return s < SCP_ARRAY_LEN(names) ? names[s] : "unknown";
}

/* [v0,v1,...] at o (21 * nm + 2 bytes at most); returns its end */
static inline char *costs_at(char *o, const uint64_t *v, unsigned nm) {
  *o++ = '[';
  for (unsigned m = 0; m < nm; m++) {
    if (m) *o++ = ',';
    o = scp_out_dec(o, v[m]);
  }
  *o++ = ']';
  return o;
}

static void put_costs(scp_buf *b, const uint64_t *v, unsigned nm) {
  char t[21 * SCP_MAX_METRICS + 2];
  scp_buf_put(b, t, (size_t)(costs_at(t, v, nm) - t));
}

/* A node's instructions without source lines (only nodes that have them):
 * ,"pcs":[{"pc":712,"insn":"mul64r r1, r1","cost":[5]},...], each row with
 * "runs" (how often it ran) after its cost when the engine counts them.
 * A profile has thousands of these rows: each is written in place at the
 * end of the buffer; an instruction text longer than JSON_ROW_TEXT, or
 * one with something to escape, goes through scp_out_put_json_str. */
enum { JSON_ROW_TEXT = 96, JSON_TEXT_ESCAPED = 255 };
/* ',{"pc":' 20 ',"insn":' '"'text'"' ',"cost":[' (20 + 1) * nm ']' ',"runs":' 20 '}' */
#define JSON_ROW_MAX (8 + 20 + 8 + JSON_ROW_TEXT + 2 + 9 + 21 * SCP_MAX_METRICS + 1 + 8 + 20 + 1)

/* What put_pcs learnt of each instruction text (by string id) the first
 * time a row showed it: 0 not yet seen, 1 + its length when it goes into
 * the row as it is, JSON_TEXT_ESCAPED otherwise.  Rows share texts (an
 * ATA create: 3,867 rows, 1,570 texts), so most are scanned once.  nstrs:
 * the profile's string count (the ids seen has room for). */
static __attribute__((noinline)) unsigned text_learn(const char *text, uint8_t *seen, size_t nstrs,
                                                     uint32_t id) {
  size_t plain = scp_out_json_plain(text, JSON_ROW_TEXT);
  unsigned v = text[plain] ? JSON_TEXT_ESCAPED : (unsigned)plain + 1;
  if (id < nstrs) seen[id] = (uint8_t)v;
  return v;
}
/* inline: the first look is all most rows need */
static inline unsigned text_plain(const char *text, uint8_t *seen, size_t nstrs, uint32_t id) {
  if (id < nstrs && seen[id]) return seen[id];
  return text_learn(text, seen, nstrs, id);
}

/* String id as scp_out_put_json_str writes it, learnt once per id as a
 * row's text is (text_plain): for the strings many frames, nodes or
 * lines repeat (a program's name and id, a file). */
static void put_str_id(scp_buf *b, const scp_profile *p, uint8_t *seen, uint32_t id) {
  const char *s = scp_prof_str(p, id);
  unsigned v = text_plain(s, seen, p->strs.n, id);
  char *o = v == JSON_TEXT_ESCAPED ? NULL : scp_buf_room(b, JSON_ROW_TEXT + 2);
  if (!o) {
    scp_out_put_json_str(b, s);
    return;
  }
  *o++ = '"';
  o = scp_out_cpy(o, s, v - 1);
  *o++ = '"';
  scp_buf_commit(b, o);
}

/* Rows are written JSON_ROWS_AT_ONCE to a room asked of the buffer (one
 * check of the buffer's state for all of them), from copies of what they
 * read of the profile: the compiler cannot keep p's fields in registers
 * across the bytes written through o, which might be them. */
enum { JSON_ROWS_AT_ONCE = 32 };
#define JSON_ROWS_ROOM (JSON_ROWS_AT_ONCE * JSON_ROW_MAX)

static void put_pcs(scp_buf *b, const scp_profile *p, const scp_prof_node *n, unsigned nm,
                    uint8_t *seen) {
  if (!n->npcs) return;
  scp_buf_puts(b, ",\"pcs\":[");
  size_t count = n->pcs_first < p->npcs ? p->npcs - n->pcs_first : 0;
  if (count > n->npcs) count = n->npcs;
  const scp_prof_pc *r = p->pcs + n->pcs_first;
  const size_t nstrs = p->strs.n;
  char *const *strs = p->strs.strs;
  const bool runs = p->pc_runs;
  if (!count) {
    scp_buf_putc(b, ']');
    return;
  }
  char *o = scp_buf_room(b, JSON_ROWS_ROOM);
  if (!o) return;   /* b has failed: nothing more reaches it */
  char *lim = o + JSON_ROWS_ROOM;
  for (size_t j = 0; j < count; j++, r++) {
    if ((size_t)(lim - o) < JSON_ROW_MAX) {
      scp_buf_commit(b, o);
      if (!(o = scp_buf_room(b, JSON_ROWS_ROOM))) return;
      lim = o + JSON_ROWS_ROOM;
    }
    const char *text = r->text < nstrs ? strs[r->text] : "";
    o = j ? SCP_OUT_LIT(o, ",{\"pc\":") : SCP_OUT_LIT(o, "{\"pc\":");
    o = scp_out_dec(o, r->pc);
    o = SCP_OUT_LIT(o, ",\"insn\":");
    unsigned v = text_plain(text, seen, nstrs, r->text);
    if (v != JSON_TEXT_ESCAPED) {
      size_t plain = v - 1;
      *o++ = '"';
      o = scp_out_cpy(o, text, plain);
      *o++ = '"';
    } else {
      scp_buf_commit(b, o);
      scp_out_put_json_str(b, text);
      if (!(o = scp_buf_room(b, JSON_ROWS_ROOM))) return;
      lim = o + JSON_ROWS_ROOM;
    }
    o = SCP_OUT_LIT(o, ",\"cost\":");
    o = costs_at(o, r->cost, nm);
    if (runs) {
      o = SCP_OUT_LIT(o, ",\"runs\":");
      o = scp_out_dec(o, r->runs);
    }
    *o++ = '}';
  }
  scp_buf_commit(b, o);
  scp_buf_putc(b, ']');
}

/* Status codes by name, so readers need not know our numbering. */
static const char *status_code(int s) {
  static const char *const names[] = {
#define X(code, exit_status, text) #code,
#include "scprof_err.def"
#undef X
  };
  return s >= 0 && (size_t)s < SCP_ARRAY_LEN(names) ? names[s] : "SCP_UNKNOWN";
}

/* ,"line":N then tail (n bytes) */
static void put_line(scp_buf *b, uint32_t line, const char *tail, size_t n) {
  char t[8 + 10 + 8], *o = SCP_OUT_LIT(t, ",\"line\":");
  o = scp_out_dec(o, line);
  scp_buf_put(b, t, (size_t)(o - t));
  scp_buf_put(b, tail, n);
}

/* "tables": the chain's tables (scp_prof_table), when it has any. */
static void put_tables(scp_buf *b, const scp_profile *p) {
  if (!p->ntables) return;
  scp_buf_puts(b, ",\n\"tables\":[");
  for (size_t k = 0; k < p->ntables; k++) {
    const scp_prof_table *t = &p->tables[k];
    scp_buf_puts(b, k ? ",\n{\"title\":" : "\n{\"title\":");
    scp_out_put_json_str(b, scp_prof_str(p, t->title));
    scp_buf_puts(b, ",\"item\":");
    scp_out_put_json_str(b, scp_prof_str(p, t->item));
    scp_buf_puts(b, ",\"columns\":[");
    for (unsigned c = 0; c < t->ncols; c++) {
      scp_buf_puts(b, c ? ",{\"name\":" : "{\"name\":");
      scp_out_put_json_str(b, scp_prof_str(p, t->col[c]));
      scp_buf_printf(b, ",\"metric\":%d", t->col_metric[c]);
      /* the breakdown row (index in "breakdown".parts) the column sums to */
      if (t->part_cols >> c & 1u) scp_buf_printf(b, ",\"part\":%u", t->col_part[c]);
      scp_buf_putc(b, '}');
    }
    scp_buf_puts(b, "],\"rows\":[");
    for (size_t i = 0; i < t->nrows; i++) {
      const scp_prof_trow *r = &p->trows[t->first + i];
      scp_buf_puts(b, i ? ",\n{\"name\":" : "\n{\"name\":");
      scp_out_put_json_str(b, scp_prof_str(p, r->name));
      scp_buf_puts(b, ",\"values\":");
      put_costs(b, r->v, t->ncols);
      if (*scp_prof_str(p, r->note)) {
        scp_buf_puts(b, ",\"note\":");
        scp_out_put_json_str(b, scp_prof_str(p, r->note));
      }
      if (r->has_node) scp_buf_printf(b, ",\"node\":%u", r->node);
      scp_buf_putc(b, '}');
    }
    scp_buf_putc(b, ']');
    if (*scp_prof_str(p, t->note_title)) {
      scp_buf_puts(b, ",\"note\":");
      scp_out_put_json_str(b, scp_prof_str(p, t->note_title));
    }
    if (t->per_node) scp_buf_puts(b, ",\"per_node\":true");
    if (*scp_prof_str(p, t->footnote)) {
      scp_buf_puts(b, ",\"footnote\":");
      scp_out_put_json_str(b, scp_prof_str(p, t->footnote));
    }
    scp_buf_putc(b, '}');
  }
  scp_buf_putc(b, ']');
}

/* "frames": name, label, kind, file, declaration line, source; a
 * program's code with its program, a program's own frame with what it ran. */
static void put_frames(scp_buf *b, const scp_profile *p, const scp_out_labels *l, uint8_t *seen) {
  scp_buf_puts(b, ",\n\"frames\":[");
  for (uint32_t f = 0; f < p->nframes; f++) {
    const scp_prof_frame *fr = &p->frames[f];
    char *o = scp_buf_room(b, 8 + 10 + 8);
    if (!o) return;   /* b has failed: nothing more reaches it */
    o = f ? SCP_OUT_LIT(o, ",\n{\"id\":") : SCP_OUT_LIT(o, "\n{\"id\":");
    o = scp_out_dec(o, f);
    scp_buf_commit(b, SCP_OUT_LIT(o, ",\"name\":"));
    scp_out_put_json_str(b, scp_prof_str(p, fr->name));
    scp_buf_puts(b, ",\"label\":");
    scp_out_put_json_str(b, scp_out_label_of(l, f));
    scp_buf_puts(b, ",\"kind\":\"");
    scp_buf_puts(b, kind_text(fr->kind));
    scp_buf_puts(b, "\",\"file\":");
    put_str_id(b, p, seen, fr->file);
    if (!(o = scp_buf_room(b, 13 + 10))) return;
    o = scp_out_dec(SCP_OUT_LIT(o, ",\"decl_line\":"), fr->decl_line);
    scp_buf_commit(b, o);
    scp_buf_puts(b, ",\"source\":\"");
    scp_buf_puts(b, source_text(fr->source));
    scp_buf_putc(b, '"');
    /* whose code it is, when the profile runs several programs */
    if (fr->owner_id) {
      scp_buf_puts(b, ",\"program\":");
      put_str_id(b, p, seen, fr->owner);
      scp_buf_puts(b, ",\"program_id\":");
      put_str_id(b, p, seen, fr->owner_id);
    }
    if (fr->detail) {
      scp_buf_puts(b, ",\"instruction\":");
      scp_out_put_json_str(b, scp_prof_str(p, fr->detail));
    }
    if (fr->body) {
      scp_buf_puts(b, ",\"body\":");
      scp_out_put_json_str(b, scp_prof_str(p, fr->body));
    }
    scp_buf_putc(b, '}');
  }
}

static void put_metrics(scp_buf *b, const scp_profile *p, unsigned nm) {
  for (unsigned m = 0; m < nm; m++) {
    const scp_metric *me = &p->metrics[m];
    scp_buf_puts(b, m ? ",{\"name\":" : "{\"name\":");
    scp_out_put_json_str(b, me->name ? me->name : "");
    scp_buf_puts(b, ",\"unit\":");
    scp_out_put_json_str(b, me->unit ? me->unit : "");
    scp_buf_printf(b, ",\"limit\":%llu,\"total\":%llu", (unsigned long long)me->limit,
                   (unsigned long long)scp_out_total(p, m));
    /* the count the limit is checked against, when it is not the total */
    if (p->enforced_set >> m & 1u)
      scp_buf_printf(b, ",\"enforced\":%llu", (unsigned long long)p->enforced[m]);
    scp_buf_putc(b, '}');
  }
}

/* A node's links to the rows of the tables that list things per node
 * (ledger entries): "rows":[[table,row],...], only when it has some.  A
 * per-node table's rows are not listed (every node has them). */
static void put_node_rows(scp_buf *b, const scp_profile *p, uint32_t id) {
  bool any = false;
  for (size_t k = 0; k < p->ntables; k++) {
    const scp_prof_table *t = &p->tables[k];
    if (t->per_node) continue;
    for (size_t i = 0; i < t->nrows; i++) {
      const scp_prof_trow *r = &p->trows[t->first + i];
      if (!r->has_node || r->node != id) continue;
      scp_buf_printf(b, "%s[%zu,%zu]", any ? "," : ",\"rows\":[", k, i);
      any = true;
    }
  }
  if (any) scp_buf_putc(b, ']');
}

/* A node's numbers, up to its "call_site" key, in one append:
 * {"id":..,"parent":..,"depth":..,"frame":..,"calls":..,"self":[..],
 * "total":[..] and "ahead" (of self[0], charged for code that did not
 * run; only in profiles whose engine keeps it). */
static void put_node_head(scp_buf *b, const scp_profile *p, uint32_t id, uint32_t depth, bool first,
                          unsigned nm) {
  const scp_prof_node *n = &p->nodes[id];
  char *o = scp_buf_room(b, 16 + 10 + 10 + 2 + 9 + 10 + 9 + 10 + 9 + 20 + 8 + 21 * SCP_MAX_METRICS +
                                1 + 9 + 21 * SCP_MAX_METRICS + 1 + 9 + 20 + 14);
  if (!o) return;   /* b has failed: nothing more reaches it */
  o = first ? SCP_OUT_LIT(o, "\n{\"id\":") : SCP_OUT_LIT(o, ",\n{\"id\":");
  o = scp_out_dec(o, id);
  o = SCP_OUT_LIT(o, ",\"parent\":");
  o = id == 0 ? SCP_OUT_LIT(o, "-1") : scp_out_dec(o, n->parent);
  o = SCP_OUT_LIT(o, ",\"depth\":");
  o = scp_out_dec(o, depth);
  o = SCP_OUT_LIT(o, ",\"frame\":");
  o = scp_out_dec(o, n->frame);
  o = SCP_OUT_LIT(o, ",\"calls\":");
  o = scp_out_dec(o, n->calls);
  o = SCP_OUT_LIT(o, ",\"self\":");
  o = costs_at(o, n->self, nm);
  o = SCP_OUT_LIT(o, ",\"total\":");
  o = costs_at(o, n->total, nm);
  if (p->ahead) {
    o = SCP_OUT_LIT(o, ",\"ahead\":");
    o = scp_out_dec(o, n->ahead);
  }
  o = SCP_OUT_LIT(o, ",\"call_site\":");
  scp_buf_commit(b, o);
}

int scp_out_json(const scp_profile *p, scp_buf *b) { return scp_out_json_sh(p, NULL, b); }

int scp_out_json_sh(const scp_profile *p, const scp_out_shared *sh, scp_buf *b) {
  int rc = SCP_ERR_NOMEM;
  unsigned nm = p->nmetrics < SCP_MAX_METRICS ? p->nmetrics : SCP_MAX_METRICS;
  scp_out_labels l = {0};
  scp_out_kids k = {0};
  uint32_t *todo = NULL, *depth = NULL;
  uint8_t *seen = NULL;
  if (scp_out_tree(p, sh, &l, &k)) goto fail;
  todo = malloc((p->nnodes ? p->nnodes : 1) * sizeof *todo);
  depth = calloc(p->nnodes ? p->nnodes : 1, sizeof *depth);
  seen = calloc(p->strs.n ? p->strs.n : 1, 1);
  if (!todo || !depth || !seen) goto fail;

  scp_buf_printf(b, "{\"schema\":\"scprof-report\",\"version\":%d,\n\"title\":",
                 SCP_OUT_JSON_VERSION);
  scp_out_put_json_str(b, scp_prof_str(p, p->title));
  scp_buf_printf(b, ",\n\"status\":{\"code\":\"%s\",\"text\":", status_code(p->status));
  scp_out_put_json_str(b, scp_out_status_text(p));
  scp_buf_puts(b, ",\"message\":");
  scp_out_put_json_str(b, scp_prof_str(p, p->status_msg));
  scp_buf_puts(b, "},\n\"meta\":[");
  for (size_t i = 0; i < p->nmeta; i++) {
    scp_buf_puts(b, i ? ",{\"key\":" : "{\"key\":");
    scp_out_put_json_str(b, scp_prof_str(p, p->meta[i].key));
    scp_buf_puts(b, ",\"value\":");
    scp_out_put_json_str(b, scp_prof_str(p, p->meta[i].value));
    scp_buf_putc(b, '}');
  }
  scp_buf_puts(b, "],\n\"metrics\":[");
  put_metrics(b, p, nm);
  scp_buf_putc(b, ']');
  if (p->nparts) {
    scp_buf_puts(b, ",\n\"breakdown\":{\"title\":");
    scp_out_put_json_str(b, scp_prof_str(p, p->parts_title));
    scp_buf_printf(b, ",\"metric\":%u,\"parts\":[", p->parts_metric);
    for (size_t i = 0; i < p->nparts; i++) {
      scp_buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
      scp_out_put_json_str(b, scp_prof_str(p, p->parts[i].name));
      scp_buf_puts(b, ",\"amount\":");
      scp_out_put_json_str(b, scp_prof_str(p, p->parts[i].amount));
      scp_buf_printf(b, ",\"cost\":%llu}", (unsigned long long)p->parts[i].cost);
    }
    scp_buf_puts(b, "]}");
  }
  put_tables(b, p);
  put_frames(b, p, &l, seen);
  scp_buf_puts(b, "],\n\"nodes\":[");
  size_t ntodo = 0;
  bool first = true;
  if (p->nnodes) todo[ntodo++] = 0;
  while (ntodo) {
    uint32_t id = todo[--ntodo];
    const scp_prof_node *n = &p->nodes[id];
    put_node_head(b, p, id, depth[id], first, nm);
    first = false;
    if (n->call_line || n->call_file) {
      scp_buf_puts(b, "{\"file\":");
      put_str_id(b, p, seen, n->call_file);
      put_line(b, n->call_line, "}", 1);
    } else {
      scp_buf_puts(b, "null");
    }
    scp_buf_puts(b, ",\"lines\":[");
    for (uint32_t j = 0; j < n->nlines && n->lines_first + j < p->nlines; j++) {
      const scp_prof_line *ln = &p->lines[n->lines_first + j];
      scp_buf_puts(b, j ? ",{\"file\":" : "{\"file\":");
      put_str_id(b, p, seen, ln->file);
      put_line(b, ln->line, ",\"cost\":", 8);
      put_costs(b, ln->cost, nm);
      if (p->ahead) {
        char t[9 + 20], *o = SCP_OUT_LIT(t, ",\"ahead\":");
        o = scp_out_dec(o, ln->ahead);
        scp_buf_put(b, t, (size_t)(o - t));
      }
      scp_buf_putc(b, '}');
    }
    scp_buf_putc(b, ']');
    put_pcs(b, p, n, nm, seen);
    put_node_rows(b, p, id);
    scp_buf_putc(b, '}');
    for (uint32_t i = k.start[id + 1]; i-- > k.start[id];) {
      depth[k.ids[i]] = depth[id] + 1;
      todo[ntodo++] = k.ids[i];
    }
  }
  scp_buf_puts(b, "\n]");
  /* last, so a reader of the keys before it sees them unchanged; Soroban,
   * the first chain, is the default when the key is absent */
  if (p->chain == SCP_CHAIN_SOLANA) scp_buf_puts(b, ",\n\"chain\":\"solana\"");
  scp_buf_puts(b, "}\n");
  rc = scp_out_done(b);
fail:
  free(todo);
  free(depth);
  free(seen);
  scp_out_tree_done(p, sh, &l, &k);
  return rc;
}

/* ---- reading a report back ---------------------------------------------- */

typedef struct loader {
  scp_profile *p;
  const char *name;
  scp_error *err;
} loader;

static int bad(loader *l, const char *what) {
  return scp_fail(l->err, SCP_ERR_MALFORMED, "%s: not a scprof JSON report: %s", l->name, what);
}

static bool get_u64(json_t *obj, const char *key, uint64_t *v) {
  json_t *j = json_object_get(obj, key);
  if (!json_is_integer(j) || json_integer_value(j) < 0) return false;
  *v = (uint64_t)json_integer_value(j);
  return true;
}

/* Optional "ahead": absent is 0; never more than the CPU it is part of. */
static bool get_ahead(json_t *obj, uint64_t cpu, uint64_t *v) {
  *v = 0;
  if (!json_object_get(obj, "ahead")) return true;
  return get_u64(obj, "ahead", v) && *v <= cpu;
}

static bool get_u32(json_t *obj, const char *key, uint32_t *v) {
  uint64_t x;
  if (!get_u64(obj, key, &x) || x > UINT32_MAX) return false;
  *v = (uint32_t)x;
  return true;
}

/* Interns the string member `key` (missing or not a string: false). */
static bool get_str(loader *l, json_t *obj, const char *key, uint32_t *id) {
  json_t *j = json_object_get(obj, key);
  if (!json_is_string(j)) return false;
  *id = scp_strtab_intern_safe(&l->p->strs, json_string_value(j), json_string_length(j));
  return *id != UINT32_MAX;
}

/* An optional string member: absent is "" (id 0). */
static bool opt_str(loader *l, json_t *obj, const char *key, uint32_t *id) {
  *id = 0;
  return !json_object_get(obj, key) || get_str(l, obj, key, id);
}

static bool get_costs(json_t *arr, unsigned nm, uint64_t *out) {
  if (!json_is_array(arr) || json_array_size(arr) != nm) return false;
  for (unsigned m = 0; m < nm; m++) {
    json_t *j = json_array_get(arr, m);
    if (!json_is_integer(j) || json_integer_value(j) < 0) return false;
    out[m] = (uint64_t)json_integer_value(j);
  }
  return true;
}

static int text_index(const char *s, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (names[i] && strcmp(names[i], s) == 0) return (int)i;
  return -1;
}

/* "breakdown" (version 2): a metric's rows by component; optional. */
static int load_breakdown(loader *l, json_t *root) {
  scp_profile *p = l->p;
  json_t *bd = json_object_get(root, "breakdown");
  if (!bd) return SCP_OK;
  json_t *parts = json_object_get(bd, "parts");
  uint64_t metric;
  if (!get_str(l, bd, "title", &p->parts_title) || !get_u64(bd, "metric", &metric) ||
      metric >= p->nmetrics || !json_is_array(parts))
    return bad(l, "bad breakdown");
  p->parts_metric = (unsigned)metric;
  for (size_t i = 0; i < json_array_size(parts); i++) {
    json_t *j = json_array_get(parts, i);
    scp_prof_part pt;
    if (!get_str(l, j, "name", &pt.name) || !get_str(l, j, "amount", &pt.amount) ||
        !get_u64(j, "cost", &pt.cost))
      return bad(l, "bad breakdown part");
    if (!scp_grow(&p->parts, &p->capparts, p->nparts + 1, sizeof *p->parts)) return SCP_ERR_NOMEM;
    p->parts[p->nparts++] = pt;
  }
  return SCP_OK;
}

/* "tables": optional; columns that break a metric down are checked
 * against the metric's total once the nodes are read. */
static int load_tables(loader *l, json_t *root) {
  scp_profile *p = l->p;
  json_t *tables = json_object_get(root, "tables");
  if (!tables) return SCP_OK;
  if (!json_is_array(tables)) return bad(l, "bad tables");
  for (size_t k = 0; k < json_array_size(tables); k++) {
    json_t *jt = json_array_get(tables, k), *cols = json_object_get(jt, "columns"),
           *rows = json_object_get(jt, "rows");
    scp_prof_table t = {.first = p->ntrows};
    if (!get_str(l, jt, "title", &t.title) || !get_str(l, jt, "item", &t.item) ||
        !json_is_array(cols) || !json_array_size(cols) ||
        json_array_size(cols) > SCP_PROF_TABLE_COLS || !json_is_array(rows))
      return bad(l, "bad table");
    t.ncols = (unsigned)json_array_size(cols);
    for (unsigned c = 0; c < t.ncols; c++) {
      json_t *jc = json_array_get(cols, c), *m = json_object_get(jc, "metric");
      if (!get_str(l, jc, "name", &t.col[c]) || !json_is_integer(m) ||
          json_integer_value(m) < -1 || json_integer_value(m) >= (json_int_t)p->nmetrics)
        return bad(l, "bad table column");
      t.col_metric[c] = (int)json_integer_value(m);
      json_t *part = json_object_get(jc, "part");
      if (part) {
        if (!json_is_integer(part) || json_integer_value(part) < 0 ||
            (size_t)json_integer_value(part) >= p->nparts)
          return bad(l, "bad table column part");
        t.part_cols |= 1u << c;
        t.col_part[c] = (uint32_t)json_integer_value(part);
      }
    }
    json_t *per_node = json_object_get(jt, "per_node");
    if (per_node && !json_is_true(per_node)) return bad(l, "bad table per_node");
    t.per_node = per_node != NULL;
    if (json_object_get(jt, "note") && !get_str(l, jt, "note", &t.note_title))
      return bad(l, "bad table note");
    if (json_object_get(jt, "footnote") && !get_str(l, jt, "footnote", &t.footnote))
      return bad(l, "bad table footnote");
    for (size_t i = 0; i < json_array_size(rows); i++) {
      json_t *jr = json_array_get(rows, i);
      scp_prof_trow r = {0};
      if (!get_str(l, jr, "name", &r.name) ||
          !get_costs(json_object_get(jr, "values"), t.ncols, r.v) ||
          (json_object_get(jr, "note") && !get_str(l, jr, "note", &r.note)) ||
          (json_object_get(jr, "node") && !get_u32(jr, "node", &r.node)))
        return bad(l, "bad table row");
      /* the node is checked once the nodes are read (scp_prof_tables_check) */
      r.has_node = json_object_get(jr, "node") != NULL;
      if (!scp_grow(&p->trows, &p->captrows, p->ntrows + 1, sizeof *p->trows)) return SCP_ERR_NOMEM;
      p->trows[p->ntrows++] = r;
      t.nrows++;
    }
    if (!scp_grow(&p->tables, &p->captables, p->ntables + 1, sizeof *p->tables)) return SCP_ERR_NOMEM;
    p->tables[p->ntables++] = t;
  }
  return SCP_OK;
}

static int load_header(loader *l, json_t *root) {
  scp_profile *p = l->p;
  json_t *schema = json_object_get(root, "schema");
  uint64_t version;
  if (!json_is_string(schema) || strcmp(json_string_value(schema), "scprof-report") != 0)
    return bad(l, "no \"schema\":\"scprof-report\"");
  if (!get_u64(root, "version", &version) || version < 1 || version > SCP_OUT_JSON_VERSION)
    return bad(l, "unsupported version");
  json_t *st = json_object_get(root, "status");
  json_t *code = json_object_get(st, "code");
  if (!get_str(l, root, "title", &p->title) || !json_is_string(code) ||
      !get_str(l, st, "message", &p->status_msg))
    return bad(l, "title or status missing");
  static const char *const codes[] = {
#define X(c, exit_status, text) #c,
#include "scprof_err.def"
#undef X
  };
  int s = text_index(json_string_value(code), codes, SCP_ARRAY_LEN(codes));
  if (s < 0) return bad(l, "unknown status code");
  p->status = s;
  static const char *const chains[] = {[SCP_CHAIN_SOROBAN] = "soroban", [SCP_CHAIN_SOLANA] = "solana"};
  json_t *chain = json_object_get(root, "chain");
  int ch = chain ? text_index(json_is_string(chain) ? json_string_value(chain) : "", chains,
                              SCP_ARRAY_LEN(chains))
                 : SCP_CHAIN_SOROBAN;
  if (ch < 0) return bad(l, "unknown chain");
  p->chain = (uint8_t)ch;
  json_t *meta = json_object_get(root, "meta");
  if (!json_is_array(meta)) return bad(l, "meta missing");
  for (size_t i = 0; i < json_array_size(meta); i++) {
    scp_meta mt;
    if (!get_str(l, json_array_get(meta, i), "key", &mt.key) ||
        !get_str(l, json_array_get(meta, i), "value", &mt.value))
      return bad(l, "bad meta entry");
    if (!scp_grow(&p->meta, &p->capmeta, p->nmeta + 1, sizeof *p->meta)) return SCP_ERR_NOMEM;
    p->meta[p->nmeta++] = mt;
  }
  json_t *metrics = json_object_get(root, "metrics");
  if (!json_is_array(metrics) || json_array_size(metrics) == 0 ||
      json_array_size(metrics) > SCP_MAX_METRICS)
    return bad(l, "metrics missing or too many");
  p->nmetrics = (unsigned)json_array_size(metrics);
  for (unsigned m = 0; m < p->nmetrics; m++) {
    json_t *j = json_array_get(metrics, m);
    uint32_t name, unit;
    if (!get_str(l, j, "name", &name) || !get_str(l, j, "unit", &unit) ||
        !get_u64(j, "limit", &p->metrics[m].limit))
      return bad(l, "bad metric");
    json_t *enf = json_object_get(j, "enforced");
    if (enf) {
      if (!get_u64(j, "enforced", &p->enforced[m])) return bad(l, "bad metric enforced count");
      p->enforced_set |= 1u << m;
    }
    /* the interned copies live as long as the profile */
    p->metrics[m].name = scp_prof_str(p, name);
    p->metrics[m].unit = scp_prof_str(p, unit);
  }
  int rc = load_breakdown(l, root);
  return rc ? rc : load_tables(l, root);
}

static int load_frames(loader *l, json_t *root) {
  scp_profile *p = l->p;
  static const char *const kinds[] = {"root", "guest", "inlined", "host", "contract", "vm",
                                      "truncated"};
  static const char *const sources[] = {"dwarf", "name-section", "symtab", "raw", "host", "export"};
  _Static_assert(SCP_ARRAY_LEN(kinds) == SCP_KIND_COUNT, "one name per kind");
  json_t *frames = json_object_get(root, "frames");
  if (!json_is_array(frames)) return bad(l, "frames missing");
  size_t n = json_array_size(frames);
  if (!scp_grow(&p->frames, &p->capframes, n ? n : 1, sizeof *p->frames)) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < n; i++) {
    json_t *j = json_array_get(frames, i);
    scp_prof_frame *f = &p->frames[i];
    uint32_t id;
    json_t *kind = json_object_get(j, "kind"), *src = json_object_get(j, "source");
    if (!get_u32(j, "id", &id) || id != i || !get_str(l, j, "name", &f->name) ||
        !get_str(l, j, "file", &f->file) || !get_u32(j, "decl_line", &f->decl_line) ||
        !json_is_string(kind) || !json_is_string(src))
      return bad(l, "bad frame");
    int k = text_index(json_string_value(kind), kinds, SCP_ARRAY_LEN(kinds));
    int s = text_index(json_string_value(src), sources, SCP_ARRAY_LEN(sources));
    if (k < 0 || s < 0) return bad(l, "unknown frame kind or source");
    if (!opt_str(l, j, "program", &f->owner) || !opt_str(l, j, "program_id", &f->owner_id) ||
        !opt_str(l, j, "instruction", &f->detail))
      return bad(l, "bad frame");
    f->kind = (uint8_t)k;
    f->source = (uint8_t)s;
    f->body = 0;
    if (json_object_get(j, "body") && !get_str(l, j, "body", &f->body))
      return bad(l, "bad frame body");
    p->nframes = i + 1;
  }
  return SCP_OK;
}

/* A node's "pcs" (absent: none): each pc once, ascending, their costs
 * within the node's self cost; "runs" on every row of the report or on
 * none (the first row read says which). */
static int load_pcs(loader *l, json_t *j, scp_prof_node *nd) {
  scp_profile *p = l->p;
  json_t *pcs = json_object_get(j, "pcs");
  if (!pcs) return SCP_OK;
  if (!json_is_array(pcs) || !json_array_size(pcs)) return bad(l, "bad node: \"pcs\" is not a non-empty array");
  uint64_t sum[SCP_MAX_METRICS] = {0};
  nd->pcs_first = (uint32_t)p->npcs;
  for (size_t k = 0; k < json_array_size(pcs); k++) {
    json_t *r = json_array_get(pcs, k);
    if (!scp_grow(&p->pcs, &p->cappcs, p->npcs + 1, sizeof *p->pcs)) return SCP_ERR_NOMEM;
    scp_prof_pc *pc = &p->pcs[p->npcs];
    *pc = (scp_prof_pc){.node = (uint32_t)(nd - p->nodes)};
    if (!get_u64(r, "pc", &pc->pc) || !get_str(l, r, "insn", &pc->text) ||
        !get_costs(json_object_get(r, "cost"), p->nmetrics, pc->cost) ||
        (k && pc->pc <= pc[-1].pc))
      return bad(l, "bad node: a \"pcs\" row");
    bool runs = json_object_get(r, "runs") != NULL;
    if (!p->npcs) p->pc_runs = runs;
    if (runs != p->pc_runs || (runs && !get_u64(r, "runs", &pc->runs)))
      return bad(l, "bad node: a \"pcs\" row's \"runs\" (a count on every row or on none)");
    for (unsigned m = 0; m < p->nmetrics; m++)
      if (pc->cost[m] > nd->self[m] - sum[m]) return bad(l, "bad node: \"pcs\" cost more than its self cost");
      else sum[m] += pc->cost[m];
    p->npcs++;
    nd->npcs++;
  }
  return SCP_OK;
}

/* How many rows of the tables that list things per node link to each of
 * n nodes (a calloc'd array; NULL on OOM). */
static uint32_t *node_row_counts(const scp_profile *p, size_t n) {
  uint32_t *c = calloc(n ? n : 1, sizeof *c);
  if (!c) return NULL;
  for (size_t k = 0; k < p->ntables; k++) {
    const scp_prof_table *t = &p->tables[k];
    for (size_t i = 0; i < t->nrows && !t->per_node; i++) {
      const scp_prof_trow *r = &p->trows[t->first + i];
      if (r->has_node && r->node < n) c[r->node]++;
    }
  }
  return c;
}

/* A node's "rows" (put_node_rows): exactly the rows that name it, in
 * order; absent when none do. */
static bool node_rows_ok(const scp_profile *p, json_t *j, uint32_t id, uint32_t expected) {
  json_t *rows = json_object_get(j, "rows");
  if (!rows) return expected == 0;
  if (!json_is_array(rows) || json_array_size(rows) != expected || !expected) return false;
  size_t last_k = 0, last_i = 0;
  for (size_t x = 0; x < expected; x++) {
    json_t *pair = json_array_get(rows, x), *jk = json_array_get(pair, 0),
           *ji = json_array_get(pair, 1);
    if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_integer(jk) ||
        !json_is_integer(ji) || json_integer_value(jk) < 0 || json_integer_value(ji) < 0)
      return false;
    size_t k = (size_t)json_integer_value(jk), i = (size_t)json_integer_value(ji);
    if (k >= p->ntables || i >= p->tables[k].nrows || p->tables[k].per_node) return false;
    if (x && (k < last_k || (k == last_k && i <= last_i))) return false;
    const scp_prof_trow *r = &p->trows[p->tables[k].first + i];
    if (!r->has_node || r->node != id) return false;
    last_k = k;
    last_i = i;
  }
  return true;
}

static int load_nodes(loader *l, json_t *root) {
  scp_profile *p = l->p;
  json_t *nodes = json_object_get(root, "nodes");
  if (!json_is_array(nodes) || json_array_size(nodes) == 0) return bad(l, "nodes missing");
  size_t n = json_array_size(nodes);
  if (n >= UINT32_MAX) return bad(l, "too many nodes");
  if (!scp_grow(&p->nodes, &p->capnodes, n, sizeof *p->nodes)) return SCP_ERR_NOMEM;
  uint32_t *last_child = malloc(n * sizeof *last_child);
  bool *seen = calloc(n, sizeof *seen);
  uint32_t *nrows = node_row_counts(p, n);
  int rc = SCP_ERR_NOMEM;
  if (!last_child || !seen || !nrows) goto done;
  for (size_t i = 0; i < n; i++) {
    p->nodes[i] = (scp_prof_node){.parent = SCP_NODE_NONE, .first_child = SCP_NODE_NONE,
                                  .next_sibling = SCP_NODE_NONE};
    last_child[i] = SCP_NODE_NONE;
  }
  p->nnodes = n;
  for (size_t i = 0; i < n; i++) {
    json_t *j = json_array_get(nodes, i);
    uint32_t id, frame;
    json_t *parent = json_object_get(j, "parent");
    if (!get_u32(j, "id", &id) || id >= n || seen[id] || !get_u32(j, "frame", &frame) ||
        frame >= p->nframes || !json_is_integer(parent))
      goto malformed;
    json_int_t par = json_integer_value(parent);
    /* pre-order: the root first, every parent before its children */
    if ((i == 0) != (par == -1) || (i == 0 && id != 0) ||
        (par != -1 && (par < 0 || (size_t)par >= n || !seen[par])))
      goto malformed;
    seen[id] = true;
    if (!node_rows_ok(p, j, id, nrows[id])) goto malformed;
    scp_prof_node *nd = &p->nodes[id];
    nd->frame = frame;
    if (!get_u64(j, "calls", &nd->calls) || !get_costs(json_object_get(j, "self"), p->nmetrics, nd->self) ||
        !get_costs(json_object_get(j, "total"), p->nmetrics, nd->total) ||
        !get_ahead(j, nd->self[0], &nd->ahead))
      goto malformed;
    p->ahead += nd->ahead;
    if (par != -1) {
      nd->parent = (uint32_t)par;
      nd->depth = p->nodes[par].depth + 1;
      if (last_child[par] == SCP_NODE_NONE) p->nodes[par].first_child = id;
      else p->nodes[last_child[par]].next_sibling = id;
      last_child[par] = id;
    }
    json_t *site = json_object_get(j, "call_site");
    if (json_is_object(site)) {
      if (!get_str(l, site, "file", &nd->call_file) || !get_u32(site, "line", &nd->call_line))
        goto malformed;
    } else if (!json_is_null(site)) {
      goto malformed;
    }
    json_t *lines = json_object_get(j, "lines");
    if (!json_is_array(lines)) goto malformed;
    nd->lines_first = (uint32_t)p->nlines;
    nd->nlines = (uint32_t)json_array_size(lines);
    for (size_t k = 0; k < json_array_size(lines); k++) {
      json_t *lj = json_array_get(lines, k);
      if (!scp_grow(&p->lines, &p->caplines, p->nlines + 1, sizeof *p->lines)) goto done;
      scp_prof_line *pl = &p->lines[p->nlines];
      memset(pl, 0, sizeof *pl);
      if (!get_str(l, lj, "file", &pl->file) || !get_u32(lj, "line", &pl->line) ||
          !get_costs(json_object_get(lj, "cost"), p->nmetrics, pl->cost) ||
          !get_ahead(lj, pl->cost[0], &pl->ahead))
        goto malformed;
      p->nlines++;
    }
    if ((rc = load_pcs(l, j, nd)) != SCP_OK) goto done;
  }
  rc = SCP_OK;
  goto done;
malformed:
  rc = bad(l, "bad node");
done:
  free(last_child);
  free(seen);
  free(nrows);
  return rc;
}


int scp_out_json_load(const char *text, size_t len, const char *name,
                      scp_profile **out, scp_error *err) {
  *out = NULL;
  loader l = {.p = calloc(1, sizeof *l.p), .name = name ? name : "JSON report", .err = err};
  if (!l.p) return scp_fail(err, SCP_ERR_NOMEM, "%s: out of memory", l.name);
  json_error_t jerr;
  json_t *root = json_loadb(text, len, 0, &jerr);
  int rc;
  if (!root) {
    rc = scp_fail(err, SCP_ERR_MALFORMED, "%s:%d: %s", l.name, jerr.line, jerr.text);
  } else if (scp_strtab_intern(&l.p->strs, "") != 0) {
    rc = SCP_ERR_NOMEM;
  } else if (!(rc = load_header(&l, root)) && !(rc = load_frames(&l, root))) {
    rc = load_nodes(&l, root);
    if (!rc && !scp_prof_tables_check(l.p))
      rc = bad(&l, "a table's column does not sum to its metric's total (or its node's, or its "
                   "breakdown row's), or a row names no node");
  }
  json_decref(root);
  if (rc == SCP_ERR_NOMEM) scp_fail(err, rc, "%s: out of memory", l.name);
  if (rc) {
    scp_profile_destroy(l.p);
    return rc;
  }
  *out = l.p;
  return SCP_OK;
}
