/*
 * arg_json.c — contract-call arguments typed by the contract's spec and
 * given as JSON.  Nested arguments (vec, map, tuple, UDTs, muxed
 * addresses) are read in stellar-cli's conventions (soroban-spec-tools
 * from_json), built as a tree of ScVals, map entries sorted as ScVal's Ord
 * sorts them (the host refuses an unsorted ScMap, and stellar-cli sorts),
 * and written as the ScVal XDR the reference's InvokeContractArgs would
 * carry.  Scalars are parsed by args.c, whose text helpers this shares.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/core/scp_val.h"
#include "soroban/run/arg_json.h"
#include "soroban/run/args.h"

enum { SCV_BOOL = 0, SCV_VOID = 1, SCV_ERROR = 2, SCV_U32 = 3, SCV_I32 = 4, SCV_U64 = 5,
       SCV_I64 = 6, SCV_TIMEPOINT = 7, SCV_DURATION = 8, SCV_U128 = 9, SCV_I128 = 10,
       SCV_U256 = 11, SCV_I256 = 12, SCV_BYTES = 13, SCV_STRING = 14, SCV_SYMBOL = 15,
       SCV_VEC = 16, SCV_MAP = 17, SCV_ADDRESS = 18 };

/* One ScVal.  Integers in w (XDR word order: hi first); bytes, strings,
 * symbols and address keys in data; address: w[0] ScAddressType, w[1] the
 * muxed id; vec: n kids; map: 2n kids, key then value. */
typedef struct jnode {
  uint32_t t;
  uint64_t w[4];
  uint8_t *data;
  uint32_t len;
  struct jnode *kids;
  uint32_t n;
} jnode;

typedef struct jctx {
  const scp_spec *spec;
  scp_error *err;
  char path[256];      /* "--pair.b[1]" */
  unsigned depth;
} jctx;

static void jnode_free(jnode *n) {
  uint32_t k = n->t == SCV_MAP ? 2 * n->n : n->n;
  for (uint32_t i = 0; n->kids && i < k; i++) jnode_free(&n->kids[i]);
  free(n->kids);
  free(n->data);
  memset(n, 0, sizeof *n);
}

static int jfail(jctx *c, const char *what) {
  return scp_fail(c->err, SCP_ERR_ARG, "argument %s: %s", c->path, what);
}

