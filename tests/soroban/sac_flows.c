/*
 * sac_flows.c — the reference's Stellar Asset Contract tests redone call by
 * call (rs-soroban-env v28.0.2 soroban-env-host/src/test/
 * stellar_asset_contract.rs), each against its trace: the test's keys,
 * accounts, trustlines and signed authorization entries (enforcing mode)
 * through sac_ref.h, every traced call of the test made and checked at its
 * ret step (CPU, memory, peak memory).  A flow's state is its trace's file
 * name.  Compiled once and linked into test_sac_whole and test_replay.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sac_ref.h"
#include "sac_flows.h"

#define F(name) "test__stellar_asset_contract__" name ".json"

static void balance_is(ref *r, int who, int64_t want) {
  uint64_t v = ref_invoke(r, "balance", REF_ARGS(REF_ACCT(r, who)));
  if (want < (INT64_C(1) << 55)) assert_int_equal(v, scp_val_small_i(want, SCP_TAG_I128_SMALL));
}

/* The opening most flows share: the flow's trace (*state), the asset
 * contract, then an account for each user from REF_USER to last (none when
 * last is REF_ISSUER), then their trustlines, in the order the reference
 * test creates them. */
static void open_sac_users(ref *r, void **state, int last) {
  ref_open(r, (const char *)*state);
  ref_default_sac(r);
  for (int who = REF_USER; who <= last; who++) ref_default_account(r, who);
  for (int who = REF_USER; who <= last; who++) ref_default_trustline(r, who);
}

/* test_direct_transfer: mint 100,000,000 to user, transfer 9,999,999 to
 * user_2, user_2's 10,000,000 back fails (#10), 999,999 back. */
static void test_direct_transfer(void **state) {
  ref r;
  open_sac_users(&r, state, REF_USER2);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(REF_ACCT(&r, REF_USER), REF_I128(100000000)));
  balance_is(&r, REF_USER, 100000000);
  balance_is(&r, REF_USER2, 0);
  ref_signed(&r, REF_USER, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER), REF_ACCT(&r, REF_USER2), REF_I128(9999999)));
  balance_is(&r, REF_USER, 90000001);
  balance_is(&r, REF_USER2, 9999999);
  ref_signed(&r, REF_USER2, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER2), REF_ACCT(&r, REF_USER), REF_I128(10000000)));
  ref_signed(&r, REF_USER2, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER2), REF_ACCT(&r, REF_USER), REF_I128(999999)));
  balance_is(&r, REF_USER, 91000000);
  balance_is(&r, REF_USER2, 9000000);
  ref_close(&r);
}

/* test_burn: mint to user; the issuer minting to itself and burning fail
 * (#2, before any authorization); approve, burn_from (the allowance's
 * #9 too), burn, burn of a deauthorized balance (#...), set_authorized
 * both ways. */
static void test_burn(void **state) {
  ref r;
  open_sac_users(&r, state, REF_USER2);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2), adm = REF_ACCT(&r, REF_ISSUER);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(100000000)));
  balance_is(&r, REF_USER, 100000000);
  balance_is(&r, REF_USER2, 0);
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(adm, REF_I128(1)));
  ref_signed(&r, REF_ISSUER, "burn", REF_ARGS(adm, REF_I128(1)));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u2, REF_I128(10000000), REF_U32(200)));
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  ref_signed(&r, REF_USER2, "burn_from", REF_ARGS(u2, u, REF_I128(6000000)));
  balance_is(&r, REF_USER, 94000000);
  balance_is(&r, REF_USER2, 0);
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  ref_signed(&r, REF_USER2, "burn_from", REF_ARGS(u2, u, REF_I128(4000001)));
  ref_signed(&r, REF_USER2, "burn_from", REF_ARGS(u2, u, REF_I128(4000000)));
  balance_is(&r, REF_USER, 90000000);
  balance_is(&r, REF_USER2, 0);
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  ref_signed(&r, REF_USER, "burn", REF_ARGS(u, REF_I128(45000000)));
  balance_is(&r, REF_USER, 45000000);
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(u, REF_BOOL(false)));
  ref_signed(&r, REF_USER, "burn", REF_ARGS(u, REF_I128(100)));
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(u, REF_BOOL(true)));
  ref_signed(&r, REF_USER, "burn", REF_ARGS(u, REF_I128(1000000)));
  balance_is(&r, REF_USER, 44000000);
  ref_close(&r);
}

/* test_set_admin: admin(), set_admin to user, the old admin's set_admin,
 * mint, clawback, set_authorized refused (Error(Auth, InvalidAction)),
 * the new admin's, and back. */
static void test_set_admin(void **state) {
  ref r;
  open_sac_users(&r, state, REF_USER);
  ref_default_account(&r, REF_USER2);
  ref_default_trustline(&r, REF_USER2);
  ref_arg na = REF_ACCT(&r, REF_USER), u = REF_ACCT(&r, REF_USER2), adm = REF_ACCT(&r, REF_ISSUER);
  ref_invoke(&r, "admin", NULL, 0);
  ref_signed(&r, REF_ISSUER, "set_admin", REF_ARGS(na));
  ref_invoke(&r, "admin", NULL, 0);
  ref_signed(&r, REF_ISSUER, "set_admin", REF_ARGS(na));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(na, REF_I128(1)));
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(na, REF_I128(1)));
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(na, REF_BOOL(false)));
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(na, REF_BOOL(true)));
  ref_signed(&r, REF_USER, "mint", REF_ARGS(u, REF_I128(1)));
  ref_signed(&r, REF_USER, "clawback", REF_ARGS(u, REF_I128(1)));
  ref_signed(&r, REF_USER, "set_authorized", REF_ARGS(u, REF_BOOL(false)));
  ref_signed(&r, REF_USER, "set_authorized", REF_ARGS(u, REF_BOOL(true)));
  ref_signed(&r, REF_USER, "set_admin", REF_ARGS(adm));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(1)));
  ref_close(&r);
}

/* test_transfer_with_allowance: approve, transfer_from (and #9 past the
 * allowance), approve 0, an allowance live until the current ledger,
 * then expired on the next ledger (#9). */
static void test_transfer_with_allowance(void **state) {
  ref r;
  open_sac_users(&r, state, REF_USER3);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2), u3 = REF_ACCT(&r, REF_USER3);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(100000000)));
  balance_is(&r, REF_USER, 100000000);
  balance_is(&r, REF_USER2, 0);
  ref_invoke(&r, "allowance", REF_ARGS(u, u3));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u3, REF_I128(10000000), REF_U32(200)));
  ref_invoke(&r, "allowance", REF_ARGS(u, u3));
  ref_signed(&r, REF_USER3, "transfer_from", REF_ARGS(u3, u, u2, REF_I128(6000000)));
  balance_is(&r, REF_USER, 94000000);
  balance_is(&r, REF_USER2, 6000000);
  balance_is(&r, REF_USER3, 0);
  ref_invoke(&r, "allowance", REF_ARGS(u, u3));
  ref_signed(&r, REF_USER3, "transfer_from", REF_ARGS(u3, u, u3, REF_I128(4000001)));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u3, REF_I128(0), REF_U32(0)));
  ref_invoke(&r, "allowance", REF_ARGS(u, u3));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u3, REF_I128(4000000), REF_U32(200)));
  ref_signed(&r, REF_USER3, "transfer_from", REF_ARGS(u3, u, u3, REF_I128(4000000)));
  balance_is(&r, REF_USER, 90000000);
  balance_is(&r, REF_USER2, 6000000);
  balance_is(&r, REF_USER3, 4000000);
  ref_invoke(&r, "allowance", REF_ARGS(u, u3));
  ref_signed(&r, REF_USER3, "transfer_from", REF_ARGS(u3, u, u3, REF_I128(1)));
  uint64_t seq;
  assert_int_equal(ref_env(&r, "get_ledger_sequence", NULL, &seq), SCP_OK);
  assert_int_equal(seq, scp_val_u32(123));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u3, REF_I128(10), REF_U32(123)));
  ref_signed(&r, REF_USER3, "transfer_from", REF_ARGS(u3, u, u3, REF_I128(5)));
  balance_is(&r, REF_USER, 89999995);
  balance_is(&r, REF_USER3, 4000005);
  r.h->opts.ledger_sequence = 124;
  ref_signed(&r, REF_USER3, "transfer_from", REF_ARGS(u3, u, u3, REF_I128(1)));
  ref_close(&r);
}

