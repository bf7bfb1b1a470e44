/*
 * scp_scenario.h — scenario files: several calls profiled in one run of
 * `scprof profile --scenario FILE.json` (schema in docs/scenarios.md, "Scenario
 * files").
 *
 * The calls run in order on one ledger (scp_ledger), as a sequence of
 * transactions: each with a fresh Budget, each seeing the storage the
 * earlier successful calls left (and the "storage" entries set up before
 * the first).  The ledger is set up before the first call as a real one
 * would be: accounts and trustlines as classic entries, asset contracts,
 * contracts deployed with their deployer, salt and constructor.  A call
 * with "auth": "enforce" is simulated (unprofiled, the ledger left as it
 * was), signed, and profiled signed; its nonces stay in the ledger.
 */
#ifndef SCP_SCENARIO_H
#define SCP_SCENARIO_H

#include <stdint.h>

#include <jansson.h>

#include "scprof.h"
#include "soroban/run/scp_spec.h"

/* Ledger state carried from one run to the next (struct scp_ledger below):
 * set up once (scp_ledger_setup: accounts, trustlines, asset contracts,
 * the contracts in file order with their deployers, salts and
 * constructors, the "storage" entries), then the entries left by the runs
 * that succeeded (struct scp_sentry, host_private.h).  Kept by
 * scp_soroban_profile. */

/* An initial contract-data entry ("storage"): key and value as host
 * values, stored as the host would store them (ScVal XDR).  An instance
 * seed is an entry of the contract's instance storage: the instance entry
 * holds them all as its storage map (keys in the host's order), as a frame
 * that put them would have left it. */
enum { SCP_SEED_INSTANCE = 2 };
typedef struct scp_ledger_seed {
  size_t contract;             /* index into the ledger's files */
  scp_arg key, val;
  uint8_t dur;                 /* SCP_DUR_TEMPORARY 0, SCP_DUR_PERSISTENT 1,
                                  SCP_SEED_INSTANCE */
  bool has_live_until;         /* else sequence + the minimum TTL - 1 (not
                                  for instance seeds: the instance's TTL) */
  uint32_t live_until;
} scp_ledger_seed;

/* How contract i of the ledger is deployed.  Without one (deploys NULL)
 * every contract is deployed by the all-zero account with salt i and no
 * constructor.  A contract that has a constructor to run (construct), or
 * whose deployer is a contract, is deployed by a set-up transaction that
 * runs the host's create_contract_with_constructor (sor_ledger.c). */
typedef struct scp_ledger_deploy {
  bool by_contract;            /* the deployer is contract deployer_index */
  size_t deployer_index;
  uint8_t deployer[32];        /* else this account's ed25519 key */
  uint8_t salt[32];
  bool construct;              /* run __constructor(ctor...) */
  bool has_live_until;         /* else sequence + the minimum TTL - 1 */
  uint32_t live_until;         /* the TTL of its instance and code entries */
  const scp_arg *ctor;
  size_t nctor;
  const char *where;           /* "contracts[1]", for messages */
  bool upload_only;            /* only its code in the ledger: no instance */
  /* "context": "sdk-test": e.register's deployer, the test generator's
   * address number (contract 00..0N, salt zero), N = 1, 2, ... in the
   * file's order; 0: a network deploy (the id from deployer and salt) */
  uint32_t test_gen;
} scp_ledger_deploy;

/* A classic account, written as the AccountEntry XDR the host reads
 * (scenario_ledger.c): no inflation destination, no home domain, the
 * signers sorted by key, numSubEntries = signers + its trustlines. */
#define SCP_MAX_SIGNERS 20
typedef struct scp_ledger_account {
  uint8_t id[32];
  int64_t balance, seq_num;
  uint32_t flags;
  uint8_t thresholds[4];       /* master weight, low, medium, high */
  size_t nsigners;
  uint8_t signer_key[SCP_MAX_SIGNERS][32];
  uint32_t signer_weight[SCP_MAX_SIGNERS];
} scp_ledger_account;

/* A trustline, written as TrustLineEntry XDR; asset is "CODE:G..." text
 * (checked when read). */
typedef struct scp_ledger_trustline {
  uint8_t account[32];
  const char *asset;
  int64_t balance, limit;
  bool authorized;             /* AUTHORIZED_FLAG */
} scp_ledger_trustline;

