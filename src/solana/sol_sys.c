/* sol_sys.c — what the syscall bodies share: the log collector, metering,
 * memory translation with agave's alignment rule, UTF-8 errors worded as
 * Rust words them, and the registration table. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solana/sol_sys.h"

/* The line (malloc'd, n bytes, or NULL when out of memory) into the log,
 * as LogCollector::log keeps it: a line that would reach the limit is
 * dropped and the first such line is replaced by "Log truncated". */
static void log_line(sol_ctx *c, char *line, size_t n) {
  if (!line) {
    c->log_oom = true;
    return;
  }
  if (c->log_bytes + n >= SOL_LOG_BYTES_LIMIT) {
    free(line);
    if (c->log_truncated) return;
    c->log_truncated = true;
    line = strdup("Log truncated");
  } else {
    c->log_bytes += n;
  }
  if (!line || !scp_grow(&c->logs, &c->logs_cap, c->nlogs + 1, sizeof *c->logs)) {
    free(line);
    c->log_oom = true;
    return;
  }
  c->logs[c->nlogs++] = line;
}

void sol_log(sol_ctx *c, const char *fmt, ...) {
  /* most lines are "%s", "%u" and "%llu" only: scp_buf's own formatter
   * makes them byte for byte as vsnprintf does, for a fraction of it */
  scp_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  bool fast = scp_fmt_fast(&b, fmt, ap);
  va_end(ap);
  if (fast) {
    if (b.oom) scp_buf_free(&b);
    log_line(c, b.data, b.len);
    return;
  }
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  char *line = malloc((size_t)n + 1);
  if (line) {
    va_start(ap, fmt);
    vsnprintf(line, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  log_line(c, line, (size_t)n);
}

void sol_ctx_free(sol_ctx *c) {
  for (size_t i = 0; i < c->nlogs; i++) free(c->logs[i]);
  free(c->logs);
  c->logs = NULL;
  c->nlogs = c->logs_cap = 0;
  sol_logs_free(&c->inner);
}

int sol_charge(sol_ctx *c, const sol_io *io, uint64_t amount, scp_error *err) {
  if (io->consume(io->vm, amount) == SCP_OK) return SCP_OK;
  c->ierr.kind = SCP_SOL_IERR_COMPUTATIONAL_BUDGET_EXCEEDED;
  return scp_fail(err, SCP_ERR_BUDGET, "Computational budget exceeded");
}

int sol_map(sol_ctx *c, const sol_io *io, uint64_t va, uint64_t len, uint64_t size,
            uint64_t align, bool write, uint8_t **host, scp_error *err) {
  *host = NULL;
  if (len == 0) return SCP_OK;
  if (len > (uint64_t)INT64_MAX / size) return scp_fail(err, SCP_ERR_TRAP, "InvalidLength");
  int rc = io->translate(io->vm, va, len * size, write, host, err);
  if (rc) return rc;
  /* agave checks the host address; its regions start 16-aligned, so the
   * guest address's alignment is the host's */
  if (c->check_aligned && align > 1 && va % align) {
    *host = NULL;
    return scp_fail(err, SCP_ERR_TRAP, "Unaligned pointer");
  }
  return SCP_OK;
}

int sol_map_slices(sol_ctx *c, const sol_io *io, uint64_t va, uint64_t n,
                   const uint8_t **pairs, scp_error *err) {
  uint8_t *h;
  int rc = sol_map(c, io, va, n, 16, 8, false, &h, err);
  *pairs = h;
  return rc;
}

/* core::str::from_utf8's first error: (valid_up_to, error_len or 0 when
 * the input ends inside a sequence); false when s is valid. */
static bool utf8_error(const uint8_t *s, size_t n, size_t *at, unsigned *elen) {
  size_t i = 0;
  while (i < n) {
    uint8_t b = s[i];
    if (b < 0x80) { i++; continue; }
    unsigned w = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    *at = i;
    if (w == 0) { *elen = 1; return true; }
    if (i + 1 >= n) { *elen = 0; return true; }
    uint8_t b1 = s[i + 1];
    bool ok1;
    if (w == 2) ok1 = b1 >= 0x80 && b1 <= 0xbf;
    else if (w == 3)
      ok1 = (b == 0xe0 && b1 >= 0xa0 && b1 <= 0xbf) || (b >= 0xe1 && b <= 0xec && b1 >= 0x80 && b1 <= 0xbf) ||
            (b == 0xed && b1 >= 0x80 && b1 <= 0x9f) || (b >= 0xee && b1 >= 0x80 && b1 <= 0xbf);
    else
      ok1 = (b == 0xf0 && b1 >= 0x90 && b1 <= 0xbf) || (b >= 0xf1 && b <= 0xf3 && b1 >= 0x80 && b1 <= 0xbf) ||
            (b == 0xf4 && b1 >= 0x80 && b1 <= 0x8f);
    if (!ok1) { *elen = 1; return true; }
    for (unsigned k = 2; k < w; k++) {
      if (i + k >= n) { *elen = 0; return true; }
      if ((s[i + k] & 0xc0) != 0x80) { *elen = k; return true; }
    }
    i += w;
  }
  return false;
}

int sol_check_utf8(const uint8_t *s, size_t n, const char *prefix, scp_error *err) {
  size_t at;
  unsigned elen;
  if (!utf8_error(s, n, &at, &elen)) return SCP_OK;
  scp_buf b = {0};
  scp_buf_puts(&b, prefix);
  if (elen) scp_buf_printf(&b, "invalid utf-8 sequence of %u bytes from index %zu: [", elen, at);
  else scp_buf_printf(&b, "incomplete utf-8 byte sequence from index %zu: [", at);
  for (size_t i = 0; i < n && b.len < sizeof err->msg; i++) scp_buf_printf(&b, i ? ", %u" : "%u", s[i]);
  scp_buf_putc(&b, ']');
  scp_buf_putc(&b, 0);
  int rc = scp_fail(err, SCP_ERR_TRAP, "%s", b.oom ? "invalid utf-8" : b.data);
  scp_buf_free(&b);
  return rc;
}

static const sol_syscall SYSCALLS[] = {
#define X(nm, f) {.name = #nm, .fn = f},
#include "solana/sol_syscalls.def"
#undef X
};

const sol_syscall *sol_syscalls(size_t *n) {
  *n = SCP_ARRAY_LEN(SYSCALLS);
  return SYSCALLS;
}