/* test_clawback_on_contract: two contract balances (the second created
 * while the issuer has no clawback flag), clawback from each (#10 from the
 * one without clawback), the issuer's flags changed in between. */
static void test_clawback_on_contract(void **state) {
  ref r;
  uint8_t c1[32], c2[32];
  open_sac_users(&r, state, REF_ISSUER);
  ref_bytes32(&r, c1);
  ref_bytes32(&r, c2);
  ref_arg a1 = REF_OBJ(ref_addr_obj(&r, 1, c1)), a2 = REF_OBJ(ref_addr_obj(&r, 1, c2));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(a1, REF_I128(100000000)));
  ref_account_flags(&r, REF_ISSUER, 0);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(a2, REF_I128(100000000)));
  ref_invoke(&r, "balance", REF_ARGS(a1));
  ref_invoke(&r, "balance", REF_ARGS(a2));
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(a1, REF_I128(40000000)));
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(a2, REF_I128(40000000)));
  ref_account_flags(&r, REF_ISSUER, REF_AUTH_CLAWBACK);
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(a1, REF_I128(40000000)));
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(a2, REF_I128(40000000)));
  ref_invoke(&r, "balance", REF_ARGS(a1));
  ref_invoke(&r, "balance", REF_ARGS(a2));
  ref_close(&r);
}

/* test_auth_revocable_on_contract: authorized(C) without a balance entry;
 * set_authorized(C, false) needs AUTH_REVOCABLE (#2), then with it; then
 * set_authorized(C, true) without it. */
static void test_auth_revocable_on_contract(void **state) {
  ref r;
  uint8_t c1[32];
  open_sac_users(&r, state, REF_ISSUER);
  ref_bytes32(&r, c1);
  ref_arg a1 = REF_OBJ(ref_addr_obj(&r, 1, c1));
  assert_int_equal(ref_invoke(&r, "authorized", REF_ARGS(a1)), SCP_VAL_TRUE);
  ref_account_flags(&r, REF_ISSUER, 0);
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(a1, REF_BOOL(false)));
  ref_account_flags(&r, REF_ISSUER, REF_AUTH_REVOCABLE);
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(a1, REF_BOOL(false)));
  assert_int_equal(ref_invoke(&r, "authorized", REF_ARGS(a1)), SCP_VAL_FALSE);
  ref_account_flags(&r, REF_ISSUER, 0);
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(a1, REF_BOOL(true)));
  assert_int_equal(ref_invoke(&r, "authorized", REF_ARGS(a1)), SCP_VAL_TRUE);
  ref_close(&r);
}

/* test_clawback_on_account: a trustline with no account entry; clawback,
 * #10 past the balance and without the trustline's clawback flag. */
static void test_clawback_on_account(void **state) {
  ref r;
  open_sac_users(&r, state, REF_ISSUER);
  ref_default_trustline(&r, REF_USER);
  ref_arg u = REF_ACCT(&r, REF_USER);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(100000000)));
  balance_is(&r, REF_USER, 100000000);
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(u, REF_I128(40000000)));
  balance_is(&r, REF_USER, 60000000);
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(u, REF_I128(60000001)));
  ref_trustline_flags(&r, REF_USER, 0);
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(u, REF_I128(60000000)));
  ref_trustline_flags(&r, REF_USER, REF_TL_CLAWBACK);
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(u, REF_I128(60000000)));
  balance_is(&r, REF_USER, 0);
  ref_close(&r);
}

/* test_native_self_transfer: the user's 100,000,000 stroops (itself a
 * signer of weight 100, no sub-entries), the native asset contract; an XLM
 * transfer to itself, then one past the balance (#10). */
static void test_native_self_transfer(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account a = { .balance = 100000000, .thresholds = { 1, 0, 0, 0 }, .nsigners = 1 };
  a.signers[0] = r.pk[REF_USER];
  a.weights[0] = 100;
  ref_create_account(&r, r.pk[REF_USER], &a);
  ref_sac_with(&r, "", 0, false);
  ref_arg u = REF_ACCT(&r, REF_USER);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u, REF_I128(90000000)));
  balance_is(&r, REF_USER, 100000000);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u, REF_I128(90000001)));
  ref_close(&r);
}

/* test_zero_amounts: transfers, burns, burn_from and clawback of 0 (a
 * contract without a balance: #10 until set_authorized creates it). */
static void test_zero_amounts(void **state) {
  ref r;
  uint8_t c[32];
  open_sac_users(&r, state, REF_ISSUER);
  ref_bytes32(&r, c);
  uint64_t cobj = ref_addr_obj(&r, 1, c);
  ref_default_account(&r, REF_USER);
  ref_default_account(&r, REF_USER2);
  ref_default_trustline(&r, REF_USER);
  ref_default_trustline(&r, REF_USER2);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2), ca = REF_OBJ(cobj);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u2, REF_I128(0)));
  ref_signed(&r, REF_USER, "burn", REF_ARGS(u, REF_I128(0)));
  ref_signed(&r, REF_USER, "burn_from", REF_ARGS(u, u2, REF_I128(0)));
  ref_signed(&r, REF_USER, "burn_from", REF_ARGS(u, ca, REF_I128(0)));
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(u2, REF_I128(0)));
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(ca, REF_I128(0)));
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(ca, REF_BOOL(true)));
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(ca, REF_I128(0)));
  ref_close(&r);
}

#define C73(name) "test__stellar_asset_contract__cap_73__" name ".json"
enum { DEST = REF_NKEYS };   /* generate_non_existent_account's key */

/* cap_73 test_trust_creates_trustline: trust() by an account with 15 XLM
 * creates its trustline; mint, a second account's trust, a transfer. */
static void test_trust_creates_trustline(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account_with_balance(&r, REF_USER, 15000000);
  ref_default_sac(&r);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2);
  ref_signed(&r, REF_USER, "trust", REF_ARGS(u));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(50000000)));
  balance_is(&r, REF_USER, 50000000);
  ref_account_with_balance(&r, REF_USER2, 20000000);
  ref_signed(&r, REF_USER2, "trust", REF_ARGS(u2));
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u2, REF_I128(10000000)));
  balance_is(&r, REF_USER, 40000000);
  balance_is(&r, REF_USER2, 10000000);
  ref_close(&r);
}

/* test_trust_noop_if_trustline_exists: an existing trustline (1000 of a
 * 5000 limit) is left alone. */
static void test_trust_noop_if_trustline_exists(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account a = { .balance = 20000000, .num_sub = 1, .thresholds = { 1, 0, 0, 0 },
                    .nsigners = 1 };
  a.signers[0] = r.pk[REF_USER];
  a.weights[0] = 100;
  ref_create_account(&r, r.pk[REF_USER], &a);
  ref_default_sac(&r);
  ref_create_trustline(&r, r.pk[REF_USER], 1000, 5000, REF_TL_AUTHORIZED);
  ref_signed(&r, REF_USER, "trust", REF_ARGS(REF_ACCT(&r, REF_USER)));
  ref_close(&r);
}

/* test_trust_fails_for_issuer / _for_native: #2. */
static void test_trust_fails_for_issuer(void **state) {
  ref r;
  open_sac_users(&r, state, REF_ISSUER);
  ref_signed(&r, REF_ISSUER, "trust", REF_ARGS(REF_ACCT(&r, REF_ISSUER)));
  ref_close(&r);
}

static void test_trust_fails_for_native(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account_with_balance(&r, REF_USER, 20000000);
  ref_sac_with(&r, "", 0, false);
  ref_signed(&r, REF_USER, "trust", REF_ARGS(REF_ACCT(&r, REF_USER)));
  ref_close(&r);
}