typedef struct scp_ledger {
  const scp_ledger_seed *seeds;   /* put in place with the first deploy */
  size_t nseeds;
  const scp_contract_file *files;
  size_t nfiles;
  const scp_ledger_deploy *deploys;   /* nfiles, or NULL: the defaults */
  const scp_ledger_account *accounts;
  size_t naccounts;
  const scp_ledger_trustline *trustlines;
  size_t ntrustlines;
  const char *const *assets;   /* asset contracts: "native" or "CODE:G..." */
  size_t nassets;
  uint8_t (*ids)[32];          /* nfiles contract ids */
  uint8_t (*asset_ids)[32];    /* nassets asset contract ids */
  const char **owned_assets;   /* the assets array, when the ledger owns it */
  bool deployed;
  uint32_t simulations;        /* enforcing calls' recording runs so far: each
                                  draws its nonces from its own seed */
  struct scp_sentry *ents;     /* present entries only */
  size_t nents;
  /* the TTL settings of a ledger read from a snapshot (else the host's
   * defaults, or the network's) */
  bool has_ttls;
  uint32_t min_temp_ttl, min_persistent_ttl, max_entry_ttl;
  /* --context sdk-test: the test Env's storage map after the last call,
   * None entries included (a deleted key stays as None) */
  struct scp_sentry *test_map;
  size_t ntest_map;
  /* and the recording-auth nonces the Env's calls drew (e.register's own
   * draw not counted): the next call's PRNG continues after them */
  uint64_t test_nonces;
  /* Wasm hashes of code entries stored without cost inputs (a snapshot's
   * ext v0 entries; owned) */
  uint8_t (*v0_code)[32];
  size_t nv0_code;
  /* the contracts' code, loaded once for all the calls (sor_modcache.h);
   * NULL: each run loads its own */
  struct sor_modcache *modcache;
  uint8_t (*file_hash)[32];    /* SHA-256 of each file, on first use (owned) */
} scp_ledger;

/* What a run of a scenario file adds to its options (scp_soroban_opts
 * .session): the ledger its runs share (contracts is then ignored: the
 * ledger's contracts are deployed once) and the called one. */
typedef struct scp_sor_session {
  scp_ledger *ledger;
  size_t main;                 /* the called contract */
  bool main_asset;             /* main indexes the ledger's asset contracts */
  /* A transaction envelope to run as the network does (scp_sortx.h), and
   * what the network recorded for it; NULL: none. */
  const struct scp_sortx *tx;
  const struct scp_sortx_meta *tx_meta;
  bool totals_only;            /* a set-up call: only the profile's totals are read,
                                  so its metadata lists no contract ids (as many
                                  lines as the ledger has contracts) */
} scp_sor_session;

/* The ledger of o's session, NULL without one. */
static inline scp_ledger *scp_sor_session_ledger(const scp_soroban_opts *o) {
  return o->session ? o->session->ledger : NULL;
}

/* Empty ledger for files (borrowed); NULL when out of memory. */
scp_ledger *scp_ledger_new(const scp_contract_file *files, size_t n);
void scp_ledger_free(scp_ledger *l);

/* l's classic side: accounts, trustlines and asset contracts (borrowed),
 * with the ids of the assets (asset_ids) allocated to match.  False when
 * out of memory. */
bool scp_ledger_classic(scp_ledger *l, const scp_ledger_account *accounts, size_t naccounts,
                        const scp_ledger_trustline *trustlines, size_t ntrustlines,
                        const char *const *assets, size_t nassets);

/* (sor_ledger.c) Set the ledger up once, with o's ledger info and limits:
 * accounts and trustlines, asset contracts, contracts (by set-up
 * transactions for those with a constructor or a contract deployer), the
 * "storage" entries last.  The first profiled run does it when it has not
 * been done.  SCP_OK; SCP_ERR_ARG (a bad asset or constructor argument),
 * SCP_ERR_INVALID (a deploy failed: err names the contract's JSON path),
 * SCP_ERR_BUDGET, SCP_ERR_NOMEM.  A failed set-up leaves the ledger unusable. */
