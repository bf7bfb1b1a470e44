/*
 * host_auth_create.c — create-contract authorized functions
 * (AuthorizedFunction::CreateContractHostFn, holding a CreateContractArgsV2)
 * in the authorization code: the clone, the compare, the XDR the signature
 * payload hashes and the entries carry, and the authorization context a
 * custom account's __check_auth gets.  Reference: rs-soroban-env v28.0.2
 * auth.rs, host/comparison.rs, builtin_contracts/account_contract.rs; each
 * function names its part.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/core/host_xdrw.h"
#include "soroban/fns/host_native.h"
#include "soroban/core/host_account.h"

enum {
  SIZE_CREATE_ARGS_V2 = 176, SIZE_SCVAL = 96, SIZE_SCSTRING = 24,
  SIZE_CONTRACT_ID_PREIMAGE = 80, SIZE_CONTRACT_EXECUTABLE = 72,
  SIZE_RESULT_VEC = 24 + 16, SIZE_RESULT_VAL = 8 + 16,
  AUTHORIZED_FN_CREATE_V2 = 2, PREIMAGE_FROM_ADDRESS = 0
};

scp_create_args *scp_auth_create_dup(const scp_create_args *c) {
  scp_create_args *d = malloc(sizeof *d);
  if (!d) return NULL;
  *d = *c;
  d->ctor = malloc((c->nctor ? c->nctor : 1) * sizeof *d->ctor);
  if (!d->ctor) {
    free(d);
    return NULL;
  }
  if (c->nctor) memcpy(d->ctor, c->ctor, c->nctor * sizeof *d->ctor);
  return d;
}

void scp_auth_create_free(scp_create_args *c) {
  if (!c) return;
  free(c->ctor);
  free(c);
}

/* CreateContractArgsV2::metered_clone: the struct, then its substructure:
 * the executable's tag (an external reference), the constructor args'
 * Vec<ScVal> (heap alloc + copy) and each ScVal's own substructure. */
int scp_auth_create_clone_charges(scp_host *h, const scp_create_args *c) {
  int rc = scp_host_charge_copy(h, 1, SIZE_CREATE_ARGS_V2);
  if (rc == SCP_OK && c->ex.kind == SCP_EXEC_EXTERNAL_REF) {
    rc = scp_host_charge_alloc(h, c->ex.taglen, 1);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, c->ex.taglen, 1);
  }
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, c->nctor, SIZE_SCVAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, c->nctor, SIZE_SCVAL);
  for (uint32_t i = 0; rc == SCP_OK && i < c->nctor; i++) {
    uint8_t *img = NULL;
    size_t len;
    rc = scp_host_val_to_xdr_raw(h, c->ctor[i], &img, &len);
    if (rc == SCP_OK) rc = scp_storage_value_substructure(h, img);
    free(img);
  }
  return rc;
}

static int sign(int x) { return (x > 0) - (x < 0); }

/* The executables' order (the derived Ord: the variant, then its data). */
static int exec_order(const scp_executable *a, const scp_executable *b) {
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  if (a->kind == SCP_EXEC_WASM) return sign(memcmp(a->hash, b->hash, 32));
  if (a->kind != SCP_EXEC_EXTERNAL_REF) return 0;
  int o = sign(memcmp(a->owner, b->owner, 33));
  if (o) return o;
  uint32_t m = a->taglen < b->taglen ? a->taglen : b->taglen;
  o = sign(memcmp(a->tag, b->tag, m));
  return o ? o : (a->taglen > b->taglen) - (a->taglen < b->taglen);
}

/* Compare<CreateContractArgsV2> (host/comparison.rs): the preimage and the
 * executable as FixedSizeOrdType -- MemCmp of their declared sizes --
 * then the constructor args' Vec<ScVal>. */
