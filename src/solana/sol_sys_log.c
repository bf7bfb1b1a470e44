/* sol_sys_log.c — logging, panic and abort (agave syscalls logging.rs and
 * lib.rs SyscallPanic/SyscallAbort). */
#include <stdlib.h>
#include <string.h>
#include "solana/sol_sys.h"

/* sol_log_(addr, len): max(base, len) CU, then the text must be UTF-8. */
int sol_sys_log(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *s;
  int rc;
  if ((rc = sol_charge(c, io, a[1] > SOL_SYSCALL_BASE ? a[1] : SOL_SYSCALL_BASE, err))) return rc;
  if ((rc = sol_map(c, io, a[0], a[1], 1, 1, false, &s, err))) return rc;
  if ((rc = sol_check_utf8(s, a[1], "", err))) return rc;
  sol_log(c, "Program log: %.*s", (int)a[1], s ? (const char *)s : "");
  *r0 = 0;
  return SCP_OK;
}

/* sol_log_64_: five values as Rust's {:#x} prints them. */
int sol_sys_log_64(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  int rc = sol_charge(c, io, SOL_LOG_64_UNITS, err);
  if (rc) return rc;
  sol_log(c, "Program log: 0x%llx, 0x%llx, 0x%llx, 0x%llx, 0x%llx", (unsigned long long)a[0],
          (unsigned long long)a[1], (unsigned long long)a[2], (unsigned long long)a[3],
          (unsigned long long)a[4]);
  *r0 = 0;
  return SCP_OK;
}

int sol_sys_log_compute_units(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                              scp_error *err) {
  int rc = sol_charge(c, io, SOL_SYSCALL_BASE, err);
  if (rc) return rc;
  sol_log(c, "Program consumption: %llu units remaining", (unsigned long long)io->remaining(io->vm));
  *r0 = 0;
  return SCP_OK;
}

int sol_sys_log_pubkey(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *k;
  int rc;
  char s[SCP_SOL_B58_KEY_MAX];
  if ((rc = sol_charge(c, io, SOL_LOG_PUBKEY_UNITS, err))) return rc;
  if ((rc = sol_map(c, io, a[0], 1, 32, 1, false, &k, err))) return rc;
  scp_sol_key_str(k, s);
  sol_log(c, "Program log: %s", s);
  *r0 = 0;
  return SCP_OK;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void put_b64(scp_buf *b, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                 (i + 2 < n ? p[i + 2] : 0);
    char q[4] = {B64[v >> 18 & 63], B64[v >> 12 & 63], i + 1 < n ? B64[v >> 6 & 63] : '=',
                 i + 2 < n ? B64[v & 63] : '='};
    scp_buf_put(b, q, 4);
  }
}

/* sol_log_data(fields, n): base, then base per field and a unit per byte
 * (charged before the fields are mapped), one "Program data:" line of
 * base64 fields. */
int sol_sys_log_data(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  const uint8_t *f;
  int rc;
  if ((rc = sol_charge(c, io, SOL_SYSCALL_BASE, err))) return rc;
  if ((rc = sol_map_slices(c, io, a[0], a[1], &f, err))) return rc;
  uint64_t bytes = 0;
  for (uint64_t i = 0; i < a[1]; i++) {
    uint64_t l = sol_le64(f + 16 * i + 8);
    bytes = bytes + l < bytes ? UINT64_MAX : bytes + l;
  }
  uint64_t per = a[1] > UINT64_MAX / SOL_SYSCALL_BASE ? UINT64_MAX : SOL_SYSCALL_BASE * a[1];
  if ((rc = sol_charge(c, io, per, err)) || (rc = sol_charge(c, io, bytes, err))) return rc;
  scp_buf b = {0};
  scp_buf_puts(&b, "Program data:");
  for (uint64_t i = 0; i < a[1]; i++) {
    uint8_t *p;
    uint64_t l = sol_le64(f + 16 * i + 8);
    if ((rc = sol_map(c, io, sol_le64(f + 16 * i), l, 1, 1, false, &p, err))) {
      scp_buf_free(&b);
      return rc;
    }
    scp_buf_putc(&b, ' ');
    put_b64(&b, p, l);
  }
  scp_buf_putc(&b, 0);
  if (b.oom) c->log_oom = true;
  else sol_log(c, "%s", b.data);
  scp_buf_free(&b);
  *r0 = 0;
  return SCP_OK;
}

/* sol_panic_(file, len, line, column): len CU, then the file name must be
 * UTF-8; the program stops either way. */
int sol_sys_panic(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  uint8_t *s;
  int rc;
  if ((rc = sol_charge(c, io, a[1], err))) return rc;
  if ((rc = sol_map(c, io, a[0], a[1], 1, 1, false, &s, err))) return rc;
  if ((rc = sol_check_utf8(s, a[1], "", err))) return rc;
  return scp_fail(err, SCP_ERR_TRAP, "SBF program Panicked in %.*s at %llu:%llu", (int)a[1],
                  s ? (const char *)s : "", (unsigned long long)a[2], (unsigned long long)a[3]);
}

int sol_sys_abort(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  return scp_fail(err, SCP_ERR_TRAP, "SBF program panicked");
}
