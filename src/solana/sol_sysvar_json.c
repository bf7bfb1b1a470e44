/* sol_sysvar_json.c — a scenario's "sysvars" object: fields of the sysvars
 * by name, each written into the cache's account data at its bincode
 * offset; a field not given keeps the value the cache had (litesvm's, or a
 * sysvar account's of the state).  Unknown keys and values a field cannot
 * hold are refused with the JSON path. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_sysvar.h"
#include "util/scp_util.h"

typedef enum { F_U64, F_I64, F_F64, F_U8PCT, F_BOOL, F_KEY } ftype;

typedef struct field {
  const char *name;
  size_t at;
  ftype type;
} field;

static const field CLOCK[] = {{.name = "slot", .at = 0, .type = F_U64},
                              {.name = "epoch_start_timestamp", .at = 8, .type = F_I64},
                              {.name = "epoch", .at = 16, .type = F_U64},
                              {.name = "leader_schedule_epoch", .at = 24, .type = F_U64},
                              {.name = "unix_timestamp", .at = 32, .type = F_I64},
                              {0}};
static const field RENT[] = {{.name = "lamports_per_byte_year", .at = 0, .type = F_U64},
                             {.name = "exemption_threshold", .at = 8, .type = F_F64},
                             {.name = "burn_percent", .at = 16, .type = F_U8PCT}, {0}};
static const field SCHEDULE[] = {{.name = "slots_per_epoch", .at = 0, .type = F_U64},
                                 {.name = "leader_schedule_slot_offset", .at = 8, .type = F_U64},
                                 {.name = "warmup", .at = 16, .type = F_BOOL},
                                 {.name = "first_normal_epoch", .at = 17, .type = F_U64},
                                 {.name = "first_normal_slot", .at = 25, .type = F_U64}, {0}};
/* total_points is a u128: its high half stays 0 */
static const field REWARDS[] = {{.name = "distribution_starting_block_height", .at = 0, .type = F_U64},
                                {.name = "num_partitions", .at = 8, .type = F_U64},
                                {.name = "parent_blockhash", .at = 16, .type = F_KEY},
                                {.name = "total_points", .at = 48, .type = F_U64},
                                {.name = "total_rewards", .at = 64, .type = F_U64},
                                {.name = "distributed_rewards", .at = 72, .type = F_U64},
                                {.name = "active", .at = 80, .type = F_BOOL}, {0}};

typedef struct jctx {
  const char *file;
  scp_error *err;
} jctx;

static int bad(jctx *j, const char *path, const char *what) {
  return scp_fail(j->err, SCP_ERR_MALFORMED, "%s: %s: %s", j->file, path, what);
}

/* A JSON integer as u64 (non-negative) or i64. */
static int integer(jctx *j, json_t *v, bool sign, const char *path, uint64_t *out) {
  if (!json_is_integer(v)) return bad(j, path, "not an integer");
  json_int_t x = json_integer_value(v);
  if (!sign && x < 0) return bad(j, path, "negative");
  *out = (uint64_t)x;
  return SCP_OK;
}

static int put_field(jctx *j, const field *f, json_t *v, const char *path, uint8_t *d) {
  uint64_t x;
  int rc;
  switch (f->type) {
  case F_U64:
  case F_I64:
    if ((rc = integer(j, v, f->type == F_I64, path, &x))) return rc;
    scp_put_le64(d + f->at, x);
    return SCP_OK;
  case F_F64: {
    if (!json_is_number(v)) return bad(j, path, "not a number");
    double r = json_number_value(v);
    if (!isfinite(r) || r < 0) return bad(j, path, "not a finite non-negative number");
    memcpy(&x, &r, 8);
    scp_put_le64(d + f->at, x);
    return SCP_OK;
  }
  case F_U8PCT:
    if ((rc = integer(j, v, false, path, &x))) return rc;
    if (x > 100) return bad(j, path, "a percentage is at most 100");
    d[f->at] = (uint8_t)x;
    return SCP_OK;
  case F_BOOL:
    if (!json_is_boolean(v)) return bad(j, path, "not true or false");
    d[f->at] = json_is_true(v);
    return SCP_OK;
  default: {
    const char *s = json_string_value(v);
    if (!s || !scp_sol_key_parse(s, strlen(s), d + f->at)) return bad(j, path, "not a base58 hash");
    return SCP_OK;
  }
  }
}

static int fields(jctx *j, json_t *obj, const field *fs, const char *name, uint8_t *d) {
  char path[160];
  snprintf(path, sizeof path, "sysvars.%s", name);
  if (!json_is_object(obj)) return bad(j, path, "not an object");
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    const field *f = fs;
    while (f->name && strcmp(f->name, key)) f++;
    snprintf(path, sizeof path, "sysvars.%s.%s", name, key);
    if (!f->name) return bad(j, path, "unknown key");
    int rc = put_field(j, f, v, path, d);
    if (rc) return rc;
  }
  return SCP_OK;
}