/* test_trust_fails_low_reserve (14,999,999 stroops: #14) and
 * test_trust_fails_too_many_subentries (1000 sub-entries: #15). */
static void trust_fails(const char *file, int64_t balance, uint32_t num_sub) {
  ref r;
  ref_open(&r, file);
  ref_account a = { .balance = balance, .num_sub = num_sub, .thresholds = { 1, 0, 0, 0 },
                    .nsigners = 1 };
  a.signers[0] = r.pk[REF_USER];
  a.weights[0] = 100;
  ref_create_account(&r, r.pk[REF_USER], &a);
  ref_default_sac(&r);
  ref_signed(&r, REF_USER, "trust", REF_ARGS(REF_ACCT(&r, REF_USER)));
  ref_close(&r);
}

static void test_trust_fails_low_reserve(void **state) {
  trust_fails((const char *)*state, 14999999, 0);
}

static void test_trust_fails_too_many_subentries(void **state) {
  trust_fails((const char *)*state, 100000000000, 1000);
}

/* test_trust_auth_required_issuer: the issuer has AUTH_REQUIRED: the new
 * trustline is not authorized. */
static void test_trust_auth_required_issuer(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account_with_balance(&r, REF_USER, 20000000);
  ref_sac_with(&r, "aaaa", REF_AUTH_REQUIRED | REF_AUTH_REVOCABLE | REF_AUTH_CLAWBACK, true);
  ref_signed(&r, REF_USER, "trust", REF_ARGS(REF_ACCT(&r, REF_USER)));
  ref_close(&r);
}

/* test_trust_fails_wrong_auth: trust(user) without an entry, then signed
 * by user_2's key (not a signer of user): Error(Auth, InvalidAction). */
static void test_trust_fails_wrong_auth(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_default_account(&r, REF_USER);
  ref_default_sac(&r);
  ref_arg u = REF_ACCT(&r, REF_USER);
  ref_invoke(&r, "trust", REF_ARGS(u));
  ref_signed_by(&r, REF_USER, REF_USER2, "trust", REF_ARGS(u));
  ref_close(&r);
}

/* test_trust_fails_account_missing: a signed trust() by an account with no
 * entry fails in its authentication (Error(Auth, ...)). */
static void test_trust_fails_account_missing(void **state) {
  ref r;
  open_sac_users(&r, state, REF_ISSUER);
  ref_new_key(&r, DEST);
  ref_signed(&r, DEST, "trust", REF_ARGS(REF_ACCT(&r, DEST)));
  ref_close(&r);
}

/* test_xlm_transfer_creates_account: 10,000,000 stroops (two base
 * reserves) to a missing account creates it. */
static void test_xlm_transfer_creates_account(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account_with_balance(&r, REF_USER, 100000000);
  ref_new_key(&r, DEST);
  uint64_t dest = ref_addr_obj(&r, 0, r.pk[DEST]);   /* generate_non_existent_account */
  ref_sac_with(&r, "", 0, false);
  ref_signed(&r, REF_USER, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER), REF_OBJ(dest), REF_I128(10000000)));
  ref_close(&r);
}

/* xlm_transfer_below_minimum_fails: 9,999,999 stroops to a missing
 * account is #14, by transfer or by transfer_from after approve. */
static void below_minimum(const char *file, bool from) {
  ref r;
  ref_open(&r, file);
  ref_account_with_balance(&r, REF_USER, 100000000);
  ref_new_key(&r, DEST);
  ref_arg d = REF_OBJ(ref_addr_obj(&r, 0, r.pk[DEST]));   /* generate_non_existent_account */
  ref_sac_with(&r, "", 0, false);
  ref_arg u = REF_ACCT(&r, REF_USER), sp = REF_ACCT(&r, REF_USER2);
  if (from) {
    ref_account_with_balance(&r, REF_USER2, 10000000);
    ref_signed(&r, REF_USER, "approve", REF_ARGS(u, sp, REF_I128(50000000), REF_U32(200)));
    ref_signed(&r, REF_USER2, "transfer_from", REF_ARGS(sp, u, d, REF_I128(9999999)));
  } else {
    ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, d, REF_I128(9999999)));
  }
  ref_close(&r);
}

static void test_xlm_transfer_fails_below_minimum(void **state) {
  below_minimum((const char *)*state, false);
}

static void test_xlm_transfer_from_fails_below_minimum(void **state) {
  below_minimum((const char *)*state, true);
}

/* test_xlm_transfer_fails_sender_missing: the sender has no account: its
 * authentication fails. */
static void test_xlm_transfer_fails_sender_missing(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account_with_balance(&r, REF_USER2, 50000000);
  ref_sac_with(&r, "", 0, false);
  ref_signed(&r, REF_USER, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER), REF_ACCT(&r, REF_USER2), REF_I128(10000000)));
  ref_close(&r);
}

static void test_xlm_self_transfer_to_non_existent_account(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_sac_with(&r, "", 0, false);
  ref_arg u = REF_ACCT(&r, REF_USER);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u, REF_I128(0)));
  ref_close(&r);
}

/* test_xlm_transfer_from_creates_account: approve, then transfer_from of
 * 15,000,000 creates the recipient; the allowance left. */
static void test_xlm_transfer_from_creates_account(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account_with_balance(&r, REF_USER, 100000000);
  ref_account_with_balance(&r, REF_USER2, 10000000);
  ref_new_key(&r, DEST);
  ref_arg d = REF_OBJ(ref_addr_obj(&r, 0, r.pk[DEST]));   /* generate_non_existent_account */
  ref_sac_with(&r, "", 0, false);
  ref_arg u = REF_ACCT(&r, REF_USER), sp = REF_ACCT(&r, REF_USER2);
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, sp, REF_I128(50000000), REF_U32(200)));
  ref_signed(&r, REF_USER2, "transfer_from", REF_ARGS(sp, u, d, REF_I128(15000000)));
  ref_invoke(&r, "allowance", REF_ARGS(u, sp));
  ref_close(&r);
}

/* test_xlm_transfer_muxed_creates_account: to a MuxedAddress (id
 * 12345678) of a missing account. */
static void test_xlm_transfer_muxed_creates_account(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account_with_balance(&r, REF_USER, 100000000);
  ref_new_key(&r, DEST);
  ref_sac_with(&r, "", 0, false);
  ref_signed(&r, REF_USER, "transfer",
             REF_ARGS(REF_ACCT(&r, REF_USER), REF_MUXED(&r, DEST, 12345678), REF_I128(15000000)));
  ref_close(&r);
}

/* test_stellar_asset_contract_classic_balance_boundaries: the native
 * asset contract; an account of 10 XLM and one of i64::MAX stroops (keys
 * past the five of setup); the user's XLM spent to its minimum (#10 one
 * stroop past it) and back, then filled to its maximum (#10 one past). */
enum { NEW_BAL = REF_NKEYS, LARGE_BAL };

static void boundaries(ref *r, int64_t init, int64_t min, int64_t max) {
  ref_sac_with(r, "", 0, false);
  ref_new_key(r, NEW_BAL);
  ref_account_with_balance(r, NEW_BAL, 10000000);
  ref_arg u = REF_ACCT(r, REF_USER), nb = REF_ACCT(r, NEW_BAL), lb = REF_ACCT(r, LARGE_BAL);
  ref_signed(r, REF_USER, "transfer", REF_ARGS(u, nb, REF_I128(init - min + 1)));
  ref_signed(r, REF_USER, "transfer", REF_ARGS(u, nb, REF_I128(init - min)));
  ref_signed(r, NEW_BAL, "transfer", REF_ARGS(nb, u, REF_I128(init - min)));
  ref_new_key(r, LARGE_BAL);
  ref_account_with_balance(r, LARGE_BAL, INT64_MAX);
  ref_signed(r, LARGE_BAL, "transfer", REF_ARGS(lb, u, REF_I128(max - init + 1)));
  ref_signed(r, LARGE_BAL, "transfer", REF_ARGS(lb, u, REF_I128(max - init)));
  ref_close(r);
}

#define BOUND(name) F("test_stellar_asset_contract_classic_balance_boundaries_" name)

