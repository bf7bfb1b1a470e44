/*
 * cmd_profile_soltx.c — `scprof profile --tx FILE` (cli_soltx.h): the wire
 * transaction is decoded and resolved against the state (scp_sol_wire),
 * run as a scenario transaction is (scp_sol_tx_run, fees charged), and
 * result.txt gets the oracle's lines plus the fee and the writable
 * accounts after it.
 */
#include "cli_soltx.h"
#include "solana/scp_sol_names.h"
#include "solana/scp_sol_sysvar.h"
#include "solana/scp_sol_wire.h"
#include "solana/scp_sol_rpctx.h"
#include "util/scp_codec.h"

#include <stdlib.h>
#include <string.h>

#define TX_FILE_MAX (16u << 20)

/* result.txt: "cu", "log" lines and "result" as tests/oracle/tx.js
 * prints them, then "fee N" and "post KEY LAMPORTS OWNER HEX" for each
 * writable account of the message, in its order */
static void account_lines(const scp_sol_tx_result *r, const scp_sol_wire_msg *m, scp_buf *b) {
  scp_buf_printf(b, "fee %llu\n", (unsigned long long)r->fee);
  for (size_t i = 0; i < m->nmsg; i++)
    if (m->writable[i]) cli_sol_post_line(b, &m->accts[i]);
}

