/* sol_sysvar.c — the sysvar cache (scp_sol_sysvar.h): litesvm's defaults,
 * the bincode shape each entry must have, and the sysvar accounts. */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_sysvar.h"
#include "solana/scp_sol_tx.h"
#include "util/scp_util.h"

#define SYSVAR_OWNER "Sysvar1111111111111111111111111111111111111"

static const struct {
  const char *id, *name, *title;
  size_t fixed;       /* the bincode size of a fixed-layout sysvar; 0: a vector */
  size_t entry;       /* a vector's entry size */
  int bool_at;        /* a bool's offset (must be 0 or 1), or -1 */
} SV[SCP_SOL_SV_COUNT] = {
  {.id = "SysvarC1ock11111111111111111111111111111111", .name = "clock", .title = "Clock", .fixed = 40, .entry = 0,
   .bool_at = -1},
  {.id = "SysvarEpochSchedu1e111111111111111111111111", .name = "epoch_schedule", .title = "EpochSchedule",
   .fixed = 33, .entry = 0, .bool_at = 16},
  {.id = "SysvarEpochRewards1111111111111111111111111", .name = "epoch_rewards", .title = "EpochRewards", .fixed = 81,
   .entry = 0, .bool_at = 80},
  {.id = "SysvarRent111111111111111111111111111111111", .name = "rent", .title = "Rent", .fixed = 17, .entry = 0,
   .bool_at = -1},
  {.id = "SysvarS1otHashes111111111111111111111111111", .name = "slot_hashes", .title = "SlotHashes", .fixed = 0,
   .entry = 40, .bool_at = -1},
  {.id = "SysvarStakeHistory1111111111111111111111111", .name = "stake_history", .title = "StakeHistory", .fixed = 0,
   .entry = 32, .bool_at = -1},
  {.id = "SysvarLastRestartS1ot1111111111111111111111", .name = "last_restart_slot", .title = "LastRestartSlot",
   .fixed = 8, .entry = 0, .bool_at = -1},
  {.id = "SysvarRecentB1ockHashes11111111111111111111", .name = "recent_blockhashes", .title = "RecentBlockhashes",
   .fixed = 0, .entry = 40, .bool_at = -1},
};

const char *scp_sol_sysvar_id(scp_sol_sysvar_kind k) { return SV[k].id; }
const char *scp_sol_sysvar_name(scp_sol_sysvar_kind k) { return SV[k].name; }

int scp_sol_sysvar_kind_of(const uint8_t key[32]) {
  /* every "Sysvar..." id starts with these bytes: a scenario of 100,000
   * accounts is not held up decoding the ids for each */
  static const uint8_t PREFIX[4] = {0x06, 0xa7, 0xd5, 0x17};
  if (memcmp(key, PREFIX, sizeof PREFIX)) return -1;
  for (int k = 0; k < SCP_SOL_SV_COUNT; k++) {
    uint8_t id[32];
    scp_sol_key_parse(SV[k].id, strlen(SV[k].id), id);
    if (!memcmp(id, key, 32)) return k;
  }
  return -1;
}

/* Whether bincode::deserialize::<T> accepts the data (trailing bytes are
 * allowed, as the sysvar cache keeps them). */
static int check(scp_sol_sysvar_kind k, const uint8_t *d, size_t len, scp_error *err) {
  if (SV[k].fixed) {
    if (len < SV[k].fixed)
      return scp_fail(err, SCP_ERR_MALFORMED, "the %s sysvar: %zu bytes do not hold one (%zu needed)",
                      SV[k].title, len, SV[k].fixed);
    if (SV[k].bool_at >= 0 && d[SV[k].bool_at] > 1)
      return scp_fail(err, SCP_ERR_MALFORMED, "the %s sysvar: byte %d is a bool, not %u", SV[k].title,
                      SV[k].bool_at, d[SV[k].bool_at]);
    return SCP_OK;
  }
  uint64_t n = len >= 8 ? scp_le64(d) : 0;
  if (len < 8 || n > (len - 8) / SV[k].entry)
    return scp_fail(err, SCP_ERR_MALFORMED, "the %s sysvar: %zu bytes do not hold %s%llu entries of %zu bytes",
                    SV[k].title, len, len < 8 ? "a length and " : "", (unsigned long long)n, SV[k].entry);
  return SCP_OK;
}

int scp_sol_sysvars_set(scp_sol_sysvars *s, scp_sol_sysvar_kind k, const uint8_t *data, size_t len,
                        scp_error *err) {
  int rc = check(k, data, len, err);
  if (rc) return rc;
  uint8_t *copy = malloc(len ? len : 1);
  if (!copy) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (len) memcpy(copy, data, len);
  free(s->data[k]);
  s->data[k] = copy;
  s->len[k] = len;
  return SCP_OK;
}

