/* sol_tx.c — a legacy transaction: the compute budget read first, then
 * each instruction on one meter, the rent-state check, all or nothing
 * (the rules are in scp_sol_tx.h). */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_tx.h"
#include "solana/scp_sol_run.h"
#include "solana/scp_sol_state.h"
#include "solana/scp_sol_progs.h"
#include "solana/sol_builtin.h"
#include "solana/sol_txprof.h"
#include "solana/sol_trunc.h"
#include "solana/sol_fee.h"
#include "solana/sol_sys.h"
#include "sbpf/scp_sbpf.h"

const uint8_t scp_sol_system_id[32] = {0};
const uint8_t scp_sol_compute_budget_id[32] = {
    0x03, 0x06, 0x46, 0x6f, 0xe5, 0x21, 0x17, 0x32, 0xff, 0xec, 0xad, 0xba, 0x72, 0xc3, 0x9b, 0xe7,
    0xbc, 0x8c, 0xe5, 0xbb, 0xc5, 0xf7, 0x12, 0x6b, 0x2c, 0x43, 0x9b, 0x3a, 0x40, 0x00, 0x00, 0x00};
/* the other programs the runtime counts as builtins for the default limit */
static const uint8_t LOADER_IDS[4][32] = {
    {0x02, 0xa8, 0xf6, 0x91, 0x4e, 0x88, 0xa1, 0x6b, 0xbd, 0x23, 0x95, 0x85, 0x5f, 0x64, 0x04, 0xd9,
     0xb4, 0xf4, 0x56, 0xb7, 0x82, 0x1b, 0xb0, 0x14, 0x57, 0x49, 0x42, 0x8c},
    {0x02, 0xa8, 0xf6, 0x91, 0x4e, 0x88, 0xa1, 0x6e, 0x39, 0x5a, 0xe1, 0x28, 0x94, 0x8f, 0xfa, 0x69,
     0x56, 0x93, 0x37, 0x68, 0x18, 0xdd, 0x47, 0x43, 0x52, 0x21, 0xf3, 0xc6},
    {0x02, 0xa8, 0xf6, 0x91, 0x4e, 0x88, 0xa1, 0xb0, 0xe2, 0x10, 0x15, 0x3e, 0xf7, 0x63, 0xae, 0x2b,
     0x00, 0xc2, 0xb9, 0x3d, 0x16, 0xc1, 0x24, 0xd2, 0xc0, 0x53, 0x7a, 0x10, 0x04, 0x80},
    {0x07, 0x61, 0x48, 0x1d, 0x35, 0x74, 0x74, 0xbb, 0x7c, 0x4d, 0x76, 0x24, 0xeb, 0xd3, 0xbd, 0xb3,
     0xd8, 0x35, 0x5e, 0x73, 0xd1, 0x10, 0x43, 0xfc, 0x0d, 0xa3, 0x53, 0x80}};

#define RENT_PER_BYTE SCP_SOL_RENT_PER_BYTE
#define ACCOUNT_STORAGE_OVERHEAD SCP_SOL_ACCOUNT_OVERHEAD
/* A transaction's profile with at most this many strings is copied into
 * its next program instruction's table, which it then takes whole (a
 * first instruction's: a handful); past it, copying would cost what
 * interning the instruction's strings does. */
#define SEED_MAX 64

void scp_sol_blockhash_genesis(uint8_t out[32]) {
  /* sha256("genesis"), written out: every transaction starts from it, and
   * hashing it each time was a tenth of an unprofiled transfer's cost
   * (test_sol_tx checks the bytes against SHA-256) */
  static const uint8_t GENESIS[32] = {0xae, 0xeb, 0xad, 0x4a, 0x79, 0x6f, 0xcc, 0x2e, 0x15, 0xdc, 0x4c,
                                      0x60, 0x61, 0xb4, 0x5e, 0xd9, 0xb3, 0x73, 0xf2, 0x6a, 0xdf, 0xc7,
                                      0x98, 0xca, 0x7d, 0x2d, 0x8c, 0xc5, 0x81, 0x82, 0x71, 0x8e};
  memcpy(out, GENESIS, 32);
}

