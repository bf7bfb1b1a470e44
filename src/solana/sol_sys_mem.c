/* sol_sys_mem.c — memory syscalls (agave syscalls mem_ops.rs) and the bump
 * allocator of sol_alloc_free_ (lib.rs SyscallAllocFree). */
#include <string.h>
#include "solana/sol_sys.h"

/* max(mem_op_base_cost, n / cpi_bytes_per_unit) */
static int mem_op_charge(sol_ctx *c, const sol_io *io, uint64_t n, scp_error *err) {
  uint64_t cost = n / SOL_CPI_BYTES_PER_UNIT;
  return sol_charge(c, io, cost > SOL_MEM_OP_BASE ? cost : SOL_MEM_OP_BASE, err);
}

static int move(sol_ctx *c, const sol_io *io, uint64_t dst, uint64_t src, uint64_t n,
                scp_error *err) {
  uint8_t *d, *s;
  int rc;
  if ((rc = sol_map(c, io, dst, n, 1, 1, true, &d, err)) ||
      (rc = sol_map(c, io, src, n, 1, 1, false, &s, err)))
    return rc;
  if (n) memmove(d, s, n);
  return SCP_OK;
}

/* the ranges overlap unless the distance between the starts is at least
 * the length of the lower one */
static bool overlapping(uint64_t src, uint64_t dst, uint64_t n) {
  return src > dst ? src - dst < n : dst - src < n;
}

int sol_sys_memcpy(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  int rc = mem_op_charge(c, io, a[2], err);
  if (rc) return rc;
  if (overlapping(a[1], a[0], a[2])) return scp_fail(err, SCP_ERR_TRAP, "Overlapping copy");
  *r0 = 0;
  return move(c, io, a[0], a[1], a[2], err);
}

int sol_sys_memmove(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  int rc = mem_op_charge(c, io, a[2], err);
  if (rc) return rc;
  *r0 = 0;
  return move(c, io, a[0], a[1], a[2], err);
}

/* The result is the difference of the first differing bytes (s1 - s2), an
 * i32 written to the fourth argument. */
int sol_sys_memcmp(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *s1, *s2, *out;
  int rc;
  if ((rc = mem_op_charge(c, io, a[2], err)) ||
      (rc = sol_map(c, io, a[0], a[2], 1, 1, false, &s1, err)) ||
      (rc = sol_map(c, io, a[1], a[2], 1, 1, false, &s2, err)))
    return rc;
  int32_t d = 0;
  for (uint64_t i = 0; i < a[2]; i++)
    if (s1[i] != s2[i]) {
      d = (int32_t)s1[i] - (int32_t)s2[i];
      break;
    }
  if ((rc = sol_map(c, io, a[3], 1, 4, 4, true, &out, err))) return rc;
  uint32_t u = (uint32_t)d;
  for (int i = 0; i < 4; i++) out[i] = (uint8_t)(u >> (8 * i));
  *r0 = 0;
  return SCP_OK;
}

int sol_sys_memset(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *d;
  int rc;
  if ((rc = mem_op_charge(c, io, a[2], err)) || (rc = sol_map(c, io, a[0], a[2], 1, 1, true, &d, err)))
    return rc;
  if (a[2]) memset(d, (int)(uint8_t)a[1], a[2]);
  *r0 = 0;
  return SCP_OK;
}

/* sol_alloc_free_(size, free_addr): a bump allocator over the heap, 8-byte
 * aligned for aligned programs; freeing does nothing; 0 when full.  No CU. */
int sol_sys_alloc_free(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint64_t align = c->check_aligned ? 8 : 1, size = a[0];
  *r0 = 0;
  if (a[1] != 0 || size > (uint64_t)INT64_MAX - (align - 1)) return SCP_OK;
  uint64_t pos = (c->heap_pos + align - 1) / align * align;
  if (pos > c->heap_size || size > c->heap_size - pos) return SCP_OK;
  c->heap_pos = pos + size;
  *r0 = 0x300000000ULL + pos;
  return SCP_OK;
}
