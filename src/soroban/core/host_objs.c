/*
 * host_objs.c — object helpers every layer above builds with: a Map object
 * from sorted (key, value) pairs, with the reference's key-order check and
 * charges, and the strkey text of addresses (version byte, payload,
 * CRC16-XModem little-endian, base32: the stellar-strkey format), which
 * the host functions, the asset contract and the error messages share.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_private.h"

/* Declared sizes (host/declared_size.rs). */
enum { SIZE_MAP_ENTRY = 8 + 8 + 8 };   /* (Val, Val) */

/* ---- maps (host/metered_map.rs, host.rs impl EnvBase) --------------------- */

/* The tail both map constructors share: every adjacent pair of keys must
 * compare Less (charged comparisons), then the map object adopts kv (freed
 * on failure). */
int scp_host_check_keys_sorted(scp_host *h, const uint64_t *kv, uint32_t n, const char *what) {
  int rc = SCP_OK;
  for (uint32_t i = 1; rc == SCP_OK && i < n; i++) {
    int ord;
    rc = scp_host_compare(h, kv[2 * (i - 1)], kv[2 * i], &ord);
    if (rc == SCP_OK && ord >= 0)
      rc = scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INVALID_INPUT, "%s not in order", what);
  }
  return rc;
}

int scp_host_map_adopt_sorted(scp_host *h, uint64_t *kv, uint32_t n, uint64_t *ret) {
  int rc = scp_host_check_keys_sorted(h, kv, n, "map keys");
  if (rc != SCP_OK) {
    free(kv);
    return rc;
  }
  scp_hobj o = { .tag = SCP_TAG_MAP_OBJ, .len = n };
  o.u.vals = kv;
  return scp_host_add_obj(h, &o, ret);
}

/* HostMap::from_map_with_host of n pairs + add_host_object (no capacity
 * charge: the caller's Vec was already charged). */
int scp_host_map_from_pairs_nocap(scp_host *h, const uint64_t *kv, uint32_t n, uint64_t *out) {
  uint64_t *copy = malloc((n ? 2 * (size_t)n : 1) * sizeof(uint64_t));
  if (!copy) return SCP_ERR_NOMEM;
  if (n) memcpy(copy, kv, 2 * (size_t)n * sizeof *copy);
  int rc = scp_host_charge_copy(h, n, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) {
    free(copy);
    return rc;
  }
  return scp_host_map_adopt_sorted(h, copy, n, out);
}

/* A Map from sorted (key, value) pairs the way to_host_obj converts an
 * ScVal::Map (conversion.rs): Vec<(Val, Val)> with_metered_capacity(n),
 * then HostMap::from_map (MemCpy(24n), adjacent keys compared, each must
 * be Less: Error(Object, InvalidInput)), then add_host_object. */
int scp_host_map_from_pairs(scp_host *h, const uint64_t *kv, uint32_t n, uint64_t *out) {
  int rc = scp_host_charge_bulk_init(h, n, SIZE_MAP_ENTRY);
  if (rc != SCP_OK) return rc;
  return scp_host_map_from_pairs_nocap(h, kv, n, out);
}

/* ---- addresses and strkeys (host.rs, host/conversion.rs) ------------------ */

void scp_host_contract_strkey(const uint8_t id[32], char out[57]) {
  scp_xdr_strkey(SCP_STRKEY_CONTRACT, id, out);
}

void scp_host_address_strkey(const uint8_t *addr, char out[57]) {
  scp_xdr_strkey(addr[0] == 0 ? SCP_STRKEY_ACCOUNT : SCP_STRKEY_CONTRACT, addr + 1, out);
}

/* The strkey of an Address / MuxedAddress object's host encoding (kind 0
 * account, 1 contract, 2 muxed account: id, then key), no charge;
 * returns its length (56 or 69), out NUL-terminated. */
size_t scp_host_addr_obj_strkey(const scp_hobj *o, char out[80]) {
  uint8_t payload[40];
  size_t n;
  if (o->u.bytes[0] == 2) {
    memcpy(payload, o->u.bytes + 9, 32);   /* key, then the id big-endian */
    memcpy(payload + 32, o->u.bytes + 1, 8);
    n = scp_xdr_strkey_encode(SCP_STRKEY_MUXED, payload, 40, out);
  } else {
    n = scp_xdr_strkey_encode(o->u.bytes[0] == 0 ? SCP_STRKEY_ACCOUNT : SCP_STRKEY_CONTRACT, o->u.bytes + 1, 32, out);
  }
  return n;
}