static void user_account(ref *r, int64_t balance, uint32_t num_sub, bool liab, int64_t buying,
                         int64_t selling, bool spons, uint32_t sponsored, uint32_t sponsoring) {
  ref_account a = { .balance = balance, .num_sub = num_sub, .thresholds = { 1, 0, 0, 0 },
                    .nsigners = 1, .liabilities = liab, .buying = buying, .selling = selling,
                    .sponsorships = spons, .sponsored = sponsored, .sponsoring = sponsoring };
  a.signers[0] = r->pk[REF_USER];
  a.weights[0] = 100;
  ref_create_account(r, r->pk[REF_USER], &a);
}

static void test_boundaries_simple(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  user_account(&r, 100000000, 5, false, 0, 0, false, 0, 0);
  boundaries(&r, 100000000, 35000000, INT64_MAX);
}

static void test_boundaries_with_liabilities(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  user_account(&r, 1000000000, 8, true, 300000000, 500000000, false, 0, 0);
  boundaries(&r, 1000000000, 550000000, INT64_MAX - 300000000);
}

static void test_boundaries_with_sponsorships(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  user_account(&r, 100000000, 5, false, 0, 0, true, 3, 6);
  boundaries(&r, 100000000, 50000000, INT64_MAX);
}

static void test_boundaries_with_sponsorships_and_liabilities(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  user_account(&r, 1000000000, 5, true, 300000000, 500000000, true, 3, 6);
  boundaries(&r, 1000000000, 550000000, INT64_MAX - 300000000);
}

static void test_boundaries_with_large_values(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  int64_t init = INT64_MAX - INT64_MAX / 4;
  user_account(&r, init, UINT32_MAX, true, INT64_MAX / 4, INT64_MAX / 5, true, 0, UINT32_MAX);
  boundaries(&r, init, (2 + 2 * (int64_t)UINT32_MAX) * 5000000 + INT64_MAX / 5, init);
}

/* test_wrapped_asset_classic_balance_boundaries: an AlphaNum12 asset
 * ("dddddddddddd"); two users (10 XLM, their keys signers of weight 100)
 * and the issuer, the user's trustline (its balance, limit and
 * liabilities) and user_2's (ext V1 with zero liabilities), then the
 * contract; transfers to the minimum (#10 one past) and back, mints to the
 * maximum (#10 one past), a transfer past user_2's limit (#10). */
static void wrapped_boundaries(const char *file, int64_t init, int64_t min, int64_t max,
                               bool liab, int64_t buying, int64_t selling, int64_t limit) {
  ref r;
  ref_open(&r, file);
  ref_account_with_balance(&r, REF_USER, 10000000);
  ref_account_with_balance(&r, REF_USER2, 10000000);
  ref_account_with_balance(&r, REF_ISSUER, 10000000);
  ref_set_asset(&r, "dddddddddddd");
  ref_create_trustline_liab(&r, r.pk[REF_USER], init, limit, REF_TL_AUTHORIZED, liab, buying,
                            selling);
  ref_create_trustline_liab(&r, r.pk[REF_USER2], 0, limit, REF_TL_AUTHORIZED, true, 0, 0);
  ref_sac_with(&r, "dddddddddddd", 0, false);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u2, REF_I128(init - min + 1)));
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u2, REF_I128(init - min)));
  ref_signed(&r, REF_USER2, "transfer", REF_ARGS(u2, u, REF_I128(init - min)));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(max - init + 1)));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(max - init)));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u2, REF_I128(1)));
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u2, REF_I128(max)));
  ref_close(&r);
}

#define WRAPPED(name) F("test_asset_stellar_asset_contract_classic_balance_boundaries_" name)

static void test_wrapped_simple(void **state) {
  wrapped_boundaries((const char *)*state, 100000000, 0, INT64_MAX, false, 0, 0, INT64_MAX);
}

static void test_wrapped_with_trustline_limit(void **state) {
  wrapped_boundaries((const char *)*state, 100000000, 0, 200000000, false, 0, 0,
                     200000000);
}

static void test_wrapped_with_liabilities(void **state) {
  wrapped_boundaries((const char *)*state, 100000000, 300000, INT64_MAX - 500000, true,
                     500000, 300000, INT64_MAX);
}

static void test_wrapped_with_limit_and_liabilities(void **state) {
  wrapped_boundaries((const char *)*state, 100000000, 300000, 150000000, true,
                     50000000, 300000, 200000000);
}

static void test_wrapped_large_values(void **state) {
  wrapped_boundaries((const char *)*state, INT64_MAX - INT64_MAX / 5, INT64_MAX / 4,
                     INT64_MAX - INT64_MAX / 5, true, INT64_MAX / 5, INT64_MAX / 4, INT64_MAX);
}

/* test_transfer_without_destination_trustline_fails: #13. */
static void test_transfer_without_destination_trustline(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account a = { .balance = 100000000, .num_sub = 1, .thresholds = { 1, 0, 0, 0 },
                    .nsigners = 1 };
  a.signers[0] = r.pk[REF_USER];
  a.weights[0] = 100;
  ref_create_account(&r, r.pk[REF_USER], &a);
  ref_default_sac(&r);
  ref_default_trustline(&r, REF_USER);
  ref_arg u = REF_ACCT(&r, REF_USER);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(1000)));
  ref_new_key(&r, DEST);
  uint64_t dest = ref_addr_obj(&r, 0, r.pk[DEST]);   /* account_to_address, once */
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, REF_OBJ(dest), REF_I128(100)));
  ref_close(&r);
}

/* test_asset_self_transfer: a trustline's transfer to itself, then #10. */
static void test_asset_self_transfer(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_default_account(&r, REF_USER);
  ref_set_asset(&r, "aaaa");
  ref_default_trustline(&r, REF_USER);
  ref_default_sac(&r);
  ref_arg u = REF_ACCT(&r, REF_USER);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(100000000)));
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u, REF_I128(100000000)));
  balance_is(&r, REF_USER, 100000000);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u, REF_I128(100000001)));
  ref_close(&r);
}

/* test_classic_transfers_not_possible_for_unauthorized_asset: a self
 * transfer, then the trustline rewritten without AUTHORIZED: #11. */
static void test_unauthorized_trustline_transfer(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account_with_balance(&r, REF_USER, 10000000);
  ref_set_asset(&r, "cccc");
  ref_create_trustline(&r, r.pk[REF_USER], 100000000, INT64_MAX, REF_TL_AUTHORIZED);
  ref_sac_with(&r, "cccc", 0, false);
  ref_arg u = REF_ACCT(&r, REF_USER);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u, REF_I128(1)));
  ref_create_trustline(&r, r.pk[REF_USER], 100000000, INT64_MAX, 0);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u, REF_I128(1)));
  ref_close(&r);
}

/* test_negative_amounts_are_not_allowed: #8 from mint, clawback,
 * transfer, approve and transfer_from. */
static void test_negative_amounts(void **state) {
  ref r;
  open_sac_users(&r, state, REF_USER2);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(100000000)));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(-1)));
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(u, REF_I128(-1)));
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u2, REF_I128(-1)));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u2, REF_I128(-1), REF_U32(200)));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u2, REF_I128(10000), REF_U32(200)));
  ref_signed(&r, REF_USER2, "transfer_from", REF_ARGS(u2, u, u2, REF_I128(-1)));
  ref_close(&r);
}

/* test_cannot_burn_native: burn and burn_from of XLM are #2. */
static void test_cannot_burn_native(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_sac_with(&r, "", 0, false);
  ref_account a = { .balance = 100000000, .num_sub = 1, .thresholds = { 1, 0, 0, 0 },
                    .nsigners = 1 };
  a.signers[0] = r.pk[REF_USER];
  a.weights[0] = 100;
  ref_create_account(&r, r.pk[REF_USER], &a);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2);
  balance_is(&r, REF_USER, 100000000);
  ref_signed(&r, REF_USER, "burn", REF_ARGS(u, REF_I128(1)));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u2, REF_I128(100), REF_U32(200)));
  ref_signed(&r, REF_USER2, "burn_from", REF_ARGS(u2, u, REF_I128(1)));
  ref_close(&r);
}

