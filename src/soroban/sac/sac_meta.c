/*
 * sac_meta.c — the Stellar Asset Contract's instance storage: init_asset,
 * the asset info, the administrator and the metadata.
 *
 * rs-soroban-env v28.0.2, builtin_contracts/stellar_asset_contract/:
 * contract.rs (init_asset), asset_info.rs (write/read/has_asset_info,
 * validate_asset), admin.rs (write_administrator), metadata.rs
 * (set_metadata, render_sep0011_asset, read_name/read_symbol),
 * storage_types.rs (InstanceDataKey), public_types.rs (AssetInfo,
 * AlphaNum4AssetInfo); builtin_contracts/base_types.rs (Address::
 * from_account, String, BytesN); soroban-builtin-sdk-macros
 * derive_type.rs (contracttype: a unit enum case is the Vec [Symbol], a
 * one-field case [Symbol, value], a struct the map of its fields in name
 * order).
 *
 * Instance storage entries (all Instance durability):
 *   [Symbol(AssetInfo)] -> [Symbol(Native)] | [Symbol(AlphaNum4|AlphaNum12),
 *                          {asset_code: String, issuer: Bytes(32)}]
 *   [Symbol(Admin)]     -> Address(issuer)           (not for native)
 *   Symbol(METADATA)    -> {decimal: 7, name: String, symbol: String}
 * name is "native" or the SEP-11 asset code, ':' and the issuer's strkey;
 * symbol is "native" or the SEP-11 code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/sac/sac_private.h"

enum {
  STORAGE_INSTANCE = 2, SIZE_CONTRACT_ID = 32, SIZE_ACCOUNT_ID = 32, SIZE_ASSET = 45,
  STRKEY_LEN = 56, DECIMAL = 7
};

static const char *const asset_cases[3] = { "Native", "AlphaNum4", "AlphaNum12" };
static const char *const info_keys[2] = { "asset_code", "issuer" };
static const char *const meta_keys[3] = { "decimal", "name", "symbol" };

/* InstanceDataKey::X.try_into_val: (Symbol("X"),) -> a Vec of one. */
static int instance_key(scp_host *h, const char *name, uint64_t *out) {
  uint64_t s;
  int rc = scp_native_symbol(h, name, &s);
  return rc == SCP_OK ? scp_native_vec(h, &s, 1, out) : rc;
}

/* validate_asset (asset_info.rs, stellar-core's isAssetValid): no charge. */
static int validate_asset(scp_host *h, const scp_sac_asset *a) {
  if (a->type == SCP_SAC_NATIVE) return SCP_OK;
  uint32_t n = a->type == SCP_SAC_ALPHANUM4 ? 4 : 12, nz = 0;
  bool had_zero = false;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t c = a->code[i];
    if (!c) {
      had_zero = true;
    } else if (had_zero) {
      return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                          "asset code can't have 0 character in the middle");
    } else {
      bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (!alnum)
        return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT, "asset code has invalid character");
      nz++;
    }
  }
  if (!nz)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "asset code doesn't have non-0 characters");
  if (nz <= 4 && n > 4)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_INVALID_INPUT,
                        "asset codes with 4 characters or less should have `CreditAlphanum4` type");
  return SCP_OK;
}

/* Address::from_account: the AccountId's clone, then the Address object. */
static int account_address(scp_host *h, const uint8_t key[32], uint64_t *out) {
  uint8_t enc[33];
  enc[0] = 0;
  memcpy(enc + 1, key, 32);
  int rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  return rc == SCP_OK ? scp_native_new_obj(h, SCP_TAG_ADDRESS_OBJ, enc, 33, out) : rc;
}

static int put_instance(scp_host *h, uint64_t k, uint64_t v) {
  uint64_t r;
  return scp_native_env3(h, "put_contract_data", k, v, STORAGE_INSTANCE, &r);
}

static int get_instance(scp_host *h, uint64_t k, uint64_t *v) {
  return scp_native_env2(h, "get_contract_data", k, STORAGE_INSTANCE, v);
}