void scp_sol_blockhash_next(uint8_t hash[32]) {
  uint8_t in[32];
  memcpy(in, hash, 32);
  const uint8_t *p = in;
  size_t n = 32;
  sol_sha256(&p, &n, 1, hash);
}

static bool is_builtin(const uint8_t id[32]) {
  if (!memcmp(id, scp_sol_system_id, 32) || !memcmp(id, scp_sol_compute_budget_id, 32)) return true;
  for (size_t i = 0; i < 4; i++)
    if (!memcmp(id, LOADER_IDS[i], 32)) return true;
  return false;
}

typedef struct budget {
  uint64_t limit, price;
  uint32_t heap;
  long bad_ix;             /* InvalidInstructionData at this index, -1 */
  long dup_ix;             /* DuplicateInstruction(index), -1 */
} budget;

/* compute-budget-instruction: borsh enum, trailing bytes ignored */
static void read_budget(const scp_sol_tx_opts *o, budget *b) {
  bool seen[5] = {0};
  uint64_t limit = 0;
  uint32_t heap = SCP_SBPF_HEAP_DEFAULT;
  size_t nbuiltin = 0, nother = 0;
  *b = (budget){.limit = 0, .price = 0, .heap = SCP_SBPF_HEAP_DEFAULT, .bad_ix = -1, .dup_ix = -1};
  for (size_t i = 0; i < o->nixs; i++) {
    const scp_sol_tx_ix *x = &o->ixs[i];
    if (is_builtin(x->program)) nbuiltin++;
    else nother++;
    if (memcmp(x->program, scp_sol_compute_budget_id, 32)) continue;
    static const size_t need[5] = {9, 5, 5, 9, 5};
    uint8_t tag = x->len ? x->data[0] : 0;
    if (!x->len || tag == 0 || tag > 4 || x->len < need[tag]) {
      b->bad_ix = (long)i;
      return;
    }
    if (seen[tag]) {
      b->dup_ix = (long)i;
      return;
    }
    seen[tag] = true;
    if (tag == 1) heap = scp_le32(x->data + 1);
    if (tag == 2) limit = scp_le32(x->data + 1);
    if (tag == 3) b->price = scp_le64(x->data + 1);
    if (tag == 1 && (heap < SCP_SBPF_HEAP_DEFAULT || heap > SCP_SBPF_HEAP_MAX || heap % 1024)) {
      b->bad_ix = (long)i;
      return;
    }
  }
  if (!seen[2]) limit = (uint64_t)nbuiltin * SCP_SOL_BUILTIN_IX_CU + (uint64_t)nother * SCP_SOL_DEFAULT_CU_LIMIT;
  b->limit = limit < SCP_SOL_TX_MAX_CU ? limit : SCP_SOL_TX_MAX_CU;
  b->heap = heap;
}


typedef struct tx_state {
  const scp_sol_tx_opts *o;
  scp_sol_tx_result *res;
  sol_logs logs;
  sol_logs inner;              /* the CPIs, "index K " before each */
  bool *signer, *writable;     /* merged over the message, per account */
  uint64_t meter;
  scp_profile *prof;
  scp_error *err;
  uint8_t blockhash[32];
} tx_state;

static const scp_sol_tx_prog *find_prog(const scp_sol_tx_opts *o, const uint8_t id[32]) {
  for (size_t i = 0; i < o->nprogs; i++)
    if (!memcmp(o->progs[i].id, id, 32)) return &o->progs[i];
  return NULL;
}

