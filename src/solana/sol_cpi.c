/* sol_cpi.c — sol_invoke_signed_c and sol_invoke_signed_rust as agave 4.3
 * runs them (program-runtime cpi.rs and invoke_context.rs, litesvm 1.5.0's
 * features: SIMD-0339's per-byte charges, account data copied, not mapped):
 *
 *   invoke_units (946); the instruction: 34 bytes per account meta and its
 *   data, each / cpi_bytes_per_unit (250); the PDA signers from seeds; the
 *   privilege checks (an account the caller does not have, or a writable or
 *   signer privilege it does not hold, is the runtime's error); the account
 *   infos: 80 bytes each / 250, then per callee account its data length /
 *   250; the caller's changes copied to the accounts; the callee run at
 *   depth + 1 on the remaining meter; its changes copied back into the
 *   caller's memory (lamports, owner, data and its length).
 *
 * Profiled, the callee's profile hangs under the invoke's syscall node as
 * "program:NAME INSTRUCTION" (sol_txprof.h); the syscall node keeps only
 * the invoke's own CU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solana/sol_cpi.h"
#include "solana/sol_builtin.h"
#include "solana/sol_txprof.h"
#include "solana/sol_trunc.h"
#include "solana/scp_sol_tx.h"
#include "sbpf/scp_sbpf.h"

#define INVOKE_UNITS 946u
#define MAX_SIGNERS 16u
#define MAX_SEEDS 16u
#define MAX_INFOS 255u
#define MAX_IX_DATA 10240u
#define META_BYTES 34u
#define INFO_BYTES 80u

typedef struct graft {
  char placeholder[24];
  sol_progframe pf;            /* the callee and what it ran */
  scp_profile *prof;           /* NULL for a builtin: cu on its node */
  uint64_t cu;
} graft;

struct sol_cpi {
  const scp_sol_run_opts *o;
  sol_ctx *c;
  scp_tree *tree;
  uint32_t sys_node;
  size_t *orig_len;            /* each instruction account's length at the start */
  uint8_t (*stack)[32];        /* the program ids on the stack, this one last */
  unsigned nstack;
  graft *g;
  size_t ng, capg;
};

/* one callee account as the caller's memory holds it */
typedef struct caller_acct {
  uint16_t index;              /* in the transaction */
  bool writable;               /* in the callee */
  uint8_t *lamports, *owner, *data, *len_field;
  uint64_t vm_data, orig_len;
} caller_acct;

