/*
 * xdr_types.c — the Soroban subset of Stellar's XDR as rows for the codec
 * (xdr_codec.c): one row per type of the .x files (stellar/stellar-xdr,
 * Apache-2.0: Stellar-types.x, Stellar-contract.x,
 * Stellar-ledger-entries.x), field and arm names in the snake_case of
 * stellar-xdr's JSON.  Arms outside the subset are XK_NONE rows: reading
 * or writing one is SCP_ERR_UNSUPPORTED, never a guess.
 */
#include "xdr/xdr_private.h"

#define NAMED(id, k, size) static const scp_xdr_type id = {.name = #id, .kind = k, .n = size}
#define STRUCT(id, ...)                                                        \
  static const xdr_field id##_f[] = {__VA_ARGS__};                             \
  static const scp_xdr_type id = {.name = #id, .kind = XK_STRUCT, .fields = id##_f, \
                                  .count = SCP_ARRAY_LEN(id##_f)}
#define ARMS(id, k, fl, ...)                                                   \
  static const xdr_arm id##_a[] = {__VA_ARGS__};                               \
  static const scp_xdr_type id = {.name = #id, .kind = k, .arms = id##_a,      \
                                  .count = SCP_ARRAY_LEN(id##_a), .flat = fl}
#define UNION(id, ...) ARMS(id, XK_UNION, false, __VA_ARGS__)
#define FLAT(id, ...) ARMS(id, XK_UNION, true, __VA_ARGS__)
#define ENUM(id, ...) ARMS(id, XK_ENUM, false, __VA_ARGS__)
#define LIST(id, k, max, el) static const scp_xdr_type id = {.name = #id, .kind = k, .n = max, .elem = &el}

NAMED(None, XK_NONE, 0);
NAMED(U32, XK_U32, 0);
NAMED(I32, XK_I32, 0);
NAMED(U64, XK_U64, 0);
NAMED(I64, XK_I64, 0);
NAMED(Bool, XK_BOOL, 0);
NAMED(UInt128Parts, XK_UBIG, 128);
NAMED(Int128Parts, XK_SBIG, 128);
NAMED(UInt256Parts, XK_UBIG, 256);
NAMED(Int256Parts, XK_SBIG, 256);
NAMED(Hash, XK_OPAQUE, 32);
NAMED(Thresholds, XK_OPAQUE, 4);
NAMED(ScBytes, XK_VAROPAQUE, UINT32_MAX);
NAMED(WasmCode, XK_VAROPAQUE, UINT32_MAX);
NAMED(ScString, XK_STRING, UINT32_MAX);
NAMED(ScSymbol, XK_STRING, 32);
NAMED(String32, XK_STRING, 32);
NAMED(AssetCode4, XK_ASSETCODE, 4);
NAMED(AssetCode12, XK_ASSETCODE, 12);
NAMED(AccountKey, XK_STRKEY, SCP_STRKEY_ACCOUNT);
NAMED(ContractKey, XK_STRKEY, SCP_STRKEY_CONTRACT);
NAMED(PreAuthTxKey, XK_STRKEY, SCP_STRKEY_PRE_AUTH_TX);
NAMED(HashXKey, XK_STRKEY, SCP_STRKEY_HASH_X);

UNION(ExtensionPoint, {0, "v0", NULL});

/* ---- Stellar-types.x ---- */
FLAT(PublicKey, {0, "ed25519", &AccountKey});
FLAT(SignerKey, {0, "ed25519", &AccountKey}, {1, "pre_auth_tx", &PreAuthTxKey},
     {2, "hash_x", &HashXKey}, {3, "ed25519_signed_payload", &None});

/* ---- Stellar-contract.x ---- */
FLAT(ScAddress, {0, "account", &PublicKey}, {1, "contract", &ContractKey},
     {2, "muxed_account", &None}, {3, "claimable_balance", &None}, {4, "liquidity_pool", &None});
ENUM(ScErrorCode, {0, "arith_domain", NULL}, {1, "index_bounds", NULL}, {2, "invalid_input", NULL},
     {3, "missing_value", NULL}, {4, "existing_value", NULL}, {5, "exceeded_limit", NULL},
     {6, "invalid_action", NULL}, {7, "internal_error", NULL}, {8, "unexpected_type", NULL},
     {9, "unexpected_size", NULL});
UNION(ScError, {0, "contract", &U32}, {1, "wasm_vm", &ScErrorCode}, {2, "context", &ScErrorCode},
      {3, "storage", &ScErrorCode}, {4, "object", &ScErrorCode}, {5, "crypto", &ScErrorCode},
      {6, "events", &ScErrorCode}, {7, "budget", &ScErrorCode}, {8, "value", &ScErrorCode},
      {9, "auth", &ScErrorCode});
UNION(ContractExecutable, {0, "wasm", &Hash}, {1, "stellar_asset", NULL});

static const scp_xdr_type ScVal;
STRUCT(ScMapEntry, {"key", &ScVal}, {"val", &ScVal});
LIST(ScVec, XK_ARRAY, UINT32_MAX, ScVal);
LIST(ScMap, XK_ARRAY, UINT32_MAX, ScMapEntry);
LIST(ScVecOption, XK_OPTION, 0, ScVec);
LIST(ScMapOption, XK_OPTION, 0, ScMap);
STRUCT(ScContractInstance, {"executable", &ContractExecutable}, {"storage", &ScMapOption});
STRUCT(ScNonceKey, {"nonce", &I64});
UNION(ScVal, {0, "bool", &Bool}, {1, "void", NULL}, {2, "error", &ScError}, {3, "u32", &U32},
      {4, "i32", &I32}, {5, "u64", &U64}, {6, "i64", &I64}, {7, "timepoint", &U64},
      {8, "duration", &U64}, {9, "u128", &UInt128Parts}, {10, "i128", &Int128Parts},
      {11, "u256", &UInt256Parts}, {12, "i256", &Int256Parts}, {13, "bytes", &ScBytes},
      {14, "string", &ScString}, {15, "symbol", &ScSymbol}, {16, "vec", &ScVecOption},
      {17, "map", &ScMapOption}, {18, "address", &ScAddress},
      {19, "contract_instance", &ScContractInstance}, {20, "ledger_key_contract_instance", NULL},
      {21, "ledger_key_nonce", &ScNonceKey});

/* ---- Stellar-ledger-entries.x ---- */
LIST(AccountIdOption, XK_OPTION, 0, PublicKey);
STRUCT(Signer, {"key", &SignerKey}, {"weight", &U32});
LIST(Signers, XK_ARRAY, 20, Signer);
LIST(SponsorshipDescriptors, XK_ARRAY, 20, AccountIdOption);
STRUCT(Liabilities, {"buying", &I64}, {"selling", &I64});
STRUCT(AccountEntryExtensionV3, {"ext", &ExtensionPoint}, {"seq_ledger", &U32}, {"seq_time", &U64});
UNION(AccountEntryExtensionV2Ext, {0, "v0", NULL}, {3, "v3", &AccountEntryExtensionV3});
STRUCT(AccountEntryExtensionV2, {"num_sponsored", &U32}, {"num_sponsoring", &U32},
       {"signer_sponsoring_i_ds", &SponsorshipDescriptors}, {"ext", &AccountEntryExtensionV2Ext});
UNION(AccountEntryExtensionV1Ext, {0, "v0", NULL}, {2, "v2", &AccountEntryExtensionV2});
STRUCT(AccountEntryExtensionV1, {"liabilities", &Liabilities}, {"ext", &AccountEntryExtensionV1Ext});
UNION(AccountEntryExt, {0, "v0", NULL}, {1, "v1", &AccountEntryExtensionV1});
STRUCT(AccountEntry, {"account_id", &PublicKey}, {"balance", &I64}, {"seq_num", &I64},
       {"num_sub_entries", &U32}, {"inflation_dest", &AccountIdOption}, {"flags", &U32},
       {"home_domain", &String32}, {"thresholds", &Thresholds}, {"signers", &Signers},
       {"ext", &AccountEntryExt});

STRUCT(AlphaNum4, {"asset_code", &AssetCode4}, {"issuer", &PublicKey});
STRUCT(AlphaNum12, {"asset_code", &AssetCode12}, {"issuer", &PublicKey});
UNION(TrustLineAsset, {0, "native", NULL}, {1, "credit_alphanum4", &AlphaNum4},
      {2, "credit_alphanum12", &AlphaNum12}, {3, "pool_share", &Hash});
STRUCT(TrustLineEntryExtensionV2, {"liquidity_pool_use_count", &I32}, {"ext", &ExtensionPoint});
UNION(TrustLineEntryV1Ext, {0, "v0", NULL}, {2, "v2", &TrustLineEntryExtensionV2});
STRUCT(TrustLineEntryV1, {"liabilities", &Liabilities}, {"ext", &TrustLineEntryV1Ext});
UNION(TrustLineEntryExt, {0, "v0", NULL}, {1, "v1", &TrustLineEntryV1});
STRUCT(TrustLineEntry, {"account_id", &PublicKey}, {"asset", &TrustLineAsset}, {"balance", &I64},
       {"limit", &I64}, {"flags", &U32}, {"ext", &TrustLineEntryExt});

ENUM(ContractDataDurability, {0, "temporary", NULL}, {1, "persistent", NULL});
STRUCT(ContractDataEntry, {"ext", &ExtensionPoint}, {"contract", &ScAddress}, {"key", &ScVal},
       {"durability", &ContractDataDurability}, {"val", &ScVal});
STRUCT(ContractCodeCostInputs, {"ext", &ExtensionPoint}, {"n_instructions", &U32},
       {"n_functions", &U32}, {"n_globals", &U32}, {"n_table_entries", &U32}, {"n_types", &U32},
       {"n_data_segments", &U32}, {"n_elem_segments", &U32}, {"n_imports", &U32},
       {"n_exports", &U32}, {"n_data_segment_bytes", &U32});
STRUCT(ContractCodeEntryV1, {"ext", &ExtensionPoint}, {"cost_inputs", &ContractCodeCostInputs});
UNION(ContractCodeEntryExt, {0, "v0", NULL}, {1, "v1", &ContractCodeEntryV1});
STRUCT(ContractCodeEntry, {"ext", &ContractCodeEntryExt}, {"hash", &Hash}, {"code", &WasmCode});
STRUCT(TtlEntry, {"key_hash", &Hash}, {"live_until_ledger_seq", &U32});

UNION(LedgerEntryData, {0, "account", &AccountEntry}, {1, "trustline", &TrustLineEntry},
      {2, "offer", &None}, {3, "data", &None}, {4, "claimable_balance", &None},
      {5, "liquidity_pool", &None}, {6, "contract_data", &ContractDataEntry},
      {7, "contract_code", &ContractCodeEntry}, {8, "config_setting", &None},
      {9, "ttl", &TtlEntry});
STRUCT(LedgerEntryExtensionV1, {"sponsoring_id", &AccountIdOption}, {"ext", &ExtensionPoint});
UNION(LedgerEntryExt, {0, "v0", NULL}, {1, "v1", &LedgerEntryExtensionV1});
STRUCT(LedgerEntry, {"last_modified_ledger_seq", &U32}, {"data", &LedgerEntryData},
       {"ext", &LedgerEntryExt});

STRUCT(LedgerKeyAccount, {"account_id", &PublicKey});
STRUCT(LedgerKeyTrustLine, {"account_id", &PublicKey}, {"asset", &TrustLineAsset});
STRUCT(LedgerKeyContractData, {"contract", &ScAddress}, {"key", &ScVal},
       {"durability", &ContractDataDurability});
STRUCT(LedgerKeyContractCode, {"hash", &Hash});
STRUCT(LedgerKeyTtl, {"key_hash", &Hash});
UNION(LedgerKey, {0, "account", &LedgerKeyAccount}, {1, "trustline", &LedgerKeyTrustLine},
      {2, "offer", &None}, {3, "data", &None}, {4, "claimable_balance", &None},
      {5, "liquidity_pool", &None}, {6, "contract_data", &LedgerKeyContractData},
      {7, "contract_code", &LedgerKeyContractCode}, {8, "config_setting", &None},
      {9, "ttl", &LedgerKeyTtl});

const scp_xdr_type *const scp_xdr_types[] = {
  &ScVal, &ScAddress, &ScError, &ScMapEntry, &ScContractInstance, &ContractExecutable,
  &PublicKey, &SignerKey, &AccountEntry, &TrustLineAsset, &TrustLineEntry,
  &ContractDataEntry, &ContractCodeEntry, &ContractCodeCostInputs, &TtlEntry,
  &LedgerEntryData, &LedgerEntry, &LedgerKey, NULL,
};