int scp_sol_sysvars_init(scp_sol_sysvars *s) {
  memset(s, 0, sizeof *s);
  static const size_t LEN[SCP_SOL_SV_COUNT] = {40, 33, 81, 17, SCP_SOL_SLOT_HASHES_BYTES, 8, 8, 48};
  for (int k = 0; k < SCP_SOL_SV_COUNT; k++)
    if (!(s->data[k] = calloc(1, LEN[k]))) {
      scp_sol_sysvars_free(s);
      return SCP_ERR_NOMEM;
    }
    else s->len[k] = LEN[k];
  uint8_t genesis[32];
  scp_sol_blockhash_genesis(genesis);
  scp_put_le64(s->data[SCP_SOL_SV_CLOCK], 447552000);
  /* EpochSchedule::default(): 432,000 slots, warmup, first normal epoch 14 */
  uint8_t *es = s->data[SCP_SOL_SV_EPOCH_SCHEDULE];
  scp_put_le64(es, 432000);
  scp_put_le64(es + 8, 432000);
  es[16] = 1;
  scp_put_le64(es + 17, 14);
  scp_put_le64(es + 25, 524256);
  /* Rent: 6,960 lamports per byte-year, threshold 1.0, 50% burnt */
  static const uint8_t rent[17] = {0x30, 0x1b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 50};
  memcpy(s->data[SCP_SOL_SV_RENT], rent, 17);
  /* SlotHashes: the clock's slot and the first blockhash */
  uint8_t *sh = s->data[SCP_SOL_SV_SLOT_HASHES];
  scp_put_le64(sh, 1);
  scp_put_le64(sh + 8, 447552000);
  memcpy(sh + 16, genesis, 32);
  /* RecentBlockhashes: the first blockhash at 0 lamports per signature */
  uint8_t *rb = s->data[SCP_SOL_SV_RECENT_BLOCKHASHES];
  scp_put_le64(rb, 1);
  memcpy(rb + 8, genesis, 32);
  return SCP_OK;
}

void scp_sol_sysvars_free(scp_sol_sysvars *s) {
  for (int k = 0; k < SCP_SOL_SV_COUNT; k++) free(s->data[k]);
  memset(s, 0, sizeof *s);
}

int scp_sol_sysvars_copy(scp_sol_sysvars *dst, const scp_sol_sysvars *src) {
  memset(dst, 0, sizeof *dst);
  for (int k = 0; k < SCP_SOL_SV_COUNT; k++) {
    if (!(dst->data[k] = malloc(src->len[k] ? src->len[k] : 1))) {
      scp_sol_sysvars_free(dst);
      return SCP_ERR_NOMEM;
    }
    if (src->len[k]) memcpy(dst->data[k], src->data[k], src->len[k]);
    dst->len[k] = src->len[k];
  }
  return SCP_OK;
}

int scp_sol_sysvars_from_accounts(scp_sol_sysvars *s, const scp_sol_account *a, size_t n,
                                  scp_error *err) {
  for (size_t i = 0; i < n; i++) {
    int k = scp_sol_sysvar_kind_of(a[i].key);
    if (k < 0) continue;
    scp_error why = {0};
    int rc = scp_sol_sysvars_set(s, (scp_sol_sysvar_kind)k, a[i].data, a[i].len, &why);
    if (rc) return scp_fail(err, rc, "account %s: %s", SV[k].id, why.msg);
  }
  return SCP_OK;
}

int scp_sol_sysvars_to_accounts(const scp_sol_sysvars *s, scp_sol_account *a, size_t n) {
  uint8_t owner[32];
  scp_sol_key_parse(SYSVAR_OWNER, strlen(SYSVAR_OWNER), owner);
  for (size_t i = 0; i < n; i++) {
    int k = scp_sol_sysvar_kind_of(a[i].key);
    if (k < 0) continue;
    uint8_t *d = malloc(s->len[k] ? s->len[k] : 1);
    if (!d) return SCP_ERR_NOMEM;
    if (s->len[k]) memcpy(d, s->data[k], s->len[k]);
    free(a[i].data);
    a[i].data = d;
    a[i].len = s->len[k];
    if (!a[i].lamports) a[i].lamports = 1;
    memcpy(a[i].owner, owner, 32);
    a[i].executable = false;
  }
  return SCP_OK;
}

uint64_t scp_sol_sysvars_slot(const scp_sol_sysvars *s) { return scp_le64(s->data[SCP_SOL_SV_CLOCK]); }

void scp_sol_sysvars_warp(scp_sol_sysvars *s, uint64_t slot) {
  scp_put_le64(s->data[SCP_SOL_SV_CLOCK], slot);
}
