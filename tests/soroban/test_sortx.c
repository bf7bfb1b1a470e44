/*
 * test_sortx.c — a transaction envelope run as the network runs it
 * (soroban/run/scp_sortx.h).
 *
 * Independent evidence:
 *  - the signed flow: the recording run's trees are signed as --auth
 *    enforce signs them, the entry is put in an envelope built here with
 *    the codec, and the signature is checked here with libsodium against
 *    the key of the fixed seed (0x11 x 32) over a payload hashed here;
 *    the envelope then runs at the cost of the --auth enforce run of the
 *    same call but for what the network's invocation changes (its set-up
 *    frame tx:decode, the storage calls, the root): every other folded
 *    stack is equal; the changed ones are worked out by hand in
 *    tests/e2e/sortx.sh and the totals here are pins.
 *  - the host's errors: a changed signature byte, an expired signature,
 *    a key left out of the footprint, a write to a read-only key; and
 *    stellar-core's refusal of an archived entry the envelope does not
 *    restore.
 *  - the three encodings (JSON, base64, binary) give the same transaction.
 *  - two public testnet envelopes (stellar/laboratory's test vectors) read
 *    as the transactions whose hashes the laboratory's tests give: the
 *    hash is recomputed here from the transaction re-encoded.
 * The counts asserted on the project's own XDR vectors (tests/data/xdr)
 * are what those files hold, read by hand; those of the public envelopes
 * are pins.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <openssl/sha.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/scp_prof.h"
#include "soroban/core/host_private.h"
#include "soroban/run/scp_scenario.h"
#include "soroban/run/scp_snapshot.h"
#include "soroban/run/scp_sortx.h"
#include "soroban/run/sor_auth.h"
#include "util/scp_json.h"
#include "xdr/scp_xdr.h"

#define ALICE "GCEZWKCA5VLDNRLN3RPRJMRZOX3Z6G5CHCGSNFHEYVXM3XOJMDS674JZ"
#define COUNTER "CC6CLEDX3HP6XYUT4GODR4OW6JELD4XAACWMSUDA4D7E2Z5GMO2FMOR4"
#define CODE_HASH "976b0908dddf6d4d4cdd38db89921b193c120785e75d10defae16709d19e6ab4"
#define SNAPSHOT "tests/data/snapshots/scprof_counter.json"
/* seed 0x11 x 32 and its account */
#define S1 "SAIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRCEIRDBNT"
#define G1 "GDIEVMRSOQV3JKZ2CNUL2RQV4TTNAISKW4NAC25PQUQKGMWJO6DTOAE7"

static char g_dir[64];
static char g_snap[128];   /* the counter snapshot with G1's account in ALICE's place */
static char g_arch[128];   /* the same, the count entry archived (live until 50) */
static bool g_restore;     /* envelopes restore the count entry (read-write 0) */

static char *read_text(const char *path) {
  uint8_t *p = NULL;
  size_t n = 0;
  scp_error err = {0};
  assert_int_equal(scp_read_file_max(path, 1 << 24, "a file", &p, &n, &err), SCP_OK);
  char *t = realloc(p, n + 1);
  assert_non_null(t);
  t[n] = 0;
  return t;
}

static void write_bytes(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(p, 1, n, f), n);
  fclose(f);
}

