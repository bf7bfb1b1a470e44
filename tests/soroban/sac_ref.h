/*
 * sac_ref.h — the reference's Stellar Asset Contract test harness, redone
 * so that its tests can be replayed whole (sac_flows.c):
 * StellarAssetContractTest::setup and its helpers in rs-soroban-env
 * v28.0.2 soroban-env-host/src/test/stellar_asset_contract.rs and
 * builtin_contracts/testutils.rs.
 *
 *  - The ledger: sequence 123, timestamp 123456, network id [5; 32], base
 *    reserve 5,000,000, TTLs 4096 / 16 / 6,312,000; enforcing auth, the
 *    base PRNG seeded with Host::TEST_PRNG_SEED.
 *  - The keys: generate_signing_key draws 32 bytes from the test PRNG,
 *    which is the base PRNG's second raw sub-PRNG (set_base_prng_seed: the
 *    recording-auth nonce PRNG first).  ed25519-dalek's SigningKey from
 *    those bytes is libsodium's seed key pair: the issuer's key is 00fc0655..
 *    and "aaaa"'s asset contract is SAC:2e378f80.., as in the traces.  With
 *    the trace's own keys the storage map orders its keys (and so counts
 *    its compares) as the reference's does.  generate_bytes_array (contract
 *    ids) draws from the same PRNG.
 *  - authorize_single_invocation: the nonce gen_range(0..=i64::MAX) (rand
 *    0.8's sample_single_inclusive: u64 draws, an odd one rejected, the
 *    value v >> 1), then gen::<bool>() (a u32's top bit) picks AddressV2
 *    credentials; expiration ledger sequence + 10,000; TestSigner::sign's
 *    Env calls and the signature Vec of {public_key, signature} maps over
 *    SHA-256 of the HashIdPreimage; set_authorization_entries.  An
 *    AccountInvoker gets SourceAccount credentials (the bool still drawn);
 *    a ContractInvoker draws nothing and is authorized as the direct
 *    invoker from a TestContract frame (run_from_contract).
 *  - create_account / create_trustline write AccountEntry /
 *    TrustLineEntry XDR into the storage map (add_ledger_entry).
 *  - After each top-level call the test host's authorization manager is
 *    reset to enforcing without entries (frame.rs with_frame, testutils).
 *  - The trace's top-level calls (depth 0) with the budget at their `call`
 *    and `ret` steps.  A flow makes every Env call the test makes, in the
 *    trace's order; ref_begin / ref_end check each: the same function, a
 *    call step that shows untraced work before it taken over (as
 *    test_replay.c does), then the outcome and CPU, memory and peak memory
 *    at its ret step.
 */
#ifndef SCP_TEST_SAC_REF_H
#define SCP_TEST_SAC_REF_H

#include <jansson.h>
#include <openssl/sha.h>
#include <sodium.h>

#include "soroban/core/host_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/sac/sac_private.h"
#include "soroban/sac/host_sac.h"

#define REF_OBS_DIR "tests/data/observations/"
#include "xdr_hand.h"

enum { REF_LK_ACCOUNT = 0, REF_LK_TRUSTLINE = 1 };
enum { REF_ISSUER, REF_USER, REF_USER2, REF_USER3, REF_USER4, REF_NKEYS };

/* AccountFlags / TrustLineFlags (Stellar-ledger-entries.x) */
enum {
  REF_AUTH_REQUIRED = 1, REF_AUTH_REVOCABLE = 2, REF_AUTH_CLAWBACK = 8,
  REF_TL_AUTHORIZED = 1, REF_TL_CLAWBACK = 4
};

typedef struct ref_tcall {
  char name[40];
  bool sync;   /* its call step shows untraced work before it */
  uint64_t cpu0, mem0, peak0, cpu1, mem1, peak1;
  char res[96];
} ref_tcall;

typedef struct ref {
  scp_budget b;
  scp_host *h;
  scp_prng tprng;   /* the test PRNG */
  uint8_t pk[REF_NKEYS + 2][32], sk[REF_NKEYS + 2][64];   /* + ref_new_key's */
  uint8_t asset[52];
  uint32_t asset_len;
  uint64_t sac;     /* the asset contract's Address */
  uint8_t sac_id[32];
  ref_tcall *calls;
  size_t ncalls, next;
  const char *file;
  bool partial;   /* the trace goes on with calls the test cannot make */
  /* traced calls the reference made inside set_authorization_entries'
   * conversions, still to pass over */
  unsigned internal;
  bool force_sync;   /* ref_skip passed over calls: take the next step over */
  unsigned depth;    /* test frames pushed (run_from_contract) */
  uint64_t cpu_begin, mem_begin;
} ref;

/* ---- the trace's top-level calls ------------------------------------------------- */

/* A step's changed fields; true when it shows any budget field. */
static bool ref_state(const char *v, uint64_t *cpu, uint64_t *mem, uint64_t *peak) {
  const char *p;
  bool any = false;
  if ((p = strstr(v, "cpu:"))) {
    *cpu = strtoull(p + 4, NULL, 10);
    any = true;
  }
  if ((p = strstr(v, "mem:")) && (p == v || p[-1] == ' ')) {
    *mem = strtoull(p + 4, NULL, 10);
    any = true;
  }
  if ((p = strstr(v, "mem_peak:"))) {
    *peak = strtoull(p + 9, NULL, 10);
    any = true;
  }
  return any;
}