static int run_builtin(tx_state *t, size_t k, const scp_sol_ixacct *ix, scp_sol_ierr *ierr) {
  const scp_sol_tx_ix *x = &t->o->ixs[k];
  bool sys = !memcmp(x->program, scp_sol_system_id, 32);
  char key[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(x->program, key);
  sol_logs_add(&t->logs, "Program %s invoke [1]", key);
  uint64_t before = t->meter;
  int rc = SCP_OK;
  *ierr = (scp_sol_ierr){0};
  if (t->meter < SCP_SOL_BUILTIN_CU) {
    t->meter = 0;
    *ierr = (scp_sol_ierr){.kind = SCP_SOL_IERR_COMPUTATIONAL_BUDGET_EXCEEDED, .custom = 0};
  } else {
    t->meter -= SCP_SOL_BUILTIN_CU;
    if (sys) {
      sol_bi b = {.accts = t->o->accts, .ix = ix, .nix = x->naccts, .data = x->data, .len = x->len, .logs = &t->logs,
                  .blockhash = t->blockhash};
      rc = sol_system_exec(&b, ierr, t->err);
    }
  }
  if (rc) return rc;
  if (ierr->kind) {
    char why[600];
    scp_sol_ierr_text(*ierr, why, sizeof why);
    sol_logs_add(&t->logs, "Program %s failed: %s", key, why);
  } else {
    sol_logs_add(&t->logs, "Program %s success", key);
  }
  if (t->prof) {
    uint32_t node;
    sol_progframe pf;
    sol_progframe_of(&pf, x->program, NULL, x->data, x->len, t->o->idls);
    if ((rc = sol_txprof_ix(t->prof, k + 1, x->label, &node)) ||
        (rc = sol_txprof_leaf(t->prof, node, &pf, before - t->meter)))
      return scp_fail(t->err, rc, "out of memory");
  }
  return SCP_OK;
}

static int run_program(tx_state *t, size_t k, const scp_sol_ixacct *ix, const budget *b, scp_sol_ierr *ierr) {
  const scp_sol_tx_ix *x = &t->o->ixs[k];
  const scp_sol_tx_prog *p = find_prog(t->o, x->program);
  char key[SCP_SOL_B58_KEY_MAX];
  if (!p) {
    scp_sol_key_str(x->program, key);
    return scp_fail(t->err, SCP_ERR_ARG, "instruction %zu: no program %s", k + 1, key);
  }
  if (!t->meter)
    return scp_fail(t->err, SCP_ERR_UNSUPPORTED, "instruction %zu: no compute units left to start %s",
                    k + 1, p->name);
  scp_sol_run_opts ro = {.elf = p->elf, .elf_len = p->len, .name = p->name, .path = p->path, .program_id = {0},
                         .loader = p->loader, .accts = t->o->accts, .naccts = t->o->naccts,
                         .ix = ix, .nix = x->naccts, .data = x->data, .len = x->len, .cu_limit = t->meter, .heap_size = b->heap, .profile = t->prof != NULL,
                         .progs = t->o->progs, .nprogs = t->o->nprogs, .depth = 0, .callers = NULL, .shape = t->o->shape, .blockhash = t->blockhash, .sysvars = t->o->sysvars,
                         .features = t->o->features, .cache = t->o->cache, .idls = t->o->idls};
  memcpy(ro.program_id, p->id, 32);
  /* the instruction's node first: then the profile's strings are all
   * there when the instruction's profile starts from them */
  uint32_t node = 0;
  if (t->prof && sol_txprof_ix(t->prof, k + 1, x->label, &node)) return scp_fail(t->err, SCP_ERR_NOMEM, "out of memory");
  const scp_strtab *seed = t->prof && t->prof->strs.n <= SEED_MAX ? &t->prof->strs : NULL;
  scp_sol_result r;
  int rc = scp_sol_run_seeded(&ro, seed, &r, t->err);
  if (rc) return rc;
  for (size_t i = 0; i < r.nlogs; i++) sol_logs_add(&t->logs, "%s", r.logs[i]);
  for (size_t i = 0; i < r.ninner; i++) {
    scp_buf line = {0};
    scp_buf_printf(&line, "index %zu %s", k, r.inner[i]);
    scp_buf_putc(&line, '\0');
    if (line.oom || !scp_grow(&t->inner.v, &t->inner.cap, t->inner.n + 1, sizeof *t->inner.v)) {
      scp_buf_free(&line);
      t->inner.oom = true;
    } else {
      t->inner.v[t->inner.n++] = line.data;
    }
  }
  t->meter -= r.cu <= t->meter ? r.cu : t->meter;
  *ierr = r.ierr;
  t->res->out_of_cu = r.out_of_cu;
  if (t->prof && (rc = sol_txprof_graft_take(t->prof, node, r.profile)))
    rc = scp_fail(t->err, rc, "out of memory");
  scp_sol_result_free(&r);
  return rc;
}

/* RentState transitions (svm rent_calculator): a writable account may not
 * become rent-paying, nor grow or gain lamports while rent-paying. */
static bool rent_ok(const scp_sol_account *pre, const scp_sol_account *post) {
  uint64_t min_post = ((uint64_t)post->len + ACCOUNT_STORAGE_OVERHEAD) * RENT_PER_BYTE;
  if (!post->lamports || post->lamports >= min_post) return true;
  uint64_t min_pre = ((uint64_t)pre->len + ACCOUNT_STORAGE_OVERHEAD) * RENT_PER_BYTE;
  if (!pre->lamports || pre->lamports >= min_pre) return false;
  return pre->len == post->len && post->lamports <= pre->lamports;
}

/* The message's account index of account i: the fee payer first, then
 * writable signers, read-only signers, writable, read-only, each in order
 * of first mention, programs last. */
static size_t message_index(const tx_state *t, const size_t *order, size_t n, size_t acct) {
  size_t at = 1;
  for (int rank = 0; rank < 4; rank++)
    for (size_t i = 0; i < n; i++) {
      size_t a = order[i];
      int r = (t->signer[a] ? 0 : 2) + (t->writable[a] ? 0 : 1);
      if (r != rank) continue;
      if (a == acct) return at;
      at++;
    }
  return at;
}

static void check_rent(tx_state *t, const scp_sol_account *saved) {
  const scp_sol_tx_opts *o = t->o;
  if (o->nmsg) {
    for (size_t i = 0; i < o->nmsg && !t->res->txerr[0]; i++)
      if (o->msg_writable[i] && !rent_ok(&saved[i], &o->accts[i]))
        snprintf(t->res->txerr, sizeof t->res->txerr, "InsufficientFundsForRent { account_index: %zu }", i);
    return;
  }
  size_t *order = calloc(o->naccts ? o->naccts : 1, sizeof *order), n = 0;
  bool *seen = calloc(o->naccts ? o->naccts : 1, 1);
  if (!order || !seen) {
    free(order);
    free(seen);
    t->logs.oom = true;
    return;
  }
  for (size_t k = 0; k < o->nixs; k++)
    for (size_t i = 0; i < o->ixs[k].naccts; i++) {
      size_t a = o->ixs[k].accts[i].index;
      if (!seen[a]) seen[a] = true, order[n++] = a;
    }
  for (size_t i = 0; i < n && !t->res->txerr[0]; i++) {
    size_t a = order[i];
    if (t->writable[a] && !rent_ok(&saved[a], &o->accts[a]))
      snprintf(t->res->txerr, sizeof t->res->txerr, "InsufficientFundsForRent { account_index: %zu }",
               message_index(t, order, n, a));
  }
  free(order);
  free(seen);
}

static int run_all(tx_state *t, const budget *b) {
  const scp_sol_tx_opts *o = t->o;
  int rc = SCP_OK;
  for (size_t k = 0; k < o->nixs && !rc; k++) {
    const scp_sol_tx_ix *x = &o->ixs[k];
    scp_sol_ixacct *ix = calloc(x->naccts ? x->naccts : 1, sizeof *ix);
    if (!ix) return scp_fail(t->err, SCP_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < x->naccts; i++)
      ix[i] = (scp_sol_ixacct){.index = x->accts[i].index, .signer = t->signer[x->accts[i].index],
                               .writable = t->writable[x->accts[i].index]};
    scp_sol_ierr ierr = {0};
    rc = is_builtin(x->program) ? run_builtin(t, k, ix, &ierr) : run_program(t, k, ix, b, &ierr);
    free(ix);
    if (!rc && ierr.kind) {
      t->res->out_of_cu |= ierr.kind == SCP_SOL_IERR_COMPUTATIONAL_BUDGET_EXCEEDED;
      t->res->failed = (long)k;
      t->res->ierr = ierr;
      break;
    }
  }
  return rc;
}

/* A program's account as the chain holds it, for an account the
 * transaction names by a program's id but does not give: builtins are
 * NativeLoader accounts holding their name, loader 1 and 2 programs hold
 * their ELF, an upgradeable program the address of its programdata.
 * Programs read these like any account (their layout moves the input). */
static int set_bytes(scp_sol_account *a, const void *p, size_t n, uint64_t lamports, const char *owner) {
  uint8_t *d = malloc(n ? n : 1);
  if (!d) return SCP_ERR_NOMEM;
  if (n) memcpy(d, p, n);
  free(a->data);
  a->data = d;
  a->len = n;
  a->lamports = lamports;
  a->executable = true;
  scp_sol_key_parse(owner, strlen(owner), a->owner);
  return SCP_OK;
}

static int set_sysvar(scp_sol_account *a, const uint8_t *d, size_t n) {
  int rc = set_bytes(a, d, n, 1, "Sysvar1111111111111111111111111111111111111");
  a->executable = false;
  return rc;
}

/* The RecentBlockhashes sysvar as litesvm keeps it: one entry, the
 * blockhash and its lamports per signature (0 for the first blockhash,
 * which no expiry wrote).  It follows the blockhash from one transaction
 * to the next, as litesvm rewrites it at every expiry. */
static int sysvar_account(const uint8_t blockhash[32], bool first, scp_sol_account *a) {
  static const uint8_t zero[32] = {0};
  uint8_t id[32], sysvar[32];
  scp_sol_key_parse("Sysvar1111111111111111111111111111111111111", 43, sysvar);
  bool empty = !a->lamports && !a->len && !a->executable && !memcmp(a->owner, zero, 32);
  scp_sol_key_parse("SysvarRecentB1ockHashes11111111111111111111", 43, id);
  if (!memcmp(a->key, id, 32) && (empty || !memcmp(a->owner, sysvar, 32))) {
    uint8_t d[48] = {1};
    memcpy(d + 8, blockhash, 32);
    uint64_t lps = first ? 0 : SCP_SOL_LAMPORTS_PER_SIGNATURE;
    for (int k = 0; k < 8; k++) d[40 + k] = (uint8_t)(lps >> (8 * k));
    return set_sysvar(a, d, sizeof d);
  }
  /* Rent: 6,960 lamports per byte, threshold 1.0 (SIMD-0194), 50% burnt */
  scp_sol_key_parse("SysvarRent111111111111111111111111111111111", 43, id);
  if (!memcmp(a->key, id, 32) && empty) {
    static const uint8_t rent[17] = {0x30, 0x1b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 50};
    return set_sysvar(a, rent, sizeof rent);
  }
  return SCP_OK;
}

static int program_account(const scp_sol_tx_opts *o, scp_sol_account *a) {
  static const uint8_t zero[32] = {0};
  if (a->lamports || a->len || a->executable || memcmp(a->owner, zero, 32)) return SCP_OK;
  if (!memcmp(a->key, scp_sol_system_id, 32))
    return set_bytes(a, "solana_system_program", 21, 1, "NativeLoader1111111111111111111111111111111");
  if (!memcmp(a->key, scp_sol_compute_budget_id, 32))
    return set_bytes(a, "solana_compute_budget_program", 29, 1, "NativeLoader1111111111111111111111111111111");
  /* the loaders are builtins too (litesvm 1.5.0's accounts after a
   * transaction naming one: tests/e2e/sol_tx.sh cpi_into_loader) */
  static const char *const LOADER_NAMES[3][2] = {
      {"BPFLoader1111111111111111111111111111111111", "solana_bpf_loader_deprecated_program"},
      {"BPFLoader2111111111111111111111111111111111", "solana_bpf_loader_program"},
      {"BPFLoaderUpgradeab1e11111111111111111111111", "solana_bpf_loader_upgradeable_program"}};
  for (size_t i = 0; i < 3; i++) {
    uint8_t id[32];
    scp_sol_key_parse(LOADER_NAMES[i][0], strlen(LOADER_NAMES[i][0]), id);
    if (!memcmp(a->key, id, 32))
      return set_bytes(a, LOADER_NAMES[i][1], strlen(LOADER_NAMES[i][1]), 1,
                       "NativeLoader1111111111111111111111111111111");
  }
  for (size_t i = 0; i < o->nprogs; i++) {
    const scp_sol_tx_prog *p = &o->progs[i];
    if (memcmp(p->id, a->key, 32)) continue;
    if (p->loader != SCP_SOL_LOADER_V3)
      return set_bytes(a, p->elf, p->len, ((uint64_t)p->len + ACCOUNT_STORAGE_OVERHEAD) * RENT_PER_BYTE,
                       p->loader == SCP_SOL_LOADER_V2 ? "BPFLoader2111111111111111111111111111111111"
                                                      : "BPFLoader1111111111111111111111111111111111");
    uint8_t st[36] = {2, 0, 0, 0}, loader[32];
    scp_sol_key_parse("BPFLoaderUpgradeab1e11111111111111111111111", 43, loader);
    for (int bump = 255; bump >= 0; bump--) {
      uint8_t b = (uint8_t)bump;
      const uint8_t *seeds[2] = {p->id, &b};
      size_t lens[2] = {32, 1};
      scp_sol_ierr_kind why;
      if (sol_create_pda(seeds, lens, 2, loader, st + 4, &why)) break;
    }
    return set_bytes(a, st, sizeof st, (36u + ACCOUNT_STORAGE_OVERHEAD) * RENT_PER_BYTE,
                     "BPFLoaderUpgradeab1e11111111111111111111111");
  }
  return SCP_OK;
}

/* Programs deployed in the accounts, as on chain (scp_sol_program_in: an
 * executable account of loader 1 or 2 holds the ELF, one of the
 * upgradeable loader names its programdata account).  They join the given
 * programs (which win), named by their ids. */
static int deployed(const scp_sol_tx_opts *o, scp_sol_tx_prog **out, size_t *n, char (**names)[SCP_SOL_B58_KEY_MAX]) {
  *out = calloc(o->nprogs + o->naccts + 1, sizeof **out);
  *names = calloc(o->naccts + 1, sizeof **names);
  if (!*out || !*names) return SCP_ERR_NOMEM;
  if (o->nprogs) memcpy(*out, o->progs, o->nprogs * sizeof **out);
  *n = o->nprogs;
  for (size_t i = 0; i < o->naccts; i++) {
    const scp_sol_account *a = &o->accts[i];
    scp_sol_tx_prog *p = &(*out)[*n];
    if (!a->executable || find_prog(o, a->key) ||
        !scp_sol_program_in(o->accts, o->naccts, a->key, &p->elf, &p->len, &p->loader))
      continue;
    memcpy(p->id, a->key, 32);
    scp_sol_key_str(a->key, (*names)[i]);
    p->name = (*names)[i];
    (*n)++;
  }
  return SCP_OK;
}

static int check_opts(const scp_sol_tx_opts *o, tx_state *t, scp_error *err) {
  for (size_t i = 0; i < o->nmsg && i < o->naccts; i++) {
    t->signer[i] = i < o->nreq;
    t->writable[i] = o->msg_writable[i];
  }
  for (size_t k = 0; k < o->nixs; k++)
    for (size_t i = 0; i < o->ixs[k].naccts; i++) {
      const scp_sol_ixacct *a = &o->ixs[k].accts[i];
      if (a->index >= o->naccts)
        return scp_fail(err, SCP_ERR_ARG, "instruction %zu account %zu: no account %u", k + 1, i, a->index);
      t->signer[a->index] |= a->signer;
      t->writable[a->index] |= a->writable;
      if (program_account(o, &o->accts[a->index]) ||
          sysvar_account(t->blockhash, !o->blockhash, &o->accts[a->index]))
        return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    }
  return SCP_OK;
}

static int finish_profile(tx_state *t) {
  scp_sol_tx_result *res = t->res;
  scp_profile *p = t->prof;
  char status[160] = "";
  int rc = SCP_OK;
  if (res->failed >= 0) {
    char name[96];
    scp_sol_ierr_name(res->ierr, name, sizeof name);
    snprintf(status, sizeof status, "instruction #%ld failed: %s", res->failed + 1, name);
  } else if (res->txerr[0]) {
    snprintf(status, sizeof status, "transaction failed: %s", res->txerr);
  }
  if (status[0]) {
    p->status = res->failed >= 0 && res->out_of_cu ? SCP_ERR_BUDGET : SCP_ERR_TRAP;
    p->status_msg = scp_strtab_intern(&p->strs, status);
    if (p->status_msg == UINT32_MAX) rc = SCP_ERR_NOMEM;
  }
  p->title = scp_strtab_intern(&p->strs, t->o->title ? t->o->title : "transaction");
  if (p->title == UINT32_MAX) rc = SCP_ERR_NOMEM;
  for (size_t i = 0; !rc && i < res->nlogs; i++) rc = scp_prof_meta(p, "log", res->logs[i]);
  if (rc) return scp_fail(t->err, rc, "out of memory");
  if ((rc = sol_txprof_finish(p, res->cu)))
    return scp_fail(t->err, rc, "transaction profile: self CU do not add up to the %llu CU consumed",
                    (unsigned long long)res->cu);
  if ((rc = sol_txprof_programs(p)) || (rc = sol_trunc_note(p, &t->o->shape)))
    return scp_fail(t->err, rc, "out of memory");
  return SCP_OK;
}

static int tx_run(const scp_sol_tx_opts *o, scp_sol_tx_result *res, scp_error *err);

/* litesvm keeps no account of 0 lamports (AccountsDb::add_account drops
 * it): one emptied by a transaction, or given so, reads as a fresh system
 * account with no data. */
static void drop_empty(const scp_sol_tx_opts *o) {
  for (size_t i = 0; i < o->naccts; i++) {
    scp_sol_account *a = &o->accts[i];
    if (a->lamports) continue;
    a->len = 0;
    a->executable = false;
    memset(a->owner, 0, 32);
  }
}

int scp_sol_tx_run(const scp_sol_tx_opts *o, scp_sol_tx_result *res, scp_error *err) {
  scp_sol_tx_prog *progs = NULL;
  char(*names)[SCP_SOL_B58_KEY_MAX] = NULL;
  size_t n = 0;
  int rc = deployed(o, &progs, &n, &names);
  if (rc) {
    memset(res, 0, sizeof *res);
    rc = scp_fail(err, rc, "out of memory");
  } else {
    scp_sol_tx_opts with = *o;
    with.progs = progs;
    with.nprogs = n;
    if (!o->cache && (rc = scp_sol_progs_new(&with.cache, err))) memset(res, 0, sizeof *res);
    else rc = tx_run(&with, res, err);
    if (!o->cache) scp_sol_progs_free(with.cache);
  }
  free(progs);
  free(names);
  return rc;
}

static int tx_run(const scp_sol_tx_opts *o, scp_sol_tx_result *res, scp_error *err) {
  memset(res, 0, sizeof *res);
  res->failed = -1;
  size_t n = o->naccts ? o->naccts : 1, nsaved = 0;
  tx_state t = {.o = o, .res = res, .signer = calloc(n, 1), .writable = calloc(n, 1), .err = err};
  scp_sol_account *saved = calloc(n, sizeof *saved);
  int rc = SCP_OK;
  if (!t.signer || !t.writable || !saved) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  drop_empty(o);
  if (o->blockhash) memcpy(t.blockhash, o->blockhash, 32);
  else scp_sol_blockhash_genesis(t.blockhash);
  if ((rc = check_opts(o, &t, err))) goto done;
  budget b;
  read_budget(o, &b);
  res->cu_limit = b.limit;
  res->heap = b.heap;
  res->cu_price = b.price;
  if (o->profile && (rc = sol_txprof_new(b.limit, &t.prof))) {
    rc = scp_fail(err, rc, "out of memory");
    goto done;
  }
  if (b.bad_ix >= 0) {
    res->failed = b.bad_ix;
    res->ierr.kind = SCP_SOL_IERR_INVALID_INSTRUCTION_DATA;
  } else if (b.dup_ix >= 0) {
    snprintf(res->txerr, sizeof res->txerr, "DuplicateInstruction { index: %ld }", b.dup_ix);
  } else {
    for (; nsaved < o->naccts; nsaved++)
      if ((rc = scp_sol_account_copy(&saved[nsaved], &o->accts[nsaved]))) {
        rc = scp_fail(err, rc, "out of memory");
        goto done;
      }
    if (o->nmsg) {
      uint64_t fee = sol_fee_of(o, b.price, b.limit);
      sol_fee_charge(&o->accts[0], fee, res->txerr, sizeof res->txerr);
      if (!res->txerr[0]) res->fee = fee;
    }
    t.meter = b.limit;
    if (!res->txerr[0] && (rc = run_all(&t, &b))) goto done;
    res->cu = b.limit - t.meter;
    if (res->failed < 0) check_rent(&t, saved);
    /* a failed transaction changes no account */
    if (res->failed >= 0 || res->txerr[0]) {
      for (size_t i = 0; i < o->naccts; i++) {
        scp_sol_account_free(&o->accts[i]);
        o->accts[i] = saved[i];
        saved[i].data = NULL;
      }
      /* the fee stays charged */
      if (res->fee) o->accts[0].lamports -= res->fee;
    }
    drop_empty(o);
  }
  if (t.logs.oom || t.inner.oom) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto done;
  }
  res->logs = t.logs.v;
  res->nlogs = t.logs.n;
  t.logs = (sol_logs){0};
  res->inner = t.inner.v;
  res->ninner = t.inner.n;
  t.inner = (sol_logs){0};
  if (t.prof && (rc = finish_profile(&t))) goto done;
  res->profile = t.prof;
  t.prof = NULL;
done:
  for (size_t i = 0; i < nsaved; i++) scp_sol_account_free(&saved[i]);
  free(saved);
  free(t.signer);
  free(t.writable);
  sol_logs_free(&t.logs);
  sol_logs_free(&t.inner);
  scp_profile_destroy(t.prof);
  if (rc) scp_sol_tx_result_free(res);
  return rc;
}

void scp_sol_tx_result_free(scp_sol_tx_result *res) {
  for (size_t i = 0; i < res->nlogs; i++) free(res->logs[i]);
  free(res->logs);
  for (size_t i = 0; i < res->ninner; i++) free(res->inner[i]);
  free(res->inner);
  scp_profile_destroy(res->profile);
  memset(res, 0, sizeof *res);
  res->failed = -1;
}

void scp_sol_tx_outcome(const scp_sol_tx_result *res, char *buf, size_t cap) {
  char name[96];
  if (res->failed >= 0) {
    scp_sol_ierr_name(res->ierr, name, sizeof name);
    snprintf(buf, cap, "%ld %s", res->failed, name);
  } else {
    snprintf(buf, cap, "%s", res->txerr[0] ? res->txerr : "ok");
  }
}