static int setup(void **state) {
  (void)state;
  snprintf(g_dir, sizeof g_dir, "/tmp/scp_sortx_XXXXXX");
  assert_non_null(mkdtemp(g_dir));
  char *t = read_text(SNAPSHOT);
  for (char *a = strstr(t, ALICE); a; a = strstr(a, ALICE)) memcpy(a, G1, 56);
  snprintf(g_snap, sizeof g_snap, "%s/snap.json", g_dir);
  write_bytes(g_snap, t, strlen(t));
  /* the count entry is the file's last */
  char *last = NULL;
  for (char *a = strstr(t, "\"live_until\": 4195"); a; a = strstr(a + 1, "\"live_until\": 4195")) last = a;
  assert_non_null(last);
  memcpy(last, "\"live_until\":   50", 18);
  snprintf(g_arch, sizeof g_arch, "%s/archived.json", g_dir);
  write_bytes(g_arch, t, strlen(t));
  free(t);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* The snapshot at path without its last ledger entry (the count), into
 * out. */
static void without_count(const char *path, const char *out) {
  json_error_t je;
  json_t *j = json_load_file(path, 0, &je);
  assert_non_null(j);
  json_t *ents = json_object_get(json_object_get(j, "ledger"), "ledger_entries");
  assert_true(json_array_size(ents) > 0);
  assert_int_equal(json_array_remove(ents, json_array_size(ents) - 1), 0);
  assert_int_equal(json_dump_file(j, out, JSON_INDENT(1)), 0);
  json_decref(j);
}

/* A fresh ledger from a snapshot, the counter the called contract, as
 * the command line sets a --snapshot run up. */
typedef struct env {
  scp_snapshot *snap;
  scp_ledger *l;
  scp_contract_file *files;
  scp_sor_session sess;
  scp_soroban_opts o;
  scp_arg args[2];
} env;

static void env_open(env *e, const char *snap) {
  memset(e, 0, sizeof *e);
  scp_error err = {0};
  assert_int_equal(scp_snapshot_load(snap, &e->snap, &err), SCP_OK);
  uint8_t id[32];
  assert_true(scp_xdr_strkey_decode(COUNTER, SCP_STRKEY_CONTRACT, id));
  const scp_snap_contract *c = scp_snapshot_contract(e->snap, id);
  assert_non_null(c);
  assert_int_equal(scp_snapshot_wasm(e->snap, c, &e->o.wasm, &e->o.wasm_len, &err), SCP_OK);
  e->o.wasm_path = COUNTER;
  e->o.function = "increment";
  scp_snapshot_ledger_opts(e->snap, &e->o.ledger);
  e->l = scp_snapshot_ledger(e->snap, c, &e->files);
  assert_non_null(e->l);
  assert_true(scp_ledger_classic(e->l, NULL, 0, NULL, 0, NULL, 0));
  e->sess = (scp_sor_session){.ledger = e->l};
  e->o.session = &e->sess;
}

static void env_close(env *e) {
  scp_ledger_free(e->l);
  free(e->files);
  scp_snapshot_free(e->snap);
}

/* increment(addr:WHO, u32:2) with --auth enforce --signer S1. */
static void enforce_opts(env *e, const char *who) {
  static const char *signers[] = {S1};
  static char a0[80];
  snprintf(a0, sizeof a0, "addr:%s", who);
  scp_error err = {0};
  assert_int_equal(scp_arg_parse(a0, &e->args[0], &err), SCP_OK);
  assert_int_equal(scp_arg_parse("u32:2", &e->args[1], &err), SCP_OK);
  e->o.args = e->args;
  e->o.nargs = 2;
  e->o.auth.enforce = true;
  e->o.auth.signers = signers;
  e->o.auth.nsigners = 1;
}

static char *folded(const scp_profile *p) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  assert_non_null(f);
  assert_int_equal(scp_profile_write(p, SCP_FMT_FOLDED, NULL, f), SCP_OK);
  fclose(f);
  return buf;
}

/* The CPU of the folded stack ending in frame (" frame N"), -1 if none. */
static long stack_cpu(const char *f, const char *frame) {
  char pat[64];
  snprintf(pat, sizeof pat, ";%s ", frame);
  const char *hit = strstr(f, pat);
  return hit ? strtol(hit + strlen(pat), NULL, 10) : -1;
}

/* The folded stacks the network's invocation leaves as they are: all but
 * the root (the instance and code reads, the frames' rollback clones),
 * tx:decode, tx:encode, and the host calls whose storage accesses enforcing mode
 * charges otherwise (the contract data ones, require_auth's account read
 * and nonce write); *n how many. */
static char *unchanged(const char *f, int *n) {
  static const char *const changed[] = {";tx:decode ", ";tx:encode ", ";host:has_contract_data ", ";host:get_contract_data ",
                                        ";host:put_contract_data ", ";host:extend_contract_data_ttl ",
                                        ";host:require_auth ", NULL};
  char *out = calloc(strlen(f) + 1, 1), *o = out;
  assert_non_null(out);
  *n = 0;
  for (const char *l = f; *l;) {
    const char *e = strchr(l, '\n');
    size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
    bool keep = memchr(l, ';', len) != NULL;
    for (int i = 0; keep && changed[i]; i++) {
      const char *hit = strstr(l, changed[i]);
      if (hit && hit < l + len) keep = false;
    }
    if (keep) {
      memcpy(o, l, len);
      o += len;
      (*n)++;
    }
    l += len;
  }
  return out;
}

static const char *meta_value(const scp_profile *p, const char *key) {
  for (size_t i = 0; i < p->nmeta; i++)
    if (!strcmp(scp_prof_str(p, p->meta[i].key), key)) return scp_prof_str(p, p->meta[i].value);
  return NULL;
}

