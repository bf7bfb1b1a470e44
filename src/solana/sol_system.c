/* sol_system.c — the System program as agave's system_processor runs it:
 * bincode instructions, the checks in its order with its ic_msg lines, and
 * BorrowedAccount's rules for lamports, data length and owner; the durable
 * nonce instructions of its system_instruction.rs on solana-nonce's state. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solana/sol_builtin.h"
#include "solana/sol_sys.h"

#define ERR(k) ((scp_sol_ierr){.kind = SCP_SOL_IERR_##k, .custom = 0})
#define CUSTOM(n) ((scp_sol_ierr){.kind = SCP_SOL_IERR_CUSTOM, .custom = (n)})
/* SystemError codes */
enum { SYS_ACCOUNT_ALREADY_IN_USE = 0, SYS_RESULT_WITH_NEGATIVE_LAMPORTS = 1,
       SYS_INVALID_ACCOUNT_DATA_LENGTH = 3, SYS_ADDRESS_WITH_SEED_MISMATCH = 5,
       SYS_NONCE_BLOCKHASH_NOT_EXPIRED = 7 };
/* AddressError of create_with_seed, which reaches the instruction as
 * Custom(code) (litesvm 1.5.0 answers Custom(0) for a 33-byte seed) */
enum { ADDR_MAX_SEED_LENGTH_EXCEEDED = 0, ADDR_ILLEGAL_OWNER = 2 };
/* limited_deserialize reads at most a packet's worth of bytes */
#define PACKET_DATA_SIZE 1232u

void sol_logs_add(sol_logs *l, const char *fmt, ...) {
  /* a line within scp_buf's own formatter is made there (as vsnprintf
   * makes it, and under 1 KiB); any other is cut at 1 KiB as before */
  scp_buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  bool fast = scp_fmt_fast(&b, fmt, ap);
  va_end(ap);
  if (b.oom) scp_buf_free(&b);
  char *s = b.data;
  if (!fast) {
    char buf[1024];
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    s = strdup(buf);
  }
  if (!s || !scp_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
    free(s);
    l->oom = true;
    return;
  }
  l->v[l->n++] = s;
}