void cli_sol_post_line(scp_buf *b, const scp_sol_account *a) {
  char key[SCP_SOL_B58_KEY_MAX], owner[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(a->key, key);
  scp_sol_key_str(a->owner, owner);
  scp_buf_printf(b, "post %s %llu %s ", key, (unsigned long long)a->lamports, owner);
  scp_buf_put_hex(b, a->data, a->len);
  scp_buf_putc(b, '\n');
}

static void result_lines(const scp_sol_tx_result *r, const scp_sol_wire_msg *m, scp_buf *b) {
  char out[160];
  scp_sol_tx_outcome(r, out, sizeof out);
  scp_buf_printf(b, "cu %llu\n", (unsigned long long)r->cu);
  for (size_t i = 0; i < r->nlogs; i++) scp_buf_printf(b, "log %s\n", r->logs[i]);
  scp_buf_printf(b, strcmp(out, "ok") ? "result err %s\n" : "result %s\n", out);
  account_lines(r, m, b);
}

/* The Clock's slot and the slots SlotHashes holds (newest first, as the
 * account lists them), from the run's sysvar cache; NULL: litesvm's. */
static const scp_sol_wire_slots *slots_of(const scp_sol_sysvars *sv, scp_sol_wire_slots *out,
                                          uint64_t hashes[SCP_SOL_SLOT_HASHES_MAX]) {
  if (!sv) return NULL;
  const uint8_t *d = sv->data[SCP_SOL_SV_SLOT_HASHES];
  size_t len = sv->len[SCP_SOL_SV_SLOT_HASHES], n = len >= 8 ? (size_t)scp_le64(d) : 0;
  if (n > SCP_SOL_SLOT_HASHES_MAX || 8 + n * 40 > len) n = 0;
  for (size_t i = 0; i < n; i++) hashes[i] = scp_le64(d + 8 + i * 40);
  *out = (scp_sol_wire_slots){.current = scp_sol_sysvars_slot(sv), .hashes = hashes, .nhashes = n};
  return out;
}

int cli_sol_tx_with_payer(const scp_sol_tx_opts *o, const uint8_t payer[32], scp_sol_tx_result *r, scp_buf *lines,
                          scp_error *err) {
  uint8_t *wire = NULL;
  size_t len = 0;
  scp_sol_wire_tx tx = {0};
  scp_sol_wire_msg m = {0};
  memset(r, 0, sizeof *r);
  r->failed = -1;
  int rc = scp_sol_wire_compile(payer, o->ixs, o->nixs, o->accts, o->blockhash, &wire, &len, err);
  if (!rc) rc = scp_sol_wire_decode(wire, len, &tx, err);
  uint64_t hashes[SCP_SOL_SLOT_HASHES_MAX];
  scp_sol_wire_slots slots;
  if (!rc) rc = scp_sol_wire_load(&tx, o->accts, o->naccts, slots_of(o->sysvars, &slots, hashes), &m, err);
  if (!rc && m.txerr[0]) rc = scp_fail(err, SCP_ERR_ARG, "the runtime refuses the transaction: %s", m.txerr);
  /* compiling keeps the instructions' order: their labels carry over */
  for (size_t k = 0; !rc && k < m.nixs && k < o->nixs; k++) m.ixs[k].label = o->ixs[k].label;
  if (!rc) {
    scp_sol_tx_opts w = {.progs = o->progs, .nprogs = o->nprogs, .accts = m.accts, .naccts = m.naccts,
                         .ixs = m.ixs, .nixs = m.nixs, .title = o->title, .profile = o->profile,
                         .blockhash = tx.blockhash, .sysvars = o->sysvars, .features = o->features,
                         .nmsg = m.nmsg, .msg_writable = m.writable, .nreq = tx.nreq, .cache = o->cache,
                         .idls = o->idls, .shape = o->shape};
    rc = scp_sol_tx_run(&w, r, err);
  }
  if (!rc) {
    account_lines(r, &m, lines);
    for (size_t i = 0; i < m.nmsg && !rc; i++)
      for (size_t k = 0; k < o->naccts; k++)
        if (!memcmp(o->accts[k].key, m.accts[i].key, 32)) {
          scp_sol_account_free(&o->accts[k]);
          if (scp_sol_account_copy(&o->accts[k], &m.accts[i])) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
        }
  }
  scp_sol_wire_msg_free(&m);
  scp_sol_wire_free(&tx);
  free(wire);
  return rc;
}

/* "transaction NAME": NAME is the file's name without its folder and its
 * last extension, as a program named by its file is, so "swap.v2.b64"
 * keeps its "swap.v2"; then without the tags that name the file's form
 * rather than the transaction (".legacy", ".v0", ".rpc", ".rpcjson"), so
 * LABEL.b64, LABEL.legacy.b64 and LABEL.v0.rpc.json all profile under the
 * heading the scenario transaction LABEL has. */
static void title_of(const char *path, char *title, size_t cap) {
  static const char *const forms[] = {".legacy", ".v0", ".rpc", ".rpcjson"};
  char name[256];
  scp_sol_file_name(path, name, sizeof name);
  for (bool cut = true; cut;) {
    cut = false;
    size_t n = strlen(name);
    for (size_t k = 0; k < SCP_ARRAY_LEN(forms) && !cut; k++) {
      size_t f = strlen(forms[k]);
      if (n > f && !strcmp(name + n - f, forms[k])) {
        name[n - f] = 0;
        cut = true;
      }
    }
  }
  snprintf(title, cap, "transaction %s", name);
}

/* The first line at which two lists differ; SIZE_MAX: none. */
static size_t first_diff(char *const *a, size_t na, char *const *b, size_t nb) {
  size_t k = 0;
  while (k < na && k < nb && !strcmp(a[k], b[k])) k++;
  return k == na && k == nb ? SIZE_MAX : k;
}

/* "chain" lines of result.txt: the chain's record beside scprof's, the
 * first log line that differs; the one-line summary into sum */
static bool chain_lines(const scp_sol_chain *ch, const scp_sol_tx_result *r, scp_buf *b, char *sum, size_t cap) {
  char err[200];
  bool same = ch->cu == r->cu;
  scp_sol_rpc_err(r, err, sizeof err);
  scp_buf_printf(b, "chain cu %llu scprof %llu\n", (unsigned long long)ch->cu, (unsigned long long)r->cu);
  scp_buf_printf(b, "chain err %s scprof %s\n", ch->err, err);
  same &= !strcmp(ch->err, err);
  size_t k = first_diff(ch->logs, ch->nlogs, r->logs, r->nlogs);
  int n = snprintf(sum, cap, "chain %llu CU, scprof %llu CU", (unsigned long long)ch->cu, (unsigned long long)r->cu);
  if (k == SIZE_MAX) {
    scp_buf_printf(b, "chain logs same (%zu lines)\n", r->nlogs);
  } else {
    same = false;
    scp_buf_printf(b, "chain log %zu: %s\nscprof log %zu: %s\n", k + 1, k < ch->nlogs ? ch->logs[k] : "(none)",
                   k + 1, k < r->nlogs ? r->logs[k] : "(none)");
    if (n > 0 && (size_t)n < cap)
      snprintf(sum + n, cap - (size_t)n, "; log line %zu differs: chain \"%s\", scprof \"%s\"", k + 1,
               k < ch->nlogs ? ch->logs[k] : "(none)", k < r->nlogs ? r->logs[k] : "(none)");
  }
  /* the inner instructions, one by one, as the logs */
  k = first_diff(ch->inner, ch->ninner, r->inner, r->ninner);
  if (k == SIZE_MAX) {
    scp_buf_printf(b, "chain inner instructions same (%zu)\n", r->ninner);
  } else {
    const char *c1 = k < ch->ninner ? ch->inner[k] : "(none)", *s1 = k < r->ninner ? r->inner[k] : "(none)";
    same = false;
    scp_buf_printf(b, "chain inner %zu: %s\nscprof inner %zu: %s\n", k + 1, c1, k + 1, s1);
    n = (int)strlen(sum);
    snprintf(sum + n, cap - (size_t)n, "; inner instruction %zu differs: chain \"%.200s\", scprof \"%.200s\"", k + 1,
             c1, s1);
  }
  if (strcmp(ch->err, err)) {
    n = (int)strlen(sum);
    snprintf(sum + n, cap - (size_t)n, "; outcome: chain %s, scprof %s", ch->err, err);
  }
  return same;
}

static int write_all(const cli_sol_tx *o, const scp_sol_tx_result *r, const scp_sol_wire_msg *m,
                     const scp_sol_chain *ch, bool *differs) {
  cli_outdir od;
  scp_buf b = {0};
  char sum[1200] = "";
  int st = cli_outdir_begin(&od, o->out_dir);
  if (!st && r->profile) st = o->write_outputs(r->profile, o->ctx, od.tmp, od.final);
  result_lines(r, m, &b);
  *differs = ch && !chain_lines(ch, r, &b, sum, sizeof sum);
  if (!st && ch) {
    if (*differs) cli_warn("%s: %s", o->path, sum);
    else if (!o->quiet) printf("%s\n", sum);
  }
  if (!st) st = cli_write_file_as(od.tmp, od.final, "result.txt", &b);
  if (!st) st = cli_outdir_commit(&od);
  cli_outdir_abort(&od);
  scp_buf_free(&b);
  if (!st && !o->quiet && r->profile) {
    scp_buf rep = {0};
    scp_out_opts oo = {.top = o->top};
    int rc = scp_out_format_get(SCP_FMT_REPORT)->write(r->profile, &oo, &rep);
    st = rc == SCP_OK ? cli_write_stdout(&rep) : cli_die(rc, "report: %s", scp_strerror(rc));
    scp_buf_free(&rep);
  }
  return st;
}

static int run_msg(const cli_sol_tx *o, const scp_sol_wire_tx *tx, scp_sol_wire_msg *m, const scp_sol_chain *ch) {
  scp_error err = {0};
  char title[300], out[160];
  scp_sol_tx_result r;
  title_of(o->path, title, sizeof title);
  if (m->txerr[0]) {
    /* refused before it runs: no CU, no fee, no account changed */
    memset(&r, 0, sizeof r);
    r.failed = -1;
    snprintf(r.txerr, sizeof r.txerr, "%s", m->txerr);
  } else {
    scp_sol_tx_opts to = {.progs = o->progs, .nprogs = o->nprogs, .accts = m->accts, .naccts = m->naccts,
                          .ixs = m->ixs, .nixs = m->nixs, .title = title, .profile = true,
                          .blockhash = tx->blockhash, .sysvars = o->sysvars, .features = o->features,
                          .nmsg = m->nmsg, .msg_writable = m->writable, .nreq = tx->nreq, .cache = o->cache,
                          .idls = o->idls, .shape = o->shape};
    int rc = scp_sol_tx_run(&to, &r, &err);
    if (rc) return cli_die(rc, "%s: %s", o->path, err.msg);
  }
  bool differs = false;
  int st = write_all(o, &r, m, ch, &differs);
  scp_sol_tx_outcome(&r, out, sizeof out);
  if (!st && differs && o->expect_chain)
    st = cli_die(SCP_ERR_CHAIN, "%s: scprof's run differs from the chain's record (see %s/result.txt)", o->path,
                 o->out_dir);
  else if (!st && strcmp(out, "ok"))
    st = cli_die(SCP_ERR_TRAP, "%s: transaction failed: %s after %llu CU (written to %s)", o->path, out,
                 (unsigned long long)r.cu, o->out_dir);
  scp_sol_tx_result_free(&r);
  return st;
}

int cli_sol_tx_run(const cli_sol_tx *o) {
  uint8_t *file = NULL, *bytes = NULL;
  size_t flen = 0, len = 0;
  scp_error err = {0};
  scp_sol_wire_tx tx = {0};
  scp_sol_wire_msg m = {0};
  scp_sol_chain ch = {0};
  bool rpc = false;
  int st = 0;
  if (scp_read_file_max(o->path, TX_FILE_MAX, "a transaction", &file, &flen, &err))
    return cli_die(err.code, "%s", err.msg);
  if ((rpc = scp_sol_rpctx_is(file, flen))) {
    if (scp_sol_rpctx_read(file, flen, o->path, &ch, &err)) {
      st = cli_die(err.code, "%s", err.msg);
      goto done;
    }
    if (scp_sol_wire_decode(ch.wire, ch.len, &tx, &err)) {
      st = cli_die(err.code, "%s: result.transaction: %s", o->path, err.msg);
      goto done;
    }
  } else if (o->expect_chain) {
    st = cli_die(SCP_ERR_USAGE, "%s: --expect-chain needs a getTransaction response, not a bare transaction", o->path);
    goto done;
  } else if (scp_sol_wire_text(file, flen, &bytes, &len, &err) || scp_sol_wire_decode(bytes, len, &tx, &err)) {
    st = cli_die(err.code, "%s: %s", o->path, err.msg);
    goto done;
  }
  uint64_t hashes[SCP_SOL_SLOT_HASHES_MAX];
  scp_sol_wire_slots slots;
  if (scp_sol_wire_load(&tx, o->state, o->nstate, slots_of(o->sysvars, &slots, hashes), &m, &err)) {
    st = cli_die(err.code, "%s: %s", o->path, err.msg);
    goto done;
  }
  /* a sysvar account the message names holds what the run's sysvar cache
   * holds, as litesvm keeps them in step */
  if (o->sysvars && scp_sol_sysvars_to_accounts(o->sysvars, m.accts, m.naccts)) {
    st = cli_die(SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  /* the runtime checks signatures after it loads the lookups */
  if (o->sigverify && !m.txerr[0] && !scp_sol_wire_verify(&tx)) {
    scp_sol_wire_msg_free(&m);
    snprintf(m.txerr, sizeof m.txerr, "SignatureFailure");
  }
  st = run_msg(o, &tx, &m, rpc ? &ch : NULL);
done:
  scp_sol_chain_free(&ch);
  scp_sol_wire_msg_free(&m);
  scp_sol_wire_free(&tx);
  free(bytes);
  free(file);
  return st;
}