/* The one entry --auth enforce signs for increment(G1, 2), as JSON. */
static json_t *signed_entry(void) {
  env e;
  env_open(&e, g_snap);
  enforce_opts(&e, G1);
  scp_authplan plan = {0};
  scp_error err = {0};
  int rc = scp_sortx_simulate_auth(&e.o, &plan, &err);
  if (rc) print_message("%s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  assert_int_equal(plan.n, 1);
  json_t *j = NULL;
  assert_int_equal(scp_xdr_to_json(scp_xdr_find("SorobanAuthorizationEntry"), plan.entries[0], plan.lens[0],
                                   SCP_XDR_JSON_STRINGS, &j, &err), SCP_OK);
  scp_authplan_free(&plan);
  env_close(&e);
  return j;
}

/* The address credentials of entry j (either arm). */
static json_t *credentials(json_t *j, bool *v2) {
  json_t *c = json_object_get(j, "credentials");
  json_t *a = json_object_get(c, "address_v2");
  *v2 = a != NULL;
  return a ? a : json_object_get(c, "address");
}

/* The payload the host hashes for entry (HashIdPreimage
 * SorobanAuthorization, or its WithAddress form), built here from the
 * entry's JSON with the codec. */
static void payload_hash(json_t *entry, uint8_t hash[32]) {
  bool v2;
  json_t *cr = credentials(entry, &v2);
  assert_non_null(cr);
  int64_t nonce;
  uint64_t exp;
  assert_true(scp_json_i64(json_object_get(cr, "nonce"), &nonce));
  assert_true(scp_json_u64(json_object_get(cr, "signature_expiration_ledger"), &exp));
  scp_buf pre = {0};
  uint8_t w[8] = {0, 0, 0, v2 ? 10 : 9}, zero[32] = {0};
  scp_buf_put(&pre, w, 4);
  scp_buf_put(&pre, zero, 32);   /* the snapshot's network id */
  scp_put_be64(w, (uint64_t)nonce);
  scp_buf_put(&pre, w, 8);
  scp_put_be32(w, (uint32_t)exp);
  scp_buf_put(&pre, w, 4);
  scp_error err = {0};
  if (v2) assert_int_equal(scp_xdr_from_json(scp_xdr_find("ScAddress"), json_object_get(cr, "address"), &pre, &err), SCP_OK);
  assert_int_equal(scp_xdr_from_json(scp_xdr_find("SorobanAuthorizedInvocation"), json_object_get(entry, "root_invocation"),
                                     &pre, &err), SCP_OK);
  SHA256((const uint8_t *)pre.data, pre.len, hash);
  scp_buf_free(&pre);
}

/* The signature's Bytes value (Vec[Map{public_key, signature}]) and its
 * public key's. */
static json_t *sig_val(json_t *entry, json_t **pk) {
  bool v2;
  json_t *m = json_object_get(json_array_get(json_object_get(json_object_get(credentials(entry, &v2), "signature"), "vec"), 0), "map");
  *pk = json_object_get(json_object_get(json_array_get(m, 0), "val"), "bytes");
  return json_object_get(json_object_get(json_array_get(m, 1), "val"), "bytes");
}

static void seed_keys(uint8_t pk[32], uint8_t sk[64]) {
  uint8_t seed[32];
  memset(seed, 0x11, 32);
  crypto_sign_seed_keypair(pk, sk, seed);
}

/* The entry's signature verifies, with libsodium, against the fixed
 * seed's key over the payload built here. */
static void check_signature_at(json_t *entry, uint64_t want_exp) {
  bool v2;
  uint64_t exp;
  assert_true(scp_json_u64(json_object_get(credentials(entry, &v2), "signature_expiration_ledger"), &exp));
  assert_int_equal(exp, want_exp);
  uint8_t hash[32], pk[32], sig[64], mypk[32], mysk[64];
  payload_hash(entry, hash);
  json_t *pkv, *sv = sig_val(entry, &pkv);
  assert_int_equal(sodium_hex2bin(pk, 32, json_string_value(pkv), 64, NULL, NULL, NULL), 0);
  assert_int_equal(sodium_hex2bin(sig, 64, json_string_value(sv), 128, NULL, NULL, NULL), 0);
  seed_keys(mypk, mysk);
  assert_memory_equal(pk, mypk, 32);
  assert_int_equal(crypto_sign_verify_detached(sig, hash, 32, pk), 0);
}

static void check_signature(json_t *entry) { check_signature_at(entry, 200); /* sequence 100 + 100 */ }

/* Sign entry again (after a change to it) with the fixed seed. */
static void resign(json_t *entry) {
  uint8_t hash[32], pk[32], sk[64], sig[64];
  char hex[129];
  payload_hash(entry, hash);
  seed_keys(pk, sk);
  crypto_sign_detached(sig, NULL, hash, 32, sk);
  json_t *pkv, *sv = sig_val(entry, &pkv);
  json_string_set(sv, sodium_bin2hex(hex, sizeof hex, sig, 64));
}

/* A v1 envelope from G1: increment(G1, 2) with entry and
 * the footprint the call touches (rw_count false: the count key
 * read-only; nonce false: the nonce key left out). */
static void write_envelope(const char *path, json_t *entry, uint32_t instructions, bool rw_count, bool nonce) {
  bool v2;
  json_t *cr = credentials(entry, &v2);
  json_t *count = json_pack("{s:{s:s,s:{s:s},s:s}}", "contract_data", "contract", COUNTER, "key", "symbol", "count",
                            "durability", "persistent");
  json_t *nk = json_pack("{s:{s:s,s:{s:{s:O}},s:s}}", "contract_data", "contract", G1, "key", "ledger_key_nonce",
                         "nonce", json_object_get(cr, "nonce"), "durability", "temporary");
  json_t *ro = json_pack("[{s:{s:s,s:s,s:s}},{s:{s:s}},{s:{s:s}}]", "contract_data", "contract", COUNTER, "key",
                         "ledger_key_contract_instance", "durability", "persistent", "contract_code", "hash", CODE_HASH,
                         "account", "account_id", G1);
  json_t *rw = json_array();
  json_array_append_new(rw_count ? rw : ro, count);
  if (nonce) json_array_append_new(rw, nk);
  else json_decref(nk);
  json_t *doc = json_pack(
      "{s:{s:{s:s,s:i,s:s,s:s,s:s,s:[{s:n,s:{s:{s:{s:{s:s,s:s,s:[{s:s},{s:i}]}},s:[O]}}}],"
      "s:{s:{s:o,s:{s:{s:o,s:o},s:I,s:i,s:i},s:s}}},s:[]}}",
      "tx", "tx", "source_account", G1, "fee", 200000, "seq_num", "4294967297", "cond", "none", "memo", "none",
      "operations", "source_account", "body", "invoke_host_function", "host_function", "invoke_contract",
      "contract_address", COUNTER, "function_name", "increment", "args", "address", G1, "u32", 2, "auth", entry,
      "ext", "v1", "ext", g_restore ? json_pack("{s:{s:[i]}}", "v1", "archived_soroban_entries", 0) : json_string("v0"),
      "resources", "footprint", "read_only", ro, "read_write", rw, "instructions",
      (json_int_t)instructions, "disk_read_bytes", 0, "write_bytes", 0, "resource_fee", "0", "signatures");
  assert_non_null(doc);
  assert_int_equal(json_dump_file(doc, path, JSON_COMPACT), 0);
  json_decref(doc);
}

/* Run the envelope at path on a fresh ledger: the profile (NULL when the
 * run did not get that far) and the return code, err its message. */
static scp_profile *run_tx_on(const char *snap, const char *path, int *rc, scp_error *err) {
  env e;
  env_open(&e, snap);
  scp_sortx *tx = NULL;
  assert_int_equal(scp_sortx_load(path, &tx, err), SCP_OK);
  assert_int_equal(scp_sortx_entry_lens(tx, e.snap, err), SCP_OK);
  e.o.function = tx->function;
  e.o.args = tx->args;
  e.o.nargs = tx->nargs;
  e.o.auth.has_source_account = true;
  memcpy(e.o.auth.source_account, tx->source, 32);
  e.o.limits.cpu = tx->instructions;
  e.sess.tx = tx;
  scp_profile *p = NULL;
  *rc = scp_soroban_profile(&e.o, &p, err);
  scp_sortx_free(tx);
  env_close(&e);
  return p;
}

static scp_profile *run_tx(const char *path, int *rc, scp_error *err) { return run_tx_on(g_snap, path, rc, err); }

/* The signed envelope costs what --auth enforce costs but for the
 * network's invocation (tx:decode, enforcing storage, tx:encode: derived by hand on
 * the source-account envelope in tests/e2e/sortx.sh, pinned here); its
 * errors are the host's. */
static void test_signed_envelope(void **state) {
  (void)state;
  env e;
  env_open(&e, g_snap);
  enforce_opts(&e, G1);
  scp_profile *want = NULL;
  scp_error err = {0};
  int rc = scp_soroban_profile(&e.o, &want, &err);
  if (rc) print_message("%s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  env_close(&e);
  uint64_t cpu = scp_profile_total(want, 0);

  json_t *entry = signed_entry();
  check_signature(entry);
  char path[160];
  snprintf(path, sizeof path, "%s/env.json", g_dir);
  write_envelope(path, entry, 2000000, true, true);
  scp_profile *got = run_tx(path, &rc, &err);
  if (rc) print_message("%s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  char *fw = folded(want), *fg = folded(got);
  int nw, ng;
  char *uw = unchanged(fw, &nw), *ug = unchanged(fg, &ng);
  assert_int_equal(nw, 9);
  assert_string_equal(ug, uw);
  long enc = stack_cpu(fg, "tx:encode");
  free(uw);
  free(ug);
  free(fw);
  free(fg);
  /* [pin] the --auth enforce run's own total (with the instance, count and
   * account entries decoded on their first get: 4,546 + 4,247 + 4,035), the
   * transaction's */
  assert_int_equal(cpu, 657755);
  uint64_t tx_cpu = scp_profile_total(got, 0);
  /* [pin] its teardown (tx:encode; tests/e2e/sortx.sh derives the
   * source-account envelope's by hand): the nonce written and hashed
   * too; the run without it was 692,314 */
  assert_int_equal(enc, 46018);
  assert_int_equal(tx_cpu, 692314 + 46018);
  scp_profile_destroy(got);
  scp_profile_destroy(want);

  /* declared exactly: no difference */
  write_envelope(path, entry, (uint32_t)tx_cpu, true, true);
  got = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(meta_value(got, "tx instructions"), "declared 738,332 | scprof 738,332 | network -");
  assert_string_equal(meta_value(got, "tx differences"), "none");
  scp_profile_destroy(got);

  /* the declared instructions are the limit: one short is the budget's error */
  write_envelope(path, entry, (uint32_t)tx_cpu - 1, true, true);
  got = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_ERR_BUDGET);
  scp_profile_destroy(got);

  /* a key outside the footprint, a write to a read-only one */
  write_envelope(path, entry, (uint32_t)tx_cpu, true, false);
  got = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_ERR_TRAP);
  assert_non_null(strstr(err.msg, "trying to access nonce outside of the footprint"));
  scp_profile_destroy(got);
  write_envelope(path, entry, (uint32_t)tx_cpu, false, true);
  got = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_ERR_TRAP);
  assert_non_null(strstr(err.msg, "put_contract_data: trying to access contract data key outside of the footprint"));
  scp_profile_destroy(got);

  /* one signature byte changed: the host's verification fails */
  json_t *pkv, *sv = sig_val(entry, &pkv);
  char *bad = strdup(json_string_value(sv));
  bad[0] = bad[0] == '0' ? '1' : '0';
  json_string_set(sv, bad);
  free(bad);
  write_envelope(path, entry, (uint32_t)tx_cpu, true, true);
  got = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_ERR_TRAP);
  assert_non_null(strstr(err.msg, "failed account authentication with error (failed ED25519 verification)"));
  scp_profile_destroy(got);
  json_decref(entry);
}

