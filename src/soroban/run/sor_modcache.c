/*
 * sor_modcache.c — contract code loaded once per code hash (sor_modcache.h).
 *
 * A scenario's ledger may hold a thousand contracts and every call makes
 * a VM glue that names them all; the loads are looked up here, by ledger
 * file index when the bytes are a ledger file's (no hashing), else by
 * code hash through an open-addressed table.
 */
#include "soroban/run/sor_modcache.h"
#include "soroban/core/scp_host.h"
#include "soroban/fns/sor_code.h"

#include <stdlib.h>
#include <string.h>
#include <openssl/sha.h>

struct sor_modcache {
  sor_code **codes;            /* each allocated once: borrowed pointers stay put */
  size_t ncodes, capcodes;
  uint32_t *table;             /* code index + 1 by hash, 0 empty; a power of two */
  size_t captable;
  sor_code **slots;            /* by ledger file index; NULL not yet known */
  size_t capslots;
};

/* Resolve every import against the host's function table. */
static int link_imports(sor_code *code, const char *path, scp_error *err) {
  uint32_t n = scp_wasm_import_count(code->mod);
  code->import_fn = calloc(n + 1, sizeof *code->import_fn);
  if (!code->import_fn) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    const scp_wasm_import *im = scp_wasm_import_get(code->mod, i);
    if (im->kind != SCP_EXT_FUNC)
      return scp_fail(err, SCP_ERR_INVALID, "%s: import %s.%s is not a function; the Soroban host provides only functions",
                      path, im->module, im->field);
    int fn = scp_hostfn_find(im->module, im->field);
    if (fn < 0)
      return scp_fail(err, SCP_ERR_INVALID, "%s: unknown import %s.%s: no such Soroban host function",
                      path, im->module, im->field);
    const scp_hostfn *hf = scp_hostfn_get((unsigned)fn);
    const uint8_t *ps, *rs;
    uint32_t np, nr;
    scp_wasm_func_sig(code->mod, i, &ps, &np, &rs, &nr);
    bool ok = np == hf->argc && nr == 1 && rs[0] == SCP_WASM_I64;
    for (uint32_t k = 0; k < np; k++) ok = ok && ps[k] == SCP_WASM_I64;
    if (!ok)
      return scp_fail(err, SCP_ERR_INVALID, "%s: import %s.%s (%s) has the wrong signature: expected %u i64 params and an i64 result",
                      path, im->module, im->field, hf->name, hf->argc);
    code->import_fn[i] = fn;
  }
  return SCP_OK;
}

void scp_sor_code_clear(sor_code *code) {
  scp_sym_destroy(code->sym);
  scp_wasm_module_free(code->mod);
  free(code->import_fn);
  memset(code, 0, sizeof *code);
}

int scp_sor_code_load(const uint8_t *wasm, size_t len, const uint8_t hash[32], const char *path,
                      sor_code *out, scp_error *err) {
  memset(out, 0, sizeof *out);
  memcpy(out->hash, hash, 32);
  int rc = scp_wasm_load(wasm, len, &out->mod, err);
  if (rc == SCP_OK) rc = scp_sor_check_code(out->mod, err);
  if (rc) {
    scp_error_prefix(err, path);
  } else {
    rc = link_imports(out, path, err);
    if (rc == SCP_OK) scp_sym_open_wasm(wasm, len, NULL, &out->sym, NULL);   /* no symbols: fall back */
  }
  if (rc) scp_sor_code_clear(out);
  return rc;
}

sor_modcache *scp_sor_modcache_new(void) { return calloc(1, sizeof(sor_modcache)); }

void scp_sor_modcache_free(sor_modcache *c) {
  if (!c) return;
  for (size_t i = 0; i < c->ncodes; i++) {
    scp_sor_code_clear(c->codes[i]);
    free(c->codes[i]);
  }
  free(c->codes);
  free(c->table);
  free(c->slots);
  free(c);
}

static size_t hash_at(const uint8_t hash[32], size_t mask) {
  uint64_t h;
  memcpy(&h, hash, sizeof h);
  return (size_t)h & mask;
}

static sor_code *find(const sor_modcache *c, const uint8_t hash[32]) {
  if (!c->captable) return NULL;
  size_t mask = c->captable - 1;
  for (size_t i = hash_at(hash, mask); c->table[i]; i = (i + 1) & mask)
    if (!memcmp(c->codes[c->table[i] - 1]->hash, hash, 32)) return c->codes[c->table[i] - 1];
  return NULL;
}

/* Room in the table for one more code, at most half full. */
static bool table_room(sor_modcache *c) {
  if ((c->ncodes + 1) * 2 <= c->captable) return true;
  size_t cap = c->captable ? c->captable * 2 : 64, mask = cap - 1;
  uint32_t *t = calloc(cap, sizeof *t);
  if (!t) return false;
  for (size_t k = 0; k < c->ncodes; k++) {
    size_t i = hash_at(c->codes[k]->hash, mask);
    while (t[i]) i = (i + 1) & mask;
    t[i] = (uint32_t)(k + 1);
  }
  free(c->table);
  c->table = t;
  c->captable = cap;
  return true;
}

static int add(sor_modcache *c, const uint8_t *wasm, size_t len, const uint8_t hash[32],
               const char *path, sor_code **out, scp_error *err) {
  if (!table_room(c) || !scp_grow(&c->codes, &c->capcodes, c->ncodes + 1, sizeof *c->codes))
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  sor_code *code = malloc(sizeof *code);
  if (!code) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  int rc = scp_sor_code_load(wasm, len, hash, path, code, err);
  if (rc) {
    free(code);
    return rc;
  }
  size_t mask = c->captable - 1, i = hash_at(hash, mask);
  while (c->table[i]) i = (i + 1) & mask;
  c->codes[c->ncodes++] = code;
  c->table[i] = (uint32_t)c->ncodes;
  *out = code;
  return SCP_OK;
}

int scp_sor_modcache_get(sor_modcache *c, size_t slot, const uint8_t *wasm, size_t len,
                         const uint8_t *hash, const char *path, const sor_code **out, scp_error *err) {
  if (slot != SIZE_MAX && slot < c->capslots && c->slots[slot]) {
    *out = c->slots[slot];
    return SCP_OK;
  }
  uint8_t h[32];
  if (!hash) {
    SHA256(wasm, len, h);
    hash = h;
  }
  sor_code *code = find(c, hash);
  int rc = code ? SCP_OK : add(c, wasm, len, hash, path, &code, err);
  if (rc) return rc;
  if (slot != SIZE_MAX) {
    size_t cap = c->capslots;
    if (!scp_grow(&c->slots, &c->capslots, slot + 1, sizeof *c->slots))
      return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    memset(c->slots + cap, 0, (c->capslots - cap) * sizeof *c->slots);
    c->slots[slot] = code;
  }
  *out = code;
  return SCP_OK;
}

size_t scp_sor_modcache_count(const sor_modcache *c) { return c->ncodes; }
