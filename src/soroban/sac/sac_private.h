/*
 * sac_private.h — the Stellar Asset Contract as native code (sac_*.c).
 *
 * The reference's SAC (rs-soroban-env v28.0.2,
 * soroban-env-host/src/builtin_contracts/stellar_asset_contract/ *.rs) is
 * Rust that talks to the host through the Env interface, so its cost is
 * exactly the cost of the Env calls it makes, plus a few charges of its
 * own (metered_clone, charge_budget).  These files make the same calls in
 * the same order:
 *  - fns/host_native.c  the Env side, shared with auth: host functions
 *                    called as Env methods and the EnvBase slice helpers;
 *  - sac_contract.c  the frame (call_contract_fn's StellarAsset branch,
 *                    with_frame, persist_instance_storage), the dispatcher
 *                    (builtin-sdk-macros contractimpl) and the functions;
 *  - sac_meta.c      init_asset, metadata and the instance-storage
 *                    types (asset_info.rs, admin.rs, metadata.rs);
 *  - sac_balance.c   balances (balance.rs): trustlines, trust, the
 *                    dispatch of account and contract arms;
 *  - sac_cbalance.c  contract addresses' Balance entries;
 *  - sac_account.c   issuer flags, native (XLM) balances (AccountEntry
 *                    itself: core/host_account.c);
 *  - sac_token.c     mint, transfer (muxed too), burn, *_from, set_admin;
 *  - sac_allowance.c allowances; sac_admin.c authorized, set_authorized,
 *                    clawback.
 */
#ifndef SCP_SAC_PRIVATE_H
#define SCP_SAC_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "soroban/core/host_private.h"
#include "soroban/sac/host_sac.h"
#include "soroban/core/host_account.h"
#include "soroban/fns/host_native.h"


/* ---- sac_meta.c ------------------------------------------------------------ */

SCP_HIDDEN int scp_sac_init_asset(scp_host *h, uint64_t asset_bytes);
/* read_asset_info: *type is the AssetInfo case (SCP_SAC_NATIVE ...);
 * *code / *issuer the String and BytesN<32> objects (Void for native). */
SCP_HIDDEN int scp_sac_read_asset_info(scp_host *h, uint32_t *type, uint64_t *code,
                                       uint64_t *issuer);
/* read_administrator (admin.rs): the admin Address. */
SCP_HIDDEN int scp_sac_read_admin(scp_host *h, uint64_t *admin);
/* write_administrator (admin.rs). */
SCP_HIDDEN int scp_sac_write_admin(scp_host *h, uint64_t admin);
/* read_name / read_symbol (metadata.rs): the metadata map unpacked. */
SCP_HIDDEN int scp_sac_read_metadata(scp_host *h, uint64_t *name, uint64_t *symbol);

/* ---- sac_balance.c ------------------------------------------------------------ */

/* balance(addr): the instance's TTL extension and read_balance (an
 * account's trustline or native balance, the issuer's i64::MAX, a
 * contract's Balance entry). */
SCP_HIDDEN int scp_sac_balance(scp_host *h, uint64_t addr, uint64_t *ret);
/* trust(addr): the no-op cases, the contract errors, creating the
 * trustline after the address's require_auth. */
SCP_HIDDEN int scp_sac_trust(scp_host *h, uint64_t addr);

/* i128::try_from_val(Val): a small I128 or the object's halves through
 * Env (obj_to_i128_lo64, obj_to_i128_hi64). */
SCP_HIDDEN int scp_sac_val_i128(scp_host *h, uint64_t v, int64_t *hi, uint64_t *lo);
/* i128 -> Val: small when it fits, else Env obj_from_i128_pieces. */
SCP_HIDDEN int scp_sac_i128_pieces_val(scp_host *h, int64_t hi, uint64_t lo, uint64_t *out);
/* extend_current_contract_instance_and_code_ttl(INSTANCE_TTL_THRESHOLD,
 * INSTANCE_EXTEND_AMOUNT), as most token functions begin. */