/* The call creates the count entry (the ledger has none): the teardown
 * writes it as it writes a modified one, the same shape (u32:2 for u32:7),
 * and the count is put by the call in both (no decoding in the teardown):
 * [derived] tx:encode is the same as on the live entry. */
static void test_created_entry(void **state) {
  (void)state;
  char snap[160], path[160];
  snprintf(snap, sizeof snap, "%s/fresh.json", g_dir);
  snprintf(path, sizeof path, "%s/fresh_env.json", g_dir);
  without_count(g_snap, snap);
  json_t *entry = signed_entry();
  write_envelope(path, entry, 2000000, true, true);
  int rc;
  scp_error err = {0};
  scp_profile *fresh = run_tx_on(snap, path, &rc, &err);
  if (rc) print_message("%s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(meta_value(fresh, "result"), "u32:2");
  scp_profile *live = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(meta_value(live, "result"), "u32:7");
  char *ff = folded(fresh), *fl = folded(live);
  assert_int_equal(stack_cpu(ff, "tx:encode"), 46018);
  assert_int_equal(stack_cpu(ff, "tx:encode"), stack_cpu(fl, "tx:encode"));
  free(ff);
  free(fl);
  scp_profile_destroy(fresh);
  scp_profile_destroy(live);
  json_decref(entry);
}

/* A signature that expired before the ledger's sequence (signed as it
 * is): the nonce check after the signature's refuses it.  Changed but not
 * signed again, the signature is what fails first. */
static void test_expired_signature(void **state) {
  (void)state;
  json_t *entry = signed_entry();
  bool v2;
  json_object_set_new(credentials(entry, &v2), "signature_expiration_ledger", json_integer(99));
  char path[160];
  snprintf(path, sizeof path, "%s/expired.json", g_dir);
  write_envelope(path, entry, 2000000, true, true);
  int rc;
  scp_error err = {0};
  scp_profile *got = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_ERR_TRAP);
  assert_non_null(strstr(err.msg, "failed ED25519 verification"));
  scp_profile_destroy(got);
  resign(entry);
  check_signature_at(entry, 99);
  write_envelope(path, entry, 2000000, true, true);
  got = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_ERR_TRAP);
  assert_non_null(strstr(err.msg, "require_auth: signature has expired"));
  scp_profile_destroy(got);
  json_decref(entry);
}

