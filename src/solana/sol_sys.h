/*
 * sol_sys.h — the syscalls of agave's program runtime v1 (syscalls/src/{lib,logging,mem_ops,sysvar}.rs)
 * and the per-instruction state they read and write.  Private to
 * src/solana.
 *
 * A body sees the VM through sol_io (translate, meter), so the bodies are
 * tested on a plain buffer and run on scp_sbpf_vm unchanged.  Each charges
 * exactly what agave charges, in agave's order relative to its memory
 * translations (a translation that fails after a charge keeps the charge).
 * A body fails with SCP_ERR_TRAP (err: the SyscallError's Display text) or
 * SCP_ERR_BUDGET (the meter ran short: InstructionError
 * ComputationalBudgetExceeded, err "Computational budget exceeded").
 */
#ifndef SOL_SYS_H
#define SOL_SYS_H

#include "solana/scp_sol.h"
#include "solana/scp_sol_sysvar.h"
#include "solana/scp_sol_feature.h"
#include "solana/sol_builtin.h"
#include "util/scp_util.h"

/* Execution costs (SVMTransactionExecutionCost::default, litesvm 1.5.0). */
#define SOL_SYSCALL_BASE      100u
#define SOL_LOG_64_UNITS      100u
#define SOL_LOG_PUBKEY_UNITS  100u
#define SOL_SYSVAR_BASE       100u
#define SOL_MEM_OP_BASE        10u
#define SOL_CPI_BYTES_PER_UNIT 250u
#define SOL_SHA256_BASE        85u
#define SOL_SHA256_BYTE         1u
#define SOL_SHA256_MAX_SLICES 20000u
#define SOL_SECP256K1_RECOVER 25000u
#define SOL_CREATE_PDA_UNITS 1500u
#define SOL_MAX_RETURN_DATA  1024u
#define SOL_LOG_BYTES_LIMIT 10000u   /* LogCollector::default */

typedef struct sol_io {
  void *vm;
  /* scp_sbpf_vm_translate's contract */
  int (*translate)(void *vm, uint64_t va, uint64_t len, bool write, uint8_t **host,
                   scp_error *err);
  uint64_t (*remaining)(void *vm);
  /* consume_checked: saturates; SCP_ERR_BUDGET when it ran short */
  int (*consume)(void *vm, uint64_t amount);
} sol_io;

/* The runtime's state for one instruction. */
typedef struct sol_ctx {
  uint8_t program_id[32];
  bool check_aligned;          /* every loader but the deprecated one */
  uint32_t stack_height;       /* 1 for a top-level instruction */
  const scp_sol_sysvars *sysvars;   /* the sysvar cache (never NULL in a run) */
  const scp_sol_features *features; /* the feature gates; NULL: litesvm's */
  /* logs, as the LogCollector keeps them */
  char **logs;
  size_t nlogs, logs_cap, log_bytes;
  bool log_truncated, log_oom;
  /* return data */
  uint8_t return_program[32];
  uint8_t return_data[SOL_MAX_RETURN_DATA];
  size_t return_len;
  /* the bump allocator of sol_alloc_free_ */
  uint64_t heap_pos, heap_size;
  /* set when a syscall failed with an InstructionError */
  scp_sol_ierr ierr;
  /* a callee invoked by CPI ran out of compute units */
  bool callee_out_of_cu;
  /* cross-program invocation (sol_cpi.c); NULL: sol_invoke_signed_* unsupported */
  struct sol_cpi *cpi;
  /* the CPIs run from here and below, in the order they ran (sol_inner_add
   * lines without their top-level index) */
  sol_logs inner;
} sol_ctx;

/* Append one log line (the collector's byte limit applies; the first line
 * over it becomes "Log truncated"). */
void sol_log(sol_ctx *c, const char *fmt, ...) SCP_PRINTF(2, 3);
void sol_ctx_free(sol_ctx *c);

typedef int (*sol_sys_fn)(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0,
                          scp_error *err);

/* every body, declared from the table */
#define X(name, fn) int fn(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, \
                          scp_error *err);
