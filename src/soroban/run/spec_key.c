/*
 * spec_key.c — a storage key as its contract's source names it.  The key
 * (ScVal XDR) is read through the XDR codec's JSON form and printed with
 * the contract's spec: soroban-sdk writes a `#[contracttype]` enum case as
 * Vec[Symbol(case), fields...] and a struct as a map keyed by its field
 * names, so a key that matches a union case of the spec reads
 * `Balance(GABC...)`, one that matches a struct `Config{admin: G...}`.
 * Without a spec the SDK's convention is assumed for a vec that starts with
 * a symbol; any other vec reads as a tuple, `(7, lock)`; an auth nonce
 * key reads `nonce N`.
 */
#include <string.h>

#include "soroban/run/scp_spec.h"
#include "xdr/scp_xdr.h"

static void put_val(const scp_spec *s, json_t *v, scp_buf *b);

/* The union case named name with n fields, in any union of the spec. */
static bool union_case(const scp_spec *s, const char *name, size_t n) {
  for (size_t i = 0; s && i < s->nudts; i++) {
    const scp_spec_udt *u = &s->udts[i];
    if (u->kind != SCP_SPEC_ENTRY_UNION) continue;
    for (uint32_t c = 0; c < u->ncases; c++)
      if (!strcmp(u->cases[c].name, name) && u->cases[c].ntypes == n) return true;
  }
  return false;
}

/* The struct whose fields are the map's symbol keys, in order; NULL when
 * none is. */
static const char *struct_of(const scp_spec *s, json_t *entries) {
  size_t n = json_array_size(entries);
  for (size_t i = 0; s && i < s->nudts; i++) {
    const scp_spec_udt *u = &s->udts[i];
    if (u->kind != SCP_SPEC_ENTRY_STRUCT || u->ncases != n || !n) continue;
    bool same = true;
    for (size_t k = 0; k < n && same; k++) {
      json_t *sym = json_object_get(json_object_get(json_array_get(entries, k), "key"), "symbol");
      same = json_is_string(sym) && !strcmp(json_string_value(sym), u->cases[k].name);
    }
    if (same) return u->name;
  }
  return NULL;
}

static void put_list(const scp_spec *s, json_t *a, size_t from, scp_buf *b) {
  for (size_t i = from; i < json_array_size(a); i++) {
    if (i > from) scp_buf_puts(b, ", ");
    put_val(s, json_array_get(a, i), b);
  }
}

static void put_vec(const scp_spec *s, json_t *a, scp_buf *b) {
  size_t n = json_array_size(a);
  json_t *sym = n ? json_object_get(json_array_get(a, 0), "symbol") : NULL;
  if (json_is_string(sym) && (s ? union_case(s, json_string_value(sym), n - 1) : true)) {
    scp_buf_puts(b, json_string_value(sym));
    if (n == 1) return;
    scp_buf_putc(b, '(');
    put_list(s, a, 1, b);
    scp_buf_putc(b, ')');
    return;
  }
  scp_buf_putc(b, '(');
  put_list(s, a, 0, b);
  scp_buf_putc(b, ')');
}

static void put_map(const scp_spec *s, json_t *entries, scp_buf *b) {
  const char *name = struct_of(s, entries);
  if (name) scp_buf_puts(b, name);
  scp_buf_putc(b, '{');
  for (size_t i = 0; i < json_array_size(entries); i++) {
    json_t *e = json_array_get(entries, i);
    if (i) scp_buf_puts(b, ", ");
    put_val(s, json_object_get(e, "key"), b);
    scp_buf_puts(b, ": ");
    put_val(s, json_object_get(e, "val"), b);
  }
  scp_buf_putc(b, '}');
}

static void put_json(json_t *v, scp_buf *b) {
  char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
  if (!t) {
    b->oom = true;
    return;
  }
  scp_buf_puts(b, t);
  free(t);
}

static void put_val(const scp_spec *s, json_t *v, scp_buf *b) {
  if (json_is_string(v)) {
    const char *t = json_string_value(v);
    scp_buf_puts(b, !strcmp(t, "ledger_key_contract_instance") ? "instance" : t);
    return;
  }
  const char *arm = json_object_size(v) == 1 ? json_object_iter_key(json_object_iter(v)) : NULL;
  json_t *x = arm ? json_object_get(v, arm) : NULL;
  if (!arm) {
    put_json(v, b);
  } else if (!strcmp(arm, "vec") && json_is_array(x)) {
    put_vec(s, x, b);
  } else if (!strcmp(arm, "map") && json_is_array(x)) {
    put_map(s, x, b);
  } else if (!strcmp(arm, "string")) {
    put_json(x, b);                      /* quoted */
  } else if (!strcmp(arm, "ledger_key_nonce") && json_is_string(json_object_get(x, "nonce"))) {
    scp_buf_printf(b, "nonce %s", json_string_value(json_object_get(x, "nonce")));
  } else if (!strcmp(arm, "bytes") && json_is_string(x)) {
    scp_buf_printf(b, "0x%s", json_string_value(x));
  } else if (json_is_string(x) || json_is_integer(x) || json_is_boolean(x)) {
    /* symbols, numbers, addresses (strkeys), bools: their own text */
    if (json_is_string(x)) scp_buf_puts(b, json_string_value(x));
    else put_json(x, b);
  } else {
    scp_buf_printf(b, "%s:", arm);
    put_json(x, b);
  }
}

int scp_spec_key_format(const scp_spec *s, const uint8_t *xdr, size_t len, scp_buf *b) {
  json_t *v = NULL;
  int rc = scp_xdr_to_json(scp_xdr_find("ScVal"), xdr, len, SCP_XDR_JSON_STRINGS, &v, NULL);
  if (rc) return rc;
  put_val(s, v, b);
  json_decref(v);
  return b->oom ? SCP_ERR_NOMEM : SCP_OK;
}