/* An archived entry of the footprint: stellar-core refuses the call
 * unless the envelope restores it; restored, the call reads its value. */
static void test_archived(void **state) {
  (void)state;
  json_t *entry = signed_entry();
  char path[160];
  snprintf(path, sizeof path, "%s/arch.json", g_dir);
  write_envelope(path, entry, 2000000, true, true);
  int rc;
  scp_error err = {0};
  scp_profile *got = run_tx_on(g_arch, path, &rc, &err);
  assert_int_equal(rc, SCP_ERR_HOST);
  assert_non_null(strstr(err.msg, "footprint.read_write[0]: the entry is archived (live until ledger 50, the ledger is 100) "
                                  "and the transaction does not restore it"));
  /* refused before the host runs: nothing charged */
  assert_non_null(got);
  assert_int_equal(scp_profile_total(got, 0), 0);
  scp_profile_destroy(got);
  g_restore = true;
  write_envelope(path, entry, 2000000, true, true);
  g_restore = false;
  got = run_tx_on(g_arch, path, &rc, &err);
  if (rc) print_message("%s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  assert_string_equal(meta_value(got, "result"), "u32:7");
  /* [derived] restoring adds e2e_invoke's RestoredKeySet to the set-up:
   * the count key cloned (MemCpy(152) 61, its symbol's MemAlloc(5) 434
   * and MemCpy(5) 42), inserted into the empty set (entry 24: MemCpy(24)
   * 45, the search's MemCpy(24) 45, the collect's MemCpy(24) 45,
   * MemAlloc(24) 437, MemCpy(24) 45, MemCpy(24) 45): 1,199 more than the
   * same envelope's set-up without it, on the live entry */
  char *fr = folded(got);
  write_envelope(path, entry, 2000000, true, true);
  scp_profile *live = run_tx(path, &rc, &err);
  assert_int_equal(rc, SCP_OK);
  char *fl = folded(live);
  long with = stack_cpu(fr, "tx:decode"), without = stack_cpu(fl, "tx:decode");
  assert_true(without > 0);
  assert_int_equal(with - without, 1199);
  /* [derived] and to the teardown, per read-write entry that exists, the
   * RestoredKeySet's contains_key (get_ledger_changes, host_teardown.c),
   * each a search over its one entry, MemCpy(48) 48: the count key found
   * (MemCmp(48) 50, the symbols' 44, the durabilities' 44: 186), the
   * nonce key not (its address an account's: MemCmp(48) 50 decides: 98):
   * 284 */
  long enc_with = stack_cpu(fr, "tx:encode"), enc_without = stack_cpu(fl, "tx:encode");
  assert_true(enc_without > 0);
  assert_int_equal(enc_with - enc_without, 284);
  free(fr);
  free(fl);
  scp_profile_destroy(live);
  scp_profile_destroy(got);
  json_decref(entry);
}

static void same_tx(const scp_sortx *a, const scp_sortx *b) {
  assert_string_equal(a->function, b->function);
  assert_memory_equal(a->contract, b->contract, 32);
  assert_memory_equal(a->source, b->source, 32);
  assert_int_equal(a->nargs, b->nargs);
  for (size_t i = 0; i < a->nargs; i++) {
    assert_int_equal(a->args[i].len, b->args[i].len);
    assert_memory_equal(a->args[i].data, b->args[i].data, a->args[i].len);
  }
  assert_int_equal(a->nauth, b->nauth);
  for (size_t i = 0; i < a->nauth; i++) {
    assert_int_equal(a->auth_lens[i], b->auth_lens[i]);
    assert_memory_equal(a->auth[i], b->auth[i], a->auth_lens[i]);
  }
  assert_int_equal(a->nfoot, b->nfoot);
  for (size_t i = 0; i < a->nfoot; i++) assert_true(scp_lkey_same(&a->foot[i].k, &b->foot[i].k));
  assert_int_equal(a->instructions, b->instructions);
  assert_int_equal(a->resource_fee, b->resource_fee);
  assert_int_equal(a->bytes, b->bytes);
}

/* The project's vectors: a v1 envelope and a fee bump of it, in JSON,
 * base64 and binary. */
static void test_encodings(void **state) {
  (void)state;
  static const char *const vectors[] = {"tests/data/xdr/envelope_v1.json", "tests/data/xdr/envelope_fee_bump.json"};
  for (size_t f = 0; f < 2; f++) {
    scp_sortx *j = NULL, *b64 = NULL, *bin = NULL;
    scp_error err = {0};
    /* the vectors restore read-write entry 2 of 2: refused as stellar-core
     * refuses it; entries 0 and 1 are read */
    assert_int_equal(scp_sortx_load(vectors[f], &j, &err), SCP_ERR_MALFORMED);
    assert_non_null(strstr(err.msg, "soroban_data.ext.v1.archived_soroban_entries[1]: not an index of the read-write footprint"));
    scp_sortx_free(j);
    char *vt = read_text(vectors[f]), *at = strstr(vt, "\"archived_soroban_entries\": [0, 2]");
    assert_non_null(at);
    memcpy(at + strlen("\"archived_soroban_entries\": [0, "), "1", 1);
    char file[160];
    snprintf(file, sizeof file, "%s/vector%zu.json", g_dir, f);
    write_bytes(file, vt, strlen(vt));
    free(vt);
    assert_int_equal(scp_sortx_load(file, &j, &err), SCP_OK);
    /* what the file holds */
    assert_int_equal(j->fee_bump, f == 1);
    assert_int_equal(j->fee, f ? 300000 : 150000);
    assert_string_equal(j->function, "increment");
    assert_string_equal(j->contract_strkey, COUNTER);
    assert_int_equal(j->nargs, 2);
    assert_int_equal(j->nauth, 4);
    assert_int_equal(j->nro, 2);
    assert_int_equal(j->nrw, 2);
    assert_int_equal(j->instructions, 1000000);
    assert_int_equal(j->disk_read_bytes, 3300);
    assert_int_equal(j->write_bytes, 100);
    assert_int_equal(j->resource_fee, 50000);
    assert_int_equal(j->narchived, 2);
    /* the same envelope as base64 and binary */
    char *text = read_text(file);
    json_t *v = NULL;
    assert_int_equal(scp_json_parse((const uint8_t *)text, strlen(text), file, &v, &err), SCP_OK);
    free(text);
    scp_buf raw = {0};
    assert_int_equal(scp_xdr_from_json(scp_xdr_find("TransactionEnvelope"), v, &raw, &err), SCP_OK);
    json_decref(v);
    /* a fee bump's size is its inner transaction's as an envelope of its
     * own: the outer is type 4 + fee source 36 + fee 8 + inner arm 4 + the
     * v1 envelope + ext 4 + no signatures 4, the inner type 4 + the v1
     * envelope: 56 bytes less */
    assert_int_equal(raw.len - (f ? 56 : 0), j->bytes);
    char p64[160], pbin[160];
    snprintf(p64, sizeof p64, "%s/env%zu.b64", g_dir, f);
    snprintf(pbin, sizeof pbin, "%s/env%zu.xdr", g_dir, f);
    char *b = scp_xdr_base64((const uint8_t *)raw.data, raw.len);
    write_bytes(p64, b, strlen(b));
    write_bytes(pbin, raw.data, raw.len);
    free(b);
    scp_buf_free(&raw);
    assert_int_equal(scp_sortx_load(p64, &b64, &err), SCP_OK);
    assert_int_equal(scp_sortx_load(pbin, &bin, &err), SCP_OK);
    same_tx(j, b64);
    same_tx(j, bin);
    scp_sortx_free(j);
    scp_sortx_free(b64);
    scp_sortx_free(bin);
  }
}

/* The network's transaction hash (SHA-256 of the testnet id, the
 * envelope type and the Transaction) of the envelope at path, the
 * transaction re-encoded from the JSON the codec read. */
static void tx_hash(const char *path, uint8_t hash[32]) {
  char *text = read_text(path);
  uint8_t *raw = NULL;
  size_t len = 0;
  assert_true(scp_xdr_unbase64(text, &raw, &len));
  free(text);
  json_t *j = NULL;
  scp_error err = {0};
  assert_int_equal(scp_xdr_to_json(scp_xdr_find("TransactionEnvelope"), raw, len, SCP_XDR_JSON_STRINGS, &j, &err), SCP_OK);
  free(raw);
  static const char pass[] = "Test SDF Network ; September 2015";
  uint8_t id[32], type[4] = {0, 0, 0, 2};
  SHA256((const uint8_t *)pass, strlen(pass), id);
  scp_buf b = {0};
  scp_buf_put(&b, id, 32);
  scp_buf_put(&b, type, 4);
  assert_int_equal(scp_xdr_from_json(scp_xdr_find("Transaction"), json_object_get(json_object_get(j, "tx"), "tx"), &b, &err),
                   SCP_OK);
  SHA256((const uint8_t *)b.data, b.len, hash);
  scp_buf_free(&b);
  json_decref(j);
}

/* Two public testnet envelopes (tests/data/xdr/README: stellar/laboratory's
 * test vectors): read as the transaction whose hash and fields the
 * laboratory's tests give. */
static void test_public_envelopes(void **state) {
  (void)state;
  static const struct {
    const char *file, *hash;
  } cases[] = {
      {"tests/data/xdr/lab_soroban_signed.b64", "8a3d1009c0a95b5a6eb3304dbc976e0fa803e7e21421fc2a1efbfbc09d57017e"},
      {"tests/data/xdr/lab_soroban_unsigned.b64", "ab12155abb53a5f8177e47683a870976621fcac62cc3441d997cc0aafaac99ad"},
  };
  for (size_t i = 0; i < 2; i++) {
    uint8_t hash[32];
    char hex[65];
    tx_hash(cases[i].file, hash);
    assert_string_equal(sodium_bin2hex(hex, sizeof hex, hash, 32), cases[i].hash);
    scp_sortx *t = NULL;
    scp_error err = {0};
    int rc = scp_sortx_load(cases[i].file, &t, &err);
    if (rc) print_message("%s\n", err.msg);
    assert_int_equal(rc, SCP_OK);
    char src[57];
    scp_xdr_strkey(SCP_STRKEY_ACCOUNT, t->source, src);
    print_message("# %s: %s %s(%zu args), %zu auth, footprint %u ro %u rw, instructions %u, read %u, write %u, "
                  "resource fee %lld, fee %lld, from %s\n", cases[i].file, t->contract_strkey, t->function, t->nargs,
                  t->nauth, t->nro, t->nrw, t->instructions, t->disk_read_bytes, t->write_bytes,
                  (long long)t->resource_fee, (long long)t->fee, src);
    /* the hash covers the Soroban data the fields come from; the values
     * themselves are pins of this reading */
    static const uint32_t want[2][7] = {{8, 2, 4, 9, 2956699, 2680, 3124}, {2, 1, 1, 2, 3114973, 21244, 508}};
    const uint32_t got[7] = {(uint32_t)t->nargs, (uint32_t)t->nauth, t->nro, t->nrw, t->instructions,
                             t->disk_read_bytes, t->write_bytes};
    assert_memory_equal(got, want[i], sizeof got);
    assert_int_equal(t->resource_fee, i ? 1920774 : 2814690);
    assert_string_equal(t->function, i ? "mint" : "swap");
    if (i == 1) {   /* as the laboratory's test shows them */
      assert_string_equal(src, "GBOTV3EYB4BO26MK3PFXNDWKI54XGXMLMK52F7TYLNOOQLL2GCJGBUQQ");
      assert_int_equal(t->fee, 1920974);
    }
    scp_sortx_free(t);
  }
}

/* Metas v3 and v4 and an RPC response holding one; refusals. */
static void test_meta(void **state) {
  (void)state;
  scp_sortx_meta m;
  scp_error err = {0};
  assert_int_equal(scp_sortx_meta_load("tests/data/xdr/meta_v3.json", &m, &err), SCP_OK);
  assert_int_equal(m.version, 3);
  assert_true(m.has_charges);
  assert_int_equal(m.non_refundable, 41000);
  assert_int_equal(m.refundable, 2500);
  assert_int_equal(m.rent, 300);
  assert_false(m.has_fee_charged);
  assert_int_equal(scp_sortx_meta_load("tests/data/xdr/meta_v4.json", &m, &err), SCP_OK);
  assert_int_equal(m.version, 4);
  assert_false(m.has_charges);
  /* an RPC getTransaction response: the meta and the result in base64 */
  char *mt = read_text("tests/data/xdr/meta_v3.json"), *rt = read_text("tests/data/xdr/result.json");
  json_t *mj = NULL, *rj = NULL;
  assert_int_equal(scp_json_parse((const uint8_t *)mt, strlen(mt), "m", &mj, &err), SCP_OK);
  assert_int_equal(scp_json_parse((const uint8_t *)rt, strlen(rt), "r", &rj, &err), SCP_OK);
  scp_buf mb = {0}, rb = {0};
  assert_int_equal(scp_xdr_from_json(scp_xdr_find("TransactionMeta"), mj, &mb, &err), SCP_OK);
  assert_int_equal(scp_xdr_from_json(scp_xdr_find("TransactionResult"), rj, &rb, &err), SCP_OK);
  char *m64 = scp_xdr_base64((const uint8_t *)mb.data, mb.len), *r64 = scp_xdr_base64((const uint8_t *)rb.data, rb.len);
  json_t *rpc = json_pack("{s:s,s:i,s:{s:s,s:s,s:s}}", "jsonrpc", "2.0", "id", 1, "result", "status", "SUCCESS",
                          "resultXdr", r64, "resultMetaXdr", m64);
  char path[160];
  snprintf(path, sizeof path, "%s/rpc.json", g_dir);
  assert_int_equal(json_dump_file(rpc, path, 0), 0);
  assert_int_equal(scp_sortx_meta_load(path, &m, &err), SCP_OK);
  assert_true(m.has_charges);
  assert_int_equal(m.rent, 300);
  assert_true(m.has_fee_charged);
  assert_int_equal(m.fee_charged, 43800);
  free(m64);
  free(r64);
  free(mt);
  free(rt);
  json_decref(mj);
  json_decref(rj);
  json_decref(rpc);
  scp_buf_free(&mb);
  scp_buf_free(&rb);
  /* an envelope is no meta */
  assert_int_equal(scp_sortx_meta_load("tests/data/xdr/envelope_v1.json", &m, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "tests/data/xdr/envelope_v1.json: "));
}

/* What cannot run is refused with the file and the JSON path. */
static void test_refused(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"{\"tx\": {\"tx\": {\"source_account\": \"" ALICE "\", \"fee\": 100, \"seq_num\": \"1\", \"cond\": \"none\","
       " \"memo\": \"none\", \"operations\": [], \"ext\": \"v0\"}, \"signatures\": []}}",
       "tx.operations: a Soroban transaction has exactly one operation"},
      {"{\"tx\": {\"tx\": {\"source_account\": \"" ALICE "\", \"fee\": 100, \"seq_num\": \"1\", \"cond\": \"none\","
       " \"memo\": \"none\", \"operations\": [{\"source_account\": null, \"body\": {\"invoke_host_function\":"
       " {\"host_function\": {\"upload_contract_wasm\": \"00\"}, \"auth\": []}}}], \"ext\": \"v0\"},"
       " \"signatures\": []}}",
       "only invoke_contract is run"},
      {"{\"tx\": {\"tx\": {\"source_acount\": 1}}}", "unknown key"},
      {"AAAA", ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char path[160];
    snprintf(path, sizeof path, "%s/bad%zu.json", g_dir, i);
    write_bytes(path, cases[i][0], strlen(cases[i][0]));
    scp_sortx *t = NULL;
    scp_error err = {0};
    assert_int_not_equal(scp_sortx_load(path, &t, &err), SCP_OK);
    print_message("# %s\n", err.msg);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, cases[i][1]));
    assert_null(strchr(err.msg, '\n'));
    scp_sortx_free(t);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_signed_envelope),
      cmocka_unit_test(test_expired_signature),
      cmocka_unit_test(test_archived),
      cmocka_unit_test(test_created_entry),
      cmocka_unit_test(test_encodings),
      cmocka_unit_test(test_public_envelopes),
      cmocka_unit_test(test_meta),
      cmocka_unit_test(test_refused),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