static void ref_load_trace(ref *r, const char *file) {
  char path[512];
  snprintf(path, sizeof path, REF_OBS_DIR "%s", file);
  json_error_t jerr;
  json_t *root = json_load_file(path, 0, &jerr);
  if (!root) fail_msg("%s: %s", path, jerr.text);
  r->file = file;
  r->calls = calloc(json_object_size(root) + 1, sizeof *r->calls);
  assert_non_null(r->calls);
  uint64_t cpu = 0, mem = 0, peak = 0;
  unsigned depth = 0;
  const char *key;
  json_t *val;
  json_object_foreach(root, key, val) {
    const char *ev = key + strspn(key, " 0123456789");
    bool any = ref_state(json_string_value(val) ? json_string_value(val) : "", &cpu, &mem, &peak);
    if (!strncmp(ev, "begin", 5)) {
      r->cpu_begin = cpu;
      r->mem_begin = mem;
    } else if (!strncmp(ev, "call ", 5)) {
      if (!depth++) {
        ref_tcall *c = &r->calls[r->ncalls];
        snprintf(c->name, sizeof c->name, "%.*s", (int)strcspn(ev + 5, "("), ev + 5);
        c->sync = any;
        c->cpu0 = cpu;
        c->mem0 = mem;
        c->peak0 = peak;
      }
    } else if (!strncmp(ev, "ret ", 4) && depth) {
      if (!--depth) {
        ref_tcall *c = &r->calls[r->ncalls++];
        c->cpu1 = cpu;
        c->mem1 = mem;
        c->peak1 = peak;
        const char *arrow = strstr(ev, " -> ");
        snprintf(c->res, sizeof c->res, "%s", arrow ? arrow + 4 : "");
      }
    }
  }
  json_decref(root);
}

/* Before a traced call of the test: its step in the trace.  The calls the
 * reference made inside set_authorization_entries' conversions (Host
 * methods, not Env calls of the test: the signature map's obj_cmp of its
 * two keys, the function name's symbol_new_from_slice when it is longer
 * than 9 characters) are passed over right after an authorization; any
 * other traced call the test has not made fails.  A call step showing budget fields has the
 * untraced work before it (the test's helpers: ledger entries, Address
 * objects, the entries' conversion): its values are taken over, as
 * test_replay.c does. */
static ref_tcall *ref_begin(ref *r, const char *name) {
  while (r->internal && r->next < r->ncalls &&
         (!strcmp(r->calls[r->next].name, "obj_cmp") ||
          !strcmp(r->calls[r->next].name, "symbol_new_from_slice"))) {
    r->internal--;
    r->next++;
  }
  r->internal = 0;
  if (r->next == r->ncalls || strcmp(r->calls[r->next].name, name)) {
    print_message("%s: traced %s (call %zu) where the test makes %s\n", r->file,
                  r->next < r->ncalls ? r->calls[r->next].name : "nothing", r->next, name);
    fail();
  }
  ref_tcall *c = &r->calls[r->next++];
  if (c->sync || r->force_sync) {
    r->force_sync = false;
    r->b.cpu = c->cpu0;
    r->b.mem = c->mem0;
    r->b.mem_peak = c->peak0;
  }
  return c;
}

/* Pass over n traced calls the test makes but this harness cannot (e.g.
 * uploading a Wasm it does not have); the next call takes the trace's
 * state over. */
static void ref_skip(ref *r, size_t n) {
  assert_true(r->next + n <= r->ncalls);
  r->next += n;
  r->force_sync = true;
}

/* After it: the outcome (Ok, or the same Err; handles are not compared)
 * and the budget at its ret step: CPU, memory, peak memory. */
static void ref_end(ref *r, const ref_tcall *c, int rc, uint64_t ret, const char *msg) {
  static const char *const types[] = { "Contract", "WasmVm", "Context", "Storage", "Object",
                                       "Crypto", "Events", "Budget", "Value", "Auth" };
  static const char *const codes[] = { "ArithDomain", "IndexBounds", "InvalidInput",
                                       "MissingValue", "ExistingValue", "ExceededLimit",
                                       "InvalidAction", "InternalError", "UnexpectedType",
                                       "UnexpectedSize" };
  char got[96];
  uint32_t t = scp_val_minor(ret), code = scp_val_major(ret);
  if (rc == SCP_OK)
    snprintf(got, sizeof got, "Ok");
  else if (scp_val_tag_of(ret) == SCP_TAG_ERROR && t == SCP_ET_CONTRACT)
    snprintf(got, sizeof got, "Err(Error(Contract, #%u))", code);
  else if (scp_val_tag_of(ret) == SCP_TAG_ERROR && t < 10 && code < 10)
    snprintf(got, sizeof got, "Err(Error(%s, %s))", types[t], codes[code]);
  else
    snprintf(got, sizeof got, "Err(%.80s)", msg ? msg : "");
  if (strncmp(c->res, got, strlen(got)) || r->b.cpu != c->cpu1 || r->b.mem != c->mem1 ||
      r->b.mem_peak != c->peak1)
    print_message("%s: call %zu %s: cpu %llu mem %llu peak %llu %s, trace %llu %llu %llu %s "
                  "(from %llu %llu)\n", r->file, r->next - 1, c->name,
                  (unsigned long long)r->b.cpu, (unsigned long long)r->b.mem,
                  (unsigned long long)r->b.mem_peak, got, (unsigned long long)c->cpu1,
                  (unsigned long long)c->mem1, (unsigned long long)c->peak1, c->res,
                  (unsigned long long)c->cpu0, (unsigned long long)c->mem0);
  assert_int_equal(strncmp(c->res, got, strlen(got)), 0);
  assert_int_equal(r->b.cpu, c->cpu1);
  assert_int_equal(r->b.mem, c->mem1);
  assert_int_equal(r->b.mem_peak, c->peak1);
}