int scp_ledger_setup(scp_ledger *l, const scp_soroban_opts *o, scp_error *err);

/* (scenario_ledger.c) Whether wasm[0..len) exports a __constructor
 * function (*has) and its parameter count (*nparams, may be NULL): what a
 * deploy from protocol 22 on runs.  SCP_OK, or the module's load error. */
int scp_ledger_ctor_export(const uint8_t *wasm, size_t len, bool *has, uint32_t *nparams,
                           scp_error *err);

/* (scenario_ledger.c) Whether text ("CODE:G...") is an asset account
 * can hold a trustline to: SCP_OK, or SCP_ERR_ARG with *why the problem
 * (malformed, the native asset, the account is the issuer). */
int scp_ledger_trustline_asset(const char *text, const uint8_t account[32], const char **why);

/* (scenario_ledger.c) The ledger's accounts and trustlines as AccountEntry
 * and TrustLineEntry XDR in h's snapshot source.  SCP_OK, SCP_ERR_ARG (a
 * trustline's asset), SCP_ERR_NOMEM. */
struct scp_host;
int scp_ledger_seed_classic(struct scp_host *h, const scp_ledger *l, scp_error *err);

typedef struct scp_scenario_contract {
  char *name, *path;           /* path as resolved (relative to the file) */
  uint8_t *wasm;
  size_t len;
  scp_spec *spec;              /* NULL when the contract has none */
  size_t same_file;            /* the first contract of this path, whose wasm
                                  and spec these are (itself: its own) */
} scp_scenario_contract;

/* A call's arguments as the spec of a code an earlier call gave its
 * contract ("@NAME") types them: update_current_contract_wasm may have
 * made it the contract's code by the time the call runs. */
typedef struct scp_scenario_typing {
  uint8_t hash[32];            /* the code's SHA-256 */
  size_t code;                 /* the contract whose file holds it */
  scp_arg *args;
  size_t nargs;
  int rc;                      /* SCP_OK, or why its spec refuses them: */
  char *msg;                   /* the message (no file or call prefix) */
} scp_scenario_typing;

typedef struct scp_scenario_call {
  size_t contract;             /* index into contracts, or into assets when is_asset */
  bool is_asset;               /* a call straight to an asset contract */
  bool has_source;             /* "source": this call's source account */
  uint8_t source[32];
  char *function;
  scp_arg *args;
  size_t nargs;
  bool profile;                /* false: a set-up call, run but not written */
  /* "auth": "enforce" (scp_soroban_opts.auth.enforce and its lists; the
   * strings are the scenario's, contract names resolved to C...) */
  bool auth_enforce;
  const char **auth_signers, **auth_signatures;
  size_t nauth_signers, nauth_signatures;
  uint32_t auth_expiration;
  int auth_mock;               /* "auth": "mock" / "mock-non-root" (SCP_AUTH_MOCK_*) */
  /* Typed also by the codes earlier calls gave the contract (none: args
   * always apply); args_rc and args_msg: its own code's spec refused them
   * (args then holds none).  Which typing applies is decided when the
   * call runs, by the code the contract runs then (scp_scenario_call_args). */
  scp_scenario_typing *retyped;
  size_t nretyped;
  int args_rc;
  char *args_msg;
} scp_scenario_call;

typedef struct scp_scenario {
  scp_scenario_contract *contracts;
  size_t ncontracts;
  scp_scenario_call *calls;
  size_t ncalls;
  uint64_t cpu_limit, mem_limit;   /* 0: the host defaults */
  bool sdk_test;               /* "context": "sdk-test" */
  /* "ledger": protocol, sequence, timestamp, network id */
  uint32_t protocol, sequence;
  uint64_t timestamp;
  bool has_network_id;
  uint8_t network_id[32];
  bool has_source;             /* "source": the transaction's source account */
  uint8_t source[32];
  scp_contract_file *files;    /* every contract in file order (the ledger's) */
  scp_ledger_seed *storage;    /* "storage": initial entries */
  size_t nstorage;
  scp_ledger_deploy *deploys;  /* per contract: deployer, salt, constructor */
  scp_ledger_account *accounts;   /* "accounts" */
  size_t naccounts;
  scp_ledger_trustline *trustlines;   /* "trustlines" */
  size_t ntrustlines;
  char **asset_names;          /* "assets": names and "native" / "CODE:G..." */
  const char **assets;
  size_t nassets;
  uint8_t (*ids)[32];          /* every contract's id, then every asset's */
  struct scp_snapshot *snapshot;   /* "snapshot": the starting ledger (the
                                      contracts are its Wasm contracts) */
  char **texts;                /* blocks of the argument texts (and XDR) the
                                  scp_args point into */
  size_t ntexts, texts_cap;
  char *text_at;               /* the free part of the last block */
  size_t text_room;
} scp_scenario;

