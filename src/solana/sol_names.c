/* sol_names.c — program and instruction names (the rules are in
 * scp_sol_names.h).  The tag numbers are those of the public interface
 * crates (solana-system-interface, solana-compute-budget-interface,
 * spl-token and spl-token-2022 instruction.rs, spl-associated-token-account,
 * solana-address-lookup-table-interface, solana-stake-interface,
 * solana-loader-v3-interface); an array's index is the tag. */
#include <stdio.h>
#include <string.h>
#include "solana/scp_sol_names.h"
#include "solana/scp_sol_idl.h"
#include "util/scp_util.h"

typedef struct known {
  const char *id, *name;
} known;

static const known KNOWN[] = {
    {.id = "11111111111111111111111111111111", .name = "system"},
    {.id = "ComputeBudget111111111111111111111111111111", .name = "compute-budget"},
    {.id = "BPFLoader1111111111111111111111111111111111", .name = "bpf-loader-deprecated"},
    {.id = "BPFLoader2111111111111111111111111111111111", .name = "bpf-loader"},
    {.id = "BPFLoaderUpgradeab1e11111111111111111111111", .name = "bpf-loader-upgradeable"},
    {.id = "LoaderV411111111111111111111111111111111111", .name = "loader-v4"},
    {.id = "NativeLoader1111111111111111111111111111111", .name = "native-loader"},
    {.id = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", .name = "token"},
    {.id = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb", .name = "token-2022"},
    {.id = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL", .name = "associated-token-account"},
    {.id = "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo", .name = "memo-v1"},
    {.id = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr", .name = "memo"},
    {.id = "AddressLookupTab1e1111111111111111111111111", .name = "address-lookup-table"},
    {.id = "Stake11111111111111111111111111111111111111", .name = "stake"},
    {.id = "StakeConfig11111111111111111111111111111111", .name = "stake-config"},
    {.id = "Config1111111111111111111111111111111111111", .name = "config"},
    {.id = "Vote111111111111111111111111111111111111111", .name = "vote"},
    {.id = "Feature111111111111111111111111111111111111", .name = "feature"},
    {.id = "Ed25519SigVerify111111111111111111111111111", .name = "ed25519"},
    {.id = "KeccakSecp256k11111111111111111111111111111", .name = "secp256k1"},
    {.id = "Secp256r1SigVerify1111111111111111111111111", .name = "secp256r1"},
    {.id = "ZkE1Gama1Proof11111111111111111111111111111", .name = "zk-elgamal-proof"},
};

const char *scp_sol_known_program(const uint8_t id[32]) {
  char text[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(id, text);
  for (size_t i = 0; i < SCP_ARRAY_LEN(KNOWN); i++)
    if (!strcmp(KNOWN[i].id, text)) return KNOWN[i].name;
  return NULL;
}

void scp_sol_program_name(const uint8_t id[32], const char *given, char *out, size_t cap) {
  char text[SCP_SOL_B58_KEY_MAX];
  const char *k = scp_sol_known_program(id);
  scp_sol_key_str(id, text);
  if (k) snprintf(out, cap, "%s", k);
  else if (given && given[0] && strcmp(given, text)) snprintf(out, cap, "%s", given);
  else snprintf(out, cap, "%.8s", text);
}

void scp_sol_file_name(const char *path, char *out, size_t cap) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  /* a name that is all extension (".so") keeps it */
  int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
  snprintf(out, cap, "%.*s", n, base);
}

/* ---- instruction sets ---- */

static const char *const SYSTEM[] = {
    "CreateAccount",        "Assign",          "Transfer",          "CreateAccountWithSeed",
    "AdvanceNonceAccount",  "WithdrawNonceAccount", "InitializeNonceAccount", "AuthorizeNonceAccount",
    "Allocate",             "AllocateWithSeed", "AssignWithSeed",   "TransferWithSeed",
    "UpgradeNonceAccount",  "CreateAccountAllowPrefund"};
static const char *const COMPUTE_BUDGET[] = {"RequestUnitsDeprecated", "RequestHeapFrame",
                                             "SetComputeUnitLimit", "SetComputeUnitPrice",
                                             "SetLoadedAccountsDataSizeLimit"};
/* Token's 0..24 are Token-2022's too */
static const char *const TOKEN[] = {
    "InitializeMint", "InitializeAccount", "InitializeMultisig", "Transfer", "Approve", "Revoke",
    "SetAuthority", "MintTo", "Burn", "CloseAccount", "FreezeAccount", "ThawAccount",
    "TransferChecked", "ApproveChecked", "MintToChecked", "BurnChecked", "InitializeAccount2",
    "SyncNative", "InitializeAccount3", "InitializeMultisig2", "InitializeMint2",
    "GetAccountDataSize", "InitializeImmutableOwner", "AmountToUiAmount", "UiAmountToAmount",
    /* Token-2022 from here */
    "InitializeMintCloseAuthority", "TransferFeeExtension", "ConfidentialTransferExtension",
    "DefaultAccountStateExtension", "Reallocate", "MemoTransferExtension", "CreateNativeMint",
    "InitializeNonTransferableMint", "InterestBearingMintExtension", "CpiGuardExtension",
    "InitializePermanentDelegate", "TransferHookExtension", "ConfidentialTransferFeeExtension",
    "WithdrawExcessLamports", "MetadataPointerExtension", "GroupPointerExtension",
    "GroupMemberPointerExtension", "ConfidentialMintBurnExtension", "ScaledUiAmountExtension",
    "PausableExtension"};
#define TOKEN_V1_LAST 24u

/* the extensions' own instructions: the byte after the extension's tag */
static const char *const EXT_TRANSFER_FEE[] = {
    "InitializeTransferFeeConfig", "TransferCheckedWithFee", "WithdrawWithheldTokensFromMint",
    "WithdrawWithheldTokensFromAccounts", "HarvestWithheldTokensToMint", "SetTransferFee"};
static const char *const EXT_CONFIDENTIAL[] = {
    "InitializeMint", "UpdateMint", "ConfigureAccount", "ApproveAccount", "EmptyAccount",
    "Deposit", "Withdraw", "Transfer", "ApplyPendingBalance", "EnableConfidentialCredits",
    "DisableConfidentialCredits", "EnableNonConfidentialCredits", "DisableNonConfidentialCredits",
    "TransferWithFee", "ConfigureAccountWithRegistry"};
static const char *const EXT_INIT_UPDATE[] = {"Initialize", "Update"};
static const char *const EXT_ENABLE_DISABLE[] = {"Enable", "Disable"};
static const char *const EXT_INTEREST[] = {"Initialize", "UpdateRate"};
static const char *const EXT_CONFIDENTIAL_FEE[] = {
    "InitializeConfidentialTransferFeeConfig", "WithdrawWithheldTokensFromMint",
    "WithdrawWithheldTokensFromAccounts", "HarvestWithheldTokensToMint", "EnableHarvestToMint",
    "DisableHarvestToMint"};
static const char *const EXT_MINT_BURN[] = {"InitializeMint", "RotateSupplyElGamalPubkey",
                                            "UpdateDecryptableSupply", "Mint", "Burn",
                                            "ApplyPendingBurn"};
static const char *const EXT_SCALED[] = {"Initialize", "UpdateMultiplier"};
static const char *const EXT_PAUSABLE[] = {"Initialize", "Pause", "Resume"};

typedef struct ext_set {
  uint8_t tag;
  const char *const *names;
  size_t n;
} ext_set;

#define EXT(t, a) {.tag = t, .names = a, .n = SCP_ARRAY_LEN(a)}
static const ext_set EXTS[] = {
    EXT(26, EXT_TRANSFER_FEE),     EXT(27, EXT_CONFIDENTIAL),   EXT(28, EXT_INIT_UPDATE),
    EXT(30, EXT_ENABLE_DISABLE),   EXT(33, EXT_INTEREST),       EXT(34, EXT_ENABLE_DISABLE),
    EXT(36, EXT_INIT_UPDATE),      EXT(37, EXT_CONFIDENTIAL_FEE), EXT(39, EXT_INIT_UPDATE),
    EXT(40, EXT_INIT_UPDATE),      EXT(41, EXT_INIT_UPDATE),    EXT(42, EXT_MINT_BURN),
    EXT(43, EXT_SCALED),           EXT(44, EXT_PAUSABLE)};

static const char *const ATA[] = {"Create", "CreateIdempotent", "RecoverNested"};
static const char *const ALT[] = {"CreateLookupTable", "FreezeLookupTable", "ExtendLookupTable",
                                  "DeactivateLookupTable", "CloseLookupTable"};
static const char *const STAKE[] = {
    "Initialize", "Authorize", "DelegateStake", "Split", "Withdraw", "Deactivate", "SetLockup",
    "Merge", "AuthorizeWithSeed", "InitializeChecked", "AuthorizeChecked",
    "AuthorizeCheckedWithSeed", "SetLockupChecked", "GetMinimumDelegation",
    "DeactivateDelinquent", "Redelegate", "MoveStake", "MoveLamports"};
static const char *const LOADER_V3[] = {
    "InitializeBuffer", "Write", "DeployWithMaxDataLen", "Upgrade", "SetAuthority", "Close",
    "ExtendProgram", "SetAuthorityChecked", "Migrate", "ExtendProgramChecked"};

static void hex_name(const uint8_t *data, size_t len, char *out, size_t cap) {
  size_t n = len < 8 ? len : 8, at = 0;
  if (!n) {
    snprintf(out, cap, "%s", "");
    return;
  }
  at = (size_t)snprintf(out, cap, "ix 0x");
  for (size_t i = 0; i < n && at + 2 < cap; i++) at += (size_t)snprintf(out + at, cap - at, "%02x", data[i]);
}

/* A tag of the first `width` bytes (1 or 4, little-endian) in names[];
 * false when the data is too short or the tag unknown. */
static bool tagged(const uint8_t *data, size_t len, unsigned width, const char *const *names,
                   size_t n, const char **out) {
  if (len < width) return false;
  uint32_t tag = data[0];
  if (width == 4) tag |= (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24;
  if (tag >= n) return false;
  *out = names[tag];
  return true;
}

static bool token_name(const uint8_t *data, size_t len, bool v2022, char *out, size_t cap) {
  const char *name;
  if (!tagged(data, len, 1, TOKEN, SCP_ARRAY_LEN(TOKEN), &name)) return false;
  if (!v2022 && data[0] > TOKEN_V1_LAST) {
    /* p-token at the Token id adds WithdrawExcessLamports (38),
     * UnwrapLamports (45) and Batch (255) */
    if (data[0] != 38) return false;
  }
  for (size_t i = 0; v2022 && i < SCP_ARRAY_LEN(EXTS); i++) {
    if (EXTS[i].tag != data[0]) continue;
    const char *sub;
    if (len >= 2 && tagged(data + 1, len - 1, 1, EXTS[i].names, EXTS[i].n, &sub)) {
      /* "TransferFeeExtension" + "::" + "TransferCheckedWithFee" */
      snprintf(out, cap, "%.*s::%s", (int)(strlen(name) - strlen("Extension")), name, sub);
      return true;
    }
  }
  snprintf(out, cap, "%s", name);
  return true;
}

static bool builtin_name(const char *prog, const uint8_t *data, size_t len, char *out, size_t cap) {
  const char *name = NULL;
  bool ok = false;
  if (!strcmp(prog, "system")) ok = tagged(data, len, 4, SYSTEM, SCP_ARRAY_LEN(SYSTEM), &name);
  else if (!strcmp(prog, "compute-budget"))
    ok = tagged(data, len, 1, COMPUTE_BUDGET, SCP_ARRAY_LEN(COMPUTE_BUDGET), &name);
  else if (!strcmp(prog, "token") || !strcmp(prog, "token-2022")) {
    if (!strcmp(prog, "token") && len && (data[0] == 45 || data[0] == 255)) {
      snprintf(out, cap, "%s", data[0] == 45 ? "UnwrapLamports" : "Batch");
      return true;
    }
    return token_name(data, len, !strcmp(prog, "token-2022"), out, cap);
  } else if (!strcmp(prog, "associated-token-account")) {
    /* an empty instruction is Create (the program's own fallback) */
    name = ATA[0];
    ok = !len || tagged(data, len, 1, ATA, SCP_ARRAY_LEN(ATA), &name);
  } else if (!strcmp(prog, "memo") || !strcmp(prog, "memo-v1")) {
    name = "Memo";
    ok = true;
  } else if (!strcmp(prog, "address-lookup-table"))
    ok = tagged(data, len, 4, ALT, SCP_ARRAY_LEN(ALT), &name);
  else if (!strcmp(prog, "stake"))
    ok = tagged(data, len, 4, STAKE, SCP_ARRAY_LEN(STAKE), &name);
  else if (!strcmp(prog, "bpf-loader-upgradeable"))
    ok = tagged(data, len, 4, LOADER_V3, SCP_ARRAY_LEN(LOADER_V3), &name);
  if (ok) snprintf(out, cap, "%s", name);
  return ok;
}

void scp_sol_ix_name(const uint8_t id[32], const uint8_t *data, size_t len,
                     const struct scp_sol_idls *idls, char *out, size_t cap) {
  const char *prog = scp_sol_known_program(id);
  const char *idl = scp_sol_idl_lookup(idls, id, data, len);
  if (idl) snprintf(out, cap, "%s", idl);
  else if (!prog || !builtin_name(prog, data, len, out, cap)) hex_name(data, len, out, cap);
}