#include "solana/sol_syscalls.def"
#undef X

typedef struct sol_syscall {
  const char *name;
  sol_sys_fn fn;
} sol_syscall;

/* The syscalls registered with litesvm 1.5.0's feature set, in agave's
 * registration order; *n gets their number. */
const sol_syscall *sol_syscalls(size_t *n);

/* A loader with the syscalls of sol_syscalls() whose bit is set in mask
 * registered (the feature gates decide; sol_run.c).
 * The bodies find the instruction they serve through the VM's hooks
 * context, so one loader, and the programs loaded under it, serve every
 * instruction, transaction and CPI of a session. */
struct scp_sbpf_loader;
int sol_run_loader(struct scp_sbpf_loader **out, uint64_t mask, scp_error *err);

/* ---- helpers the bodies share (sol_sys.c) ---- */
int sol_charge(sol_ctx *c, const sol_io *io, uint64_t amount, scp_error *err);
/* translate_slice/translate_type: len elements of `size` bytes at va,
 * aligned to `align` when c->check_aligned; len 0 gives a NULL host. */
int sol_map(sol_ctx *c, const sol_io *io, uint64_t va, uint64_t len, uint64_t size,
            uint64_t align, bool write, uint8_t **host, scp_error *err);
/* The BLS12-381 curve ids of the curve syscalls (sol_sys_bls.c); a[0] is
 * the curve id, already known to be one of theirs. */
int sol_bls_validate(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err);
int sol_bls_decompress(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err);
int sol_bls_group_op(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err);
int sol_bls_pairing(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err);
/* A VmSlice<u8> array: n (ptr, len) pairs at va. */
int sol_map_slices(sol_ctx *c, const sol_io *io, uint64_t va, uint64_t n,
                   const uint8_t **pairs, scp_error *err);
/* util's little-endian words under the names the bodies use */
static inline uint64_t sol_le64(const uint8_t *p) { return scp_le64(p); }
static inline void sol_put_le64(uint8_t *p, uint64_t v) { scp_put_le64(p, v); }
/* Rust's from_utf8 error, Display'd with the bytes ("{0}: {1:?}") into
 * err; SCP_OK when s is UTF-8. */
int sol_check_utf8(const uint8_t *s, size_t n, const char *prefix, scp_error *err);

/* hashes (sol_hash.c) */
void sol_sha256(const uint8_t *const *parts, const size_t *lens, size_t n, uint8_t out[32]);
void sol_keccak256(const uint8_t *const *parts, const size_t *lens, size_t n, uint8_t out[32]);
/* Pubkey::create_program_address: false when the seeds are too many or too
 * long (*why MaxSeedLengthExceeded) or the hash is on the curve (InvalidSeeds). */
bool sol_create_pda(const uint8_t *const *seeds, const size_t *lens, size_t n,
                    const uint8_t program_id[32], uint8_t out[32], scp_sol_ierr_kind *why);
/* curve25519-dalek's CompressedEdwardsY::decompress().is_some() */
bool sol_is_on_curve(const uint8_t p[32]);

/* alt_bn128 as solana-bn254 3.2.1 (sol_bn254.c): each is false where the
 * library returns an error (the syscall's r0 1), else writes out (G1 64,
 * G2 128 bytes; compressed halves; the pairing's 32-byte 0 or 1).  le: the
 * little-endian encodings (op | 0x80); exact: the pairing's length must be
 * a multiple of 192 (else the whole pairs are taken). */
bool sol_bn_add(const uint8_t *in, size_t len, bool g2, bool le, uint8_t *out);
bool sol_bn_mul(const uint8_t *in, size_t len, bool g2, bool le, uint8_t *out);
bool sol_bn_pairing(const uint8_t *in, size_t len, bool le, bool exact, uint8_t out[32]);
bool sol_bn_compress(const uint8_t *in, size_t len, bool g2, bool le, uint8_t *out);
bool sol_bn_decompress(const uint8_t *in, size_t len, bool g2, bool le, uint8_t *out);

#endif
