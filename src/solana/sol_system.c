/* sol_system.c — the System program as agave's system_processor runs it:
 * bincode instructions, the checks in its order with its ic_msg lines, and
 * BorrowedAccount's rules for lamports, data length and owner. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solana/sol_builtin.h"
#include "solana/sol_sys.h"

#define ERR(k) ((scp_sol_ierr){SCP_SOL_IERR_##k, 0})
#define CUSTOM(n) ((scp_sol_ierr){SCP_SOL_IERR_CUSTOM, (n)})
/* SystemError codes */
enum { SYS_ACCOUNT_ALREADY_IN_USE = 0, SYS_RESULT_WITH_NEGATIVE_LAMPORTS = 1,
       SYS_INVALID_ACCOUNT_DATA_LENGTH = 3, SYS_ADDRESS_WITH_SEED_MISMATCH = 5 };

void sol_logs_add(sol_logs *l, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  char *s = strdup(buf);
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
/* a bincode String: u64 length and UTF-8 bytes */
static const uint8_t *rd_str(rd *r, size_t *len) {
  uint64_t n = rd_u64(r);
  if (r->bad || n > r->n) return r->bad = true, NULL;
  const uint8_t *s = r->p;
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

static scp_sol_ierr transfer(const sol_bi *b, size_t from, size_t to, uint64_t lamports) {
  char k[SCP_SOL_B58_KEY_MAX];
  if (!b->ix[from].signer) {
    scp_sol_key_str(acct(b, from)->key, k);
    sol_logs_add(b->logs, "Transfer: `from` account %s must sign", k);
    return ERR(MISSING_REQUIRED_SIGNATURE);
  }
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

/* Address::create: a _with_seed address must be sha256(base, seed, owner). */
static scp_sol_ierr seeded(const sol_bi *b, const uint8_t key[32], const uint8_t *base,
                          const uint8_t *seed, size_t slen, const uint8_t owner[32]) {
  if (slen > 32) return ERR(MAX_SEED_LENGTH_EXCEEDED);
  static const char MARKER[] = "ProgramDerivedAddress";
  if (!memcmp(owner + 11, MARKER, 21)) return ERR(ILLEGAL_OWNER);
  const uint8_t *parts[3] = {base, seed, owner};
  size_t lens[3] = {32, slen, 32};
  uint8_t h[32];
  sol_sha256(parts, lens, 3, h);
  if (memcmp(h, key, 32)) {
    char a[SCP_SOL_B58_KEY_MAX], d[SCP_SOL_B58_KEY_MAX];
    scp_sol_key_str(key, a);
    scp_sol_key_str(h, d);
    sol_logs_add(b->logs, "Create: address %s does not match derived address %s", a, d);
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

int sol_system_exec(const sol_bi *b, scp_sol_ierr *ierr, scp_error *err) {
  rd r = {b->data, b->len, false};
  uint32_t tag = rd_u32(&r);
  const uint8_t *base = NULL, *owner = NULL, *seed = NULL;
  size_t slen = 0;
  uint64_t lamports = 0, space = 0;
  size_t need = 1;
  *ierr = (scp_sol_ierr){0};
  switch (tag) {
  case 0: lamports = rd_u64(&r), space = rd_u64(&r), owner = rd_key(&r), need = 2; break;
  case 1: owner = rd_key(&r); break;
  case 2: lamports = rd_u64(&r), need = 2; break;
  case 3:
    base = rd_key(&r), seed = rd_str(&r, &slen), lamports = rd_u64(&r), space = rd_u64(&r);
    owner = rd_key(&r), need = 2;
    break;
  case 8: space = rd_u64(&r); break;
  case 9: base = rd_key(&r), seed = rd_str(&r, &slen), space = rd_u64(&r), owner = rd_key(&r); break;
  case 10: base = rd_key(&r), seed = rd_str(&r, &slen), owner = rd_key(&r); break;
  default:
    if (r.bad || tag > 12) break;
    return scp_fail(err, SCP_ERR_UNSUPPORTED, "System program: instruction %u is not implemented", tag);
  }
  if (r.bad || tag > 12) {
    *ierr = ERR(INVALID_INSTRUCTION_DATA);
    return SCP_OK;
  }
  if (b->nix < need) {
    *ierr = ERR(MISSING_ACCOUNT);
    return SCP_OK;
  }
  size_t target = tag == 0 || tag == 3 ? 1 : 0;
  if (seed && tag != 3 && (*ierr = seeded(b, acct(b, target)->key, base, seed, slen, owner)).kind)
    return SCP_OK;
  if (tag == 3 && (*ierr = seeded(b, acct(b, 1)->key, base, seed, slen, owner)).kind) return SCP_OK;
  switch (tag) {
  case 0: *ierr = create(b, NULL, lamports, space, owner); break;
  case 3: *ierr = create(b, base, lamports, space, owner); break;
  case 1: *ierr = assign(b, 0, NULL, owner); break;
  case 10: *ierr = assign(b, 0, base, owner); break;
  case 2: *ierr = transfer(b, 0, 1, lamports); break;
  case 8: *ierr = allocate(b, 0, NULL, space); break;
  case 9:
    *ierr = allocate(b, 0, base, space);
    if (!ierr->kind) *ierr = assign(b, 0, base, owner);
    break;
  }
  return SCP_OK;
}