int scp_auth_create_compare(scp_host *h, const scp_create_args *a, const scp_create_args *b, int *ord) {
  /* the preimage: FROM_ADDRESS both (the only kind here), address, salt */
  int rc = scp_host_charge(h, SCP_COST_MemCmp, SIZE_CONTRACT_ID_PREIMAGE);
  if (rc != SCP_OK) return rc;
  *ord = sign(memcmp(a->deployer, b->deployer, 33));
  if (!*ord) *ord = sign(memcmp(a->salt, b->salt, 32));
  if (*ord) return SCP_OK;
  if ((rc = scp_host_charge(h, SCP_COST_MemCmp, SIZE_CONTRACT_EXECUTABLE)) != SCP_OK) return rc;
  if ((*ord = exec_order(&a->ex, &b->ex))) return SCP_OK;
  /* Vec<ScVal>: element by element up to a difference, then the lengths
   * (the slice compare itself charges nothing) */
  for (uint32_t i = 0; i < a->nctor && i < b->nctor; i++) {
    uint8_t *x = NULL, *y = NULL;
    size_t xl, yl;
    rc = scp_host_val_to_xdr_raw(h, a->ctor[i], &x, &xl);
    if (rc == SCP_OK) rc = scp_host_val_to_xdr_raw(h, b->ctor[i], &y, &yl);
    if (rc == SCP_OK) rc = scp_storage_scval_cmp(h, x, y, ord);
    free(x);
    free(y);
    if (rc != SCP_OK || *ord) return rc;
  }
  *ord = (a->nctor > b->nctor) - (a->nctor < b->nctor);
  return SCP_OK;
}

/* ---- the XDR (one ValSer per write when charged: host_xdrw.c) ------------------- */

int scp_auth_create_xdr(scp_host *h, const scp_create_args *c, bool charge, uint8_t **out, size_t *len) {
  scp_xdrw b = { .charge = charge };
  int rc = scp_xdrw_u32(h, &b, AUTHORIZED_FN_CREATE_V2);
  if (rc == SCP_OK) rc = scp_xdrw_u32(h, &b, PREIMAGE_FROM_ADDRESS);
  if (rc == SCP_OK) rc = scp_xdrw_address(h, &b, c->deployer);
  if (rc == SCP_OK) rc = scp_xdrw_put(h, &b, c->salt, 32);
  if (rc == SCP_OK) rc = scp_xdrw_u32(h, &b, c->ex.kind);
  if (rc == SCP_OK && c->ex.kind == SCP_EXEC_WASM) rc = scp_xdrw_put(h, &b, c->ex.hash, 32);
  if (rc == SCP_OK && c->ex.kind == SCP_EXEC_EXTERNAL_REF) {
    rc = scp_xdrw_address(h, &b, c->ex.owner);
    if (rc == SCP_OK) rc = scp_xdrw_var(h, &b, c->ex.tag, c->ex.taglen);
  }
  if (rc == SCP_OK) rc = scp_xdrw_u32(h, &b, c->nctor);
  for (uint32_t i = 0; rc == SCP_OK && i < c->nctor; i++) {
    uint8_t *img = NULL;
    size_t l = 0;
    rc = charge ? scp_host_val_to_xdr_writes(h, c->ctor[i], &img, &l)
                : scp_host_val_to_xdr_raw(h, c->ctor[i], &img, &l);
    if (rc == SCP_OK) rc = scp_xdrw_append(&b, img, l);
    free(img);
  }
  if (rc != SCP_OK) {
    free(b.p);
    return rc;
  }
  *out = b.p;
  *len = b.n;
  return SCP_OK;
}

/* ---- the authorization context ------------------------------------------------------ */

/* ContractExecutable::from_xdr, then (after the salt) its Val is made by
 * exec_val. */
static int exec_from_xdr(scp_host *h, const scp_executable *e, uint64_t *a, uint64_t *b) {
  if (e->kind == SCP_EXEC_WASM)
    return scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, e->hash, 32, a);
  /* ExternalRef: Address::try_from_val(ScAddress) -- add_host_object of an
   * unmetered clone -- then the tag's metered_clone and its String object */
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  if (!(o.u.bytes = malloc(33))) return SCP_ERR_NOMEM;
  memcpy(o.u.bytes, e->owner, 33);
  int rc = scp_host_add_obj(h, &o, a);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCSTRING);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, e->taglen, 1);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, e->taglen, 1);
  if (rc != SCP_OK) return rc;
  scp_hobj s = { .tag = SCP_TAG_STRING_OBJ, .len = e->taglen };
  if (!(s.u.bytes = malloc(e->taglen ? e->taglen : 1))) return SCP_ERR_NOMEM;
  memcpy(s.u.bytes, e->tag, e->taglen);
  return scp_host_add_obj(h, &s, b);
}

