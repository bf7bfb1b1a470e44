/*
 * scprof.h — public interface of libscprof, the deterministic cost profiler
 * for smart contracts.
 *
 * A profile is produced in one call (scp_soroban_profile) and then written
 * in any number of formats (scp_profile_write).  All handles are opaque.
 * The library keeps no global mutable state: several profiles may be built
 * in one process, concurrently from different threads.
 *
 * Errors: every fallible function returns an scp_status.  When a function
 * takes an scp_error*, it fills it (code + one-line message naming the file
 * and the problem) on failure; the pointer may be NULL.
 */
#ifndef SCPROF_H
#define SCPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum scp_status {
#define X(code, exit_status, text) code,
#include "scprof_err.def"
#undef X
  SCP_STATUS_COUNT
} scp_status;

/* Static text for a status; never NULL ("unknown status" when out of range). */
const char *scp_strerror(int status);

/* Process exit status the CLI uses for a status (documented in README). */
int scp_exit_status(int status);

typedef struct scp_error {
  int code;        /* an scp_status */
  char msg[512];   /* one line, no trailing newline */
} scp_error;

/* ---- Soroban profiling ------------------------------------------------- */

typedef enum scp_argkind {
  SCP_ARG_VOID, SCP_ARG_BOOL, SCP_ARG_U32, SCP_ARG_I32, SCP_ARG_U64,
  SCP_ARG_I64, SCP_ARG_U128, SCP_ARG_I128, SCP_ARG_SYMBOL, SCP_ARG_BYTES,
  SCP_ARG_STRING,
  /* */
  SCP_ARG_TIMEPOINT, SCP_ARG_DURATION, SCP_ARG_U256, SCP_ARG_I256, SCP_ARG_ADDRESS,
  SCP_ARG_SCVAL    /* data/len: one ScVal, XDR (vec, map, structs, ...) */
} scp_argkind;

/* One contract-call argument.  For U128/I128, hi and lo hold the halves;
 * for the integer kinds up to 64 bits (TIMEPOINT and DURATION included)
 * only lo is used.  For SYMBOL, BYTES and STRING, data/len point at
 * caller-owned bytes.  U256/I256: data/len hold the decimal text (hi == 1,
 * what scp_arg_parse produces) or 32 big-endian two's-complement bytes
 * (hi == 0).  ADDRESS: data/len hold the strkey, "G..." (account) or
 * "C..." (contract).  SCVAL: data/len hold one ScVal as XDR, converted as
 * the reference host converts a call's ScVal argument. */
typedef struct scp_arg {
  scp_argkind kind;
  uint64_t hi, lo;
  const uint8_t *data;
  size_t len;
} scp_arg;

/* Parse "type:value" (u32:7, i64:-1, sym:name, bytes:00ff, str:text, void,
 * bool:true, u128:..., i128:..., u256:..., i256:..., timepoint:N,
 * duration:N, addr:G.../C...) into *out.  Returned data points into text.
 * Returns SCP_OK or SCP_ERR_ARG (err filled). */
int scp_arg_parse(const char *text, scp_arg *out, scp_error *err);

/* The ed25519 key of an account strkey ("G...", 56 characters);
 * false when text is not one. */
bool scp_account_strkey(const char *text, uint8_t key[32]);
/* A secret seed strkey ("S...") and an address strkey ("G..." kind
 * 0, "C..." kind 1); false when the text is not one. */
bool scp_seed_strkey(const char *text, uint8_t seed[32]);
bool scp_address_strkey(const char *text, unsigned *kind, uint8_t key[32]);

/* The budget a call may use; 0 takes the host default. */
typedef struct scp_limits {
  uint64_t cpu;                /* 0: the network's, else the host default, 100,000,000 */
  uint64_t mem;                /* 0: the network's, else the host default, 41,943,040 */
} scp_limits;

