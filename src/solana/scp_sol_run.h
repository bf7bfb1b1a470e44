/*
 * scp_sol_run.h — one instruction of an sBPF program, as agave's BPF loader
 * runs it (programs/bpf_loader execute): log the invoke, serialize the
 * input, charge the heap, run the VM with r1 = the input and r2 = the
 * instruction data, log the CU consumed and any return data, turn r0 or
 * the trap into the instruction's error, deplete the meter on a VM fault
 * (not on a syscall error), read the accounts back with the runtime's
 * checks, and log success or failure.  The transaction is the instruction
 * alone: its CU is what the instruction consumed.
 *
 * Profiled, every CU sits on one node of the tree: guest frames (the
 * engine's per-block counts) under the root "program:NAME", each syscall a
 * "syscall:NAME" node at its call site holding the meter before its body
 * minus after it, the heap charge and a fault's depletion on the program
 * node; Σ self CU == consumed CU is checked before the profile is built.
 */
#ifndef SCP_SOL_RUN_H
#define SCP_SOL_RUN_H

#include "solana/scp_sol.h"
#include "profile/scp_prof.h"

#define SCP_SOL_DEFAULT_CU_LIMIT 200000u

typedef struct scp_sol_run_opts {
  const uint8_t *elf;          /* the program (borrowed) */
  size_t elf_len;
  const char *name;            /* the name the input gives (scp_sol_program_name) */
  const char *path;            /* for messages (NULL: name) */
  uint8_t program_id[32];
  scp_sol_loader loader;       /* the program account's owner: decides the layout */
  scp_sol_account *accts;      /* the transaction's accounts; updated on success */
  size_t naccts;
  const scp_sol_ixacct *ix;    /* the instruction's accounts */
  size_t nix;
  const uint8_t *data;         /* instruction data */
  size_t len;
  uint64_t cu_limit;           /* 0: 200,000 */
  uint32_t heap_size;          /* 0: 32 KiB; a multiple of 1 KiB up to 256 KiB */
  bool profile;                /* build res->profile */
  /* cross-program invocation (sol_cpi.c): the programs a CPI may call
   * besides the builtins, and the invoke depth (0: a top-level instruction) */
  const struct scp_sol_tx_prog *progs;
  size_t nprogs;
  unsigned depth;
  const uint8_t (*callers)[32];  /* the programs below this one, outermost first (depth - 1) */
  scp_tree_opts shape;         /* the profile's node budget and recursion folding */
  /* the transaction's recent blockhash, for the System program's durable
   * nonces under a CPI; NULL: litesvm's first (scp_sol_blockhash_genesis) */
  const uint8_t *blockhash;
  /* the sysvar cache the syscalls read (borrowed); NULL: litesvm's */
  const struct scp_sol_sysvars *sysvars;
  /* the feature gates (borrowed); NULL: litesvm's */
  const struct scp_sol_features *features;
  /* the session's loaded programs (scp_sol_progs.h), shared with the
   * CPIs; NULL: a cache for this instruction alone */
  struct scp_sol_progs *cache;
  /* Anchor IDLs naming instructions (scp_sol_idl.h, borrowed); NULL: none */
  const struct scp_sol_idls *idls;
} scp_sol_run_opts;

typedef struct scp_sol_result {
  uint64_t cu;                 /* computeUnitsConsumed */
  uint64_t cu_limit;
  scp_sol_ierr ierr;           /* SCP_SOL_IERR_NONE: success */
  /* the failure is the compute meter running out (the VM's instruction
   * meter, a syscall's or a callee's charge): exit status and profile
   * status are then "budget exceeded", as for Soroban's Budget */
  bool out_of_cu;
  char **logs;                 /* the runtime's log lines, as litesvm returns them */
  size_t nlogs;
  scp_profile *profile;        /* when profiled */
  char sbpf_version[4];        /* "v0".."v3" */
  /* the return data when the program ended (the caller of a CPI reads it) */
  uint8_t return_program[32];
  uint8_t return_data[1024];
  size_t return_len;
  /* the CPIs it ran, nested ones included, in the order they ran, each
   * as an RPC node records an inner instruction ("stackHeight H
   * programIdIndex P accounts [A,B] data BASE58", indexes into the
   * transaction's accounts) */
  char **inner;
  size_t ninner;
} scp_sol_result;

/* Run the instruction.  SCP_OK whether the instruction succeeded or failed
 * (res->ierr says which; the accounts change only on success).  Errors: the
 * ELF does not load (SCP_ERR_MALFORMED / SCP_ERR_INVALID / SCP_ERR_UNSUPPORTED
 * with the loader's one-line reason naming o->name), SCP_ERR_ARG (a bad
 * option: heap size, account index), SCP_ERR_INTERNAL (the Σ self CU
 * invariant does not hold), SCP_ERR_NOMEM.  On error *res is empty. */
int scp_sol_run(const scp_sol_run_opts *o, scp_sol_result *res, scp_error *err);
/* The same, res->profile's string table beginning with seed's strings
 * (scp_resolver.seed; NULL: none): a transaction's profile's, which can
 * then take the instruction's table whole (sol_txprof_graft_take). */
int scp_sol_run_seeded(const scp_sol_run_opts *o, const scp_strtab *seed, scp_sol_result *res,
                       scp_error *err);
void scp_sol_result_free(scp_sol_result *res);

/* What an ELF is: its sBPF version and functions (the loader's call
 * targets, named by the mapper, else by the loader, else fn_0xADDR), one
 * per line ("sbpf v0\n...function 0x... NAME\n..."), into a malloc'd
 * string.  cache: where the program is loaded and its symbol files are
 * (NULL: a cache for this call alone). */
int scp_sol_list(const uint8_t *elf, size_t len, const char *name, struct scp_sol_progs *cache, char **out,
                 scp_error *err);

#endif