/* write_asset_info: the key, then the AssetInfo value. */
static int write_asset_info(scp_host *h, const scp_sac_asset *a) {
  uint64_t key, code = 0, issuer = 0, v[2], info;
  int rc = SCP_OK;
  if (a->type != SCP_SAC_NATIVE) {
    /* String::try_from_val(string_new_from_slice(code)), then
     * BytesN::<32>::try_from_val(bytes_new_from_slice(u256_from_account:
     * the AccountId's clone)) */
    uint32_t n = a->type == SCP_SAC_ALPHANUM4 ? 4 : 12;
    rc = scp_host_memobj_new_from_slice(h, SCP_TAG_STRING_OBJ, a->code, n, &code);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
    if (rc == SCP_OK) rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, a->issuer, 32, &issuer);
    if (rc == SCP_OK) rc = scp_native_bytesn(h, issuer, 32);
  }
  if (rc == SCP_OK) rc = instance_key(h, "AssetInfo", &key);
  if (rc == SCP_OK) rc = scp_native_symbol(h, asset_cases[a->type], &v[0]);
  if (rc == SCP_OK && a->type != SCP_SAC_NATIVE) {
    uint64_t fields[2] = { code, issuer };
    rc = scp_native_map_new(h, info_keys, fields, 2, &v[1]);
  }
  if (rc == SCP_OK) rc = scp_native_vec(h, v, a->type == SCP_SAC_NATIVE ? 1 : 2, &info);
  return rc == SCP_OK ? put_instance(h, key, info) : rc;
}

int scp_sac_read_asset_info(scp_host *h, uint32_t *type, uint64_t *code, uint64_t *issuer) {
  uint64_t key, v, sym, map, f[2];
  *code = *issuer = SCP_VAL_VOID;
  int rc = instance_key(h, "AssetInfo", &key);
  if (rc == SCP_OK) rc = get_instance(h, key, &v);
  if (rc != SCP_OK) return rc;
  if (scp_val_tag_of(v) != SCP_TAG_VEC_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "AssetInfo is not a Vec");
  /* the enum: vec.get(0), its case, then vec.get(1) for a field */
  rc = scp_native_env2(h, "vec_get", v, scp_val_u32(0), &sym);
  if (rc == SCP_OK) rc = scp_native_symbol_index(h, sym, asset_cases, 3, type);
  if (rc != SCP_OK || *type == SCP_SAC_NATIVE) return rc;
  rc = scp_native_env2(h, "vec_get", v, scp_val_u32(1), &map);
  if (rc == SCP_OK) rc = scp_native_map_unpack(h, map, info_keys, 2, f);
  if (rc == SCP_OK && scp_val_tag_of(f[0]) != SCP_TAG_STRING_OBJ)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "asset_code is not a String");
  if (rc == SCP_OK && scp_val_tag_of(f[1]) != SCP_TAG_BYTES_OBJ)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "issuer is not Bytes");
  if (rc == SCP_OK) rc = scp_native_bytesn(h, f[1], 32);
  if (rc == SCP_OK) {
    *code = f[0];
    *issuer = f[1];
  }
  return rc;
}

/* render_sep0011_asset_code: a 4-byte code stops at its first NUL; a
 * 12-byte one escapes NULs up to the 5th byte; ':' '\\', controls, space
 * and bytes >= 0x7f are \xNN. */
static size_t render_code(const uint8_t *buf, uint32_t n, char *out) {
  size_t k = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t x = buf[i];
    if (!x && (n == 4 || i > 4)) break;
    if (x == ':' || x == '\\' || x <= 0x20 || x >= 0x7f) k += (size_t)sprintf(out + k, "\\x%02x", x);
    else out[k++] = (char)x;
  }
  out[k] = 0;
  return k;
}