/* The shape of a profile's call tree.  Memory follows the number of
 * distinct call paths, so it has a budget: past max_nodes nodes, a new
 * path is merged into a "[truncated]" frame under its deepest kept
 * ancestor (its costs stay exact and are booked once; the profile's
 * "call tree" line says how many calls went there).  fold_recursion: a
 * function called again below itself (directly or not) re-enters the
 * frame above, so recursive code reads as one frame. */
#define SCP_DEFAULT_MAX_NODES 100000
typedef struct scp_tree_opts {
  uint64_t max_nodes;          /* 0: SCP_DEFAULT_MAX_NODES; UINT64_MAX: no budget */
  bool fold_recursion;
} scp_tree_opts;

/* The ledger a call runs against. */
typedef struct scp_ledger_opts {
  /* protocol (0 = the newest the host runs; 20 to 28 accepted, else
   * SCP_ERR_ARG), sequence number, close time, and the network id
   * (get_ledger_network_id; all zero unless has_network_id). */
  uint32_t protocol;
  uint32_t sequence;
  uint64_t timestamp;
  bool has_network_id;
  uint8_t network_id[32];
  /* Further contracts deployed in the ledger before the call, for
   * cross-contract calls (callees).  Contract i (from 0) gets the id the
   * host derives for deployer = the all-zero account key and salt = 32
   * bytes holding i + 1 big-endian; the called contract itself has salt 0.
   * The profile's metadata lists every id as a strkey ("C..."). */
  const struct scp_contract_file *contracts;
  size_t ncontracts;
  /* Stellar Asset Contracts created before the call (setup, not
   * profiled), each "native" or "CODE:G..." (1 to 12 ASCII letters or
   * digits, the issuer's account strkey); a malformed one is SCP_ERR_ARG.
   * The profile's metadata lists each asset contract's id. */
  const char *const *assets;
  size_t nassets;
} scp_ledger_opts;

/* Authorization as the transaction carries it. */
typedef struct scp_auth_opts {
  /* The transaction's source account (an ed25519 key), as
   * Host::set_source_account: its require_auth records no nonce and its
   * tracker is not emulated.  None unless has_source_account. */
  bool has_source_account;
  uint8_t source_account[32];
  /* enforce false (default): recording ("mock all auths").  true: the
   * call first runs unprofiled in recording mode (what simulation does)
   * to get the authorization trees and nonces; scprof then builds one
   * SorobanAuthorizationEntry per address (AddressV2 credentials from
   * protocol 27, Address before; SourceAccount for the source account),
   * signs it, and profiles the call in enforcing mode, where the
   * signatures are checked and custom accounts' __check_auth runs.
   * Not with a scenario file's ledger: SCP_ERR_UNSUPPORTED.
   *  signers: "S..." (an account whose master key it is) or
   *    "G...=S..." / "C...=S..." (a signer of that account, or of that
   *    contract: the signature is then the same Vec of
   *    {public_key, signature} maps); an account with no signer is
   *    SCP_ERR_ARG.  An account without a ledger entry gets the default
   *    one (master weight 1, thresholds 0) as set-up.
   *  signatures: "C...=TYPE:VALUE", a contract's signature Val as given
   *    (default Void when it has no signer either);
   *  expiration: signature_expiration_ledger (0: sequence + 100). */
  bool enforce;
  const char *const *signers;
  size_t nsigners;
  const char *const *signatures;
  size_t nsignatures;
  uint32_t expiration;
  /* With sdk_test only: the test called env.mock_all_auths()
   * (SCP_AUTH_MOCK_ALL: recording mode, a new authorization only in the
   * root invocation) or mock_all_auths_allowing_non_root_auth()
   * (SCP_AUTH_MOCK_NON_ROOT).  SCP_AUTH_MOCK_NONE (default): the test
   * Env's enforcing mode with no entries.  With the network's context
   * SCP_ERR_ARG. */
  int mock;
} scp_auth_opts;

enum { SCP_AUTH_MOCK_NONE, SCP_AUTH_MOCK_ALL, SCP_AUTH_MOCK_NON_ROOT };

