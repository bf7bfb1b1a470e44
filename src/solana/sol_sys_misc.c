/* sol_sys_misc.c — sysvars, return data, stack height and sibling
 * instructions (agave syscalls sysvar.rs and lib.rs). */
#include <string.h>
#include "solana/sol_sys.h"

/* A typed getter writes the sysvar as Rust lays it out in memory
 * (repr(C), padding zero): the cache's bincode bytes, with EpochSchedule's
 * bool widened to its 8-byte slot and the struct's tail padded.  Returns
 * the size written. */
static size_t in_memory(const scp_sol_sysvars *s, scp_sol_sysvar_kind k, uint8_t out[96]) {
  static const size_t SIZE[SCP_SOL_SV_COUNT] = {40, 40, 96, 24, 0, 0, 8, 0};
  static const size_t BINCODE[SCP_SOL_SV_COUNT] = {40, 33, 81, 17, 0, 0, 8, 0};
  const uint8_t *d = s->data[k];
  memset(out, 0, 96);
  if (k == SCP_SOL_SV_EPOCH_SCHEDULE) {
    memcpy(out, d, 17);
    memcpy(out + 24, d + 17, 16);
  } else {
    memcpy(out, d, BINCODE[k]);
  }
  return SIZE[k];
}

/* A typed getter: sysvar_base_cost + size_of::<T>(), then T is written. */
static int get_typed(sol_ctx *c, const sol_io *io, uint64_t va, scp_sol_sysvar_kind k, uint64_t align,
                     uint64_t *r0, scp_error *err) {
  uint8_t b[96], *out;
  size_t n = in_memory(c->sysvars, k, b);
  int rc;
  if ((rc = sol_charge(c, io, SOL_SYSVAR_BASE + n, err)) ||
      (rc = sol_map(c, io, va, 1, n, align, true, &out, err)))
    return rc;
  memcpy(out, b, n);
  *r0 = 0;
  return SCP_OK;
}

int sol_sys_clock(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return get_typed(c, io, a[0], SCP_SOL_SV_CLOCK, 8, r0, err);
}
int sol_sys_rent(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return get_typed(c, io, a[0], SCP_SOL_SV_RENT, 8, r0, err);
}
int sol_sys_epoch_schedule(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return get_typed(c, io, a[0], SCP_SOL_SV_EPOCH_SCHEDULE, 8, r0, err);
}
int sol_sys_epoch_rewards(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return get_typed(c, io, a[0], SCP_SOL_SV_EPOCH_REWARDS, 16, r0, err);
}
int sol_sys_last_restart_slot(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                              scp_error *err) {
  return get_typed(c, io, a[0], SCP_SOL_SV_LAST_RESTART_SLOT, 8, r0, err);
}

/* sol_get_sysvar(id, var, offset, length): base + 32/cbpu +
 * max(length/cbpu, mem_op_base); r0 0, 1 when the range passes the end of
 * the cached account data, 2 for a sysvar the cache does not serve
 * (SysvarCache::sysvar_id_to_buffer: not the deprecated RecentBlockhashes). */
int sol_sys_get_sysvar(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *id, *var;
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
  int k = scp_sol_sysvar_kind_of(id);
  if (k < 0 || k == SCP_SOL_SV_RECENT_BLOCKHASHES) {
    *r0 = 2;
    return SCP_OK;
  }
  if (a[2] + a[3] > c->sysvars->len[k]) {
    *r0 = 1;
    return SCP_OK;
  }
  if (a[3]) memcpy(var, c->sysvars->data[k] + a[2], a[3]);
  *r0 = 0;
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

/* sol_remaining_compute_units: syscall_base_cost, then r0 is the CU left
 * (the instructions before the call already counted). */
int sol_sys_remaining_cu(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  int rc = sol_charge(c, io, SOL_SYSCALL_BASE, err);
  if (rc) return rc;
  *r0 = io->remaining(io->vm);
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