SCP_HIDDEN int scp_sac_extend_instance(scp_host *h);

/* receive_balance(addr, amount) (balance.rs): addr's clones,
 * is_authorized, then an account's classic balance raised
 * (transfer_classic_balance) or a contract's Balance entry. */
SCP_HIDDEN int scp_sac_receive_balance(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo);

/* spend_balance(addr, amount) (balance.rs): as receive_balance, the
 * balance lowered (spend_balance_no_authorization_check). */
SCP_HIDDEN int scp_sac_spend_balance(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo);

/* ---- sac_account.c ------------------------------------------------------------ */

/* AccountFlags and TrustLineFlags (Stellar-ledger-entries.x). */
enum {
  SCP_ACCT_AUTH_REQUIRED = 1, SCP_ACCT_AUTH_REVOCABLE = 2, SCP_ACCT_CLAWBACK_ENABLED = 8,
  SCP_TL_AUTHORIZED = 1, SCP_TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES = 2,
  SCP_TL_CLAWBACK_ENABLED = 4
};

/* LedgerInfo base_reserve (5_000_000 when the options leave it 0). */
SCP_HIDDEN int64_t scp_sac_base_reserve(const scp_host *h);
/* get_min_max_account_balance (balance.rs): no charge. */
SCP_HIDDEN int scp_sac_account_min_max(scp_host *h, const scp_host_account *a, int64_t *min,
                                       int64_t *max);
/* transfer_account_balance (balance.rs): an account's native balance
 * moved by amount, a missing account created by a large enough receipt. */
SCP_HIDDEN int scp_sac_native_transfer(scp_host *h, const uint8_t acct[32], int64_t amount);
/* The new balance bal + amount, within [lo, hi] (the min/max of the
 * trustline or account): Error(Contract, #10) on overflow or outside. */
SCP_HIDDEN int scp_sac_new_balance(scp_host *h, int64_t bal, int64_t amount, int64_t lo, int64_t hi,
                                   int64_t *out);
/* modify_ledger_entry_data (balance.rs): the LedgerEntryExt's clone,
 * Rc::metered_new(LedgerEntry), then Storage::put of entry e (key k) with
 * its value's len bytes at `at` replaced by patch, same live-until. */
SCP_HIDDEN int scp_sac_put_patched(scp_host *h, const scp_lkey *k, const scp_sentry *e, size_t at,
                                   const uint8_t *patch, size_t len);
/* is_asset_issuer_flag_set (balance.rs): false for the native asset. */
SCP_HIDDEN int scp_sac_issuer_flag(scp_host *h, uint32_t flag, bool *set);

/* addr.to_sc_address(): VisitObject and the ScAddress clone; *kind 0 for
 * an account, 1 for a contract. */
SCP_HIDDEN int scp_sac_sc_address(scp_host *h, uint64_t addr, uint8_t *kind, uint8_t key[32]);
/* read_asset_info, then for a credit asset account_id_from_bytesobj of
 * the issuer (VisitObject, the 32 bytes' copy) into key; *code is the
 * code's String object.  Native: *type only. */
SCP_HIDDEN int scp_sac_read_issuer(scp_host *h, uint32_t *type, uint64_t *code, uint8_t key[32]);
/* read_asset (asset_info.rs): read_asset_info, then AssetInfo -> Asset. */
SCP_HIDDEN int scp_sac_read_asset_full(scp_host *h, scp_sac_asset *a);
/* is_authorized(addr) (balance.rs), addr's clone charged by the caller. */
SCP_HIDDEN int scp_sac_authorized(scp_host *h, uint64_t addr, bool *ok);
/* spend_balance_no_authorization_check (balance.rs). */
SCP_HIDDEN int scp_sac_spend_noauth(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo);

/* get_trustline_flags (balance.rs); Error(Contract, #13) when missing. */
SCP_HIDDEN int scp_sac_trustline_flags(scp_host *h, const uint8_t acct[32],
                                       const scp_sac_asset *a, uint32_t *flags);
