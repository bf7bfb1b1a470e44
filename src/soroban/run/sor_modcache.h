/*
 * sor_modcache.h — private to src/soroban/run: contract code loaded once per
 * code hash for the life of a scenario's ledger, so that a call on a ledger
 * of many contracts does not parse, compile, link and symbolize every one
 * of them again.  What it keeps is what the Wasm bytes alone decide (the
 * module, its host-function links, its symbols); the Budget's charges for
 * parsing and instantiating are the run's (sor_vm.c), untouched by it.
 */
#ifndef SCP_SOR_MODCACHE_H
#define SCP_SOR_MODCACHE_H

#include "symbols/scp_sym.h"
#include "wasm/scp_wasm.h"
#include "util/scp_util.h"

/* One code's load, owned by the cache: immutable once made. */
typedef struct sor_code {
  uint8_t hash[32];            /* SHA-256 of the Wasm */
  scp_wasm_module *mod;
  int *import_fn;              /* host function id per import */
  scp_sym *sym;                /* NULL when the Wasm has no usable symbols */
} sor_code;

typedef struct sor_modcache sor_modcache;

/* An empty cache; NULL when out of memory. */
SCP_HIDDEN sor_modcache *scp_sor_modcache_new(void);
/* Frees every code it holds (NULL is fine): no sor_vm may still borrow one. */
SCP_HIDDEN void scp_sor_modcache_free(sor_modcache *c);

/* Load wasm (len bytes, SHA-256 hash) into *out: parsed, its code checked,
 * its imports linked to the host's functions, its symbols opened.  Errors
 * name path: SCP_ERR_NOMEM, or the load's, check's or link's code
 * (scp_sor_check_code, unknown or ill-typed imports: SCP_ERR_INVALID);
 * *out is then left empty.  Free with scp_sor_code_clear. */
SCP_HIDDEN int scp_sor_code_load(const uint8_t *wasm, size_t len, const uint8_t hash[32],
                                 const char *path, sor_code *out, scp_error *err);
SCP_HIDDEN void scp_sor_code_clear(sor_code *code);

/* The code of wasm from c, loaded (scp_sor_code_load) on its first use;
 * hash is its SHA-256.  With slot != SIZE_MAX the bytes are a ledger
 * file's, unchanged for the cache's life: slot (its index) finds them
 * again without hashing, and hash may be NULL.  A failed load is not
 * kept (the next use fails the same way).  SCP_OK with *out borrowed from
 * c, or scp_sor_code_load's error. */
SCP_HIDDEN int scp_sor_modcache_get(sor_modcache *c, size_t slot, const uint8_t *wasm, size_t len,
                                    const uint8_t *hash, const char *path, const sor_code **out,
                                    scp_error *err);

/* How many codes c holds. */
SCP_HIDDEN size_t scp_sor_modcache_count(const sor_modcache *c);

#endif