/* test_allowance_live_until: an allowance used, expired when the ledger
 * passes its live_until (#9, and approve with a past live_until), renewed,
 * one live until the maximum TTL and used on that ledger, then expired,
 * and approve past the maximum (#9). */
static void test_allowance_live_until(void **state) {
  ref r;
  open_sac_users(&r, state, REF_USER2);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(1000)));
  balance_is(&r, REF_USER, 1000);
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u2, REF_I128(1000), REF_U32(200)));
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  ref_signed(&r, REF_USER2, "transfer_from", REF_ARGS(u2, u, u2, REF_I128(10)));
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  balance_is(&r, REF_USER2, 10);
  r.h->opts.ledger_sequence = 201;
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  ref_signed(&r, REF_USER2, "transfer_from", REF_ARGS(u2, u, u2, REF_I128(1)));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u2, REF_I128(1000), REF_U32(200)));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u2, REF_I128(10000), REF_U32(201)));
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  uint32_t max_live = 201 + 6312000 - 1;
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, u2, REF_I128(10), REF_U32(max_live)));
  r.h->opts.ledger_sequence = max_live;
  ref_invoke(&r, "allowance", REF_ARGS(u, u2));
  ref_signed(&r, REF_USER2, "transfer_from", REF_ARGS(u2, u, u2, REF_I128(5)));
  r.h->opts.ledger_sequence = max_live + 1;
  ref_signed(&r, REF_USER2, "transfer_from", REF_ARGS(u2, u, u2, REF_I128(1)));
  ref_signed(&r, REF_USER, "approve",
             REF_ARGS(u, u2, REF_I128(10), REF_U32(max_live + 1 + 6312000 - 1 + 1)));
  ref_close(&r);
}

/* test_trustline_auth: the issuer as admin (set_admin to itself), the
 * issuer's and the user's accounts rewritten, a trustline with a 10,000
 * limit; mint, transfer to the issuer, set_authorized needing
 * AUTH_REVOCABLE (#2), deauthorized transfer and mint (#11), approve,
 * transfer_from, clawback without the trustline's flag (#10) and with. */
static void test_trustline_auth(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  /* default_stellar_asset_contract_with_admin_id(&admin.address(host)) */
  uint64_t admin_obj = ref_addr_obj(&r, 0, r.pk[REF_ISSUER]);
  ref_default_sac(&r);
  ref_arg adm = REF_ACCT(&r, REF_ISSUER), u = REF_ACCT(&r, REF_USER);
  ref_signed(&r, REF_ISSUER, "set_admin", REF_ARGS(REF_OBJ(admin_obj)));
  ref_account a = { .balance = 10000000, .num_sub = 1, .thresholds = { 1, 0, 0, 0 },
                    .nsigners = 1 };
  a.signers[0] = r.pk[REF_ISSUER];
  a.weights[0] = 100;
  ref_create_account(&r, r.pk[REF_ISSUER], &a);
  a.signers[0] = r.pk[REF_USER];
  ref_create_account(&r, r.pk[REF_USER], &a);
  ref_create_trustline_liab(&r, r.pk[REF_USER], 0, 10000, REF_TL_AUTHORIZED, true, 0, 0);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(1000)));
  balance_is(&r, REF_USER, 1000);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, adm, REF_I128(1)));
  balance_is(&r, REF_USER, 999);
  ref_invoke(&r, "balance", REF_ARGS(adm));
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(u, REF_BOOL(false)));
  a.signers[0] = r.pk[REF_ISSUER];
  a.flags = REF_AUTH_REVOCABLE;
  ref_create_account(&r, r.pk[REF_ISSUER], &a);
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(u, REF_BOOL(false)));
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, adm, REF_I128(1)));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(1000)));
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(u, REF_BOOL(true)));
  ref_signed(&r, REF_USER, "approve", REF_ARGS(u, adm, REF_I128(500), REF_U32(200)));
  ref_signed(&r, REF_ISSUER, "transfer_from", REF_ARGS(adm, u, adm, REF_I128(500)));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(1)));
  balance_is(&r, REF_USER, 500);
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(u, REF_I128(10)));
  ref_create_trustline_liab(&r, r.pk[REF_USER], 500, 10000, REF_TL_CLAWBACK, true, 0, 10);
  ref_signed(&r, REF_ISSUER, "clawback", REF_ARGS(u, REF_I128(10)));
  balance_is(&r, REF_USER, 490);
  ref_close(&r);
}

/* test_greater_than_i64_balances: a Wasm contract is registered
 * (register_test_contract_wasm: an account id and a salt from the test
 * PRNG, create_contract from that account, which stays the host's source
 * account; the upload and creation are outside what this harness runs:
 * the code and instance entries are seeded under the contract's real id
 * and its four traced calls passed over),
 * then mint(C, i64::MAX) three times with
 * balance(C) after each -- amounts beyond i64, I128 objects: all six calls
 * exact whole.  The test then calls the contract's own Wasm
 * (transfer_amount), which is not available here: the check stops there. */
static void test_greater_than_i64_balances(void **state) {
  ref r;
  open_sac_users(&r, state, REF_ISSUER);
  ref_default_account(&r, REF_USER);
  static const uint8_t code[8] = { 0 };
  uint8_t kb[4] = { 0, 0, 0, 20 }, cid[32];   /* SCV_LEDGER_KEY_CONTRACT_INSTANCE */
  uint8_t acct[32], salt[32], pre[4 + 32 + 4 + 8 + 32 + 32] = { 0 };
  ref_bytes32(&r, acct);
  ref_bytes32(&r, salt);
  /* HashIdPreimage::ContractId{network id, FromAddress{Account, salt}} */
  pre[3] = 8;   /* ENVELOPE_TYPE_CONTRACT_ID */
  memset(pre + 4, 5, 32);
  memcpy(pre + 48, acct, 32);
  memcpy(pre + 80, salt, 32);
  SHA256(pre, sizeof pre, cid);
  r.h->opts.has_source_account = true;
  memcpy(r.h->opts.source_account, acct, 32);
  scp_lkey ck = { .type = SCP_LK_CONTRACT_CODE };
  memset(ck.id, 0x77, 32);
  assert_int_equal(scp_storage_seed(r.h, &ck, code, sizeof code, 123 + 4095, true), SCP_OK);
  scp_lkey ik = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_PERSISTENT, .key = kb, .keylen = 4 };
  memcpy(ik.id, cid, 32);
  assert_int_equal(scp_storage_seed(r.h, &ik, code, sizeof code, 123 + 4095, true), SCP_OK);
  /* the Wasm's bytes_new_from_slice, upload_wasm, the salt's Bytes and
   * create_contract: not run here */
  ref_skip(&r, 4);
  ref_arg c = REF_OBJ(ref_addr_obj(&r, 1, cid));
  for (int n = 1; n <= 3; n++) {
    ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(c, REF_I128(INT64_MAX)));
    uint64_t v = ref_invoke(&r, "balance", REF_ARGS(c));
    int64_t hi;
    uint64_t lo, cpu = r.b.cpu, mem = r.b.mem;
    assert_int_equal(scp_sac_val_i128(r.h, v, &hi, &lo), SCP_OK);
    r.b.cpu = cpu;   /* the test's own look, not the reference's */
    r.b.mem = mem;
    __int128 want = (__int128)INT64_MAX * n;
    assert_true(hi == (int64_t)(want >> 64) && lo == (uint64_t)want);
  }
  r.partial = true;
  ref_close(&r);
}

/* The mint(user, 100) of the auth tests: the args Vec made once
 * (`let args = test_vec![..]`) and reused by every call. */
static uint64_t mint_call(ref *r, uint64_t args) {
  uint64_t a[3], ret;
  assert_true(scp_val_symbol_small((const uint8_t *)"mint", 4, &a[1]));
  a[0] = r->sac;
  a[2] = args;
  ref_env(r, "call", a, &ret);
  scp_auth_enf_free(r->h);
  return ret;
}