/* set_trustline_authorization (balance.rs). */
SCP_HIDDEN int scp_sac_trustline_authorize(scp_host *h, const uint8_t acct[32],
                                           const scp_sac_asset *a, bool authorize);

/* ---- sac_cbalance.c ----------------------------------------------------------- */

/* BalanceValue {amount, authorized, clawback}. */
typedef struct scp_sac_bv {
  int64_t hi;
  uint64_t lo;
  bool authorized, clawback;
} scp_sac_bv;

/* DataKey::Balance(addr).try_into_val: [Symbol(Balance), addr]. */
SCP_HIDDEN int scp_sac_balance_key(scp_host *h, uint64_t addr, uint64_t *out);
/* BalanceValue::try_from_val(raw): the map unpacked, the i128, the bools. */
SCP_HIDDEN int scp_sac_balance_value(scp_host *h, uint64_t raw, scp_sac_bv *bv);
/* try_get_contract_data(key, Persistent) and the BalanceValue. */
SCP_HIDDEN int scp_sac_balance_get(scp_host *h, uint64_t addr, bool *has, scp_sac_bv *bv);
/* write_contract_balance: the put, then the entry's TTL extension. */
SCP_HIDDEN int scp_sac_balance_put(scp_host *h, uint64_t addr, const scp_sac_bv *bv);
/* extend_contract_data_ttl(key, Persistent, 29 days, 30 days). */
SCP_HIDDEN int scp_sac_balance_extend(scp_host *h, uint64_t addr);
/* read_balance, is_authorized, receive_balance and
 * spend_balance_no_authorization_check for a contract address (after
 * the caller's to_sc_address). */
SCP_HIDDEN int scp_sac_contract_balance(scp_host *h, uint64_t addr, uint64_t *ret);
SCP_HIDDEN int scp_sac_contract_authorized(scp_host *h, uint64_t addr, bool *ok);
SCP_HIDDEN int scp_sac_contract_receive(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo);
SCP_HIDDEN int scp_sac_contract_spend(scp_host *h, uint64_t addr, int64_t hi, uint64_t lo);

/* ---- sac_token.c -------------------------------------------------------------- */

/* mint(to, amount), transfer(from, to, amount), burn(from, amount)
 * (contract.rs, event.rs). */
SCP_HIDDEN int scp_sac_mint(scp_host *h, uint64_t to, uint64_t amount);
SCP_HIDDEN int scp_sac_transfer(scp_host *h, uint64_t from, uint64_t to, uint64_t amount);
SCP_HIDDEN int scp_sac_burn(scp_host *h, uint64_t from, uint64_t amount);
/* An event: topics [Symbol(name), a, (b,) read_name()], data. */
SCP_HIDDEN int scp_sac_event(scp_host *h, const char *name, uint64_t a, uint64_t b, bool two,
                             uint64_t data);
/* check_not_issuer (contract.rs): Error(Contract, #2) for the issuer. */
SCP_HIDDEN int scp_sac_check_not_issuer(scp_host *h, uint64_t addr);
/* The amount Val as an i128 (hi, lo), then check_nonnegative_amount
 * (contract.rs): Error(Contract, #8). */
SCP_HIDDEN int scp_sac_amount(scp_host *h, uint64_t amount, int64_t *hi, uint64_t *lo);
/* amount.try_into_val (the i128 back to a Val), then the event [name,
 * addr, read_name()] with it as data (mint, burn, clawback). */
SCP_HIDDEN int scp_sac_amount_event(scp_host *h, const char *name, uint64_t addr, int64_t hi,
                                    uint64_t lo);
/* Address::require_auth: the Env's require_auth (between the probes). */
SCP_HIDDEN int scp_sac_require_auth(scp_host *h, uint64_t addr);
/* burn_from(spender, from, amount), transfer_from(spender, from, to,
 * amount) (contract.rs). */
