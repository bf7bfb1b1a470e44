/* sol_sys_misc.c — sysvars, return data, stack height and sibling
 * instructions (agave syscalls sysvar.rs and lib.rs). */
#include <string.h>
#include "solana/sol_sys.h"

/* The sysvars as the runtime lays them out in memory (Rust repr(C), what
 * the typed getters copy, padding zero) and as their accounts hold them
 * (bincode, what sol_get_sysvar slices).  Returns the length. */
enum { SV_CLOCK, SV_RENT, SV_EPOCH_SCHEDULE, SV_EPOCH_REWARDS, SV_LAST_RESTART, SV_COUNT };

static size_t sysvar_bytes(const sol_sysvars *s, int which, bool in_memory, uint8_t out[96]) {
  memset(out, 0, 96);
  switch (which) {
  case SV_CLOCK:
    sol_put_le64(out, s->slot);
    sol_put_le64(out + 8, s->epoch_start_timestamp);
    sol_put_le64(out + 16, s->epoch);
    sol_put_le64(out + 24, s->leader_schedule_epoch);
    sol_put_le64(out + 32, (uint64_t)s->unix_timestamp);
    return 40;
  case SV_RENT: {
    uint64_t bits;
    memcpy(&bits, &s->exemption_threshold, 8);
    sol_put_le64(out, s->lamports_per_byte_year);
    sol_put_le64(out + 8, bits);
    out[16] = s->burn_percent;
    return in_memory ? 24 : 17;
  }
  case SV_EPOCH_SCHEDULE:
    sol_put_le64(out, s->slots_per_epoch);
    sol_put_le64(out + 8, s->leader_schedule_slot_offset);
    out[16] = s->warmup;
    if (in_memory) {
      sol_put_le64(out + 24, s->first_normal_epoch);
      sol_put_le64(out + 32, s->first_normal_slot);
      return 40;
    }
    sol_put_le64(out + 17, s->first_normal_epoch);
    sol_put_le64(out + 25, s->first_normal_slot);
    return 33;
  case SV_EPOCH_REWARDS:
    /* all zero by default: 81 bytes as an account, 96 with u128 alignment */
    return in_memory ? 96 : 81;
  default:
    sol_put_le64(out, s->last_restart_slot);
    return 8;
  }
}

/* A typed getter: sysvar_base_cost + size_of::<T>(), then T is written. */
static int get_typed(sol_ctx *c, const sol_io *io, uint64_t va, int which, uint64_t align,
                     uint64_t *r0, scp_error *err) {
  uint8_t b[96], *out;
  size_t n = sysvar_bytes(&c->sysvars, which, true, b);
  int rc;
  if ((rc = sol_charge(c, io, SOL_SYSVAR_BASE + n, err)) ||
      (rc = sol_map(c, io, va, 1, n, align, true, &out, err)))
    return rc;
  memcpy(out, b, n);
  *r0 = 0;
  return SCP_OK;
}

int sol_sys_clock(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return get_typed(c, io, a[0], SV_CLOCK, 8, r0, err);
}
int sol_sys_rent(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return get_typed(c, io, a[0], SV_RENT, 8, r0, err);
}
int sol_sys_epoch_schedule(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return get_typed(c, io, a[0], SV_EPOCH_SCHEDULE, 8, r0, err);
}
int sol_sys_epoch_rewards(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return get_typed(c, io, a[0], SV_EPOCH_REWARDS, 16, r0, err);
}
int sol_sys_last_restart_slot(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                              scp_error *err) {
  return get_typed(c, io, a[0], SV_LAST_RESTART, 8, r0, err);
}

static const char *const SYSVAR_IDS[SV_COUNT] = {
  "SysvarC1ock11111111111111111111111111111111", "SysvarRent111111111111111111111111111111111",
  "SysvarEpochSchedu1e111111111111111111111111", "SysvarEpochRewards1111111111111111111111111",
  "SysvarLastRestartS1ot1111111111111111111111"};

/* sol_get_sysvar(id, var, offset, length): base + 32/cbpu +
 * max(length/cbpu, mem_op_base); r0 0, 1 when the range passes the end,
 * 2 for a sysvar the cache does not hold. */