void sol_logs_free(sol_logs *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static const uint8_t SYSTEM_ID[32] = {0};

typedef struct rd {
  const uint8_t *p;
  size_t n;
  bool bad;
} rd;

static uint64_t rd_u64(rd *r) {
  if (r->n < 8) return r->bad = true, 0;
  uint64_t v = sol_le64(r->p);
  r->p += 8, r->n -= 8;
  return v;
}
static uint32_t rd_u32(rd *r) {
  if (r->n < 4) return r->bad = true, 0;
  uint32_t v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8 | (uint32_t)r->p[2] << 16 | (uint32_t)r->p[3] << 24;
  r->p += 4, r->n -= 4;
  return v;
}
static const uint8_t *rd_key(rd *r) {
  if (r->n < 32) return r->bad = true, NULL;
  const uint8_t *k = r->p;
  r->p += 32, r->n -= 32;
  return k;
}
/* a bincode String: u64 length and bytes that must be UTF-8 */
static const uint8_t *rd_str(rd *r, size_t *len) {
  uint64_t n = rd_u64(r);
  if (r->bad || n > r->n) return r->bad = true, NULL;
  const uint8_t *s = r->p;
  for (size_t i = 0, k; i < n; i += k)
    if (!(k = scp_utf8_len((const char *)s + i, (size_t)n - i))) return r->bad = true, NULL;
  *len = (size_t)n;
  r->p += n, r->n -= n;
  return s;
}

static scp_sol_account *acct(const sol_bi *b, size_t i) { return &b->accts[b->ix[i].index]; }

/* Whether a signer of the instruction has this key. */
static bool signed_by(const sol_bi *b, const uint8_t key[32]) {
  for (size_t i = 0; i < b->nix; i++)
    if (b->ix[i].signer && !memcmp(b->accts[b->ix[i].index].key, key, 32)) return true;
  return false;
}

/* Address's Debug: the key, and the base of a _with_seed address. */
static void addr_text(const uint8_t *key, const uint8_t *base, char *out, size_t cap) {
  char k[SCP_SOL_B58_KEY_MAX], bk[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(key, k);
  if (base) {
    scp_sol_key_str(base, bk);
    snprintf(out, cap, "Address { address: %s, base: Some(%s) }", k, bk);
  } else {
    snprintf(out, cap, "Address { address: %s, base: None }", k);
  }
}

/* BorrowedAccount::set_lamports: the System program owns the account for a
 * decrease; read-only and executable balances do not change. */
static scp_sol_ierr set_lamports(const sol_bi *b, size_t i, uint64_t v) {
  scp_sol_account *a = acct(b, i);
  if (memcmp(a->owner, SYSTEM_ID, 32) && v < a->lamports) return ERR(EXTERNAL_ACCOUNT_LAMPORT_SPEND);
  if (!b->ix[i].writable) return ERR(READONLY_LAMPORT_CHANGE);
  if (a->executable) return ERR(EXECUTABLE_LAMPORT_CHANGE);
  a->lamports = v;
  return (scp_sol_ierr){0};
}

/* transfer_verified: a transfer whose signer has been checked */
static scp_sol_ierr transfer_verified(const sol_bi *b, size_t from, size_t to, uint64_t lamports) {
  scp_sol_account *f = acct(b, from);
  if (f->len) {
    sol_logs_add(b->logs, "Transfer: `from` must not carry data");
    return ERR(INVALID_ARGUMENT);
  }
  if (lamports > f->lamports) {
    sol_logs_add(b->logs, "Transfer: insufficient lamports %llu, need %llu",
                 (unsigned long long)f->lamports, (unsigned long long)lamports);
    return CUSTOM(SYS_RESULT_WITH_NEGATIVE_LAMPORTS);
  }
  scp_sol_ierr e = set_lamports(b, from, f->lamports - lamports);
  if (e.kind) return e;
  scp_sol_account *t = acct(b, to);
  if (t->lamports + lamports < t->lamports) return ERR(ARITHMETIC_OVERFLOW);
  return set_lamports(b, to, t->lamports + lamports);
}

static scp_sol_ierr transfer(const sol_bi *b, size_t from, size_t to, uint64_t lamports) {
  if (!b->ix[from].signer) {
    char k[SCP_SOL_B58_KEY_MAX];
    scp_sol_key_str(acct(b, from)->key, k);
    sol_logs_add(b->logs, "Transfer: `from` account %s must sign", k);
    return ERR(MISSING_REQUIRED_SIGNATURE);
  }
  return transfer_verified(b, from, to, lamports);
}

static scp_sol_ierr allocate(const sol_bi *b, size_t i, const uint8_t *base, uint64_t space) {
  scp_sol_account *a = acct(b, i);
  char t[160];
  addr_text(a->key, base, t, sizeof t);
  if (!signed_by(b, base ? base : a->key)) {
    sol_logs_add(b->logs, "Allocate: 'to' account %s must sign", t);
    return ERR(MISSING_REQUIRED_SIGNATURE);
  }
  if (a->len || memcmp(a->owner, SYSTEM_ID, 32)) {
    sol_logs_add(b->logs, "Allocate: account %s already in use", t);
    return CUSTOM(SYS_ACCOUNT_ALREADY_IN_USE);
  }
  if (space > SCP_SOL_MAX_PERMITTED_DATA_LENGTH) {
    sol_logs_add(b->logs, "Allocate: requested %llu, max allowed %u", (unsigned long long)space,
                 SCP_SOL_MAX_PERMITTED_DATA_LENGTH);
    return CUSTOM(SYS_INVALID_ACCOUNT_DATA_LENGTH);
  }
  if (space == a->len) return (scp_sol_ierr){0};
  if (!b->ix[i].writable) return ERR(READONLY_DATA_MODIFIED);
  if (a->executable) return ERR(EXECUTABLE_DATA_MODIFIED);
  uint8_t *d = calloc(space ? space : 1, 1);
  if (!d) return ERR(GENERIC_ERROR);   /* reported as out of memory by the caller */
  free(a->data);
  a->data = d;
  a->len = (size_t)space;
  return (scp_sol_ierr){0};
}

static scp_sol_ierr assign(const sol_bi *b, size_t i, const uint8_t *base, const uint8_t owner[32]) {
  scp_sol_account *a = acct(b, i);
  if (!memcmp(a->owner, owner, 32)) return (scp_sol_ierr){0};
  if (!signed_by(b, base ? base : a->key)) {
    char t[160];
    addr_text(a->key, base, t, sizeof t);
    sol_logs_add(b->logs, "Assign: account %s must sign", t);
    return ERR(MISSING_REQUIRED_SIGNATURE);
  }
  /* BorrowedAccount::set_owner */
  if (memcmp(a->owner, SYSTEM_ID, 32) || !b->ix[i].writable || a->executable)
    return ERR(MODIFIED_PROGRAM_ID);
  for (size_t k = 0; k < a->len; k++)
    if (a->data[k]) return ERR(MODIFIED_PROGRAM_ID);
  memcpy(a->owner, owner, 32);
  return (scp_sol_ierr){0};
}

/* Address::create: a _with_seed address must be sha256(base, seed, owner);
 * who begins the log line of a mismatch ("Create: address"). */
static scp_sol_ierr seeded(const sol_bi *b, const uint8_t key[32], const uint8_t *base,
                          const uint8_t *seed, size_t slen, const uint8_t owner[32],
                          const char *who) {
  if (slen > 32) return CUSTOM(ADDR_MAX_SEED_LENGTH_EXCEEDED);
  static const char MARKER[] = "ProgramDerivedAddress";
  if (!memcmp(owner + 11, MARKER, 21)) return CUSTOM(ADDR_ILLEGAL_OWNER);
  const uint8_t *parts[3] = {base, seed, owner};
  size_t lens[3] = {32, slen, 32};
  uint8_t h[32];
  sol_sha256(parts, lens, 3, h);
  if (memcmp(h, key, 32)) {
    char a[SCP_SOL_B58_KEY_MAX], d[SCP_SOL_B58_KEY_MAX];
    scp_sol_key_str(key, a);
    scp_sol_key_str(h, d);
    sol_logs_add(b->logs, "%s %s does not match derived address %s", who, a, d);
    return CUSTOM(SYS_ADDRESS_WITH_SEED_MISMATCH);
  }
  return (scp_sol_ierr){0};
}

static scp_sol_ierr create(const sol_bi *b, const uint8_t *base, uint64_t lamports, uint64_t space,
                           const uint8_t owner[32]) {
  scp_sol_account *to = acct(b, 1);
  if (to->lamports) {
    char t[160];
    addr_text(to->key, base, t, sizeof t);
    sol_logs_add(b->logs, "Create Account: account %s already in use", t);
    return CUSTOM(SYS_ACCOUNT_ALREADY_IN_USE);
  }
  scp_sol_ierr e = allocate(b, 1, base, space);
  if (!e.kind) e = assign(b, 1, base, owner);
  if (!e.kind) e = transfer(b, 0, 1, lamports);
  return e;
}

/* CreateAccountAllowPrefund: the new account is account 0 and may hold
 * lamports already; the funder, account 1, is needed (and pays) only when
 * lamports is not 0. */
static scp_sol_ierr create_prefunded(const sol_bi *b, uint64_t lamports, uint64_t space,
                                     const uint8_t owner[32]) {
  if (b->nix < (lamports ? 2u : 1u)) return ERR(MISSING_ACCOUNT);
  scp_sol_ierr e = allocate(b, 0, NULL, space);
  if (!e.kind) e = assign(b, 0, NULL, owner);
  if (!e.kind && lamports) e = transfer(b, 1, 0, lamports);
  return e;
}

/* TransferWithSeed: account 1 (the base) signs for account 0, the address
 * derived from it, the seed and the owner. */
static scp_sol_ierr transfer_with_seed(const sol_bi *b, uint64_t lamports, const uint8_t *seed, size_t slen,
                                       const uint8_t owner[32]) {
  const uint8_t *base = acct(b, 1)->key;
  if (!b->ix[1].signer) {
    char k[SCP_SOL_B58_KEY_MAX];
    scp_sol_key_str(base, k);
    sol_logs_add(b->logs, "Transfer: 'from' account %s must sign", k);
    return ERR(MISSING_REQUIRED_SIGNATURE);
  }
  scp_sol_ierr e = seeded(b, acct(b, 0)->key, base, seed, slen, owner, "Transfer: 'from' address");
  return e.kind ? e : transfer_verified(b, 0, 2, lamports);
}

/* ---- durable nonces ----
 * The account holds bincode nonce::Versions: u32 Legacy (0) or Current (1),
 * u32 Uninitialized (0) or Initialized (1), then authority, durable nonce
 * and lamports per signature (80 bytes).  Initialize and Advance store
 * hash("DURABLE_NONCE", the transaction's blockhash) and the runtime's
 * lamports per signature. */
enum { NONCE_LEGACY = 0, NONCE_CURRENT = 1 };

typedef struct nonce_state {
  uint32_t version;
  bool initialized;
  uint8_t authority[32], durable[32];
  uint64_t lps;
} nonce_state;

/* BorrowedAccount::get_state: InvalidAccountData when the data is no
 * Versions (trailing bytes are ignored). */
static bool nonce_get(const scp_sol_account *a, nonce_state *st) {
  rd r = {.p = a->data, .n = a->len, .bad = false};
  memset(st, 0, sizeof *st);
  st->version = rd_u32(&r);
  uint32_t tag = rd_u32(&r);
  if (r.bad || st->version > NONCE_CURRENT || tag > 1) return false;
  st->initialized = tag == 1;
  if (!st->initialized) return true;
  const uint8_t *auth = rd_key(&r), *durable = rd_key(&r);
  st->lps = rd_u64(&r);
  if (r.bad) return false;
  memcpy(st->authority, auth, 32);
  memcpy(st->durable, durable, 32);
  return true;
}

/* BorrowedAccount::set_state: the data must be changeable by the System
 * program and hold the serialized state (8 bytes uninitialized, 80
 * initialized); bytes past it keep their values. */
static scp_sol_ierr nonce_set(const sol_bi *b, size_t i, const nonce_state *st) {
  scp_sol_account *a = acct(b, i);
  if (!b->ix[i].writable) return ERR(READONLY_DATA_MODIFIED);
  if (memcmp(a->owner, SYSTEM_ID, 32)) return ERR(EXTERNAL_ACCOUNT_DATA_MODIFIED);
  size_t need = st->initialized ? SCP_SOL_NONCE_SIZE : 8;
  if (a->len < need) return ERR(ACCOUNT_DATA_TOO_SMALL);
  uint8_t *d = a->data;
  for (int k = 0; k < 4; k++) d[k] = (uint8_t)(st->version >> (8 * k)), d[4 + k] = 0;
  d[4] = st->initialized;
  if (!st->initialized) return (scp_sol_ierr){0};
  memcpy(d + 8, st->authority, 32);
  memcpy(d + 40, st->durable, 32);
  for (int k = 0; k < 8; k++) d[72 + k] = (uint8_t)(st->lps >> (8 * k));
  return (scp_sol_ierr){0};
}

static void durable_nonce(const uint8_t blockhash[32], uint8_t out[32]) {
  static const char PREFIX[] = "DURABLE_NONCE";
  const uint8_t *parts[2] = {(const uint8_t *)PREFIX, blockhash};
  size_t lens[2] = {sizeof PREFIX - 1, 32};
  sol_sha256(parts, lens, 2, out);
}

static bool is_sysvar(const sol_bi *b, size_t i, const char *id) {
  uint8_t k[32];
  scp_sol_key_parse(id, strlen(id), k);
  return !memcmp(acct(b, i)->key, k, 32);
}

/* get_sysvar_with_account_check: the account must be there and be the
 * sysvar; its contents are not read (the sysvar cache is). */
static scp_sol_ierr sysvar_at(const sol_bi *b, size_t i, const char *id) {
  if (b->nix <= i) return ERR(MISSING_ACCOUNT);
  return is_sysvar(b, i, id) ? (scp_sol_ierr){0} : ERR(INVALID_ARGUMENT);
}

#define RBH_ID "SysvarRecentB1ockHashes11111111111111111111"
#define RENT_ID "SysvarRent111111111111111111111111111111111"

static bool writable_or_log(const sol_bi *b, size_t i, const char *what) {
  if (b->ix[i].writable) return true;
  char k[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(acct(b, i)->key, k);
  sol_logs_add(b->logs, "%s nonce account: Account %s must be writeable", what, k);
  return false;
}

static scp_sol_ierr state_invalid(const sol_bi *b, const char *what) {
  char k[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(acct(b, 0)->key, k);
  sol_logs_add(b->logs, "%s nonce account: Account %s state is invalid", what, k);
  return ERR(INVALID_ACCOUNT_DATA);
}

/* The state of the nonce account, instruction account 0, which must be
 * writable. */
static scp_sol_ierr writable_nonce(const sol_bi *b, const char *what, nonce_state *st) {
  if (!writable_or_log(b, 0, what)) return ERR(INVALID_ARGUMENT);
  if (!nonce_get(acct(b, 0), st)) return ERR(INVALID_ACCOUNT_DATA);
  return (scp_sol_ierr){0};
}

/* ... and initialized, as Advance and Authorize want it */
static scp_sol_ierr initialized_nonce(const sol_bi *b, const char *what, nonce_state *st) {
  scp_sol_ierr e = writable_nonce(b, what, st);
  if (!e.kind && !st->initialized) return state_invalid(b, what);
  return e;
}

/* must is the runtime's wording, which differs between instructions */
static scp_sol_ierr signer_or_log(const sol_bi *b, const uint8_t *key, const char *what,
                                  const char *must) {
  if (signed_by(b, key)) return (scp_sol_ierr){0};
  char k[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(key, k);
  sol_logs_add(b->logs, "%s nonce account: Account %s %s", what, k, must);
  return ERR(MISSING_REQUIRED_SIGNATURE);
}

/* next = the durable nonce of this blockhash, which must differ from the
 * stored one: a nonce advances once per blockhash */
static scp_sol_ierr next_durable(const sol_bi *b, const nonce_state *st, const char *what,
                                 uint8_t next[32]) {
  durable_nonce(b->blockhash, next);
  if (memcmp(next, st->durable, 32)) return (scp_sol_ierr){0};
  sol_logs_add(b->logs, "%s nonce account: nonce can only advance once per slot", what);
  return CUSTOM(SYS_NONCE_BLOCKHASH_NOT_EXPIRED);
}

static scp_sol_ierr insufficient(const sol_bi *b, const char *what, uint64_t have, uint64_t need) {
  sol_logs_add(b->logs, "%s nonce account: insufficient lamports %llu, need %llu", what,
               (unsigned long long)have, (unsigned long long)need);
  return ERR(INSUFFICIENT_FUNDS);
}

static scp_sol_ierr nonce_advance(const sol_bi *b) {
  scp_sol_ierr e = sysvar_at(b, 1, RBH_ID);
  nonce_state st;
  uint8_t next[32];
  if (e.kind || (e = initialized_nonce(b, "Advance", &st)).kind ||
      (e = signer_or_log(b, st.authority, "Advance", "must be a signer")).kind ||
      (e = next_durable(b, &st, "Advance", next)).kind)
    return e;
  st.version = NONCE_CURRENT;
  memcpy(st.durable, next, 32);
  st.lps = SCP_SOL_LAMPORTS_PER_SIGNATURE;
  return nonce_set(b, 0, &st);
}

static uint64_t rent_min(size_t len) { return ((uint64_t)len + SCP_SOL_ACCOUNT_OVERHEAD) * SCP_SOL_RENT_PER_BYTE; }

static scp_sol_ierr nonce_withdraw(const sol_bi *b, uint64_t lamports) {
  scp_sol_ierr e = sysvar_at(b, 2, RBH_ID);
  if (!e.kind) e = sysvar_at(b, 3, RENT_ID);
  nonce_state st;
  if (e.kind || (e = writable_nonce(b, "Withdraw", &st)).kind) return e;
  scp_sol_account *from = acct(b, 0);
  const uint8_t *signer = from->key;
  uint64_t need = lamports;
  if (st.initialized && lamports == from->lamports) {
    uint8_t now[32];
    if ((e = next_durable(b, &st, "Withdraw", now)).kind) return e;
    nonce_state un = {.version = NONCE_CURRENT, .initialized = false, .authority = {0}, .durable = {0}, .lps = 0};
    if ((e = nonce_set(b, 0, &un)).kind) return e;
  } else if (st.initialized) {
    uint64_t min = rent_min(from->len);
    if (lamports + min < lamports) return ERR(INSUFFICIENT_FUNDS);
    need = lamports + min;
  }
  if (st.initialized) signer = st.authority;
  if (need > from->lamports) return insufficient(b, "Withdraw", from->lamports, need);
  if ((e = signer_or_log(b, signer, "Withdraw", "must sign")).kind) return e;
  if ((e = set_lamports(b, 0, from->lamports - lamports)).kind) return e;
  scp_sol_account *to = acct(b, 1);
  if (to->lamports + lamports < to->lamports) return ERR(ARITHMETIC_OVERFLOW);
  return set_lamports(b, 1, to->lamports + lamports);
}

static scp_sol_ierr nonce_initialize(const sol_bi *b, const uint8_t authority[32]) {
  scp_sol_ierr e = sysvar_at(b, 1, RBH_ID);
  if (!e.kind) e = sysvar_at(b, 2, RENT_ID);
  nonce_state st;
  if (e.kind || (e = writable_nonce(b, "Initialize", &st)).kind) return e;
  if (st.initialized) return state_invalid(b, "Initialize");
  scp_sol_account *a = acct(b, 0);
  uint64_t min = rent_min(a->len);
  if (a->lamports < min) return insufficient(b, "Initialize", a->lamports, min);
  st = (nonce_state){.version = NONCE_CURRENT, .initialized = true, .authority = {0}, .durable = {0},
                     .lps = SCP_SOL_LAMPORTS_PER_SIGNATURE};
  memcpy(st.authority, authority, 32);
  durable_nonce(b->blockhash, st.durable);
  return nonce_set(b, 0, &st);
}

/* Versions::authorize keeps the version: a legacy nonce stays legacy. */
static scp_sol_ierr nonce_authorize(const sol_bi *b, const uint8_t authority[32]) {
  nonce_state st;
  scp_sol_ierr e = initialized_nonce(b, "Authorize", &st);
  if (e.kind || (e = signer_or_log(b, st.authority, "Authorize", "must sign")).kind) return e;
  memcpy(st.authority, authority, 32);
  return nonce_set(b, 0, &st);
}

/* Versions::upgrade: an initialized legacy nonce becomes current, its
 * nonce hashed once more out of the blockhash domain; anything else is
 * InvalidArgument. */
static scp_sol_ierr nonce_upgrade(const sol_bi *b) {
  scp_sol_account *a = acct(b, 0);
  if (memcmp(a->owner, SYSTEM_ID, 32)) return ERR(INVALID_ACCOUNT_OWNER);
  if (!b->ix[0].writable) return ERR(INVALID_ARGUMENT);
  nonce_state st;
  if (!nonce_get(a, &st)) return ERR(INVALID_ACCOUNT_DATA);
  if (st.version != NONCE_LEGACY || !st.initialized) return ERR(INVALID_ARGUMENT);
  uint8_t old[32];
  memcpy(old, st.durable, 32);
  durable_nonce(old, st.durable);
  st.version = NONCE_CURRENT;
  return nonce_set(b, 0, &st);
}

/* ---- the instruction ---- */

typedef struct sys_ix {
  uint32_t tag;
  const uint8_t *base, *owner, *seed;
  size_t slen;
  uint64_t lamports, space;
  size_t need;                 /* instruction accounts it checks for first */
} sys_ix;

/* limited_deserialize of SystemInstruction: false for bad data. */
static bool decode(const sol_bi *b, sys_ix *x) {
  rd r = {.p = b->data, .n = b->len, .bad = false};
  memset(x, 0, sizeof *x);
  x->tag = rd_u32(&r);
  x->need = 1;
  switch (x->tag) {
  case 0:
  case 13: x->lamports = rd_u64(&r), x->space = rd_u64(&r), x->owner = rd_key(&r), x->need = 2; break;
  case 1: x->owner = rd_key(&r); break;
  case 2: x->lamports = rd_u64(&r), x->need = 2; break;
  case 3:
    x->base = rd_key(&r), x->seed = rd_str(&r, &x->slen), x->lamports = rd_u64(&r);
    x->space = rd_u64(&r), x->owner = rd_key(&r), x->need = 2;
    break;
  case 4: case 12: break;
  case 5: x->lamports = rd_u64(&r), x->need = 2; break;
  case 6: case 7: x->owner = rd_key(&r); break;   /* the nonce authority */
  case 8: x->space = rd_u64(&r); break;
  case 9: x->base = rd_key(&r), x->seed = rd_str(&r, &x->slen), x->space = rd_u64(&r), x->owner = rd_key(&r); break;
  case 10: x->base = rd_key(&r), x->seed = rd_str(&r, &x->slen), x->owner = rd_key(&r); break;
  case 11: x->lamports = rd_u64(&r), x->seed = rd_str(&r, &x->slen), x->owner = rd_key(&r), x->need = 3; break;
  default: return false;
  }
  if (x->tag == 13) x->need = x->lamports ? 2 : 1;
  return !r.bad && b->len - r.n <= PACKET_DATA_SIZE;
}

int sol_system_exec(const sol_bi *b, scp_sol_ierr *ierr, scp_error *err) {
  (void)err;
  sys_ix x;
  *ierr = (scp_sol_ierr){0};
  if (!decode(b, &x)) {
    *ierr = ERR(INVALID_INSTRUCTION_DATA);
    return SCP_OK;
  }
  if (b->nix < x.need) {
    *ierr = ERR(MISSING_ACCOUNT);
    return SCP_OK;
  }
  /* Address::create re-derives a _with_seed address before anything else */
  size_t target = x.tag == 3 ? 1 : 0;
  if (x.base && (*ierr = seeded(b, acct(b, target)->key, x.base, x.seed, x.slen, x.owner,
                                   "Create: address")).kind)
    return SCP_OK;
  switch (x.tag) {
  case 0: *ierr = create(b, NULL, x.lamports, x.space, x.owner); break;
  case 3: *ierr = create(b, x.base, x.lamports, x.space, x.owner); break;
  case 1: *ierr = assign(b, 0, NULL, x.owner); break;
  case 10: *ierr = assign(b, 0, x.base, x.owner); break;
  case 2: *ierr = transfer(b, 0, 1, x.lamports); break;
  case 8: *ierr = allocate(b, 0, NULL, x.space); break;
  case 9:
    *ierr = allocate(b, 0, x.base, x.space);
    if (!ierr->kind) *ierr = assign(b, 0, x.base, x.owner);
    break;
  case 11: *ierr = transfer_with_seed(b, x.lamports, x.seed, x.slen, x.owner); break;
  case 13: *ierr = create_prefunded(b, x.lamports, x.space, x.owner); break;
  case 4: *ierr = nonce_advance(b); break;
  case 5: *ierr = nonce_withdraw(b, x.lamports); break;
  case 6: *ierr = nonce_initialize(b, x.owner); break;
  case 7: *ierr = nonce_authorize(b, x.owner); break;
  case 12: *ierr = nonce_upgrade(b); break;
  }
  return SCP_OK;
}