SCP_HIDDEN int scp_sac_burn_from(scp_host *h, uint64_t spender, uint64_t from, uint64_t amount);
SCP_HIDDEN int scp_sac_transfer_from(scp_host *h, uint64_t spender, uint64_t from, uint64_t to,
                                     uint64_t amount);
/* set_admin(new_admin) (contract.rs, event.rs set_admin). */
SCP_HIDDEN int scp_sac_set_admin(scp_host *h, uint64_t new_admin);
/* Testing aid: called at SCP_SAC_PROBE_PUSHED once the SAC frame is
 * pushed (the golden traces' "push SAC" point), and around every
 * require_auth of a token function, and before the frame pops, so a test can check a call's cost
 * piecewise as the traces allow (their enforcing-mode authorization with
 * signed entries -- its require_auth and the push's tracker snapshot --
 * is not modelled). */
/* SCP_SAC_PROBE_POPPING: just before the frame pops -- the traces' "pop
 * SAC" point; popping the last frame in recording mode then runs the
 * emulated authentication (host_auth_emul.c), which the enforcing-mode
 * traces do not have. */
/* SCP_SAC_PROBE_MUXED_ID: in a transfer to a MuxedAddress, after the
 * balances moved, before to_mux.id() and the event. */
enum { SCP_SAC_PROBE_AUTH = 0, SCP_SAC_PROBE_AUTHED = 1, SCP_SAC_PROBE_PUSHED = 2,
       SCP_SAC_PROBE_POPPING = 3, SCP_SAC_PROBE_MUXED_ID = 4, SCP_SAC_PROBE_COUNT = 5 };
SCP_HIDDEN extern void (*scp_sac_probe)(scp_host *h, int where);

/* ---- sac_admin.c -------------------------------------------------------------- */

/* authorized(addr), set_authorized(addr, authorize), clawback(from,
 * amount) (contract.rs). */
SCP_HIDDEN int scp_sac_authorized_fn(scp_host *h, uint64_t addr, uint64_t *ret);
SCP_HIDDEN int scp_sac_set_authorized(scp_host *h, uint64_t addr, bool authorize);
SCP_HIDDEN int scp_sac_clawback(scp_host *h, uint64_t from, uint64_t amount);

/* ---- sac_allowance.c ---------------------------------------------------------- */

/* allowance(from, spender) (contract.rs, allowance.rs read_allowance). */
SCP_HIDDEN int scp_sac_allowance(scp_host *h, uint64_t from, uint64_t spender, uint64_t *ret);
/* spend_allowance(from, spender, amount) (allowance.rs), from's clone
 * charged by the caller. */
SCP_HIDDEN int scp_sac_spend_allowance(scp_host *h, uint64_t from, uint64_t spender, int64_t hi,
                                       uint64_t lo);
/* approve(from, spender, amount, live_until_ledger) (contract.rs,
 * allowance.rs write_allowance, event.rs approve). */
SCP_HIDDEN int scp_sac_approve(scp_host *h, uint64_t from, uint64_t spender, uint64_t amount,
                               uint32_t live_until);

/* ---- host_sac.c ------------------------------------------------------------- */

/* metered_from_xdr_obj::<Asset> and get_asset_contract_id_hash (the network
 * id through Env, metered_hash_xdr). */
SCP_HIDDEN int scp_sac_read_asset(scp_host *h, uint64_t obj, scp_sac_asset *a);
SCP_HIDDEN int scp_sac_asset_id(scp_host *h, const scp_sac_asset *a, uint8_t id[32]);

/* ---- sac_contract.c ----------------------------------------------------------- */

/* call_contract_fn's StellarAsset branch from the frame push on: the
 * frame's id clone, with_frame (push_context, the call, the instance
 * storage persisted, the pop; a failure rolls the storage and events back). */
SCP_HIDDEN int scp_sac_call(scp_host *h, const uint8_t id[32], const char *fn,
                            const uint64_t *args, uint32_t n, uint64_t *ret);

#endif