/* Read and check the scenario file at path, read every contract, type
 * every argument.  Errors are one line naming the file and the problem:
 * SCP_ERR_IO (unreadable), SCP_ERR_MALFORMED (not JSON, or not the
 * schema), SCP_ERR_UNSUPPORTED (a key this version cannot honour
 * exactly), SCP_ERR_ARG (a bad argument), SCP_ERR_NOTFOUND (a function
 * the contract's spec does not have), SCP_ERR_NOMEM. */
int scp_scenario_load(const char *path, scp_scenario **out, scp_error *err);

/* The ledger the calls share, set up from s (borrowed: free it before s),
 * with extra asset contracts ("native" / "CODE:G...", borrowed, e.g. the
 * command line's --asset) after the file's own; NULL when out of memory. */
scp_ledger *scp_scenario_ledger(const scp_scenario *s, const char *const *extra, size_t nextra);

/* The options to profile call i (the caller sets the limits it wants);
 * o->session is sess, whose called contract is set (sess->ledger is the
 * caller's, and deploys every contract: o->ledger.contracts is empty). */
void scp_scenario_opts(const scp_scenario *s, size_t i, scp_soroban_opts *o,
                       scp_sor_session *sess);

/* (scenario_use.c) o's arguments for call i of s (set by
 * scp_scenario_opts), as the spec of the code its contract runs now in l
 * types them (after an upgrade, the new code's).  SCP_OK; the error of
 * that spec (err: the function, the code's hash and file, the problem),
 * or SCP_ERR_NOMEM.  The code of a contract that runs none of the
 * scenario's files types nothing: the arguments stay as its own file's
 * spec typed them. */
int scp_scenario_call_args(const scp_scenario *s, size_t i, scp_ledger *l, scp_soroban_opts *o,
                           scp_error *err);

void scp_scenario_free(scp_scenario *s);

/* (scenario_snap.c) "snapshot": the snapshot at snap_path (with "wasm"
 * stand-ins, NULL or an object {"C...": "FILE.wasm"}, paths relative to
 * file) as s's starting ledger: its Wasm contracts as s's contracts
 * (contracts, ncontracts, files, ids allocated), named by their ids, and
 * its ledger info.  Errors name file: those of scp_snapshot_load, or of a
 * stand-in. */
int scp_scenario_snapshot(scp_scenario *s, const char *file, const char *snap_path,
                          const json_t *wasm, scp_error *err);

/* (scenario_snap.c) A call's "contract" (name) that is none of the
 * snapshot scenario s's contracts: SCP_ERR_MALFORMED, the line naming
 * file, where and why (a native stub: the "wasm" stand-in to give). */
/* (scenario_text.c) 64 hex digits (an optional 0x) into out; false
 * when text is not that. */
bool scp_scenario_hex32(const char *text, uint8_t out[32]);

/* (scenario_text.c) An int64 of at least min given as a JSON integer or a
 * decimal string (stroops may pass 2^53); false when v is not that. */
bool scp_scenario_i64(json_t *v, int64_t min, int64_t *out);

/* (scenario_text.c) text "@NAME", NAME one of s's first n contracts:
 * its Wasm's SHA-256 as 64 hex digits in hex and its index in *index.
 * False for any other text. */
bool scp_scenario_code_ref(const scp_scenario *s, size_t n, const char *text, char hex[65],
                           size_t *index);

int scp_scenario_snapshot_missing(const scp_scenario *s, const char *file, const char *where,
                                  const char *name, scp_error *err);

/* (scenario.c) name relative to the folder of base (a new string), NULL
 * when out of memory. */
char *scp_scenario_resolve(const char *base, const char *name);

#endif