static uint64_t auth_test_setup(ref *r, ref_arg *user) {
  ref_default_sac(r);
  ref_default_account(r, REF_USER);
  ref_default_trustline(r, REF_USER);
  *user = REF_ACCT(r, REF_USER);
  return ref_args(r, (ref_arg[]){ *user, REF_I128(100) }, 2);
}

/* test_auth_rejected_for_incorrect_nonce: the issuer signs mint(user, 100)
 * with nonce 12,345 expiring on ledger 122 (expired), then past the
 * maximum TTL (too late), then on 123 (Ok); nonce 123,456 (Ok); 12,345
 * again (a used nonce). */
static void test_auth_incorrect_nonce(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_arg u;
  uint64_t args = auth_test_setup(&r, &u);
  ref_arg mint[2] = { u, REF_I128(100) };
  static const ref_nonce nonces[5] = { { true, 12345, 122, false },
                                       { true, 12345, 123 + 6312000, false },
                                       { true, 12345, 123, false },
                                       { true, 123456, 123 + 10000 - 1, false },
                                       { true, 12345, 200, false } };
  for (int i = 0; i < 5; i++) {
    ref_authorize_nonce(&r, REF_ISSUER, REF_ISSUER, "mint", mint, 2, &nonces[i]);
    mint_call(&r, args);
  }
  ref_close(&r);
}

/* test_auth_rejected_for_bad_signature_type: the issuer's entry with a
 * Void signature (an AccountContract signer): Error(Auth, ...). */
static void test_auth_bad_signature_type(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_arg u;
  uint64_t args = auth_test_setup(&r, &u);
  ref_arg mint[2] = { u, REF_I128(100) };
  static const ref_nonce void_sig = { .void_sig = true };
  ref_authorize_nonce(&r, REF_ISSUER, REF_ISSUER, "mint", mint, 2, &void_sig);
  mint_call(&r, args);
  ref_close(&r);
}

/* test_auth_rejected_for_incorrect_payload: mint(user, 100) authorized by
 * the user (not the admin), for burn, for other arguments (twice): all
 * Error(Auth, InvalidAction); then the right entry. */
static void test_auth_incorrect_payload(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_arg u, adm = REF_ACCT(&r, REF_ISSUER);
  uint64_t args = auth_test_setup(&r, &u);
  ref_arg mint[2] = { u, REF_I128(100) };
  ref_authorize(&r, REF_USER, "mint", mint, 2);
  mint_call(&r, args);
  ref_authorize(&r, REF_ISSUER, "burn", mint, 2);
  mint_call(&r, args);
  ref_arg other1[3] = { adm, u, REF_I128(1) }, other2[3] = { u, adm, REF_I128(100) };
  ref_args(&r, other1, 3);
  ref_authorize(&r, REF_ISSUER, "mint", other1, 3);
  mint_call(&r, args);
  ref_args(&r, other2, 3);
  ref_authorize(&r, REF_ISSUER, "mint", other2, 3);
  mint_call(&r, args);
  ref_authorize(&r, REF_ISSUER, "mint", mint, 2);
  mint_call(&r, args);
  ref_close(&r);
}

/* test_do_not_init_contract_for_invalid_asset: 13 invalid codes issued by
 * the test's issuer key (no account): each create_asset_contract fails
 * with Error(Value, InvalidInput) and leaves its instance key in the
 * footprint -- with the real key the footprint's order, so its compare
 * counts, is the reference's. */
static void test_invalid_asset_codes(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  static const struct { const char *code; size_t len; } codes[13] = {
    { "\0\0\0\0", 4 }, { "\0\0\0\0\0\0\0\0\0\0\0\0", 12 }, { "\0ABC", 4 },
    { "\0Abc12\0\0\0\0\0\0", 12 }, { "A\0BC", 4 }, { "Abc\00012\0\0\0\0\0\0", 12 },
    { "$ABC", 4 }, { "A_BC", 4 }, { "A\x11\0\0", 4 }, { "Abc12!\0\0\0\0\0\0", 12 },
    { "Abc1 2\0\0\0\0\0\0", 12 }, { "Abc1\xff\0\0\0\0\0\0\0", 12 }, { "Abc1\0\0\0\0\0\0\0\0", 12 }
  };
  for (int i = 0; i < 13; i++) {
    uint8_t a[52] = { 0 };
    uint32_t w = (uint32_t)codes[i].len;
    a[3] = w == 4 ? 1 : 2;
    memcpy(a + 4, codes[i].code, w);
    memcpy(a + 4 + w + 4, r.pk[REF_ISSUER], 32);
    uint64_t bytes = ref_memobj(&r, SCP_TAG_BYTES_OBJ, a, 4 + w + 4 + 32), ret;
    assert_int_equal(ref_env(&r, "create_asset_contract", &bytes, &ret), SCP_ERR_HOST);
  }
  ref_close(&r);
}

/* test_classic_account_multisig_auth: the user's account (master weight
 * 40, medium threshold 100; signers user_2 u32::MAX, user_3 60, user_4 59)
 * transfers 100 stroops to itself (an Address made once) signed by sets of
 * keys: enough weight (5 transfers), then too little, a duplicate, a key
 * twice among others, a key not on the account, 21 signatures, keys out of
 * order (all Error(Auth, ...)). */
static void multisig_transfer(ref *r, uint64_t to, const int *keys, size_t n, bool sort) {
  int k[32];
  memcpy(k, keys, n * sizeof *k);
  if (sort) ref_sort_keys(r, k, n);
  ref_arg args[3] = { REF_ACCT(r, REF_USER), REF_OBJ(to), REF_I128(100) };
  uint64_t vec = ref_args(r, args, 3);
  ref_authorize_multi(r, r->pk[REF_USER], k, n, "transfer", args, 3, NULL);
  ref_call_vec(r, "transfer", vec);
}

static void test_multisig(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account a = { .balance = 100000000, .num_sub = 1, .thresholds = { 40, 10, 100, 150 },
                    .nsigners = 3 };
  a.signers[0] = r.pk[REF_USER2];
  a.weights[0] = UINT32_MAX;
  a.signers[1] = r.pk[REF_USER3];
  a.weights[1] = 60;
  a.signers[2] = r.pk[REF_USER4];
  a.weights[2] = 59;
  ref_create_account(&r, r.pk[REF_USER], &a);
  ref_sac_with(&r, "", 0, false);
  uint64_t to = ref_addr_obj(&r, 0, r.pk[REF_USER]);
  enum { U = REF_USER, U2 = REF_USER2, U3 = REF_USER3, U4 = REF_USER4, I = REF_ISSUER };
  multisig_transfer(&r, to, (int[]){ U, U3 }, 2, true);
  multisig_transfer(&r, to, (int[]){ U2 }, 1, true);
  multisig_transfer(&r, to, (int[]){ U3, U4 }, 2, true);
  multisig_transfer(&r, to, (int[]){ U, U3, U4 }, 3, true);
  multisig_transfer(&r, to, (int[]){ U, U2, U3, U4 }, 4, true);
  multisig_transfer(&r, to, (int[]){ U }, 1, true);
  multisig_transfer(&r, to, (int[]){ U, U4 }, 2, true);
  multisig_transfer(&r, to, (int[]){ U3, U3 }, 2, true);
  multisig_transfer(&r, to, (int[]){ U3, U4, U3 }, 3, true);
  multisig_transfer(&r, to, (int[]){ U3, I }, 2, true);
  multisig_transfer(&r, to, (int[]){ U3, U4, I }, 3, true);
  int many[21];
  for (int i = 0; i < 21; i++) many[i] = U2;
  multisig_transfer(&r, to, many, 21, true);
  int all[4] = { U, U2, U3, U4 };
  ref_sort_keys(&r, all, 4);
  int t = all[1];
  all[1] = all[2];
  all[2] = t;
  multisig_transfer(&r, to, all, 4, false);
  ref_close(&r);
}

/* test_stellar_asset_contract_authorization: mints, authorized(),
 * set_authorized(user, false), transfers from and to the deauthorized
 * balance (#11), set_authorized(user, true), transfers both ways. */