int sol_sys_get_sysvar(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *id, *var, b[96];
  uint64_t buf_cost = a[3] / SOL_CPI_BYTES_PER_UNIT;
  int rc;
  if ((rc = sol_charge(c, io, SOL_SYSVAR_BASE + 32 / SOL_CPI_BYTES_PER_UNIT +
                                  (buf_cost > SOL_MEM_OP_BASE ? buf_cost : SOL_MEM_OP_BASE), err)) ||
      (rc = sol_map(c, io, a[0], 1, 32, 1, false, &id, err)) ||
      (rc = sol_map(c, io, a[1], a[3], 1, 1, true, &var, err)))
    return rc;
  if (a[2] + a[3] < a[2] || a[1] + a[3] < a[1]) {
    c->ierr.kind = SCP_SOL_IERR_ARITHMETIC_OVERFLOW;
    return scp_fail(err, SCP_ERR_TRAP, "Program arithmetic overflowed");
  }
  *r0 = 2;
  for (int k = 0; k < SV_COUNT; k++) {
    uint8_t key[32];
    scp_sol_key_parse(SYSVAR_IDS[k], strlen(SYSVAR_IDS[k]), key);
    if (memcmp(key, id, 32)) continue;
    size_t n = sysvar_bytes(&c->sysvars, k, false, b);
    if (a[2] + a[3] > n) { *r0 = 1; return SCP_OK; }
    if (a[3]) memcpy(var, b + a[2], a[3]);
    *r0 = 0;
  }
  return SCP_OK;
}

/* set_return_data(data, len): len/cbpu + base, at most 1 KiB; an empty
 * call clears it. */
int sol_sys_set_return_data(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                            scp_error *err) {
  uint8_t *p;
  int rc;
  if ((rc = sol_charge(c, io, a[1] / SOL_CPI_BYTES_PER_UNIT + SOL_SYSCALL_BASE, err))) return rc;
  if (a[1] > SOL_MAX_RETURN_DATA)
    return scp_fail(err, SCP_ERR_TRAP, "Return data too large (%llu > %u)", (unsigned long long)a[1],
                    SOL_MAX_RETURN_DATA);
  if ((rc = sol_map(c, io, a[0], a[1], 1, 1, false, &p, err))) return rc;
  memcpy(c->return_program, c->program_id, 32);
  if (a[1]) memcpy(c->return_data, p, a[1]);
  c->return_len = a[1];
  *r0 = 0;
  return SCP_OK;
}

/* get_return_data(data, len, program_id): base, and (n + 32)/cbpu when n =
 * min(len, stored) is not 0; r0 is the stored length. */
int sol_sys_get_return_data(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                            scp_error *err) {
  uint8_t *d, *pid;
  int rc;
  if ((rc = sol_charge(c, io, SOL_SYSCALL_BASE, err))) return rc;
  uint64_t n = a[1] < c->return_len ? a[1] : c->return_len;
  if (n) {
    if ((rc = sol_charge(c, io, (n + 32) / SOL_CPI_BYTES_PER_UNIT, err)) ||
        (rc = sol_map(c, io, a[0], n, 1, 1, true, &d, err)) ||
        (rc = sol_map(c, io, a[2], 1, 32, 1, true, &pid, err)))
      return rc;
    memcpy(d, c->return_data, n);
    memcpy(pid, c->return_program, 32);
  }
  *r0 = c->return_len;
  return SCP_OK;
}

int sol_sys_stack_height(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  int rc = sol_charge(c, io, SOL_SYSCALL_BASE, err);
  if (rc) return rc;
  *r0 = c->stack_height;
  return SCP_OK;
}

/* A top-level instruction of a one-instruction transaction has no
 * processed siblings: r0 0. */
int sol_sys_sibling(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  int rc = sol_charge(c, io, SOL_SYSCALL_BASE, err);
  if (rc) return rc;
  *r0 = 0;
  return SCP_OK;
}

/* sol_get_epoch_stake(vote): the total epoch stake for a null address
 * (base), else the vote account's (base + 32/cbpu + mem_op_base, the
 * address mapped).  Stake is 0 everywhere, as in litesvm, which keeps no
 * stakes. */
int sol_sys_epoch_stake(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *vote;
  int rc;
  if (a[0] == 0) {
    if ((rc = sol_charge(c, io, SOL_SYSCALL_BASE, err))) return rc;
  } else if ((rc = sol_charge(c, io, SOL_SYSCALL_BASE + 32 / SOL_CPI_BYTES_PER_UNIT + SOL_MEM_OP_BASE, err)) ||
             (rc = sol_map(c, io, a[0], 1, 32, 1, false, &vote, err))) {
    return rc;
  }
  *r0 = 0;
  return SCP_OK;
}