/* A file's bytes given for symbols (scp_soroban_opts.symbols). */
typedef struct scp_sym_file {
  const uint8_t *bytes;
  size_t len;
} scp_sym_file;

typedef struct scp_soroban_opts {
  const char *wasm_path;       /* for messages and the profile title */
  const uint8_t *wasm;         /* contract bytes (caller-owned) */
  size_t wasm_len;
  const char *function;        /* exported function to call */
  const scp_arg *args;
  size_t nargs;
  scp_limits limits;
  scp_ledger_opts ledger;
  scp_auth_opts auth;
  scp_tree_opts shape;
  /* The context measured: false (default) the network's recording-mode
   * invocation (simulation); true what a soroban-sdk test's
   * cost_estimate() measures (--context sdk-test: Host::call from a test
   * Env after e.register, see docs/fees.md). */
  bool sdk_test;
  /* The resource fee the network charges for the call, as an extra metric
   * "Fee" (stroops) on every node, with its breakdown.  network: a shipped
   * profile ("mainnet", "testnet": the newest; "mainnet@YYYY-MM-DD": the
   * newest dated on or before that day; NULL: "mainnet" when
   * network_config is set, else no fee); network_config: a settings file (stellar-core's
   * ConfigUpgradeSet JSON) applied on it; soroban_state_size: the Soroban
   * state size in bytes the rent write fee is computed from (0: the
   * profile's).  With a network, the ledger takes its TTL settings and a
   * limit left 0 in `limits` is the network's (tx_max_instructions,
   * tx_memory_limit).  An
   * unknown name or a bad file is SCP_ERR_ARG / SCP_ERR_MALFORMED /
   * SCP_ERR_IO.  A call over one of the network's per-transaction limits
   * ends as SCP_ERR_LIMIT, naming the limit and the excess, with the
   * profile set. */
  const char *network;
  const char *network_config;
  uint64_t soroban_state_size;
  /* Internal to the scenario runner: the ledger kept between a scenario
   * file's runs (NULL: a fresh ledger). */
  struct scp_sor_session *session;
  /* Symbols from other files (borrowed, outliving the profile): WASM
   * modules with DWARF whose Code and Import sections are byte-identical
   * to a contract's, i.e. the contract before its custom sections were
   * stripped.  Each contract of the run is symbolized from the first that
   * matches it, else from its own bytes; the caller checks beforehand that
   * each belongs to the contract it was given for (none are refused here). */
  const scp_sym_file *symbols;
  size_t nsymbols;
} scp_soroban_opts;

/* One extra contract (caller-owned bytes). */
typedef struct scp_contract_file {
  const char *path;            /* for messages and frame names */
  const uint8_t *wasm;
  size_t len;
} scp_contract_file;

typedef struct scp_profile scp_profile;

/* Run opts->function of the contract under the Soroban host with full
 * metering and build its profile.
 *
 * On SCP_OK, *out owns a complete profile.  When the contract ran but ended
 * in a trap or budget exhaustion, the result is SCP_ERR_TRAP / SCP_ERR_BUDGET
 * with err describing it AND *out still set to the partial profile (every
 * open frame closed).  On any other error *out is NULL and nothing leaks.
 * The caller destroys *out with scp_profile_destroy(). */
int scp_soroban_profile(const scp_soroban_opts *opts, scp_profile **out,
                        scp_error *err);

void scp_profile_destroy(scp_profile *p);

/* Totals: metric 0 is CPU instructions, 1 is memory bytes (Soroban). */
uint64_t scp_profile_total(const scp_profile *p, unsigned metric);