static void test_authorization(void **state) {
  ref r;
  open_sac_users(&r, state, REF_USER2);
  ref_arg u = REF_ACCT(&r, REF_USER), u2 = REF_ACCT(&r, REF_USER2);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u, REF_I128(100000000)));
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(u2, REF_I128(200000000)));
  assert_int_equal(ref_invoke(&r, "authorized", REF_ARGS(u)), SCP_VAL_TRUE);
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(u, REF_BOOL(false)));
  assert_int_equal(ref_invoke(&r, "authorized", REF_ARGS(u)), SCP_VAL_FALSE);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u2, REF_I128(1)));
  ref_signed(&r, REF_USER2, "transfer", REF_ARGS(u2, u, REF_I128(1)));
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(u, REF_BOOL(true)));
  assert_int_equal(ref_invoke(&r, "authorized", REF_ARGS(u)), SCP_VAL_TRUE);
  ref_signed(&r, REF_USER, "transfer", REF_ARGS(u, u2, REF_I128(1)));
  ref_signed(&r, REF_USER2, "transfer", REF_ARGS(u2, u, REF_I128(1)));
  ref_close(&r);
}

/* String::to_string: string_len, string_copy_to_slice. */
static void string_to_text(ref *r, uint64_t s, char *out, uint32_t cap) {
  uint64_t len;
  assert_int_equal(ref_env(r, "string_len", &s, &len), SCP_OK);
  uint32_t n = scp_val_major(len);
  assert_true(n < cap);
  ref_tcall *c = ref_begin(r, "string_copy_to_slice");
  int rc = scp_host_memobj_copy_to_slice(r->h, s, 0, (uint8_t *)out, n);
  ref_end(r, c, rc, SCP_VAL_VOID, NULL);
  out[n] = 0;
}

/* test_stellar_asset_contract_smart_roundtrip: the native asset contract's
 * symbol(), decimals(), name() (read back as text), set_admin and admin()
 * failing (no admin), the account's balance. */
static void test_smart_roundtrip(void **state) {
  ref r;
  char text[16];
  ref_open(&r, (const char *)*state);
  ref_account a = { .balance = 100000000, .num_sub = 1, .thresholds = { 1, 0, 0, 0 },
                    .nsigners = 1 };
  a.signers[0] = r.pk[REF_USER];
  a.weights[0] = 100;
  ref_create_account(&r, r.pk[REF_USER], &a);
  ref_sac_with(&r, "", 0, false);
  uint64_t nid;   /* get_asset_contract_id_hash(Asset::Native) */
  assert_int_equal(ref_env(&r, "get_ledger_network_id", NULL, &nid), SCP_OK);
  string_to_text(&r, ref_invoke(&r, "symbol", NULL, 0), text, sizeof text);
  assert_string_equal(text, "native");
  assert_int_equal(ref_invoke(&r, "decimals", NULL, 0), scp_val_u32(7));
  string_to_text(&r, ref_invoke(&r, "name", NULL, 0), text, sizeof text);
  assert_string_equal(text, "native");
  ref_arg u = REF_ACCT(&r, REF_USER);
  ref_signed(&r, REF_USER, "set_admin", REF_ARGS(u));
  ref_invoke(&r, "admin", NULL, 0);
  balance_is(&r, REF_USER, 100000000);
  ref_close(&r);
}

/* test_recording_auth_for_stellar_asset_contract: recording mode with
 * non-root authorization disabled; mint(user, 100) by the admin, whose
 * recorded authorization is emulated (signature checks charged) as the
 * call's last frame pops. */
static void test_recording_mint(void **state) {
  ref r;
  open_sac_users(&r, state, REF_USER);
  r.h->opts.auth_enforcing = false;
  r.h->opts.auth_disable_non_root = true;
  uint64_t args = ref_args(&r, REF_ARGS(REF_ACCT(&r, REF_USER), REF_I128(100)));
  mint_call(&r, args);
  ref_close(&r);
}

/* A call by an invoker (TestSigner::AccountInvoker / ContractInvoker):
 * the args, the invoker's authorization (an entry with SourceAccount
 * credentials, or none), the call. */
static uint64_t invoker_call(ref *r, bool account, const char *fn, const ref_arg *args,
                             size_t n) {
  uint64_t vec = ref_args(r, args, n);
  if (account) ref_authorize_source(r, fn, args, n);
  return ref_call_vec(r, fn, vec);
}

/* test_contract_invoker_auth: two contract ids; the SAC's admin set to the
 * first (the issuer signs set_admin); mints and transfers made from inside
 * a TestContract frame of the invoking contract (direct-invoker auth), one
 * by the wrong contract (Error(Auth, InvalidAction)) and one for another
 * address; balances; a mint by the issuer's account as source account
 * (no longer the admin: Error(Auth, InvalidAction)). */
static void test_contract_invoker(void **state) {
  ref r;
  uint8_t aid[32], uid[32];
  ref_open(&r, (const char *)*state);
  ref_bytes32(&r, aid);
  ref_bytes32(&r, uid);
  ref_arg aa = REF_OBJ(ref_addr_obj(&r, 1, aid)), ua = REF_OBJ(ref_addr_obj(&r, 1, uid));
  uint64_t ab = ref_bytesn32(&r, aid), ub = ref_bytesn32(&r, uid);
  ref_default_sac(&r);
  ref_signed(&r, REF_ISSUER, "set_admin", REF_ARGS(aa));
  ref_enter_contract(&r, ab);
  invoker_call(&r, false, "mint", REF_ARGS(ua, REF_I128(1000)));
  ref_leave_contract(&r);
  ref_enter_contract(&r, ab);
  invoker_call(&r, false, "mint", REF_ARGS(aa, REF_I128(2000)));
  ref_leave_contract(&r);
  ref_invoke(&r, "balance", REF_ARGS(ua));
  ref_invoke(&r, "balance", REF_ARGS(aa));
  ref_enter_contract(&r, ub);
  invoker_call(&r, false, "mint", REF_ARGS(ua, REF_I128(1000)));
  ref_leave_contract(&r);
  ref_enter_contract(&r, ub);
  invoker_call(&r, false, "mint", REF_ARGS(ua, REF_I128(1000)));
  ref_leave_contract(&r);
  ref_enter_contract(&r, ub);
  invoker_call(&r, false, "transfer", REF_ARGS(ua, aa, REF_I128(500)));
  ref_leave_contract(&r);
  ref_enter_contract(&r, ab);
  invoker_call(&r, false, "transfer", REF_ARGS(aa, ua, REF_I128(800)));
  ref_leave_contract(&r);
  ref_invoke(&r, "balance", REF_ARGS(ua));
  ref_invoke(&r, "balance", REF_ARGS(aa));
  ref_source(&r, REF_ISSUER);
  invoker_call(&r, true, "mint", REF_ARGS(ua, REF_I128(1000)));
  ref_close(&r);
}

/* test_account_invoker_auth_with_issuer_admin: the issuer and the user
 * (10 XLM each, their keys signers of weight 100), their Addresses made
 * once, the SAC with the issuer as admin, the user's trustline (limit
 * 10,000, ext V1); mints and transfers authorized by the source account
 * (SourceAccount credentials; run_from_account leaves the first source
 * account set), the user minting (Error(Auth, InvalidAction)) and an
 * admin entry with the user as source (fails); balances; then a mint from
 * inside a TestContract frame of a contract that is not the admin. */