int sol_cpi_new(const scp_sol_run_opts *o, sol_ctx *c, scp_error *err) {
  struct sol_cpi *x = calloc(1, sizeof *x);
  if (!x || !(x->orig_len = calloc(o->nix + 1, sizeof *x->orig_len))) {
    free(x);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  x->o = o;
  x->c = c;
  x->nstack = o->depth > 1 && o->callers ? o->depth : 1;
  if (!(x->stack = calloc(x->nstack, 32))) {
    free(x->orig_len);
    free(x);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (x->nstack > 1) memcpy(x->stack, o->callers, 32u * (x->nstack - 1));
  memcpy(x->stack[x->nstack - 1], o->program_id, 32);
  for (size_t i = 0; i < o->nix; i++) x->orig_len[i] = o->accts[o->ix[i].index].len;
  c->cpi = x;
  return SCP_OK;
}

void sol_cpi_free(struct sol_cpi *x) {
  if (!x) return;
  for (size_t i = 0; i < x->ng; i++) scp_profile_destroy(x->g[i].prof);
  free(x->g);
  free(x->orig_len);
  free(x->stack);
  free(x);
}

void sol_cpi_at(struct sol_cpi *x, scp_tree *t, uint32_t node) {
  if (!x) return;
  x->tree = t;
  x->sys_node = node;
}

int sol_cpi_frame(struct sol_cpi *x, const scp_tree_node *n, scp_frame_info *out) {
  if (!x || n->callee > x->ng) {
    out->name = "program:?";
  } else {
    out->name = x->g[n->callee - 1].placeholder;
  }
  out->source = SCP_SRC_HOST;
  return SCP_OK;
}

/* ---- errors ---- */

/* An InstructionError out of the syscall: the caller fails with it. */
static int ierr_fail(sol_ctx *c, scp_error *err, scp_sol_ierr_kind k) {
  char text[200];
  c->ierr = (scp_sol_ierr){.kind = k, .custom = 0};
  scp_sol_ierr_text(c->ierr, text, sizeof text);
  return scp_fail(err, SCP_ERR_TRAP, "%s", text);
}

static int charge(sol_ctx *c, const sol_io *io, uint64_t n, scp_error *err) {
  return sol_charge(c, io, n, err);
}

/* ---- the caller's instruction, translated ---- */

typedef struct cpi_ix {
  uint8_t program[32];
  size_t n;
  uint8_t (*keys)[32];
  bool *signer, *writable;
  uint8_t *data;
  size_t len;
  uint8_t pda[MAX_SIGNERS][32];
  size_t npda;
} cpi_ix;

static void cpi_ix_free(cpi_ix *ix) {
  free(ix->keys);
  free(ix->signer);
  free(ix->writable);
  free(ix->data);
}

static int ix_alloc(cpi_ix *ix, uint64_t n, uint64_t len, scp_error *err) {
  ix->n = (size_t)n;
  ix->len = (size_t)len;
  ix->keys = calloc(n + 1, 32);
  ix->signer = calloc(n + 1, 1);
  ix->writable = calloc(n + 1, 1);
  ix->data = malloc(len + 1);
  if (!ix->keys || !ix->signer || !ix->writable || !ix->data)
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  return SCP_OK;
}

static int size_check(uint64_t n, uint64_t len, scp_error *err) {
  if (n > SCP_SOL_MAX_IX_ACCOUNTS)
    return scp_fail(err, SCP_ERR_TRAP, "Invoked an instruction with too many accounts (%llu > 255)",
                    (unsigned long long)n);
  if (len > MAX_IX_DATA)
    return scp_fail(err, SCP_ERR_TRAP, "Invoked an instruction with data that is too large (%llu > %u)",
                    (unsigned long long)len, MAX_IX_DATA);
  return SCP_OK;
}

/* SolInstruction {program_id_addr, accounts_addr, accounts_len, data_addr,
 * data_len}; SolAccountMeta {pubkey_addr, is_writable, is_signer}. */
static int ix_c(sol_ctx *c, const sol_io *io, uint64_t va, cpi_ix *ix, scp_error *err) {
  uint8_t *h, *pid, *metas, *data;
  int rc = sol_map(c, io, va, 1, 40, 8, false, &h, err);
  if (rc) return rc;
  uint64_t n = sol_le64(h + 16), len = sol_le64(h + 32);
  if ((rc = sol_map(c, io, sol_le64(h), 1, 32, 1, false, &pid, err)) ||
      (rc = sol_map(c, io, sol_le64(h + 8), n, 16, 8, false, &metas, err)) ||
      (rc = sol_map(c, io, sol_le64(h + 24), len, 1, 1, false, &data, err)) ||
      (rc = size_check(n, len, err)) || (rc = charge(c, io, n * META_BYTES / SOL_CPI_BYTES_PER_UNIT, err)) ||
      (rc = charge(c, io, len / SOL_CPI_BYTES_PER_UNIT, err)) || (rc = ix_alloc(ix, n, len, err)))
    return rc;
  memcpy(ix->program, pid, 32);
  if (len) memcpy(ix->data, data, len);
  for (uint64_t i = 0; i < n; i++) {
    const uint8_t *m = metas + 16 * i;
    if (m[8] > 1 || m[9] > 1) return ierr_fail(c, err, SCP_SOL_IERR_INVALID_ARGUMENT);
    uint8_t *key;
    if ((rc = sol_map(c, io, sol_le64(m), 1, 32, 1, false, &key, err))) return rc;
    memcpy(ix->keys[i], key, 32);
    ix->writable[i] = m[8];
    ix->signer[i] = m[9];
  }
  return SCP_OK;
}

/* StableInstruction {accounts: (ptr, cap, len), data: (ptr, cap, len),
 * program_id}; AccountMeta {pubkey, is_signer, is_writable}: 34 bytes. */
static int ix_rust(sol_ctx *c, const sol_io *io, uint64_t va, cpi_ix *ix, scp_error *err) {
  uint8_t *h, *metas, *data;
  int rc = sol_map(c, io, va, 1, 80, 8, false, &h, err);
  if (rc) return rc;
  uint64_t n = sol_le64(h + 16), len = sol_le64(h + 40);
  if ((rc = sol_map(c, io, sol_le64(h), n, 34, 1, false, &metas, err)) ||
      (rc = sol_map(c, io, sol_le64(h + 24), len, 1, 1, false, &data, err)) ||
      (rc = size_check(n, len, err)) || (rc = charge(c, io, n * META_BYTES / SOL_CPI_BYTES_PER_UNIT, err)) ||
      (rc = charge(c, io, len / SOL_CPI_BYTES_PER_UNIT, err)) || (rc = ix_alloc(ix, n, len, err)))
    return rc;
  memcpy(ix->program, h + 48, 32);
  if (len) memcpy(ix->data, data, len);
  for (uint64_t i = 0; i < n; i++) {
    const uint8_t *m = metas + 34 * i;
    if (m[32] > 1 || m[33] > 1) return ierr_fail(c, err, SCP_SOL_IERR_INVALID_ARGUMENT);
    memcpy(ix->keys[i], m, 32);
    ix->signer[i] = m[32];
    ix->writable[i] = m[33];
  }
  return SCP_OK;
}

/* Signer seeds: n (addr, len) pairs of seed lists of (addr, len) pairs, in
 * both ABIs; each list's PDA of the caller's program signs. */
static int signers(sol_ctx *c, const sol_io *io, uint64_t va, uint64_t n, cpi_ix *ix, scp_error *err) {
  if (!n) return SCP_OK;
  const uint8_t *lists;
  int rc = sol_map_slices(c, io, va, n, &lists, err);
  if (rc) return rc;
  if (n > MAX_SIGNERS) return scp_fail(err, SCP_ERR_TRAP, "Too many signers");
  for (uint64_t s = 0; s < n; s++) {
    const uint8_t *seeds;
    uint64_t ns = sol_le64(lists + 16 * s + 8);
    if ((rc = sol_map_slices(c, io, sol_le64(lists + 16 * s), ns, &seeds, err))) return rc;
    if (ns > MAX_SEEDS) return ierr_fail(c, err, SCP_SOL_IERR_MAX_SEED_LENGTH_EXCEEDED);
    const uint8_t *parts[MAX_SEEDS];
    size_t lens[MAX_SEEDS];
    for (uint64_t k = 0; k < ns; k++) {
      uint8_t *p;
      lens[k] = (size_t)sol_le64(seeds + 16 * k + 8);
      if ((rc = sol_map(c, io, sol_le64(seeds + 16 * k), lens[k], 1, 1, false, &p, err))) return rc;
      parts[k] = p;
    }
    scp_sol_ierr_kind why = SCP_SOL_IERR_INVALID_SEEDS;
    if (!sol_create_pda(parts, lens, (size_t)ns, c->program_id, ix->pda[ix->npda], &why))
      return scp_fail(err, SCP_ERR_TRAP, "Could not create program address with signer seeds: %s",
                      why == SCP_SOL_IERR_MAX_SEED_LENGTH_EXCEEDED
                          ? "Length of the seed is too long for address generation"
                          : "Provided seeds do not result in a valid address");
    ix->npda++;
  }
  return SCP_OK;
}

/* check_authorized_program: no CPI into the loaders (but the upgradeable
 * loader's upgrade, set_authority, close and set_authority_checked) or the
 * precompiles. */
static int authorized(sol_ctx *c, const cpi_ix *ix, scp_error *err) {
  static const char *const DENY[] = {
      "NativeLoader1111111111111111111111111111111", "BPFLoader1111111111111111111111111111111111",
      "BPFLoader2111111111111111111111111111111111", "Ed25519SigVerify111111111111111111111111111",
      "KeccakSecp256k11111111111111111111111111111", "Secp256r1SigVerify1111111111111111111111111"};
  char k[SCP_SOL_B58_KEY_MAX];
  uint8_t id[32];
  scp_sol_key_str(ix->program, k);
  bool deny = false;
  for (size_t i = 0; i < sizeof DENY / sizeof *DENY; i++)
    deny |= scp_sol_key_parse(DENY[i], strlen(DENY[i]), id) && !memcmp(id, ix->program, 32);
  if (scp_sol_key_parse("BPFLoaderUpgradeab1e11111111111111111111111", 43, id) && !memcmp(id, ix->program, 32)) {
    uint8_t tag = ix->len ? ix->data[0] : 0xff;
    if (tag != 3 && tag != 4 && tag != 5 && tag != 7) deny = true;
    else return scp_fail(err, SCP_ERR_UNSUPPORTED, "CPI into the upgradeable loader is not implemented by scprof");
  }
  if (deny) return scp_fail(err, SCP_ERR_TRAP, "Program %s not supported by inner instructions", k);
  (void)c;
  return SCP_OK;
}

/* ---- privileges (InvokeContext::prepare_next_instruction) ---- */

/* The caller's instruction account with this key, or -1. */
static long caller_index(const struct sol_cpi *x, const uint8_t key[32]) {
  for (size_t i = 0; i < x->o->nix; i++)
    if (!memcmp(x->o->accts[x->o->ix[i].index].key, key, 32)) return (long)i;
  return -1;
}

static bool is_pda_signer(const cpi_ix *ix, const uint8_t key[32]) {
  for (size_t i = 0; i < ix->npda; i++)
    if (!memcmp(ix->pda[i], key, 32)) return true;
  return false;
}

/* Merge duplicates (first occurrence keeps the union of the flags) and
 * check each account against the caller's privileges. */
static int privileges(struct sol_cpi *x, cpi_ix *ix, long *at, scp_error *err) {
  sol_ctx *c = x->c;
  char k[SCP_SOL_B58_KEY_MAX];
  for (size_t i = 0; i < ix->n; i++) {
    at[i] = caller_index(x, ix->keys[i]);
    if (at[i] < 0) {
      scp_sol_key_str(ix->keys[i], k);
      sol_log(c, "Instruction references an unknown account %s", k);
      return ierr_fail(c, err, SCP_SOL_IERR_MISSING_ACCOUNT);
    }
    for (size_t j = 0; j < i; j++)
      if (at[j] == at[i]) {
        ix->signer[j] |= ix->signer[i];
        ix->writable[j] |= ix->writable[i];
      }
  }
  for (size_t i = 0; i < ix->n; i++) {
    bool dup = false;
    for (size_t j = 0; j < i; j++) dup |= at[j] == at[i];
    if (dup) continue;
    const scp_sol_ixacct *ca = &x->o->ix[at[i]];
    scp_sol_key_str(ix->keys[i], k);
    if (ix->writable[i] && !ca->writable) {
      sol_log(c, "%s's writable privilege escalated", k);
      return ierr_fail(c, err, SCP_SOL_IERR_PRIVILEGE_ESCALATION);
    }
    if (ix->signer[i] && !(ca->signer || is_pda_signer(ix, ix->keys[i]))) {
      sol_log(c, "%s's signer privilege escalated", k);
      return ierr_fail(c, err, SCP_SOL_IERR_PRIVILEGE_ESCALATION);
    }
  }
  for (size_t i = 0; i < ix->n; i++)
    for (size_t j = 0; j < i; j++)
      if (at[j] == at[i]) ix->signer[i] = ix->signer[j], ix->writable[i] = ix->writable[j];
  if (caller_index(x, ix->program) < 0) {
    scp_sol_key_str(ix->program, k);
    sol_log(c, "Unknown program %s", k);
    return ierr_fail(c, err, SCP_SOL_IERR_MISSING_ACCOUNT);
  }
  return SCP_OK;
}

/* ---- account infos ---- */

/* SolAccountInfo: key, lamports, data_len, data, owner addresses, rent
 * epoch, 3 flags: 56 bytes.  AccountInfo (Rust): key, Rc<RefCell<&mut
 * u64>>, Rc<RefCell<&mut [u8]>>, owner, rent epoch, 3 flags: 48 bytes; the
 * RefCell's value sits 24 bytes into the Rc box. */
static int one_info(sol_ctx *c, const sol_io *io, bool rust, uint64_t va, const uint8_t *info,
                    caller_acct *ca, scp_error *err) {
  uint64_t lam_va, data_va, len_va, owner_va, len;
  int rc;
  if (rust) {
    uint8_t *cell;
    if ((rc = sol_map(c, io, sol_le64(info + 8) + 24, 1, 8, 8, false, &cell, err))) return rc;
    lam_va = sol_le64(cell);
    if ((rc = sol_map(c, io, sol_le64(info + 16) + 24, 1, 16, 8, false, &cell, err))) return rc;
    data_va = sol_le64(cell);
    len = sol_le64(cell + 8);
    len_va = sol_le64(info + 16) + 32;
    owner_va = sol_le64(info + 24);
  } else {
    lam_va = sol_le64(info + 8);
    len = sol_le64(info + 16);
    data_va = sol_le64(info + 24);
    owner_va = sol_le64(info + 32);
    len_va = va + 16;
  }
  if ((rc = sol_map(c, io, lam_va, 1, 8, 8, true, &ca->lamports, err)) ||
      (rc = sol_map(c, io, owner_va, 1, 32, 1, true, &ca->owner, err)) ||
      (rc = charge(c, io, len / SOL_CPI_BYTES_PER_UNIT, err)))
    return rc;
  if ((rc = sol_map(c, io, data_va, len, 1, 1, true, &ca->data, err)) ||
      (rc = sol_map(c, io, len_va, 1, 8, 1, true, &ca->len_field, err)))
    return rc;
  ca->vm_data = data_va;
  return SCP_OK;
}

static int infos(struct sol_cpi *x, const sol_io *io, bool rust, uint64_t va, uint64_t n, const cpi_ix *ix,
                 const long *at, caller_acct *out, size_t *nout, scp_error *err) {
  sol_ctx *c = x->c;
  size_t size = rust ? 48 : 56;
  uint8_t *arr;
  int rc = sol_map(c, io, va, n, size, 8, false, &arr, err);
  if (rc) return rc;
  if (n > MAX_INFOS)
    return scp_fail(err, SCP_ERR_TRAP, "Invoked an instruction with too many account info's (%llu > %u)",
                    (unsigned long long)n, MAX_INFOS);
  if ((rc = charge(c, io, n * INFO_BYTES / SOL_CPI_BYTES_PER_UNIT, err))) return rc;
  const uint8_t **keys = calloc(n + 1, sizeof *keys);
  if (!keys) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (uint64_t i = 0; i < n && !rc; i++) {
    uint8_t *k;
    rc = sol_map(c, io, sol_le64(arr + size * i), 1, 32, 1, false, &k, err);
    keys[i] = k;
  }
  *nout = 0;
  for (size_t i = 0; i < ix->n && !rc; i++) {
    bool dup = false;
    for (size_t j = 0; j < i; j++) dup |= at[j] == at[i];
    if (dup) continue;
    const scp_sol_account *a = &x->o->accts[x->o->ix[at[i]].index];
    if (a->executable) {
      rc = charge(c, io, a->len / SOL_CPI_BYTES_PER_UNIT, err);
      continue;
    }
    uint64_t f = 0;
    while (f < n && memcmp(keys[f], a->key, 32)) f++;
    if (f == n) {
      char k[SCP_SOL_B58_KEY_MAX];
      scp_sol_key_str(a->key, k);
      sol_log(c, "Instruction references an unknown account %s", k);
      rc = ierr_fail(c, err, SCP_SOL_IERR_MISSING_ACCOUNT);
      break;
    }
    caller_acct *ca = &out[(*nout)++];
    memset(ca, 0, sizeof *ca);
    ca->index = x->o->ix[at[i]].index;
    ca->writable = ix->writable[i];
    ca->orig_len = x->orig_len[at[i]];
    rc = one_info(c, io, rust, va + size * f, arr + size * f, ca, err);
  }
  free(keys);
  return rc;
}

/* ---- account changes across the boundary ---- */

/* update_callee_account: what the caller changed before the call reaches
 * the account, under BorrowedAccount's rules for the caller's program. */
static int to_callee(struct sol_cpi *x, const caller_acct *ca, scp_error *err) {
  sol_ctx *c = x->c;
  scp_sol_account *a = &x->o->accts[ca->index];
  bool writable = false, owned = !memcmp(a->owner, c->program_id, 32);
  for (size_t i = 0; i < x->o->nix; i++)
    if (x->o->ix[i].index == ca->index) writable |= x->o->ix[i].writable;
  uint64_t lam = sol_le64(ca->lamports), len = sol_le64(ca->len_field);
  if (lam != a->lamports) {
    if (!owned && lam < a->lamports) return ierr_fail(c, err, SCP_SOL_IERR_EXTERNAL_ACCOUNT_LAMPORT_SPEND);
    if (!writable) return ierr_fail(c, err, SCP_SOL_IERR_READONLY_LAMPORT_CHANGE);
    if (a->executable) return ierr_fail(c, err, SCP_SOL_IERR_EXECUTABLE_LAMPORT_CHANGE);
    a->lamports = lam;
  }
  bool changeable = !a->executable && writable && owned;
  if (len != a->len) {
    if (len > ca->orig_len + SCP_SOL_MAX_PERMITTED_DATA_INCREASE)
      return ierr_fail(c, err, SCP_SOL_IERR_INVALID_REALLOC);
    if (!owned) return ierr_fail(c, err, SCP_SOL_IERR_ACCOUNT_DATA_SIZE_CHANGED);
    if (!changeable)
      return ierr_fail(c, err, writable ? SCP_SOL_IERR_EXECUTABLE_DATA_MODIFIED : SCP_SOL_IERR_READONLY_DATA_MODIFIED);
    uint8_t *d = realloc(a->data, len ? len : 1);
    if (!d) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    if (len > a->len) memset(d + a->len, 0, len - a->len);
    a->data = d;
    a->len = (size_t)len;
  }
  if (changeable && a->len) memcpy(a->data, ca->data, a->len);
  if (memcmp(ca->owner, a->owner, 32)) {
    bool zeroed = true;
    for (size_t i = 0; i < a->len; i++) zeroed &= !a->data[i];
    if (!owned || !writable || a->executable || !zeroed)
      return ierr_fail(c, err, SCP_SOL_IERR_MODIFIED_PROGRAM_ID);
    memcpy(a->owner, ca->owner, 32);
  }
  return SCP_OK;
}

/* update_caller_account: the callee's changes into the caller's memory. */
static int to_caller(struct sol_cpi *x, const sol_io *io, caller_acct *ca, scp_error *err) {
  sol_ctx *c = x->c;
  const scp_sol_account *a = &x->o->accts[ca->index];
  sol_put_le64(ca->lamports, a->lamports);
  memcpy(ca->owner, a->owner, 32);
  uint64_t prev = sol_le64(ca->len_field), post = a->len;
  if (post > ca->orig_len + SCP_SOL_MAX_PERMITTED_DATA_INCREASE) {
    sol_log(c, "Account data size realloc limited to %u in inner instructions",
            SCP_SOL_MAX_PERMITTED_DATA_INCREASE);
    return ierr_fail(c, err, SCP_SOL_IERR_INVALID_REALLOC);
  }
  if (prev != post) {
    if (post < prev) memset(ca->data + post, 0, prev - post);
    int rc = sol_map(c, io, ca->vm_data, post, 1, 1, true, &ca->data, err);
    uint8_t *slen;
    if (!rc) rc = sol_map(c, io, ca->vm_data - 8, 1, 8, 8, true, &slen, err);
    if (rc) return rc;
    sol_put_le64(ca->len_field, post);
    sol_put_le64(slen, post);
  }
  if (post) memcpy(ca->data, a->data, post);
  return SCP_OK;
}

/* ---- the callee ---- */

static int add_graft(struct sol_cpi *x, const sol_progframe *pf, scp_profile *prof, uint64_t cu, scp_error *err) {
  if (!x->tree) {
    scp_profile_destroy(prof);
    return SCP_OK;
  }
  if (!scp_grow(&x->g, &x->capg, x->ng + 1, sizeof *x->g)) goto oom;
  graft *g = &x->g[x->ng];
  memset(g, 0, sizeof *g);
  g->pf = *pf;
  snprintf(g->placeholder, sizeof g->placeholder, "[cpi #%zu]", x->ng);
  g->prof = prof;
  g->cu = cu;
  x->ng++;
  /* under the invoke's own node even past the node budget: the graft
   * finds the syscall node that was charged the callee's CU as its parent */
  if (scp_tree_enter_child(x->tree, x->sys_node, 0, SCP_KIND_CONTRACT, 0, (uint32_t)x->ng) == SCP_NODE_NONE)
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  return SCP_OK;
oom:
  scp_profile_destroy(prof);
  return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
}

static int run_system(struct sol_cpi *x, const sol_io *io, const scp_sol_ixacct *ixa, const cpi_ix *ix,
                      scp_error *err) {
  sol_ctx *c = x->c;
  char key[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(ix->program, key);
  sol_log(c, "Program %s invoke [%u]", key, c->stack_height + 1);
  int rc = io->consume(io->vm, SCP_SOL_BUILTIN_CU);
  if (rc == SCP_ERR_BUDGET) {
    sol_log(c, "Program %s failed: Computational budget exceeded", key);
    return ierr_fail(c, err, SCP_SOL_IERR_COMPUTATIONAL_BUDGET_EXCEEDED);
  }
  /* InvokeContext::process_executable_chain clears the return data for
   * every program it runs, builtins included: after a System CPI the
   * caller reads none */
  memcpy(c->return_program, scp_sol_system_id, 32);
  c->return_len = 0;
  uint8_t bh[32];
  if (x->o->blockhash) memcpy(bh, x->o->blockhash, 32);
  else scp_sol_blockhash_genesis(bh);
  sol_logs logs = {0};
  scp_sol_ierr e = {0};
  sol_bi b = {.accts = x->o->accts, .ix = ixa, .nix = ix->n, .data = ix->data, .len = ix->len, .logs = &logs,
              .blockhash = bh};
  rc = sol_system_exec(&b, &e, err);
  for (size_t i = 0; i < logs.n; i++) sol_log(c, "%s", logs.v[i]);
  sol_logs_free(&logs);
  if (rc) return rc;
  sol_progframe pf;
  sol_progframe_of(&pf, scp_sol_system_id, NULL, ix->data, ix->len, x->o->idls);
  if (!rc) rc = add_graft(x, &pf, NULL, SCP_SOL_BUILTIN_CU, err);
  if (rc) return rc;
  if (e.kind) {
    char why[200];
    scp_sol_ierr_text(e, why, sizeof why);
    sol_log(c, "Program %s failed: %s", key, why);
    c->ierr = e;
    return scp_fail(err, SCP_ERR_TRAP, "%s", why);
  }
  sol_log(c, "Program %s success", key);
  return SCP_OK;
}

static int run_program(struct sol_cpi *x, const sol_io *io, const scp_sol_ixacct *ixa, const cpi_ix *ix,
                       scp_error *err) {
  sol_ctx *c = x->c;
  const scp_sol_run_opts *o = x->o;
  const struct scp_sol_tx_prog *p = NULL;
  for (size_t i = 0; i < o->nprogs && !p; i++)
    if (!memcmp(o->progs[i].id, ix->program, 32)) p = &o->progs[i];
  if (!p) {
    char key[SCP_SOL_B58_KEY_MAX];
    scp_sol_key_str(ix->program, key);
    return scp_fail(err, SCP_ERR_UNSUPPORTED, "CPI into %s: no such program loaded", key);
  }
  uint64_t left = io->remaining(io->vm);
  if (!left) return ierr_fail(c, err, SCP_SOL_IERR_COMPUTATIONAL_BUDGET_EXCEEDED);
  scp_sol_run_opts ro = {.elf = p->elf, .elf_len = p->len, .name = p->name, .path = p->path, .program_id = {0},
                         .loader = p->loader, .accts = o->accts, .naccts = o->naccts, .ix = ixa, .nix = ix->n,
                         .data = ix->data, .len = ix->len, .cu_limit = left, .heap_size = o->heap_size, .profile = x->tree != NULL, .progs = o->progs, .nprogs = o->nprogs,
                         .depth = c->stack_height + 1, .callers = (const uint8_t(*)[32])x->stack, .shape = o->shape, .blockhash = o->blockhash,
                         .sysvars = c->sysvars, .features = c->features, .cache = o->cache, .idls = o->idls};
  memcpy(ro.program_id, p->id, 32);
  scp_sol_result r;
  int rc = scp_sol_run(&ro, &r, err);
  if (rc) return rc;
  for (size_t i = 0; i < r.nlogs; i++) sol_log(c, "%s", r.logs[i]);
  /* the callee's own CPIs follow its record in the trace */
  for (size_t i = 0; i < r.ninner; i++)
    if (scp_grow(&c->inner.v, &c->inner.cap, c->inner.n + 1, sizeof *c->inner.v)) {
      c->inner.v[c->inner.n++] = r.inner[i];
      r.inner[i] = NULL;
    } else {
      c->inner.oom = true;
    }
  memcpy(c->return_program, r.return_program, 32);
  memcpy(c->return_data, r.return_data, r.return_len);
  c->return_len = r.return_len;
  rc = io->consume(io->vm, r.cu);
  scp_sol_ierr e = r.ierr;
  c->callee_out_of_cu |= r.out_of_cu;
  uint64_t cu = r.cu;
  scp_profile *prof = r.profile;
  r.profile = NULL;
  scp_sol_result_free(&r);
  sol_progframe pf;
  sol_progframe_of(&pf, p->id, p->name, ix->data, ix->len, o->idls);
  int grc = add_graft(x, &pf, prof, cu, err);
  if (grc) return grc;
  if (e.kind) {
    char why[200];
    scp_sol_ierr_text(e, why, sizeof why);
    c->ierr = e;
    return scp_fail(err, SCP_ERR_TRAP, "%s", why);
  }
  if (rc == SCP_ERR_BUDGET) return ierr_fail(c, err, SCP_SOL_IERR_COMPUTATIONAL_BUDGET_EXCEEDED);
  return SCP_OK;
}

/* The instruction trace's record of the CPI: TransactionContext::push
 * adds it to the trace before it checks the depth, so a CPI refused for
 * CallDepth leaves one and one refused earlier (privileges, reentrancy,
 * which InvokeContext::push checks first) none. */
static int record(struct sol_cpi *x, const cpi_ix *ix, const scp_sol_ixacct *ixa, scp_error *err) {
  unsigned *idx = calloc(ix->n + 1, sizeof *idx);
  if (!idx) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < ix->n; i++) idx[i] = ixa[i].index;
  long prog = -1;
  for (size_t i = 0; i < x->o->naccts && prog < 0; i++)
    if (!memcmp(x->o->accts[i].key, ix->program, 32)) prog = (long)i;
  sol_inner in = {.top = -1, .height = x->c->stack_height + 1, .program = prog, .accts = idx, .naccts = ix->n,
                  .data = ix->data, .len = ix->len};
  int rc = sol_inner_add(&x->c->inner, &in);
  free(idx);
  return rc ? scp_fail(err, rc, "out of memory") : SCP_OK;
}

static int invoke(sol_ctx *c, const sol_io *io, const uint64_t a[5], bool rust, scp_error *err) {
  struct sol_cpi *x = c->cpi;
  if (!x) return scp_fail(err, SCP_ERR_UNSUPPORTED, "cross-program invocation is not available here");
  cpi_ix ix = {0};
  long *at = NULL;
  caller_acct *ca = NULL;
  scp_sol_ixacct *ixa = NULL;
  size_t nca = 0;
  int rc = charge(c, io, INVOKE_UNITS, err);
  if (!rc) rc = rust ? ix_rust(c, io, a[0], &ix, err) : ix_c(c, io, a[0], &ix, err);
  if (!rc) rc = signers(c, io, a[3], a[4], &ix, err);
  if (!rc) rc = authorized(c, &ix, err);
  if (rc) goto done;
  at = calloc(ix.n + 1, sizeof *at);
  ca = calloc(ix.n + 1, sizeof *ca);
  ixa = calloc(ix.n + 1, sizeof *ixa);
  if (!at || !ca || !ixa) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  if ((rc = privileges(x, &ix, at, err))) goto done;
  if ((rc = infos(x, io, rust, a[1], a[2], &ix, at, ca, &nca, err))) goto done;
  for (size_t i = 0; i < nca && !rc; i++) rc = to_callee(x, &ca[i], err);
  if (rc) goto done;
  /* InvokeContext::push: a program already on the stack may only invoke
   * itself directly */
  bool below = false;
  for (unsigned i = 0; i + 1 < x->nstack; i++) below |= !memcmp(x->stack[i], ix.program, 32);
  if (below && memcmp(x->stack[x->nstack - 1], ix.program, 32)) {
    rc = ierr_fail(c, err, SCP_SOL_IERR_REENTRANCY_NOT_ALLOWED);
    goto done;
  }
  for (size_t i = 0; i < ix.n; i++)
    ixa[i] = (scp_sol_ixacct){.index = x->o->ix[at[i]].index, .signer = ix.signer[i], .writable = ix.writable[i]};
  if ((rc = record(x, &ix, ixa, err))) goto done;
  /* max_instruction_stack_depth: 5, 9 under SIMD-0268 */
  if (c->stack_height >= (scp_sol_feature_on(c->features, SCP_SOL_F_CPI_NESTING_8) ? 9u : 5u)) {
    rc = ierr_fail(c, err, SCP_SOL_IERR_CALL_DEPTH);
    goto done;
  }
  rc = !memcmp(ix.program, scp_sol_system_id, 32) ? run_system(x, io, ixa, &ix, err)
                                                   : run_program(x, io, ixa, &ix, err);
  for (size_t i = 0; i < nca && !rc; i++)
    if (ca[i].writable) rc = to_caller(x, io, &ca[i], err);
done:
  cpi_ix_free(&ix);
  free(at);
  free(ca);
  free(ixa);
  return rc;
}

int sol_sys_invoke_c(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  *r0 = 0;
  return invoke(c, io, a, false, err);
}

int sol_sys_invoke_rust(sol_ctx *c, const sol_io *io, const uint64_t a[5], uint64_t *r0, scp_error *err) {
  *r0 = 0;
  return invoke(c, io, a, true, err);
}

/* ---- the profile ---- */

int sol_cpi_graft(struct sol_cpi *x, scp_profile *p, scp_error *err) {
  if (!x || !x->ng) return SCP_OK;
  int rc = SCP_OK;
  for (size_t i = 0; i < x->ng && !rc; i++) {
    graft *g = &x->g[i];
    uint32_t id = SCP_NODE_NONE, fr;
    /* the placeholder is printable text, so the profile's text rule
     * (scp_buf_put_safe) leaves it as it is */
    for (size_t n = 0; n < p->nnodes && id == SCP_NODE_NONE; n++)
      if (!strcmp(scp_prof_str(p, p->frames[p->nodes[n].frame].name), g->placeholder)) id = (uint32_t)n;
    if (id == SCP_NODE_NONE) continue;
    if ((rc = sol_txprof_frame(p, &g->pf, &fr))) break;
    p->nodes[id].frame = fr;
    /* the meter charged the callee to the invoke's syscall node */
    scp_prof_node *sys = &p->nodes[p->nodes[id].parent];
    uint64_t left = g->cu;
    if (sys->self[0] < left) {
      rc = SCP_ERR_INTERNAL;
      break;
    }
    sys->self[0] -= left;
    for (uint32_t l = 0; l < sys->nlines && left; l++) {
      uint64_t *cost = &p->lines[sys->lines_first + l].cost[0];
      uint64_t take = *cost < left ? *cost : left;
      *cost -= take;
      left -= take;
    }
    if (g->prof) {
      rc = sol_txprof_merge(p, id, g->prof);
    } else {
      /* a builtin: its CU on its own node, as one line without a source */
      if (!scp_grow(&p->lines, &p->caplines, p->nlines + 1, sizeof *p->lines)) {
        rc = SCP_ERR_NOMEM;
        break;
      }
      scp_prof_line *ln = &p->lines[p->nlines];
      memset(ln, 0, sizeof *ln);
      ln->file = scp_strtab_intern(&p->strs, "");
      ln->cost[0] = g->cu;
      p->nodes[id].self[0] = g->cu;
      p->nodes[id].lines_first = (uint32_t)p->nlines++;
      p->nodes[id].nlines = 1;
    }
  }
  if (!rc) rc = sol_txprof_settle(p);
  if (!rc) rc = sol_trunc_note(p, &x->o->shape);
  if (rc) return scp_fail(err, rc, "profile of the cross-program invocations: %s", scp_strerror(rc));
  return SCP_OK;
}
