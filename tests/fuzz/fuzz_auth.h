/*
 * fuzz_auth.h — SorobanAuthorizationEntry XDR straight from the input into
 * scp_host_set_auth_entries (host_auth_enf.c), then host calls on the
 * enforcing host it leaves (fuzz_host.h's fh_run), so entries that parse
 * are matched, authenticated (signatures, __check_auth through the stub
 * invoker), snapshotted and rolled back.  Used by the libFuzzer target
 * (fuzz_auth.c) and by the corpus replay (test_fuzz_replay.c,
 * tests/fuzz/corpus-auth).
 *
 * Input layout (reads past the end yield zeros):
 *   bytes 0, 1  as fuzz_host.h (budget; options: bit 5 the ledger's
 *               accounts, trustlines and asset contracts, bit 7 a source
 *               account); bit 6 is ignored: the entries are these
 *   byte 2      number of entries: 1 + (b & 3)
 *   per entry   a big-endian 16-bit length, then that many bytes (the rest
 *               of the input when shorter): the entry's XDR as is
 *   then        host-call steps, as fuzz_host.h
 * Oracles: fh_set_entries's (a documented status, no tracker kept after a
 * failure, a budget error only with the budget exceeded) and fh_run's.
 */
#ifndef SCP_FUZZ_AUTH_H
#define SCP_FUZZ_AUTH_H

#include "fuzz_host.h"

static inline void fa_entries(fh_state *s, const uint8_t contract[32], void *ctx) {
  (void)contract;
  (void)ctx;
  size_t n = 1 + (fh_u8(&s->in) & 3), l[4];
  const uint8_t *p[4];
  for (size_t i = 0; i < n; i++) {
    size_t len = (size_t)fh_u8(&s->in) << 8;
    len |= fh_u8(&s->in);
    if (len > s->in.n - s->in.at) len = s->in.n - s->in.at;
    p[i] = s->in.p + s->in.at;
    l[i] = len;
    s->in.at += len;
  }
  /* each entry its own allocation, so ASan sees a read past its end */
  uint8_t *copy[4] = { 0 };
  for (size_t i = 0; i < n; i++) {
    if (!(copy[i] = malloc(l[i] ? l[i] : 1))) goto out;
    memcpy(copy[i], p[i], l[i]);
    p[i] = copy[i];
  }
  fh_set_entries(s, p, l, n);
out:
  for (size_t i = 0; i < n; i++) free(copy[i]);
}

static inline void fuzz_auth_one(const uint8_t *data, size_t size) {
  fh_state *s = fh_open(data, size, fa_entries, NULL);
  if (!s) return;
  if (!s->b.exceeded) fh_run(s, FH_STEPS);
  fh_close(s);
}

#endif
