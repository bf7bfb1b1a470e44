/*
 * fuzz_wire.h — the readers of `profile --tx`: a wire transaction (raw
 * bytes, base64 or base58 text; scp_sol_wire) or a getTransaction response
 * (JSON; scp_sol_rpctx), decoded, its signatures checked, resolved against
 * a fixed state (a funded fee payer, an active lookup table of eight
 * addresses) and run (no sBPF programs: the System and Compute Budget
 * builtins run, another program is an error code).  Used by the libFuzzer
 * target (fuzz_wire.c) and the corpus replay (test_fuzz_replay.c,
 * tests/fuzz/corpus-wire).
 *
 * Oracles: every call returns a status without crashing; a decoded
 * transaction accounts for every byte (signatures, message); a resolved
 * one has its static keys first, and every instruction account indexes
 * one of its accounts; a run's CU stay within its limit and its fee is
 * charged only when the fee payer paid.
 */
#ifndef SCP_FUZZ_WIRE_H
#define SCP_FUZZ_WIRE_H

#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_rpctx.h"
#include "solana/scp_sol_wire.h"

static inline void fuzz_wire_state(scp_sol_account st[2]) {
  static uint8_t alt[56 + 8 * 32];
  memset(st, 0, 2 * sizeof *st);
  scp_sol_key_parse("FeePayer11111111111111111111111111111111111", 43, st[0].key);
  st[0].lamports = 1000000000000ull;
  scp_sol_key_parse("LookupTab1e11111111111111111111111111111111", 43, st[1].key);
  scp_sol_key_parse(scp_sol_alt_program, strlen(scp_sol_alt_program), st[1].owner);
  memset(alt, 0, sizeof alt);
  alt[0] = 1;
  memset(alt + 4, 0xff, 8);
  for (int i = 0; i < 8; i++) memset(alt + 56 + 32 * i, 0x40 + i, 32);
  st[1].data = alt;
  st[1].len = sizeof alt;
  st[1].lamports = (128 + sizeof alt) * 6960;
}

static inline void fuzz_wire_run(const scp_sol_wire_tx *tx) {
  scp_sol_account st[2];
  scp_sol_wire_msg m;
  scp_error err = {0};
  fuzz_wire_state(st);
  if (tx->msg + tx->msglen != tx->bytes + tx->len || tx->sigs + 64 * tx->nsigs > tx->msg) abort();
  (void)scp_sol_wire_verify(tx);
  if (scp_sol_wire_load(tx, st, 2, NULL, &m, &err)) {
    if (err.code != SCP_ERR_NOMEM) abort();
    return;
  }
  if (!m.txerr[0]) {
    if (m.nmsg < tx->nkeys || memcmp(m.accts[0].key, tx->keys, 32)) abort();
    for (size_t k = 0; k < m.nixs; k++)
      for (size_t i = 0; i < m.ixs[k].naccts; i++)
        if (m.ixs[k].accts[i].index >= m.nmsg) abort();
    scp_sol_tx_opts o = {.accts = m.accts, .naccts = m.naccts, .ixs = m.ixs, .nixs = m.nixs,
                         .blockhash = tx->blockhash, .nmsg = m.nmsg, .msg_writable = m.writable, .nreq = tx->nreq};
    uint64_t before = m.accts[0].lamports;
    scp_sol_tx_result r;
    if (scp_sol_tx_run(&o, &r, &err) == SCP_OK) {
      if (r.cu > r.cu_limit) abort();
      if (r.fee && m.accts[0].lamports + r.fee > before) abort();
      scp_sol_tx_result_free(&r);
    }
  }
  scp_sol_wire_msg_free(&m);
}

static inline void fuzz_wire_one(const uint8_t *d, size_t n) {
  scp_error err = {0};
  scp_sol_wire_tx tx;
  if (scp_sol_rpctx_is(d, n)) {
    scp_sol_chain ch;
    if (scp_sol_rpctx_read(d, n, "fuzz.json", &ch, &err) == SCP_OK) {
      if (scp_sol_wire_decode(ch.wire, ch.len, &tx, &err) == SCP_OK) {
        fuzz_wire_run(&tx);
        scp_sol_wire_free(&tx);
      }
      scp_sol_chain_free(&ch);
    }
    return;
  }
  uint8_t *bytes = NULL;
  size_t len = 0;
  if (scp_sol_wire_text(d, n, &bytes, &len, &err)) {
    if (err.code != SCP_ERR_MALFORMED && err.code != SCP_ERR_NOMEM) abort();
    return;
  }
  if (scp_sol_wire_decode(bytes, len, &tx, &err) == SCP_OK) {
    fuzz_wire_run(&tx);
    scp_sol_wire_free(&tx);
  } else if (err.code != SCP_ERR_MALFORMED && err.code != SCP_ERR_NOMEM) {
    abort();
  }
  free(bytes);
}

#endif