static int cmp_u(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }
static int cmp_i(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

static int cmp_bytes(const uint8_t *a, uint32_t na, const uint8_t *b, uint32_t nb) {
  int r = memcmp(a, b, na < nb ? na : nb);
  return r ? (r < 0 ? -1 : 1) : cmp_u(na, nb);
}

/* ScVal's derived Ord: the variant first, then its fields in order. */
static int jnode_cmp(const jnode *a, const jnode *b) {
  if (a->t != b->t) return cmp_u(a->t, b->t);
  int r = 0;
  switch (a->t) {
  case SCV_I32: return cmp_i((int32_t)a->w[0], (int32_t)b->w[0]);
  case SCV_I64: return cmp_i((int64_t)a->w[0], (int64_t)b->w[0]);
  case SCV_I128: case SCV_I256:
    if ((r = cmp_i((int64_t)a->w[0], (int64_t)b->w[0]))) return r;
    for (int k = 1; k < 4 && !r; k++) r = cmp_u(a->w[k], b->w[k]);
    return r;
  case SCV_BYTES: case SCV_STRING: case SCV_SYMBOL:
    return cmp_bytes(a->data, a->len, b->data, b->len);
  case SCV_ADDRESS:
    if ((r = cmp_u(a->w[0], b->w[0]))) return r;
    if (a->w[0] == 2 && (r = cmp_u(a->w[1], b->w[1]))) return r;
    return cmp_bytes(a->data, 32, b->data, 32);
  case SCV_VEC: case SCV_MAP: {
    uint32_t m = a->t == SCV_MAP ? 2 : 1;
    for (uint32_t k = 0; k < m * a->n && k < m * b->n && !r; k++)
      r = jnode_cmp(&a->kids[k], &b->kids[k]);
    return r ? r : cmp_u(a->n, b->n);
  }
  default:   /* bool, void, error, unsigned integers: words in order */
    for (int k = 0; k < 4 && !r; k++) r = cmp_u(a->w[k], b->w[k]);
    return r;
  }
}

static int pair_cmp(const void *x, const void *y) {
  return jnode_cmp((const jnode *)x, (const jnode *)y);
}

/* Sort a map's entries by key; two equal keys are an error. */
static int sort_map(jctx *c, jnode *m) {
  /* kids are (key, value) blocks; the comparator reads the key */
  if (m->n) qsort(m->kids, m->n, 2 * sizeof *m->kids, pair_cmp);
  for (uint32_t k = 1; k < m->n; k++)
    if (!jnode_cmp(&m->kids[2 * k - 2], &m->kids[2 * k])) return jfail(c, "duplicate map key");
  return SCP_OK;
}

static int node_buf(jctx *c, jnode *n, uint32_t t, const uint8_t *p, size_t len) {
  n->t = t;
  n->len = (uint32_t)len;
  n->data = malloc(len ? len : 1);
  if (!n->data) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
  if (len && p) memcpy(n->data, p, len);
  return SCP_OK;
}

/* G... (account), C... (contract) or, when muxed, M... (muxed account:
 * 32-byte key then the id, big-endian). */
static int node_address(jctx *c, jnode *n, const char *text, bool muxed) {
  uint8_t raw[48];
  size_t len;
  size_t tl = strlen(text);
  bool ok = scp_arg_strkey_decode((const uint8_t *)text, tl, raw, sizeof raw, &len);
  if (ok && raw[0] == (6 << 3) && len == 35) n->w[0] = 0;
  else if (ok && raw[0] == (2 << 3) && len == 35) n->w[0] = 1;
  else if (ok && muxed && raw[0] == (12 << 3) && len == 43) {
    n->w[0] = 2;
    n->w[1] = scp_be64(raw + 33);
  } else {
    return jfail(c, muxed ? "not a muxed address strkey (G..., M... or C...)"
                          : "not an address strkey (G... account or C... contract)");
  }
  return node_buf(c, n, SCV_ADDRESS, raw + 1, 32);
}

/* The scalar text of a JSON value: a string as is, an integer in decimal,
 * true/false; NULL for anything else. */
static const char *scalar_text(json_t *j, char *tmp, size_t cap) {
  if (json_is_string(j)) return json_string_value(j);
  if (json_is_integer(j)) {
    snprintf(tmp, cap, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
    return tmp;
  }
  if (json_is_boolean(j)) return json_is_true(j) ? "true" : "false";
  return NULL;
}

/* The scp_arg_parse type of a scalar spec kind (void and addresses are
 * handled apart), or NULL. */
static const char *scalar_name(uint32_t kind) {
  return kind == SCP_SPEC_VOID || kind == SCP_SPEC_ADDRESS ? NULL : scp_spec_kind_arg(kind);
}

/* A scalar spec type from text (the JSON value's, or a map key's). */
static int node_scalar(jctx *c, const scp_spec_type *t, const char *text, jnode *n) {
  if (t->kind == SCP_SPEC_ADDRESS || t->kind == SCP_SPEC_MUXED_ADDRESS)
    return node_address(c, n, text, t->kind == SCP_SPEC_MUXED_ADDRESS);
  const char *name = scalar_name(t->kind);
  scp_arg a;
  int rc = scp_arg_parse_as(name, strlen(name), text, c->path, &a, c->err);
  if (rc != SCP_OK) return rc;
  switch (t->kind) {
  case SCP_SPEC_BOOL: n->t = SCV_BOOL; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_U32: n->t = SCV_U32; n->w[0] = (uint32_t)a.lo; return SCP_OK;
  case SCP_SPEC_I32: n->t = SCV_I32; n->w[0] = (uint32_t)a.lo; return SCP_OK;
  case SCP_SPEC_U64: n->t = SCV_U64; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_I64: n->t = SCV_I64; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_TIMEPOINT: n->t = SCV_TIMEPOINT; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_DURATION: n->t = SCV_DURATION; n->w[0] = a.lo; return SCP_OK;
  case SCP_SPEC_U128: case SCP_SPEC_I128:
    n->t = t->kind == SCP_SPEC_U128 ? SCV_U128 : SCV_I128;
    n->w[0] = a.hi;
    n->w[1] = a.lo;
    return SCP_OK;
  case SCP_SPEC_U256: case SCP_SPEC_I256: {
    uint8_t be[32];
    scp_arg_parse_256(text, strlen(text), t->kind == SCP_SPEC_I256, be);   /* checked above */
    n->t = t->kind == SCP_SPEC_U256 ? SCV_U256 : SCV_I256;
    for (int k = 0; k < 4; k++) n->w[k] = scp_be64(be + 8 * k);
    return SCP_OK;
  }
  case SCP_SPEC_BYTES: case SCP_SPEC_BYTES_N: {
    size_t nb = a.len / 2;
    if (t->kind == SCP_SPEC_BYTES_N && nb != t->n) {
      char what[96];
      snprintf(what, sizeof what, "bytesn<%u> takes exactly %u bytes, got %zu", t->n, t->n, nb);
      return jfail(c, what);
    }
    rc = node_buf(c, n, SCV_BYTES, NULL, nb);
    if (rc == SCP_OK) scp_arg_hex_decode(a.data, nb, n->data);
    return rc;
  }
  case SCP_SPEC_STRING: return node_buf(c, n, SCV_STRING, a.data, a.len);
  default: return node_buf(c, n, SCV_SYMBOL, a.data, a.len);
  }
}

static int from_json(jctx *c, const scp_spec_type *t, json_t *j, jnode *n);

/* c->path grows by a suffix while a child is converted. */
static int child(jctx *c, const scp_spec_type *t, json_t *j, jnode *n, const char *fmt,
                 const char *s, size_t i) {
  size_t at = strlen(c->path);
  if (s) snprintf(c->path + at, sizeof c->path - at, fmt, s);
  else snprintf(c->path + at, sizeof c->path - at, fmt, i);
  int rc = from_json(c, t, j, n);
  if (rc == SCP_OK) c->path[at] = 0;   /* an error message keeps the path */
  return rc;
}

static int kids(jctx *c, jnode *n, uint32_t t, size_t count) {
  n->t = t;
  if (count > UINT32_MAX / 2) return jfail(c, "too many elements");
  n->n = (uint32_t)count;
  n->kids = calloc(count ? (t == SCV_MAP ? 2 * count : count) : 1, sizeof *n->kids);
  return n->kids ? SCP_OK : scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
}

/* A map: a JSON object (keys typed from their text) or an array of
 * [key, value] pairs. */
static int from_json_map(jctx *c, const scp_spec_type *t, json_t *j, jnode *n) {
  int rc;
  if (json_is_object(j)) {
    if ((rc = kids(c, n, SCV_MAP, json_object_size(j)))) return rc;
    const char *key;
    json_t *v;
    size_t i = 0;
    json_object_foreach(j, key, v) {
      const scp_spec_type *kt = &t->sub[0];
      json_t *kj = NULL;
      if (scalar_name(kt->kind) || kt->kind == SCP_SPEC_ADDRESS ||
          kt->kind == SCP_SPEC_MUXED_ADDRESS) {
        kj = json_string(key);
      } else {
        kj = json_loads(key, JSON_DECODE_ANY, NULL);
        if (!kj) kj = json_string(key);
      }
      if (!kj) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
      rc = child(c, kt, kj, &n->kids[2 * i], "{%s}", key, 0);
      json_decref(kj);
      if (rc == SCP_OK) rc = child(c, &t->sub[1], v, &n->kids[2 * i + 1], ".%s", key, 0);
      if (rc != SCP_OK) return rc;
      i++;
    }
  } else if (json_is_array(j)) {
    if ((rc = kids(c, n, SCV_MAP, json_array_size(j)))) return rc;
    for (size_t i = 0; i < n->n; i++) {
      json_t *p = json_array_get(j, i);
      if (!json_is_array(p) || json_array_size(p) != 2) {
        size_t at = strlen(c->path);
        snprintf(c->path + at, sizeof c->path - at, "[%zu]", i);
        return jfail(c, "a map entry is a [key, value] pair");
      }
      rc = child(c, &t->sub[0], json_array_get(p, 0), &n->kids[2 * i], "[%zu][0]", NULL, i);
      if (rc == SCP_OK)
        rc = child(c, &t->sub[1], json_array_get(p, 1), &n->kids[2 * i + 1], "[%zu][1]", NULL, i);
      if (rc != SCP_OK) return rc;
    }
  } else {
    return jfail(c, "a map is a JSON object or an array of [key, value] pairs");
  }
  return sort_map(c, n);
}

/* A JSON array of exactly count values typed by types[0..count) (or all
 * by types[0] when same). */
static int from_json_seq(jctx *c, const scp_spec_type *types, size_t count, bool same,
                         json_t *j, jnode *n, const char *what) {
  if (!json_is_array(j) || (!same && json_array_size(j) != count)) return jfail(c, what);
  size_t len = json_array_size(j);
  int rc = kids(c, n, SCV_VEC, len);
  for (size_t i = 0; rc == SCP_OK && i < len; i++)
    rc = child(c, &types[same ? 0 : i], json_array_get(j, i), &n->kids[i], "[%zu]", NULL, i);
  return rc;
}

static bool numbered_fields(const scp_spec_udt *u) {
  for (uint32_t k = 0; k < u->ncases; k++) {
    char want[16];
    snprintf(want, sizeof want, "%u", k);
    if (strcmp(u->cases[k].name, want)) return false;
  }
  return u->ncases > 0;
}

static int sym_node(jctx *c, jnode *n, const char *name) {
  scp_spec_type sym = {.kind = SCP_SPEC_SYMBOL};
  return node_scalar(c, &sym, name, n);
}

static int from_json_udt(jctx *c, const scp_spec_type *t, json_t *j, jnode *n) {
  const scp_spec_udt *u = scp_spec_udt_find(c->spec, t->name);
  char what[160];
  if (!u) {
    snprintf(what, sizeof what, "type %s is not defined in the contract's spec", t->name);
    return jfail(c, what);
  }
  int rc;
  if (u->kind == SCP_SPEC_ENTRY_STRUCT) {
    if (numbered_fields(u)) {   /* tuple struct: a vec of the fields */
      scp_spec_type *ft = calloc(u->ncases, sizeof *ft);
      if (!ft) return scp_fail(c->err, SCP_ERR_NOMEM, "out of memory");
      for (uint32_t k = 0; k < u->ncases; k++) ft[k] = u->cases[k].types[0];
      snprintf(what, sizeof what, "%s is a JSON array of %u values", u->name, u->ncases);
      rc = from_json_seq(c, ft, u->ncases, false, j, n, what);
      free(ft);
      return rc;
    }
    if (!json_is_object(j)) {
      snprintf(what, sizeof what, "%s is a JSON object by field name", u->name);
      return jfail(c, what);
    }
    const char *key;
    json_t *v;
    json_object_foreach(j, key, v) {
      bool known = false;
      for (uint32_t k = 0; k < u->ncases && !known; k++) known = !strcmp(u->cases[k].name, key);
      if (!known) {
        snprintf(what, sizeof what, "%s has no field %.60s", u->name, key);
        return jfail(c, what);
      }
    }
    if ((rc = kids(c, n, SCV_MAP, u->ncases))) return rc;
    for (uint32_t k = 0; k < u->ncases; k++) {
      json_t *f = json_object_get(j, u->cases[k].name);
      if (!f) {
        snprintf(what, sizeof what, "%s: missing field %s", u->name, u->cases[k].name);
        return jfail(c, what);
      }
      if ((rc = sym_node(c, &n->kids[2 * k], u->cases[k].name))) return rc;
      rc = child(c, &u->cases[k].types[0], f, &n->kids[2 * k + 1], ".%s", u->cases[k].name, 0);
      if (rc != SCP_OK) return rc;
    }
    return sort_map(c, n);
  }
  if (u->kind == SCP_SPEC_ENTRY_UNION) {
    /* "Case" for a case without values, {"Case": value} (one value) or
     * {"Case": [values]}: a vec of the case's name and its values */
    const char *name = NULL;
    json_t *v = NULL;
    if (json_is_string(j)) name = json_string_value(j);
    else if (json_is_object(j) && json_object_size(j) == 1) {
      void *it = json_object_iter(j);
      name = json_object_iter_key(it);
      v = json_object_iter_value(it);
    }
    const scp_spec_case *cs = NULL;
    for (uint32_t k = 0; name && k < u->ncases; k++)
      if (!strcmp(u->cases[k].name, name)) cs = &u->cases[k];
    if (!cs) {
      scp_buf b = {0};
      for (uint32_t k = 0; k < u->ncases; k++)
        scp_buf_printf(&b, "%s%s", k ? ", " : "", u->cases[k].name);
      snprintf(what, sizeof what, "%s is \"Case\" or {\"Case\": value}, Case one of %.100s",
               u->name, b.oom || !b.data ? "?" : b.data);
      scp_buf_free(&b);
      return jfail(c, what);
    }
    if (!cs->ntypes && v && !json_is_null(v)) {
      snprintf(what, sizeof what, "%s::%s takes no value", u->name, cs->name);
      return jfail(c, what);
    }
    if (cs->ntypes && !v) {
      snprintf(what, sizeof what, "%s::%s takes a value: {\"%s\": ...}", u->name, cs->name,
               cs->name);
      return jfail(c, what);
    }
    if ((rc = kids(c, n, SCV_VEC, 1 + cs->ntypes))) return rc;
    if ((rc = sym_node(c, &n->kids[0], cs->name))) return rc;
    if (cs->ntypes == 1)
      return child(c, &cs->types[0], v, &n->kids[1], ".%s", cs->name, 0);
    for (uint32_t k = 0; k < cs->ntypes; k++) {
      if (!json_is_array(v) || json_array_size(v) != cs->ntypes) {
        snprintf(what, sizeof what, "%s::%s takes an array of %u values", u->name, cs->name,
                 cs->ntypes);
        return jfail(c, what);
      }
      size_t at = strlen(c->path);
      snprintf(c->path + at, sizeof c->path - at, ".%s", cs->name);
      rc = child(c, &cs->types[k], json_array_get(v, k), &n->kids[1 + k], "[%zu]", NULL, k);
      if (rc != SCP_OK) return rc;
      c->path[at] = 0;
    }
    return SCP_OK;
  }
  /* enum (a U32) or error enum (a contract Error): the case's value, by
   * number or by name */
  const scp_spec_case *cs = NULL;
  for (uint32_t k = 0; k < u->ncases; k++)
    if ((json_is_integer(j) && json_integer_value(j) == (json_int_t)u->cases[k].value) ||
        (json_is_string(j) && !strcmp(json_string_value(j), u->cases[k].name)))
      cs = &u->cases[k];
  if (!cs) {
    snprintf(what, sizeof what, "not a value of %s %s (a case's number or name)",
             u->kind == SCP_SPEC_ENTRY_ENUM ? "enum" : "error enum", u->name);
    return jfail(c, what);
  }
  if (u->kind == SCP_SPEC_ENTRY_ENUM) {
    n->t = SCV_U32;
    n->w[0] = cs->value;
  } else {
    n->t = SCV_ERROR;   /* ScError::Contract(code) */
    n->w[0] = SCP_ET_CONTRACT;
    n->w[1] = cs->value;
  }
  return SCP_OK;
}

static int from_json(jctx *c, const scp_spec_type *t, json_t *j, jnode *n) {
  char tmp[32], what[160];
  memset(n, 0, sizeof *n);
  if (++c->depth > SCP_SPEC_MAX_DEPTH) return jfail(c, "nested too deep");
  int rc;
  const char *text;
  switch (t->kind) {
  case SCP_SPEC_VOID:
    n->t = SCV_VOID;
    rc = json_is_null(j) ? SCP_OK : jfail(c, "void is null");
    break;
  case SCP_SPEC_OPTION:
    if (json_is_null(j)) {
      n->t = SCV_VOID;
      rc = SCP_OK;
    } else {
      rc = from_json(c, &t->sub[0], j, n);
    }
    break;
  case SCP_SPEC_VEC:
    rc = from_json_seq(c, t->sub, 0, true, j, n, "a vec is a JSON array");
    break;
  case SCP_SPEC_TUPLE:
    snprintf(what, sizeof what, "a tuple of %u is a JSON array of %u values", t->nsub, t->nsub);
    rc = from_json_seq(c, t->sub, t->nsub, false, j, n, what);
    break;
  case SCP_SPEC_MAP:
    rc = from_json_map(c, t, j, n);
    break;
  case SCP_SPEC_UDT:
    rc = from_json_udt(c, t, j, n);
    break;
  case SCP_SPEC_ADDRESS: case SCP_SPEC_MUXED_ADDRESS:
    rc = json_is_string(j) ? node_address(c, n, json_string_value(j),
                                          t->kind == SCP_SPEC_MUXED_ADDRESS)
                           : jfail(c, "an address is a strkey string");
    break;
  default:
    if (!scalar_name(t->kind)) {
      scp_buf tn = {0};
      scp_spec_type_format(t, &tn);
      snprintf(what, sizeof what, "type %s cannot be given as an argument yet",
               tn.oom || !tn.data ? "?" : tn.data);
      scp_buf_free(&tn);
      rc = jfail(c, what);
      break;
    }
    text = scalar_text(j, tmp, sizeof tmp);
    if (!text || (t->kind == SCP_SPEC_BOOL && !json_is_boolean(j)) ||
        (t->kind != SCP_SPEC_BOOL && json_is_boolean(j))) {
      snprintf(what, sizeof what, "not a %s", scalar_name(t->kind));
      rc = jfail(c, what);
      break;
    }
    rc = node_scalar(c, t, text, n);
    break;
  }
  c->depth--;
  return rc;
}

/* ScVal XDR of a tree. */
static void jnode_xdr(const jnode *n, scp_buf *b) {
  scp_buf_put_be32(b, n->t);
  switch (n->t) {
  case SCV_VOID: return;
  case SCV_BOOL: case SCV_U32: case SCV_I32: scp_buf_put_be32(b, (uint32_t)n->w[0]); return;
  case SCV_ERROR: scp_buf_put_be32(b, (uint32_t)n->w[0]); scp_buf_put_be32(b, (uint32_t)n->w[1]); return;
  case SCV_U64: case SCV_I64: case SCV_TIMEPOINT: case SCV_DURATION: case SCV_U128:
  case SCV_I128: case SCV_U256: case SCV_I256: {
    int words = n->t >= SCV_U256 ? 4 : n->t >= SCV_U128 ? 2 : 1;
    for (int k = 0; k < words; k++) {
      scp_buf_put_be32(b, (uint32_t)(n->w[k] >> 32));
      scp_buf_put_be32(b, (uint32_t)n->w[k]);
    }
    return;
  }
  case SCV_BYTES: case SCV_STRING: case SCV_SYMBOL: {
    static const uint8_t zero[4] = {0};
    scp_buf_put_be32(b, n->len);
    scp_buf_put(b, n->data, n->len);
    scp_buf_put(b, zero, (4 - n->len % 4) % 4);
    return;
  }
  case SCV_VEC: case SCV_MAP:
    scp_buf_put_be32(b, 1);   /* Some */
    scp_buf_put_be32(b, n->n);
    for (uint32_t k = 0; k < (n->t == SCV_MAP ? 2 * n->n : n->n); k++) jnode_xdr(&n->kids[k], b);
    return;
  case SCV_ADDRESS:
    scp_buf_put_be32(b, (uint32_t)n->w[0]);
    if (n->w[0] == 0) scp_buf_put_be32(b, 0);   /* PublicKey: ed25519 */
    if (n->w[0] == 2) {                  /* MuxedEd25519Account: id, key */
      scp_buf_put_be32(b, (uint32_t)(n->w[1] >> 32));
      scp_buf_put_be32(b, (uint32_t)n->w[1]);
    }
    scp_buf_put(b, n->data, 32);
    return;
  }
}

int scp_argjson_value(scp_spec *s, const scp_spec_type *t, const char *param,
                      const char *text, scp_arg *out, scp_error *err) {
  memset(out, 0, sizeof *out);
  size_t tlen = strlen(text);
  if (tlen > SCP_MAX_ARG_BYTES)
    return scp_fail(err, SCP_ERR_LIMIT, "argument --%s: %zu bytes, over the %u-byte limit for "
                    "an argument", param, tlen, SCP_MAX_ARG_BYTES);
  const scp_spec_type *inner = t;
  if (t->kind == SCP_SPEC_OPTION && t->nsub == 1) inner = &t->sub[0];
  if (scalar_name(inner->kind) || inner->kind == SCP_SPEC_ADDRESS ||
      inner->kind == SCP_SPEC_VOID)
    return scp_spec_arg_parse(t, param, text, out, err);
  jctx c = {.spec = s, .err = err};
  snprintf(c.path, sizeof c.path, "--%s", param);
  if (t != inner && (!strcmp(text, "void") || !strcmp(text, "none") || !strcmp(text, "null"))) {
    out->kind = SCP_ARG_VOID;
    return SCP_OK;
  }
  json_error_t je;
  json_t *j = json_loads(text, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
  /* a bare word is a string (a union case, a muxed address), as
   * stellar-cli takes it */
  if (!j && text[0] != '[' && text[0] != '{' && text[0] != '"') j = json_string(text);
  if (!j)
    return scp_fail(err, SCP_ERR_ARG, "argument %s: bad JSON at column %d: %s", c.path,
                    je.column, je.text);
  jnode n;
  int rc = from_json(&c, t, j, &n);
  json_decref(j);
  if (rc != SCP_OK) {
    jnode_free(&n);
    return rc;
  }
  scp_buf b = {0};
  jnode_xdr(&n, &b);
  jnode_free(&n);
  if (b.oom || !scp_grow(&s->owned, &s->owned_cap, s->nowned + 1, sizeof *s->owned)) {
    scp_buf_free(&b);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  s->owned[s->nowned++] = (uint8_t *)b.data;
  out->kind = SCP_ARG_SCVAL;
  out->data = (const uint8_t *)b.data;
  out->len = b.len;
  return SCP_OK;
}