/* A traced Env call of the test by name, checked. */
static int ref_env(ref *r, const char *name, const uint64_t *args, uint64_t *ret) {
  ref_tcall *c = ref_begin(r, name);
  int id = scp_hostfn_find_name(name);
  assert_true(id >= 0);
  scp_error err = { 0 };
  *ret = 0;
  int rc = scp_host_call(r->h, (unsigned)id, args, NULL, ret, &err);
  ref_end(r, c, rc, *ret, err.msg);
  return rc;
}

/* EnvBase::bytes_new_from_slice / symbol_new_from_slice / vec_new_from_slice,
 * checked. */
static uint64_t ref_memobj(ref *r, unsigned tag, const uint8_t *p, uint32_t n) {
  ref_tcall *c = ref_begin(r, tag == SCP_TAG_BYTES_OBJ ? "bytes_new_from_slice"
                                                       : "symbol_new_from_slice");
  uint64_t v = 0;
  int rc = scp_host_memobj_new_from_slice(r->h, tag, p, n, &v);
  ref_end(r, c, rc, v, NULL);
  return v;
}

static uint64_t ref_vec(ref *r, const uint64_t *vals, uint32_t n) {
  ref_tcall *c = ref_begin(r, "vec_new_from_slice");
  uint64_t v = 0;
  int rc = scp_host_vec_new_from_slice(r->h, vals, n, &v);
  ref_end(r, c, rc, v, NULL);
  return v;
}

/* Symbol::try_from_val(host, &name): small, or symbol_new_from_slice. */
static uint64_t ref_symbol(ref *r, const char *name) {
  uint64_t v;
  if (scp_val_symbol_small((const uint8_t *)name, strlen(name), &v)) return v;
  return ref_memobj(r, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)name, (uint32_t)strlen(name));
}

/* ---- keys, PRNG ----------------------------------------------------------------- */

static uint64_t ref_u64(ref *r) {
  uint8_t b[8];
  scp_prng_fill(&r->tprng, b, 8);   /* two words, low first: next_u64 */
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
  return v;
}

