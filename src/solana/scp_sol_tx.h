/*
 * scp_sol_tx.h — a Solana transaction: several instructions on one set of
 * accounts, run in order against one compute meter, as agave's SVM runs a
 * legacy transaction (litesvm 1.5.0 is the oracle).
 *
 * Before anything runs, the compute budget instructions are read as the
 * runtime reads them (compute-budget-instruction): SetComputeUnitLimit,
 * RequestHeapFrame, SetComputeUnitPrice, SetLoadedAccountsDataSizeLimit, one
 * of each at most (DuplicateInstruction), anything else
 * InvalidInstructionData; without a limit the transaction gets 200,000 CU
 * per instruction of a program that is no builtin and 3,000 per builtin
 * instruction (compute budget instructions included), at most 1,400,000.
 * A bad budget fails the transaction with 0 CU and no logs.
 *
 * Accounts the transaction names but does not give are as litesvm holds
 * them: a program's account, and the RecentBlockhashes (one entry: this
 * blockhash) and Rent sysvars, owned by Sysvar1111... with 1 lamport (a
 * scenario's loader gives the other sysvar accounts from its cache).
 *
 * Then every instruction runs on the remaining meter: an sBPF program
 * through scp_sol_run (its "consumed N of M" line has M = what is left),
 * the System and Compute Budget builtins here at the 150 CU each charges.
 * The first failing instruction stops the transaction; its error is the
 * transaction's, the CU consumed so far are charged, and no account
 * changes.  After the last instruction the rent-state check runs on the
 * writable accounts (a new rent-paying account is InsufficientFundsForRent,
 * the account index counted in the message's order behind the fee payer).
 *
 * Profiled, the tree is root -> "instruction #k" -> "program:NAME" -> the
 * program's frames; a builtin's CU sit on its program node.  The "call
 * tree" and "recursion" notes of the invocations' profiles are the
 * transaction's, each distinct one once.
 */
#ifndef SCP_SOL_TX_H
#define SCP_SOL_TX_H

#include "solana/scp_sol.h"
#include "profile/scp_prof.h"

#define SCP_SOL_TX_MAX_CU 1400000u
#define SCP_SOL_BUILTIN_IX_CU 3000u
#define SCP_SOL_BUILTIN_CU 150u

/* An sBPF program the transaction may call. */
typedef struct scp_sol_tx_prog {
  uint8_t id[32];
  const uint8_t *elf;          /* borrowed */
  size_t len;
  const char *name;            /* the name the input gives (scp_sol_program_name) */
  const char *path;            /* for messages (NULL: name) */
  scp_sol_loader loader;
} scp_sol_tx_prog;

/* One instruction: its program by id, its accounts (indexes into the
 * transaction's accounts; the flags are merged over the message), data. */
typedef struct scp_sol_tx_ix {
  uint8_t program[32];
  const scp_sol_ixacct *accts;
  size_t naccts;
  const uint8_t *data;
  size_t len;
  const char *label;           /* its node is "instruction #k LABEL"; NULL: none */
} scp_sol_tx_ix;

typedef struct scp_sol_tx_opts {
  const scp_sol_tx_prog *progs;
  size_t nprogs;
  scp_sol_account *accts;      /* updated when the transaction succeeds */
  size_t naccts;
  const scp_sol_tx_ix *ixs;
  size_t nixs;
  const char *title;           /* the profile's heading; NULL: "transaction" */
  bool profile;
  /* the message's recent blockhash, which the durable nonce instructions
   * hash; NULL: litesvm's first one (scp_sol_blockhash_genesis) */
  const uint8_t *blockhash;
  /* the sysvar cache its programs read (borrowed); NULL: litesvm's */
  const struct scp_sol_sysvars *sysvars;
  /* the feature gates (borrowed); NULL: litesvm's */
  const struct scp_sol_features *features;
  /* A message read from the wire (scp_sol_wire): accts[0..nmsg) are its
   * accounts in its order, the fee payer first, msg_writable their
   * writable flags and nreq the signatures it requires.  Then the fee is
   * charged as litesvm charges it: 5,000 lamports per signature (those
   * of the Ed25519, Secp256k1 and Secp256r1 instructions included) plus
   * the priority fee, ceil(price x limit / 1,000,000), taken from the fee
   * payer before the instructions run (AccountNotFound,
   * InvalidAccountForFee, InsufficientFundsForFee or the payer's
   * InsufficientFundsForRent fail the transaction with nothing charged),
   * and kept when an instruction fails; the rent-state check counts
   * accounts by their message index.  nmsg 0: a scenario transaction,
   * whose fee payer is outside the accounts and charged nothing. */
  size_t nmsg;
  const bool *msg_writable;
  size_t nreq;
  /* the session's loaded programs (scp_sol_progs.h), shared by every
   * instruction and CPI; NULL: a cache for this transaction alone */
  struct scp_sol_progs *cache;
  /* Anchor IDLs naming instructions (scp_sol_idl.h, borrowed); NULL: none */
  const struct scp_sol_idls *idls;
  /* the node budget and recursion folding of each program invocation's
   * call tree (each instruction's and each CPI's, as one instruction's
   * scp_sol_run_opts.shape); the transaction's own nodes, "instruction #k"
   * and the program frames, are outside it */
  scp_tree_opts shape;
} scp_sol_tx_opts;

typedef struct scp_sol_tx_result {
  uint64_t cu;                 /* computeUnitsConsumed */
  uint64_t cu_limit;
  uint32_t heap;
  uint64_t cu_price;
  uint64_t fee;                /* lamports taken from the fee payer */
  long failed;                 /* the failing instruction's index, -1: none */
  scp_sol_ierr ierr;           /* its error */
  bool out_of_cu;              /* that error is the compute meter running out */
  char txerr[96];              /* a transaction-level error ("" if none or ierr) */
  char **logs;
  size_t nlogs;
  scp_profile *profile;
  /* the CPIs that ran, in order, as an RPC node's meta.innerInstructions
   * records them: "index K stackHeight H programIdIndex P accounts [A,B]
   * data BASE58", K the top-level instruction, P and A indexes into the
   * transaction's accounts */
  char **inner;
  size_t ninner;
} scp_sol_tx_result;

/* Run the transaction.  SCP_OK whether it succeeded or failed (res says
 * which).  Errors: a program does not load (the loader's message),
 * SCP_ERR_ARG (an account index, an unknown program), SCP_ERR_UNSUPPORTED
 * (something scprof does not model), SCP_ERR_INTERNAL (Σ self CU !=
 * consumed CU), SCP_ERR_NOMEM; then *res is empty. */
int scp_sol_tx_run(const scp_sol_tx_opts *o, scp_sol_tx_result *res, scp_error *err);
void scp_sol_tx_result_free(scp_sol_tx_result *res);

/* "Custom(1)" / "MissingRequiredSignature" of instruction k as "k NAME", or
 * the transaction error; "ok" on success. */
void scp_sol_tx_outcome(const scp_sol_tx_result *res, char *buf, size_t cap);

/* litesvm's blockhashes: the first is sha256("genesis"), and each
 * expire_blockhash makes the next the sha256 of the last (tests/oracle/tx.js
 * expires it before every transaction, so its transaction k runs with the
 * k-th next one).  Until the first expiry the RecentBlockhashes sysvar
 * records 0 lamports per signature, afterwards 5,000. */
void scp_sol_blockhash_genesis(uint8_t out[32]);
void scp_sol_blockhash_next(uint8_t hash[32]);

extern const uint8_t scp_sol_system_id[32];
extern const uint8_t scp_sol_compute_budget_id[32];

#endif