/* The executable's enum Val: [variant, payload]. */
static int exec_val(scp_host *h, const scp_executable *e, uint64_t a, uint64_t b, uint64_t *out) {
  uint64_t tag, pair[2];
  int rc = scp_native_symbol(h, e->kind == SCP_EXEC_WASM ? "Wasm" : "ExternalRef", &tag);
  if (rc != SCP_OK) return rc;
  pair[0] = tag;
  pair[1] = a;
  if (e->kind == SCP_EXEC_EXTERNAL_REF) {
    static const char *const keys[] = { "owner", "tag" };
    uint64_t vals[2] = { a, b };
    rc = scp_native_map_new(h, keys, vals, 2, &pair[1]);
  }
  return rc == SCP_OK ? scp_native_vec(h, pair, 2, out) : rc;
}

/* AuthorizationContext::from_authorized_fn (CreateContractHostFnContext,
 * CreateContractWithConstructorHostFnContext), built as the builtin
 * contracttype conversions build it: the executable (Wasm: BytesN<32>
 * from the hash; ExternalRef: the owner's Address object -- base_types.rs,
 * add_host_object of an unmetered clone -- the tag's clone and String
 * object), the salt's BytesN<32>, the constructor args
 * (scvals_to_val_vec, then the HostVec), then the enum's Val: its variant
 * Symbol, the executable's own enum Val (variant Symbol; ExternalRef's
 * {owner, tag} map), the struct's map, the enum's Vec.  Checked against
 * test__lifecycle__cap_85_executable_reference__test_custom_account_gets_
 * executable_reference_in_auth_context.json (steps 73 -> 93: 11,240 CPU /
 * 1,257 B for an ExternalRef executable, no constructor args;
 * tests/soroban/test_auth_create.c). */
int scp_auth_create_context(scp_host *h, const scp_create_args *c, uint64_t *out) {
  if (c->ex.kind == SCP_EXEC_STELLAR_ASSET)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_INPUT,
                        "StellarAsset executable is not allowed when authorizing create_contract "
                        "host fn");
  uint64_t ea = 0, eb = 0, salt = 0, ctor = 0, tag = 0, ev = 0, map = 0;
  int rc = exec_from_xdr(h, &c->ex, &ea, &eb);
  if (rc == SCP_OK) rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, c->salt, 32, &salt);
  if (rc != SCP_OK) return rc;
  if (c->nctor) {
    /* scvals_to_val_vec (the metered collect, each ScVal to a Val), then
     * the HostVec */
    uint64_t *v = calloc(c->nctor, sizeof *v);
    if (!v) return SCP_ERR_NOMEM;
    rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, c->nctor, SIZE_RESULT_VAL);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, c->nctor, SIZE_RESULT_VAL);
    for (uint32_t i = 0; rc == SCP_OK && i < c->nctor; i++) {
      uint8_t *img = NULL;
      size_t l;
      rc = scp_host_val_to_xdr_raw(h, c->ctor[i], &img, &l);
      if (rc == SCP_OK) rc = scp_host_scval_to_val(h, img, l, &v[i]);
      free(img);
    }
    if (rc == SCP_OK) rc = scp_native_vec(h, v, c->nctor, &ctor);
    free(v);
    if (rc != SCP_OK) return rc;
  }
  /* the enum's Val: the variant, the struct's map, the pair */
  rc = scp_native_symbol(h, c->nctor ? "CreateContractWithCtorHostFn" : "CreateContractHostFn", &tag);
  if (rc == SCP_OK) rc = exec_val(h, &c->ex, ea, eb, &ev);
  if (rc == SCP_OK && c->nctor) {
    static const char *const keys[] = { "constructor_args", "executable", "salt" };
    uint64_t vals[3] = { ctor, ev, salt };
    rc = scp_native_map_new(h, keys, vals, 3, &map);
  } else if (rc == SCP_OK) {
    static const char *const keys[] = { "executable", "salt" };
    uint64_t vals[2] = { ev, salt };
    rc = scp_native_map_new(h, keys, vals, 2, &map);
  }
  uint64_t pair[2] = { tag, map };
  return rc == SCP_OK ? scp_native_vec(h, pair, 2, out) : rc;
}
