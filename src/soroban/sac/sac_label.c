/*
 * sac_label.c — the profile's name for a Stellar Asset Contract frame:
 * contract:SAC(native) or contract:SAC(CODE:GABCD…), read without any
 * charge from the asset contract's instance entry (the AssetInfo value
 * init_asset stored: asset_info.rs / storage_types.rs InstanceDataKey).
 *
 * This is profiler bookkeeping, not host behaviour: it reads the storage
 * map's bytes directly so the budget stays exactly the reference's.
 */
#include "soroban/sac/sac_label.h"
#include "soroban/core/host_instance.h"

#include <stdio.h>
#include <string.h>

/* ScValType and ContractExecutableType discriminants (Stellar-contract.x) */
enum {
  SCV_BYTES = 13, SCV_STRING = 14, SCV_SYMBOL = 15, SCV_VEC = 16, SCV_MAP = 17,
  SCV_CONTRACT_INSTANCE = 19,
  EXEC_STELLAR_ASSET = 1
};

/* A Symbol ScVal at p equal to s. */
static bool is_symbol(const uint8_t *p, const char *s) {
  size_t n = strlen(s);
  return scp_be32(p) == SCV_SYMBOL && scp_be32(p + 4) == n && !memcmp(p + 8, s, n);
}

/* AssetInfo: Vec[Symbol case] or Vec[Symbol case, Map{asset_code: String,
 * issuer: Bytes(32)}] (the map's keys in Symbol order). */
static bool render(const uint8_t *v, const uint8_t *end, char *out, size_t n) {
  if (end - v < 12 || scp_be32(v) != SCV_VEC || scp_be32(v + 4) != 1) return false;
  uint32_t cnt = scp_be32(v + 8);
  const uint8_t *p = v + 12;
  if (cnt == 1 && end - p >= 16 && is_symbol(p, "Native")) {
    snprintf(out, n, "native");
    return true;
  }
  if (cnt != 2 || end - p < 20) return false;
  size_t sl = scp_storage_scval_len(p);
  if (!sl || p + sl > end) return false;
  p += sl;
  if (end - p < 12 || scp_be32(p) != SCV_MAP || scp_be32(p + 4) != 1 || scp_be32(p + 8) != 2) return false;
  p += 12;
  char code[13] = {0};
  const uint8_t *issuer = NULL;
  for (int i = 0; i < 2; i++) {
    size_t kl = scp_storage_scval_len(p);
    if (!kl || p + kl + 8 > end) return false;
    const uint8_t *val = p + kl;
    uint32_t len = scp_be32(val + 4);
    if (val + 8 + len > end) return false;
    if (is_symbol(p, "asset_code") && scp_be32(val) == SCV_STRING && len <= 12) {
      for (uint32_t j = 0; j < len; j++) code[j] = val[8 + j] >= 0x21 && val[8 + j] < 0x7f ? (char)val[8 + j] : '?';
    } else if (is_symbol(p, "issuer") && scp_be32(val) == SCV_BYTES && len == 32) {
      issuer = val + 8;
    }
    size_t vl = scp_storage_scval_len(val);
    if (!vl) return false;
    p = val + vl;
  }
  if (!issuer || !code[0]) return false;
  uint8_t acct[33];
  char sk[57];
  acct[0] = 0;
  memcpy(acct + 1, issuer, 32);
  scp_host_address_strkey(acct, sk);
  snprintf(out, n, "%s:%.5s\xe2\x80\xa6", code, sk);
  return true;
}

bool scp_sac_label(const scp_host *h, const uint8_t id[32], char *out, size_t n) {
  const scp_sentry *e = scp_inst_entry(h, id);
  if (!e || !e->val || e->vallen < 16) return false;
  const uint8_t *p = e->val, *end = e->val + e->vallen;
  if (scp_be32(p) != SCV_CONTRACT_INSTANCE || scp_be32(p + 4) != EXEC_STELLAR_ASSET ||
      !scp_be32(p + 8))
    return false;
  uint32_t cnt = scp_be32(p + 12);
  p += 16;
  for (uint32_t i = 0; i < cnt && p < end; i++) {
    size_t kl = scp_storage_scval_len(p);
    if (!kl || p + kl > end) return false;
    const uint8_t *val = p + kl;
    /* the key: Vec[Symbol "AssetInfo"] */
    bool asset_info = kl >= 24 && scp_be32(p) == SCV_VEC && scp_be32(p + 8) == 1 &&
                      is_symbol(p + 12, "AssetInfo");
    if (asset_info) return render(val, end, out, n);
    size_t vl = scp_storage_scval_len(val);
    if (!vl || val + vl > end) return false;
    p = val + vl;
  }
  return false;
}