/* set_metadata. */
static int set_metadata(scp_host *h) {
  uint32_t type = 0;
  uint64_t code, issuer, name = 0, symbol = 0;
  int rc = scp_sac_read_asset_info(h, &type, &code, &issuer);
  if (rc != SCP_OK) return rc;
  if (type == SCP_SAC_NATIVE) {
    rc = scp_host_memobj_new_from_slice(h, SCP_TAG_STRING_OBJ, (const uint8_t *)"native", 6, &name);
    symbol = name;
  } else {
    /* render_sep0011_asset::<N> */
    uint32_t n = type == SCP_SAC_ALPHANUM4 ? 4 : 12;
    uint8_t buf[12], key[32];
    char s[12 * 4 + 1 + STRKEY_LEN + 1];
    rc = scp_native_string_to_array(h, code, buf, n);
    /* the String's capacity (every byte escaped, ':', the strkey) and the
     * strkey's own String */
    size_t capacity = (size_t)n * 4 + 1 + STRKEY_LEN;
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemAlloc, (int64_t)(capacity + STRKEY_LEN));
    if (rc != SCP_OK) return rc;
    size_t k = render_code(buf, n, s);
    rc = scp_host_memobj_new_from_slice(h, SCP_TAG_STRING_OBJ, (const uint8_t *)s, (uint32_t)k, &symbol);
    if (rc == SCP_OK) rc = scp_native_bytes_to_array(h, issuer, key, 32);
    if (rc != SCP_OK) return rc;
    uint8_t acct[33];
    acct[0] = 0;
    memcpy(acct + 1, key, 32);
    char strkey[57];
    scp_host_address_strkey(acct, strkey);
    s[k++] = ':';
    memcpy(s + k, strkey, STRKEY_LEN);
    k += STRKEY_LEN;
    rc = scp_host_memobj_new_from_slice(h, SCP_TAG_STRING_OBJ, (const uint8_t *)s, (uint32_t)k, &name);
  }
  uint64_t vals[3], meta, mkey;
  vals[0] = scp_val_u32(DECIMAL);
  vals[1] = name;
  vals[2] = symbol;
  if (rc == SCP_OK) rc = scp_native_map_new(h, meta_keys, vals, 3, &meta);
  if (rc == SCP_OK) rc = scp_native_symbol(h, "METADATA", &mkey);
  return rc == SCP_OK ? put_instance(h, mkey, meta) : rc;
}

int scp_sac_read_metadata(scp_host *h, uint64_t *name, uint64_t *symbol) {
  uint64_t mkey, meta, vals[3];
  int rc = scp_native_symbol(h, "METADATA", &mkey);
  if (rc == SCP_OK) rc = get_instance(h, mkey, &meta);
  if (rc == SCP_OK && scp_val_tag_of(meta) != SCP_TAG_MAP_OBJ)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "metadata is not a Map");
  if (rc == SCP_OK) rc = scp_native_map_unpack(h, meta, meta_keys, 3, vals);
  if (rc == SCP_OK) {
    *name = vals[1];
    *symbol = vals[2];
  }
  return rc;
}

/* read_administrator (admin.rs): InstanceDataKey::Admin's Vec, the
 * instance read (a missing admin is get_contract_data's error), the
 * Address::try_from_val tag check. */
int scp_sac_read_admin(scp_host *h, uint64_t *admin) {
  uint64_t key;
  int rc = instance_key(h, "Admin", &key);
  if (rc == SCP_OK) rc = get_instance(h, key, admin);
  if (rc == SCP_OK && scp_val_tag_of(*admin) != SCP_TAG_ADDRESS_OBJ)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "admin is not an Address");
  return rc;
}

/* write_administrator (admin.rs): the key, the instance write. */
int scp_sac_write_admin(scp_host *h, uint64_t admin) {
  uint64_t key;
  int rc = instance_key(h, "Admin", &key);
  return rc == SCP_OK ? put_instance(h, key, admin) : rc;
}

/* init_asset (contract.rs). */
int scp_sac_init_asset(scp_host *h, uint64_t asset_bytes) {
  uint64_t key, has;
  int rc = instance_key(h, "AssetInfo", &key);
  if (rc == SCP_OK) rc = scp_native_env2(h, "has_contract_data", key, STORAGE_INSTANCE, &has);
  if (rc != SCP_OK) return rc;
  if (has == SCP_VAL_TRUE)
    return scp_host_err(h, SCP_ET_CONTRACT, 3 /* AlreadyInitializedError */,
                        "StellarAssetContract has been already initialized");
  scp_sac_asset a;
  rc = scp_sac_read_asset(h, asset_bytes, &a);
  if (rc == SCP_OK) rc = validate_asset(h, &a);
  /* get_current_contract_id_internal, asset.metered_clone, the expected id */
  uint8_t id[32];
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_CONTRACT_ID);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_ASSET);
  if (rc == SCP_OK) rc = scp_sac_asset_id(h, &a, id);
  if (rc != SCP_OK) return rc;
  if (memcmp(id, h->frames[h->nframes - 1].contract_id, 32))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "bad id for asset contract");
  if (a.type != SCP_SAC_NATIVE) {
    /* write_administrator(Address::from_account(issuer)) */
    uint64_t admin, akey;
    rc = account_address(h, a.issuer, &admin);
    if (rc == SCP_OK) rc = instance_key(h, "Admin", &akey);
    if (rc == SCP_OK) rc = put_instance(h, akey, admin);
  }
  if (rc == SCP_OK) rc = write_asset_info(h, &a);
  return rc == SCP_OK ? set_metadata(h) : rc;
}