static uint32_t ref_u32(ref *r) {
  uint8_t b[4];
  scp_prng_fill(&r->tprng, b, 4);
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* ---- set-up ------------------------------------------------------------------------ */

static void ref_open(ref *r, const char *file) {
  memset(r, 0, sizeof *r);
  assert_true(sodium_init() >= 0);
  ref_load_trace(r, file);
  scp_budget_init(&r->b, UINT64_MAX, UINT64_MAX);
  scp_host_opts o = { .ledger_sequence = 123, .ledger_timestamp = 123456,
                      .max_entry_ttl = 6312000, .min_temp_entry_ttl = 16,
                      .min_persistent_entry_ttl = 4096, .base_reserve = 5000000,
                      .auth_enforcing = true };
  memset(o.network_id, 5, 32);
  assert_int_equal(scp_host_create(&r->b, &o, &r->h), SCP_OK);
  static const uint8_t seed[33] = "12345678901234567890123456789012";
  assert_int_equal(scp_host_set_base_prng_seed(r->h, seed), SCP_OK);
  scp_prng base;
  uint8_t sub[32];
  scp_prng_seed(&base, seed);
  scp_prng_fill(&base, sub, 32);   /* the recording-auth nonce PRNG's */
  scp_prng_fill(&base, sub, 32);
  scp_prng_seed_raw(&r->tprng, sub);
  for (int i = 0; i < REF_NKEYS; i++) {
    scp_prng_fill(&r->tprng, sub, 32);
    crypto_sign_seed_keypair(r->pk[i], r->sk[i], sub);
  }
  r->b.cpu = r->cpu_begin;   /* the trace's begin step */
  r->b.mem = r->b.mem_peak = r->mem_begin;
}

/* Every traced call of the test was made and checked (a partial test:
 * up to where it stops). */
static void ref_close(ref *r) {
  scp_host_destroy(r->h);
  size_t left = r->partial ? 0 : r->ncalls - r->next;
  if (left)
    print_message("%s: %zu traced calls left unchecked, from %s (%s)\n", r->file, left,
                  r->calls[r->next].name, r->calls[r->next].res);
  free(r->calls);
  assert_int_equal(left, 0);
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
  put32(p, (uint32_t)(v >> 32));
  put32(p + 4, (uint32_t)v);
}

typedef struct ref_account {
  int64_t balance;
  uint32_t num_sub, flags;
  uint8_t thresholds[4];
  const uint8_t *signers[20];   /* ed25519 keys */
  uint32_t weights[20], nsigners;
  bool liabilities, sponsorships;
  int64_t buying, selling;
  uint32_t sponsored, sponsoring;
} ref_account;

/* testutils.rs create_account: AccountEntry{seq 0, no inflation
 * destination, no home domain, the signers in the order given, ext V0, or
 * V1 (liabilities) with V2 (sponsorship counts, no ids)}. */
static void ref_create_account(ref *r, const uint8_t key[32], const ref_account *a) {
  uint8_t v[512] = { 0 };
  size_t n = 4;
  memcpy(v + n, key, 32);
  n += 32;
  put64(v + n, (uint64_t)a->balance);
  n += 16;   /* seqNum 0 */
  put32(v + n, a->num_sub);
  n += 4 + 4;   /* inflationDest None */
  put32(v + n, a->flags);
  n += 4 + 4;   /* homeDomain "" */
  memcpy(v + n, a->thresholds, 4);
  n += 4;
  put32(v + n, a->nsigners);
  n += 4;
  for (uint32_t i = 0; i < a->nsigners; i++) {
    n += 4;   /* SIGNER_KEY_TYPE_ED25519 */
    memcpy(v + n, a->signers[i], 32);
    n += 32;
    put32(v + n, a->weights[i]);
    n += 4;
  }
  if (a->liabilities || a->sponsorships) {
    put32(v + n, 1);
    put64(v + n + 4, (uint64_t)a->buying);
    put64(v + n + 12, (uint64_t)a->selling);
    n += 20;
    if (a->sponsorships) {
      put32(v + n, 2);
      put32(v + n + 4, a->sponsored);
      put32(v + n + 8, a->sponsoring);
      n += 4 + 8 + 4;   /* no signer sponsoring ids */
    }
    n += 4;   /* ext V0 */
  }
  n += 4;   /* ext V0 */
  scp_lkey k = { .type = REF_LK_ACCOUNT };
  memcpy(k.id, key, 32);
  assert_int_equal(scp_storage_seed(r->h, &k, v, (uint32_t)n, 0, true), SCP_OK);
}

/* create_default_account(TestSigner::account(key)): 0 stroops, one
 * sub-entry, thresholds [1, 0, 0, 0], the key as a signer of weight 1. */
static void ref_default_account(ref *r, int who) {
  ref_account a = { .num_sub = 1, .thresholds = { 1, 0, 0, 0 }, .nsigners = 1 };
  a.signers[0] = r->pk[who];
  a.weights[0] = 1;
  ref_create_account(r, r->pk[who], &a);
}

/* The Asset XDR of code (empty: native) issued by the issuer's key. */
static void ref_set_asset(ref *r, const char *code) {
  size_t cl = strlen(code);
  memset(r->asset, 0, sizeof r->asset);
  if (!cl) {
    r->asset_len = 4;
    return;
  }
  uint32_t w = cl > 4 ? 12 : 4;
  r->asset[3] = w == 4 ? 1 : 2;
  memcpy(r->asset + 4, code, cl);
  memcpy(r->asset + 4 + w + 4, r->pk[REF_ISSUER], 32);
  r->asset_len = 4 + w + 4 + 32;
}

/* create_trustline: TrustLineEntry{the asset's code and issuer, balance,
 * limit, flags, ext V0, or V1 with (buying, selling) liabilities}. */
static void ref_create_trustline_liab(ref *r, const uint8_t acct[32], int64_t balance,
                                      int64_t limit, uint32_t flags, bool liab, int64_t buying,
                                      int64_t selling) {
  uint8_t v[160] = { 0 };
  uint32_t alen = r->asset_len, n = 60 + alen;
  memcpy(v + 4, acct, 32);
  memcpy(v + 36, r->asset, alen);
  put64(v + 36 + alen, (uint64_t)balance);
  put64(v + 44 + alen, (uint64_t)limit);
  put32(v + 52 + alen, flags);
  if (liab) {
    put32(v + 56 + alen, 1);
    put64(v + 60 + alen, (uint64_t)buying);
    put64(v + 68 + alen, (uint64_t)selling);
    n += 16 + 4;
  }
  scp_lkey k = { .type = REF_LK_TRUSTLINE, .key = r->asset, .keylen = alen };
  memcpy(k.id, acct, 32);
  assert_int_equal(scp_storage_seed(r->h, &k, v, n, 0, true), SCP_OK);
}

static void ref_create_trustline(ref *r, const uint8_t acct[32], int64_t balance, int64_t limit,
                                 uint32_t flags) {
  ref_create_trustline_liab(r, acct, balance, limit, flags, false, 0, 0);
}

/* create_account_with_balance (cap_73): the key a signer of weight 100,
 * no sub-entries, thresholds [1, 0, 0, 0]. */
static void ref_account_with_balance(ref *r, int who, int64_t balance) {
  ref_account a = { .balance = balance, .thresholds = { 1, 0, 0, 0 }, .nsigners = 1 };
  a.signers[0] = r->pk[who];
  a.weights[0] = 100;
  ref_create_account(r, r->pk[who], &a);
}

static void ref_default_trustline(ref *r, int who) {
  ref_create_trustline(r, r->pk[who], 0, INT64_MAX, REF_TL_AUTHORIZED | REF_TL_CLAWBACK);
}

/* default_stellar_asset_contract: the issuer's account (10,000,000
 * stroops, itself a signer of weight 100, one sub-entry, thresholds
 * [1, 0, 0, 0], AUTH_REVOCABLE | AUTH_CLAWBACK_ENABLED), then
 * new_from_asset: bytes_new_from_slice(asset XDR), create_asset_contract
 * (checked whole against the trace). */
static void ref_sac_with(ref *r, const char *code, uint32_t issuer_flags, bool issuer_account) {
  if (issuer_account) {
    ref_account a = { .balance = 10000000, .num_sub = 1, .thresholds = { 1, 0, 0, 0 },
                      .nsigners = 1, .flags = issuer_flags };
    a.signers[0] = r->pk[REF_ISSUER];
    a.weights[0] = 100;
    ref_create_account(r, r->pk[REF_ISSUER], &a);
  }
  ref_set_asset(r, code);
  uint64_t bytes = ref_memobj(r, SCP_TAG_BYTES_OBJ, r->asset, r->asset_len);
  assert_int_equal(ref_env(r, "create_asset_contract", &bytes, &r->sac), SCP_OK);
  memcpy(r->sac_id, scp_host_obj(r->h, r->sac)->u.bytes + 1, 32);
}

static void ref_default_sac(ref *r) {
  ref_sac_with(r, "aaaa", REF_AUTH_REVOCABLE | REF_AUTH_CLAWBACK, true);
}

/* generate_signing_key after the five of setup: key pair `slot`
 * (REF_NKEYS + i). */
static void ref_new_key(ref *r, int slot) {
  uint8_t seed[32];
  scp_prng_fill(&r->tprng, seed, 32);
  crypto_sign_seed_keypair(r->pk[slot], r->sk[slot], seed);
}

/* generate_bytes_array: 32 bytes of the test PRNG (a contract id). */
static void ref_bytes32(ref *r, uint8_t out[32]) {
  scp_prng_fill(&r->tprng, out, 32);
}

static scp_sentry *ref_entry(ref *r, uint8_t type, const uint8_t id[32]) {
  for (size_t i = 0; i < r->h->nstore; i++)
    if (r->h->store[i].present && r->h->store[i].k.type == type &&
        !memcmp(r->h->store[i].k.id, id, 32))
      return &r->h->store[i];
  fail();
  return NULL;
}

/* update_account_flags / update_trustline_flags: the entry rewritten in
 * the storage map by the test (untraced). */
static void ref_account_flags(ref *r, int who, uint32_t flags) {
  put32(ref_entry(r, REF_LK_ACCOUNT, r->pk[who])->val + 60, flags);
}

static void ref_trustline_flags(ref *r, int who, uint32_t flags) {
  put32(ref_entry(r, REF_LK_TRUSTLINE, r->pk[who])->val + 52 + r->asset_len, flags);
}

/* ---- arguments: a host Val and its ScVal XDR ------------------------------------- */

typedef struct ref_arg {
  /* 'a' account, 'c' contract (a new Address object each use, as
   * TestSigner::address), 'o' an Address object made once (a test's
   * `let addr = ...` cloned), 'i' I128, 'u' U32, 'b' Bool, 'm' muxed */
  char kind;
  uint64_t obj;
  const uint8_t *key;
  int64_t hi;
  uint64_t lo;
  uint32_t u;
  uint64_t mux;
} ref_arg;

#define REF_ACCT(r, who) ((ref_arg){ .kind = 'a', .key = (r)->pk[who] })
#define REF_CONTRACT(id) ((ref_arg){ .kind = 'c', .key = (id) })
#define REF_I128(v) ((ref_arg){ .kind = 'i', .hi = (int64_t)(v) < 0 ? -1 : 0, .lo = (uint64_t)(int64_t)(v) })
#define REF_U32(v) ((ref_arg){ .kind = 'u', .u = (v) })
#define REF_OBJ(v) ((ref_arg){ .kind = 'o', .obj = (v) })
#define REF_BOOL(v) ((ref_arg){ .kind = 'b', .u = (v) })
#define REF_MUXED(r, who, id) ((ref_arg){ .kind = 'm', .key = (r)->pk[who], .mux = (id) })

static uint64_t ref_addr_obj(ref *r, unsigned kind, const uint8_t key[32]) {
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = calloc(1, 33);
  assert_non_null(o.u.bytes);
  o.u.bytes[0] = (uint8_t)kind;
  memcpy(o.u.bytes + 1, key, 32);
  uint64_t v;
  assert_int_equal(scp_host_add_obj(r->h, &o, &v), SCP_OK);
  return v;
}

static uint64_t ref_val(ref *r, const ref_arg *a) {
  if (a->kind == 'o') return a->obj;
  if (a->kind == 'a' || a->kind == 'c') return ref_addr_obj(r, a->kind == 'c', a->key);
  if (a->kind == 'u') return scp_val_u32(a->u);
  if (a->kind == 'b') return a->u ? SCP_VAL_TRUE : SCP_VAL_FALSE;
  if (a->kind == 'm') {
    scp_hobj o = { .tag = SCP_TAG_MUXED_ADDRESS_OBJ, .len = 41 };
    o.u.bytes = calloc(1, 41);
    assert_non_null(o.u.bytes);
    o.u.bytes[0] = 2;
    for (int i = 0; i < 8; i++) o.u.bytes[1 + i] = (uint8_t)(a->mux >> (56 - 8 * i));
    memcpy(o.u.bytes + 9, a->key, 32);
    uint64_t v;
    assert_int_equal(scp_host_add_obj(r->h, &o, &v), SCP_OK);
    return v;
  }
  int64_t lo = (int64_t)a->lo;
  if (a->hi == (lo < 0 ? -1 : 0) && lo >= -(INT64_C(1) << 55) && lo < (INT64_C(1) << 55))
    return scp_val_small_i(lo, SCP_TAG_I128_SMALL);
  uint64_t in[2] = { (uint64_t)a->hi, a->lo }, v;
  assert_int_equal(ref_env(r, "obj_from_i128_pieces", in, &v), SCP_OK);
  return v;
}

static void xarg(xb *b, const scp_host *h, const ref_arg *a) {
  switch (a->kind) {
  case 'o': {
    const scp_hobj *o = scp_host_obj(h, a->obj);
    assert_non_null(o);
    x32(b, 18);
    xaddr(b, o->u.bytes[0], o->u.bytes + 1);
    break;
  }
  case 'a': case 'c':
    x32(b, 18);   /* SCV_ADDRESS */
    xaddr(b, a->kind == 'c', a->key);
    break;
  case 'm':
    x32(b, 18);
    x32(b, 2);   /* SC_ADDRESS_TYPE_MUXED_ACCOUNT {id, ed25519} */
    x64(b, a->mux);
    xbytes(b, a->key, 32);
    break;
  case 'b':
    x32(b, 0);   /* SCV_BOOL */
    x32(b, a->u);
    break;
  case 'u':
    x32(b, 3);   /* SCV_U32 */
    x32(b, a->u);
    break;
  default:
    x32(b, 10);   /* SCV_I128 */
    x64(b, (uint64_t)a->hi);
    x64(b, a->lo);
  }
}

/* TestSigner::sign's Env calls: ContractTypeVec::new (vec_new); per key
 * sign_payload_for_account -- the key's and the signature's Bytes
 * (bytes_new_from_slice, BytesN's bytes_len) -- then the
 * AccountEd25519Signature struct (map_new_from_slices with keys
 * public_key, signature) pushed (vec_push_back).  The Vec's conversion to
 * an ScVal (from_host_val) is untraced. */
enum { REF_MAP_ENTRY_SIZE = 8 + 8 + 8 };   /* host_fns_map.c's (Val, Val) */
static void ref_sign_vals(ref *r, const uint8_t (*pk)[32], const uint8_t (*sig)[64], size_t nsig) {
  uint64_t vec, kb, sb, len, kv[4], map, out;
  assert_int_equal(ref_env(r, "vec_new", NULL, &vec), SCP_OK);
  for (size_t i = 0; i < nsig; i++) {
    kb = ref_memobj(r, SCP_TAG_BYTES_OBJ, pk[i], 32);
    assert_int_equal(ref_env(r, "bytes_len", &kb, &len), SCP_OK);
    sb = ref_memobj(r, SCP_TAG_BYTES_OBJ, sig[i], 64);
    assert_int_equal(ref_env(r, "bytes_len", &sb, &len), SCP_OK);
    /* Env::map_new_from_slices: the pairs' Vec, each key a Symbol (an
     * object for "public_key"), each value checked, the map (as
     * test_replay.c's) */
    ref_tcall *c = ref_begin(r, "map_new_from_slices");
    int rc = scp_host_charge_bulk_init(r->h, 2, REF_MAP_ENTRY_SIZE);
    if (rc == SCP_OK)
      rc = scp_host_memobj_new_from_slice(r->h, SCP_TAG_SYMBOL_OBJ,
                                          (const uint8_t *)"public_key", 10, &kv[0]);
    kv[1] = kb;
    assert_true(scp_val_symbol_small((const uint8_t *)"signature", 9, &kv[2]));
    kv[3] = sb;
    if (rc == SCP_OK) rc = scp_host_check_val(r->h, kv[1]);
    if (rc == SCP_OK) rc = scp_host_check_val(r->h, kv[3]);
    if (rc == SCP_OK) rc = scp_host_map_from_pairs_nocap(r->h, kv, 2, &map);
    ref_end(r, c, rc, map, NULL);
    uint64_t pb[2] = { vec, map };
    assert_int_equal(ref_env(r, "vec_push_back", pb, &out), SCP_OK);
    vec = out;
  }
}

/* authorize_single_invocation(signer, the asset contract, fn, args): the
 * nonce and the credentials' kind from the test PRNG, the entry of account
 * `acct` signed by key pair (pk, sk) (TestSigner::account: the account's
 * own; account_with_multisig: another), set_authorization_entries. */
typedef struct ref_nonce {
  bool given;     /* authorize_single_invocation_with_nonce's (nonce, expiration) */
  int64_t nonce;
  uint32_t exp;
  bool void_sig;  /* an AccountContract signer whose sign gives Void: no Env calls */
} ref_nonce;

/* The signers: key pairs by index into r->pk / r->sk, in the order given
 * (TestSigner::account_with_multisig sorts them first: ref_sort_keys). */
static void ref_authorize_multi(ref *r, const uint8_t acct[32], const int *signers, size_t nsig,
                                const char *fn, const ref_arg *args, size_t n,
                                const ref_nonce *given) {
  uint64_t v;
  int64_t nonce;
  uint32_t exp;
  if (given && given->given) {
    nonce = given->nonce;
    exp = given->exp;
  } else {
    do v = ref_u64(r);
    while (v & 1);
    nonce = (int64_t)(v >> 1);
    exp = r->h->opts.ledger_sequence + 10000;
  }
  bool v2 = (int32_t)ref_u32(r) < 0, void_sig = given && given->void_sig;
  xb inv = { .n = 0 }, pre = { .n = 0 }, e = { .n = 0 };
  x32(&inv, 0);   /* SOROBAN_AUTHORIZED_FUNCTION_TYPE_CONTRACT_FN */
  xaddr(&inv, 1, r->sac_id);
  xvar(&inv, fn, strlen(fn));
  x32(&inv, (uint32_t)n);
  for (size_t i = 0; i < n; i++) xarg(&inv, r->h, &args[i]);
  x32(&inv, 0);   /* no sub-invocations */
  uint8_t network[32];
  memset(network, 5, 32);
  x32(&pre, v2 ? 10 : 9);   /* ENVELOPE_TYPE_SOROBAN_AUTHORIZATION(_WITH_ADDRESS) */
  xbytes(&pre, network, 32);
  x64(&pre, (uint64_t)nonce);
  x32(&pre, exp);
  if (v2) xaddr(&pre, 0, acct);
  xbytes(&pre, inv.p, inv.n);
  uint8_t hash[32], pk[32][32], sig[32][64];
  SHA256(pre.p, pre.n, hash);
  assert_true(nsig <= 32);
  for (size_t i = 0; i < nsig; i++) {
    memcpy(pk[i], r->pk[signers[i]], 32);
    crypto_sign_detached(sig[i], NULL, hash, 32, r->sk[signers[i]]);
  }
  if (!void_sig) ref_sign_vals(r, (const uint8_t (*)[32])pk, (const uint8_t (*)[64])sig, nsig);
  x32(&e, v2 ? 2 : 1);   /* SOROBAN_CREDENTIALS_ADDRESS(_V2) */
  xaddr(&e, 0, acct);
  x64(&e, (uint64_t)nonce);
  x32(&e, exp);
  /* Vec[Map{public_key: Bytes, signature: Bytes}], or Void */
  if (void_sig) {
    x32(&e, 1);   /* SCV_VOID */
    goto invocation;
  }
  x32(&e, 16);   /* SCV_VEC, Some */
  x32(&e, 1);
  x32(&e, (uint32_t)nsig);
  for (size_t i = 0; i < nsig; i++) {
    x32(&e, 17);   /* SCV_MAP, Some, 2 entries */
    x32(&e, 1);
    x32(&e, 2);
    x32(&e, 15);
    xvar(&e, "public_key", 10);
    x32(&e, 13);
    xvar(&e, pk[i], 32);
    x32(&e, 15);
    xvar(&e, "signature", 9);
    x32(&e, 13);
    xvar(&e, sig[i], 64);
  }
invocation:
  xbytes(&e, inv.p, inv.n);
  const uint8_t *p = e.p;
  size_t len = e.n;
  scp_error err = { 0 };
  int rc = scp_host_set_auth_entries(r->h, &p, &len, 1, &err);
  if (rc) print_message("set entries: %s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  /* what the entry's conversion traces: the signature map's keys
   * compared, a long function name's Symbol */
  r->internal = (void_sig ? 0 : (unsigned)nsig) + (strlen(fn) > 9);
}

static void ref_authorize_nonce(ref *r, int acct, int signer, const char *fn,
                                const ref_arg *args, size_t n, const ref_nonce *given) {
  ref_authorize_multi(r, r->pk[acct], &signer, 1, fn, args, n, given);
}

/* account_with_multisig: the signers sorted by public key. */
static void ref_sort_keys(const ref *r, int *k, size_t n) {
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && memcmp(r->pk[k[j - 1]], r->pk[k[j]], 32) > 0; j--) {
      int t = k[j];
      k[j] = k[j - 1];
      k[j - 1] = t;
    }
}

/* test_vec![args] in two steps, as the reference evaluates them: the
 * Address objects first (made by the caller, untraced: before a method's
 * own Symbol), then in test_vec! a large I128 through obj_from_i128_pieces
 * and vec_new_from_slice (or vec_new for no arguments). */
static void ref_objs(ref *r, const ref_arg *args, size_t n, uint64_t *vals) {
  for (size_t i = 0; i < n; i++) vals[i] = args[i].kind == 'i' ? 0 : ref_val(r, &args[i]);
}

static uint64_t ref_vec_of(ref *r, const ref_arg *args, size_t n, uint64_t *vals) {
  uint64_t v;
  if (!n) {   /* test_vec![host] is vec_new */
    assert_int_equal(ref_env(r, "vec_new", NULL, &v), SCP_OK);
    return v;
  }
  for (size_t i = 0; i < n; i++)
    if (args[i].kind == 'i') vals[i] = ref_val(r, &args[i]);
  return ref_vec(r, vals, (uint32_t)n);
}

static uint64_t ref_args(ref *r, const ref_arg *args, size_t n) {
  uint64_t vals[8];
  assert_true(n <= 8);
  ref_objs(r, args, n, vals);
  return ref_vec_of(r, args, n, vals);
}

/* host.call(asset, Symbol::try_from_val(fn), args), checked; then the
 * test host's reset of its authorization manager as the call stack
 * empties (frame.rs with_frame, testutils: enforcing without entries,
 * uncharged), and balance / allowance's i128 conversion of an I128
 * object (obj_to_i128_hi64, obj_to_i128_lo64).  Returns the result. */
static uint64_t ref_call_sym(ref *r, uint64_t sym, const char *fn, uint64_t vec) {
  uint64_t a[3] = { r->sac, sym, vec }, ret, part;
  int rc = ref_env(r, "call", a, &ret);
  if (!r->depth) scp_auth_enf_free(r->h);
  if (rc == SCP_OK && scp_val_tag_of(ret) == SCP_TAG_I128_OBJ &&
      (!strcmp(fn, "balance") || !strcmp(fn, "allowance"))) {
    assert_int_equal(ref_env(r, "obj_to_i128_hi64", &ret, &part), SCP_OK);
    assert_int_equal(ref_env(r, "obj_to_i128_lo64", &ret, &part), SCP_OK);
  }
  return ret;
}

static uint64_t ref_call_vec(ref *r, const char *fn, uint64_t vec) {
  return ref_call_sym(r, ref_symbol(r, fn), fn, vec);
}

/* An unsigned call (balance, allowance, admin, ...). */
static uint64_t ref_invoke(ref *r, const char *fn, const ref_arg *args, size_t n) {
  /* host.call(address, Symbol::try_from_val(fn)?, test_vec![..]): the
   * Symbol is made before the Vec */
  uint64_t vals[8];
  assert_true(n <= 8);
  ref_objs(r, args, n, vals);
  uint64_t sym = ref_symbol(r, fn), vec = ref_vec_of(r, args, n, vals);
  return ref_call_sym(r, sym, fn, vec);
}

static void ref_authorize(ref *r, int who, const char *fn, const ref_arg *args, size_t n) {
  ref_authorize_nonce(r, who, who, fn, args, n, NULL);
}

/* call_with_single_signer: the arguments' Vec, authorize_single_invocation
 * by `who`, the call. */
static uint64_t ref_signed(ref *r, int who, const char *fn, const ref_arg *args, size_t n) {
  uint64_t vec = ref_args(r, args, n);
  ref_authorize(r, who, fn, args, n);
  return ref_call_vec(r, fn, vec);
}

/* authorize_single_invocation for TestSigner::AccountInvoker: no nonce
 * drawn, the credentials' kind still drawn (gen::<bool>), SourceAccount
 * credentials with no signature; set_authorization_entries (the host's
 * source account must be set, as run_from_account does).
 * TestSigner::ContractInvoker draws nothing and sets no entry. */
static void ref_authorize_source(ref *r, const char *fn, const ref_arg *args, size_t n) {
  (void)ref_u32(r);
  xb e = { .n = 0 };
  x32(&e, 0);   /* SOROBAN_CREDENTIALS_SOURCE_ACCOUNT */
  x32(&e, 0);   /* SOROBAN_AUTHORIZED_FUNCTION_TYPE_CONTRACT_FN */
  xaddr(&e, 1, r->sac_id);
  xvar(&e, fn, strlen(fn));
  x32(&e, (uint32_t)n);
  for (size_t i = 0; i < n; i++) xarg(&e, r->h, &args[i]);
  x32(&e, 0);
  const uint8_t *p = e.p;
  size_t len = e.n;
  scp_error err = { 0 };
  int rc = scp_host_set_auth_entries(r->h, &p, &len, 1, &err);
  if (rc) print_message("set entries: %s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
  r->internal = strlen(fn) > 9;
}

/* run_from_account(account, ..): the host's source account set (and not
 * put back when there was none before). */
static void ref_source(ref *r, int who) {
  r->h->opts.has_source_account = true;
  memcpy(r->h->opts.source_account, r->pk[who], 32);
}

/* BytesN::to_array: bytes_copy_to_slice, checked. */
static void ref_to_array(ref *r, uint64_t bytes, uint8_t out[32]) {
  ref_tcall *c = ref_begin(r, "bytes_copy_to_slice");
  int rc = scp_host_memobj_copy_to_slice(r->h, bytes, 0, out, 32);
  ref_end(r, c, rc, SCP_VAL_VOID, NULL);
}

/* run_from_contract(id_bytes, ..): the id read back (to_array), a
 * TestContract frame pushed around the test's call (function "foo"),
 * popped after it; the authorization manager is reset when the stack
 * empties. */
static void ref_enter_contract(ref *r, uint64_t id_bytes) {
  uint8_t id[32];
  ref_to_array(r, id_bytes, id);
  assert_int_equal(scp_host_charge_push_context(r->h, id), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(r->h, id), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(r->h, "foo"), SCP_OK);
  r->depth++;
}

static void ref_leave_contract(ref *r) {
  scp_host_pop_frame(r->h);
  if (!--r->depth) scp_auth_enf_free(r->h);
}

/* BytesN::<32>::try_from_val(bytes_new_from_slice(id)): the Bytes and
 * its length check. */
static uint64_t ref_bytesn32(ref *r, const uint8_t id[32]) {
  uint64_t b = ref_memobj(r, SCP_TAG_BYTES_OBJ, id, 32), len;
  assert_int_equal(ref_env(r, "bytes_len", &b, &len), SCP_OK);
  return b;
}

/* The same with a signer other than the account's own key
 * (TestSigner::account_with_multisig). */
static uint64_t ref_signed_by(ref *r, int acct, int signer, const char *fn, const ref_arg *args,
                              size_t n) {
  uint64_t vec = ref_args(r, args, n);
  ref_authorize_nonce(r, acct, signer, fn, args, n, NULL);
  return ref_call_vec(r, fn, vec);
}

#define REF_ARGS(...) ((const ref_arg[]){ __VA_ARGS__ }), \
  (sizeof((const ref_arg[]){ __VA_ARGS__ }) / sizeof(ref_arg))

#endif