/* [[slot, "hash"], ...] or [[epoch, effective, activating, deactivating],
 * ...]: newest first (the order the runtime keeps), at most 512; the
 * SlotHashes account keeps its 20,488 bytes (litesvm pads it), the
 * StakeHistory account is as long as its entries. */
static int vector(jctx *j, scp_sol_sysvars *s, scp_sol_sysvar_kind k, json_t *arr) {
  bool hashes = k == SCP_SOL_SV_SLOT_HASHES;
  size_t width = hashes ? 2 : 4, entry = hashes ? 40 : 32, n = json_array_size(arr);
  char path[160];
  snprintf(path, sizeof path, "sysvars.%s", scp_sol_sysvar_name(k));
  if (!json_is_array(arr)) return bad(j, path, "not an array");
  if (n > SCP_SOL_SLOT_HASHES_MAX) return bad(j, path, "more than 512 entries");
  size_t len = hashes ? SCP_SOL_SLOT_HASHES_BYTES : 8 + n * entry;
  uint8_t *d = calloc(1, len);
  if (!d) return scp_fail(j->err, SCP_ERR_NOMEM, "out of memory");
  int rc = SCP_OK;
  scp_put_le64(d, n);
  for (size_t i = 0; i < n && !rc; i++) {
    json_t *e = json_array_get(arr, i);
    uint8_t *p = d + 8 + i * entry;
    snprintf(path, sizeof path, "sysvars.%s[%zu]", scp_sol_sysvar_name(k), i);
    if (!json_is_array(e) || json_array_size(e) != width) {
      rc = bad(j, path, hashes ? "want [slot, \"hash\"]" : "want [epoch, effective, activating, deactivating]");
      break;
    }
    for (size_t f = 0; f < width && !rc; f++) {
      char fp[200];
      snprintf(fp, sizeof fp, "%s[%zu]", path, f);
      if (hashes && f == 1) {
        const field h = {.name = "hash", .at = 8, .type = F_KEY};
        rc = put_field(j, &h, json_array_get(e, 1), fp, p);
      } else {
        uint64_t x;
        if (!(rc = integer(j, json_array_get(e, f), false, fp, &x))) scp_put_le64(p + 8 * f, x);
      }
    }
    if (!rc && i && scp_le64(p) >= scp_le64(p - entry))
      rc = bad(j, path, hashes ? "slots go newest first, each below the one before"
                               : "epochs go newest first, each below the one before");
  }
  if (!rc) rc = scp_sol_sysvars_set(s, k, d, len, j->err);
  free(d);
  return rc;
}

int scp_sol_sysvars_json(scp_sol_sysvars *s, const void *json, const char *file, scp_error *err) {
  jctx j = {.file = file, .err = err};
  json_t *obj = (json_t *)json;
  if (!json_is_object(obj)) return bad(&j, "sysvars", "not an object");
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    char path[160];
    snprintf(path, sizeof path, "sysvars.%s", key);
    int rc;
    if (!strcmp(key, "clock")) rc = fields(&j, v, CLOCK, key, s->data[SCP_SOL_SV_CLOCK]);
    else if (!strcmp(key, "rent")) rc = fields(&j, v, RENT, key, s->data[SCP_SOL_SV_RENT]);
    else if (!strcmp(key, "epoch_schedule")) rc = fields(&j, v, SCHEDULE, key, s->data[SCP_SOL_SV_EPOCH_SCHEDULE]);
    else if (!strcmp(key, "epoch_rewards")) rc = fields(&j, v, REWARDS, key, s->data[SCP_SOL_SV_EPOCH_REWARDS]);
    else if (!strcmp(key, "slot_hashes")) rc = vector(&j, s, SCP_SOL_SV_SLOT_HASHES, v);
    else if (!strcmp(key, "stake_history")) rc = vector(&j, s, SCP_SOL_SV_STAKE_HISTORY, v);
    else if (!strcmp(key, "last_restart_slot")) {
      uint64_t x;
      if (!(rc = integer(&j, v, false, path, &x))) scp_put_le64(s->data[SCP_SOL_SV_LAST_RESTART_SLOT], x);
    } else if (!strcmp(key, "recent_blockhashes")) {
      rc = bad(&j, path, "follows the transactions' blockhashes; give the account to set it");
    } else {
      rc = bad(&j, path, "unknown sysvar (clock, rent, epoch_schedule, epoch_rewards, slot_hashes, "
                         "stake_history, last_restart_slot)");
    }
    if (rc) return rc;
  }
  return SCP_OK;
}