static void test_account_invoker(void **state) {
  ref r;
  ref_open(&r, (const char *)*state);
  ref_account a = { .balance = 10000000, .num_sub = 1, .thresholds = { 1, 0, 0, 0 },
                    .nsigners = 1 };
  for (int who = REF_ISSUER; who <= REF_USER; who++) {
    a.signers[0] = r.pk[who];
    a.weights[0] = 100;
    ref_create_account(&r, r.pk[who], &a);
  }
  ref_arg adm = REF_OBJ(ref_addr_obj(&r, 0, r.pk[REF_ISSUER]));
  ref_arg usr = REF_OBJ(ref_addr_obj(&r, 0, r.pk[REF_USER]));
  ref_sac_with(&r, "aaaa", 0, false);
  ref_signed(&r, REF_ISSUER, "set_admin", REF_ARGS(adm));
  ref_create_trustline_liab(&r, r.pk[REF_USER], 0, 10000, REF_TL_AUTHORIZED, true, 0, 0);
  ref_source(&r, REF_ISSUER);
  invoker_call(&r, true, "mint", REF_ARGS(usr, REF_I128(1000)));
  invoker_call(&r, true, "mint", REF_ARGS(usr, REF_I128(2000)));
  ref_invoke(&r, "balance", REF_ARGS(usr));
  ref_invoke(&r, "balance", REF_ARGS(adm));
  ref_source(&r, REF_USER);
  invoker_call(&r, true, "mint", REF_ARGS(usr, REF_I128(1000)));
  ref_source(&r, REF_ISSUER);   /* put back */
  ref_source(&r, REF_USER);
  invoker_call(&r, true, "mint", REF_ARGS(usr, REF_I128(1000)));
  ref_source(&r, REF_ISSUER);
  ref_source(&r, REF_USER);
  invoker_call(&r, true, "transfer", REF_ARGS(usr, adm, REF_I128(500)));
  ref_source(&r, REF_ISSUER);
  invoker_call(&r, true, "transfer", REF_ARGS(adm, usr, REF_I128(800)));
  ref_invoke(&r, "balance", REF_ARGS(usr));
  ref_invoke(&r, "balance", REF_ARGS(adm));
  uint8_t cid[32];
  ref_bytes32(&r, cid);
  uint64_t cb = ref_bytesn32(&r, cid);
  ref_enter_contract(&r, cb);
  invoker_call(&r, false, "mint", REF_ARGS(usr, REF_I128(1000)));
  ref_leave_contract(&r);
  ref_close(&r);
}

/* test_auth_required: two contract balances; the issuer gets
 * AUTH_REQUIRED (its only flag) after minting to the first: a transfer to
 * the second (no balance entry, so not authorized) is #11 until
 * set_authorized(second, true); the transfers run from inside the first
 * contract's TestContract frame. */
static void test_auth_required(void **state) {
  ref r;
  uint8_t c1[32], c2[32];
  open_sac_users(&r, state, REF_ISSUER);
  ref_bytes32(&r, c1);
  ref_bytes32(&r, c2);
  ref_arg a1 = REF_OBJ(ref_addr_obj(&r, 1, c1)), a2 = REF_OBJ(ref_addr_obj(&r, 1, c2));
  uint64_t b1 = ref_bytesn32(&r, c1);
  ref_signed(&r, REF_ISSUER, "mint", REF_ARGS(a1, REF_I128(100000000)));
  ref_account_flags(&r, REF_ISSUER, REF_AUTH_REQUIRED);
  ref_enter_contract(&r, b1);
  invoker_call(&r, false, "transfer", REF_ARGS(a1, a2, REF_I128(1)));
  ref_leave_contract(&r);
  ref_signed(&r, REF_ISSUER, "set_authorized", REF_ARGS(a2, REF_BOOL(true)));
  ref_enter_contract(&r, b1);
  invoker_call(&r, false, "transfer", REF_ARGS(a1, a2, REF_I128(1)));
  ref_leave_contract(&r);
  ref_invoke(&r, "balance", REF_ARGS(a1));
  ref_invoke(&r, "balance", REF_ARGS(a2));
  ref_close(&r);
}

const sac_flow sac_flows[] = {
  { F("test_direct_transfer"), test_direct_transfer },
  { F("test_burn"), test_burn },
  { F("test_set_admin"), test_set_admin },
  { F("test_transfer_with_allowance"), test_transfer_with_allowance },
  { F("test_clawback_on_contract"), test_clawback_on_contract },
  { F("test_auth_revocable_on_contract"), test_auth_revocable_on_contract },
  { F("test_clawback_on_account"), test_clawback_on_account },
  { F("test_native_self_transfer"), test_native_self_transfer },
  { F("test_zero_amounts"), test_zero_amounts },
  { C73("test_trust_creates_trustline"), test_trust_creates_trustline },
  { C73("test_trust_noop_if_trustline_exists"), test_trust_noop_if_trustline_exists },
  { C73("test_trust_fails_for_issuer"), test_trust_fails_for_issuer },
  { C73("test_trust_fails_for_native"), test_trust_fails_for_native },
  { C73("test_trust_fails_low_reserve"), test_trust_fails_low_reserve },
  { C73("test_trust_fails_too_many_subentries"), test_trust_fails_too_many_subentries },
  { C73("test_trust_auth_required_issuer"), test_trust_auth_required_issuer },
  { C73("test_trust_fails_wrong_auth"), test_trust_fails_wrong_auth },
  { C73("test_trust_fails_account_missing"), test_trust_fails_account_missing },
  { C73("test_xlm_transfer_creates_account"), test_xlm_transfer_creates_account },
  { C73("test_xlm_transfer_fails_below_minimum"), test_xlm_transfer_fails_below_minimum },
  { C73("test_xlm_transfer_from_fails_below_minimum"), test_xlm_transfer_from_fails_below_minimum },
  { C73("test_xlm_transfer_fails_sender_missing"), test_xlm_transfer_fails_sender_missing },
  { C73("test_xlm_self_transfer_to_non_existent_account"), test_xlm_self_transfer_to_non_existent_account },
  { C73("test_xlm_transfer_from_creates_account"), test_xlm_transfer_from_creates_account },
  { C73("test_xlm_transfer_muxed_creates_account"), test_xlm_transfer_muxed_creates_account },
  { BOUND("simple"), test_boundaries_simple },
  { BOUND("with_liabilities"), test_boundaries_with_liabilities },
  { BOUND("with_sponsorships"), test_boundaries_with_sponsorships },
  { BOUND("with_sponsorships_and_liabilities"), test_boundaries_with_sponsorships_and_liabilities },
  { BOUND("with_large_values"), test_boundaries_with_large_values },
  { WRAPPED("simple"), test_wrapped_simple },
  { WRAPPED("with_trustline_limit"), test_wrapped_with_trustline_limit },
  { WRAPPED("with_liabilities"), test_wrapped_with_liabilities },
  { WRAPPED("with_limit_and_liabilities"), test_wrapped_with_limit_and_liabilities },
  { WRAPPED("large_values"), test_wrapped_large_values },
  { F("test_transfer_without_destination_trustline_fails"), test_transfer_without_destination_trustline },
  { F("test_asset_self_transfer"), test_asset_self_transfer },
  { F("test_classic_transfers_not_possible_for_unauthorized_asset"), test_unauthorized_trustline_transfer },
  { F("test_negative_amounts_are_not_allowed"), test_negative_amounts },
  { F("test_cannot_burn_native"), test_cannot_burn_native },
  { F("test_allowance_live_until"), test_allowance_live_until },
  { F("test_trustline_auth"), test_trustline_auth },
  { F("test_greater_than_i64_balances"), test_greater_than_i64_balances },
  { F("test_auth_rejected_for_incorrect_nonce"), test_auth_incorrect_nonce },
  { F("test_auth_rejected_for_bad_signature_type"), test_auth_bad_signature_type },
  { F("test_auth_rejected_for_incorrect_payload"), test_auth_incorrect_payload },
  { F("test_do_not_init_contract_for_invalid_asset"), test_invalid_asset_codes },
  { F("test_classic_account_multisig_auth"), test_multisig },
  { F("test_stellar_asset_contract_authorization"), test_authorization },
  { F("test_stellar_asset_contract_smart_roundtrip"), test_smart_roundtrip },
  { F("test_recording_auth_for_stellar_asset_contract"), test_recording_mint },
  { F("test_contract_invoker_auth"), test_contract_invoker },
  { F("test_account_invoker_auth_with_issuer_admin"), test_account_invoker },
  { F("test_auth_required"), test_auth_required },
};

const size_t sac_nflows = sizeof sac_flows / sizeof sac_flows[0];