typedef enum scp_format {
  SCP_FMT_FOLDED,   /* folded stacks "a;b;c N" (CPU) */
  SCP_FMT_SVG,      /* interactive flamegraph (CPU) */
  SCP_FMT_REPORT,   /* text report */
  SCP_FMT_SPEEDSCOPE, /* speedscope JSON: one sampled profile per metric */
  SCP_FMT_CALLGRIND,  /* callgrind (callgrind_annotate, KCachegrind) */
  SCP_FMT_PPROF,      /* pprof profile.proto, gzip-compressed */
  SCP_FMT_JSON,       /* JSON report: the whole tree, versioned schema */
  SCP_FMT_LCOV,       /* lcov tracefile: lines and functions that ran */
  SCP_FMT_COUNT
} scp_format;

typedef struct scp_write_opts {
  unsigned metric;         /* which metric (0 = CPU) for single-metric formats */
  unsigned top;            /* rows in report tables; 0 = 20 */
} scp_write_opts;

/* Write p in format fmt to f.  opts may be NULL.  Output depends only on p
 * and opts (byte-deterministic).  It goes to f as it is made, a chunk at a
 * time, so memory does not grow with its size; on an error f may hold part
 * of it.  Returns SCP_OK or SCP_ERR_IO / NOMEM. */
int scp_profile_write(const scp_profile *p, scp_format fmt,
                      const scp_write_opts *opts, FILE *f);

/* ---- Solana ------------------------------------------------------------
 * A chain state for test harnesses: programs and accounts, transactions run
 * on it one after the other (accounts change when a transaction succeeds),
 * each profiled as scprof profile --scenario does: the root, one
 * "instruction #k" node per instruction, programs and their frames under
 * it, every CPI's callee under its invoke.  Costs are litesvm 1.5.0's
 * (agave 4.3); the System and Compute Budget programs are built in. */
typedef struct scp_solana scp_solana;

int scp_solana_new(scp_solana **out, scp_error *err);
void scp_solana_free(scp_solana *s);

/* Deploy an sBPF program under id with loader 1, 2 or 3 (upgradeable);
 * the ELF is copied and loaded when called.  name: its frame
 * "program:NAME" (NULL: the id). */
int scp_solana_add_program(scp_solana *s, const uint8_t id[32], const uint8_t *elf, size_t len,
                           int loader, const char *name, scp_error *err);

/* Create or replace an account (data copied). */
int scp_solana_set_account(scp_solana *s, const uint8_t key[32], uint64_t lamports,
                           const uint8_t owner[32], const uint8_t *data, size_t len,
                           bool executable, scp_error *err);

/* An account's state now (data valid until the next call on s); false
 * when s has no such account. */
bool scp_solana_get_account(const scp_solana *s, const uint8_t key[32], uint64_t *lamports,
                            uint8_t owner[32], const uint8_t **data, size_t *len);

typedef struct scp_solana_meta {
  uint8_t pubkey[32];
  bool signer, writable;
} scp_solana_meta;

typedef struct scp_solana_ix {
  uint8_t program_id[32];
  const scp_solana_meta *accounts;
  size_t naccounts;
  const uint8_t *data;
  size_t len;
} scp_solana_ix;

typedef struct scp_solana_result {
  uint64_t cu;                 /* computeUnitsConsumed */
  uint64_t cu_limit;
  long failed;                 /* index of the failing instruction, -1: none */
  char outcome[160];           /* "ok", "1 Custom(1)", "InsufficientFundsForRent { ... }" */
  char **logs;                 /* as the runtime printed them */
  size_t nlogs;
} scp_solana_result;

/* Run a transaction.  SCP_OK whether it succeeded or not (res says);
 * *out (when out is not NULL) gets its profile, also for a failed one.
 * Each transaction runs on a fresh recent blockhash (what durable nonces
 * record): litesvm's sha256("genesis") hashed once more per transaction,
 * as litesvm's expire_blockhash before each.
 * Errors: a program does not load, an unknown program, SCP_ERR_NOMEM. */
int scp_solana_transaction(scp_solana *s, const scp_solana_ix *ixs, size_t n, const char *title,
                           scp_profile **out, scp_solana_result *res, scp_error *err);
void scp_solana_result_free(scp_solana_result *res);

#ifdef __cplusplus
}
#endif
#endif
