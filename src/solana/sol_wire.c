/* sol_wire.c — wire transactions: decoding, the runtime's sanitize rules,
 * address lookup tables and the account order (scp_sol_wire.h). */
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "solana/scp_sol_wire.h"
#include "util/scp_util.h"

const char scp_sol_alt_program[] = "AddressLookupTab1e1111111111111111111111111";

typedef struct rd {
  const uint8_t *p;
  size_t n, at;
  scp_error *err;
} rd;

void scp_sol_wire_put_cu16(scp_buf *b, size_t v) {
  do {
    uint8_t x = v & 0x7f;
    v >>= 7;
    scp_buf_putc(b, (char)(v ? x | 0x80 : x));
  } while (v);
}

static int short_read(rd *r, const char *what) {
  return scp_fail(r->err, SCP_ERR_MALFORMED, "%s at byte %zu runs past the end (%zu bytes)", what, r->at, r->n);
}

/* compact-u16 (short_vec): 7 bits a byte, at most 3 bytes, canonical */
static int cu16(rd *r, const char *what, size_t *v) {
  size_t x = 0, start = r->at;
  for (int i = 0; i < 3; i++) {
    if (r->at >= r->n) return short_read(r, what);
    uint8_t b = r->p[r->at++];
    x |= (size_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) {
      if ((i > 0 && b == 0) || x > 0xffff)
        return scp_fail(r->err, SCP_ERR_MALFORMED, "%s at byte %zu is not a canonical compact-u16", what, start);
      *v = x;
      return SCP_OK;
    }
  }
  return scp_fail(r->err, SCP_ERR_MALFORMED, "%s at byte %zu is longer than a compact-u16", what, start);
}

static int take(rd *r, size_t n, const char *what, const uint8_t **out) {
  if (r->n - r->at < n) return short_read(r, what);
  *out = r->p + r->at;
  r->at += n;
  return SCP_OK;
}

/* a compact-u16 count of size-byte items */
static int vec(rd *r, size_t size, const char *what, const uint8_t **out, size_t *count) {
  int rc = cu16(r, what, count);
  return rc ? rc : take(r, *count * size, what, out);
}

static int decode_ixs(rd *r, scp_sol_wire_tx *tx) {
  int rc = cu16(r, "the instruction count", &tx->nixs);
  if (rc) return rc;
  tx->ixs = calloc(tx->nixs ? tx->nixs : 1, sizeof *tx->ixs);
  if (!tx->ixs) return scp_fail(r->err, SCP_ERR_NOMEM, "out of memory");
  for (size_t k = 0; k < tx->nixs; k++) {
    scp_sol_wire_ix *x = &tx->ixs[k];
    const uint8_t *prog = NULL;
    if ((rc = take(r, 1, "an instruction's program index", &prog)) ||
        (rc = vec(r, 1, "an instruction's accounts", &x->accts, &x->naccts)) ||
        (rc = vec(r, 1, "an instruction's data", &x->data, &x->len)))
      return rc;
    x->program = prog[0];
  }
  return SCP_OK;
}

static int decode_lookups(rd *r, scp_sol_wire_tx *tx) {
  int rc = cu16(r, "the address table lookup count", &tx->nlookups);
  if (rc) return rc;
  tx->lookups = calloc(tx->nlookups ? tx->nlookups : 1, sizeof *tx->lookups);
  if (!tx->lookups) return scp_fail(r->err, SCP_ERR_NOMEM, "out of memory");
  for (size_t k = 0; k < tx->nlookups; k++) {
    scp_sol_wire_lookup *l = &tx->lookups[k];
    if ((rc = take(r, 32, "a lookup table address", &l->table)) ||
        (rc = vec(r, 1, "a lookup's writable indexes", &l->writable, &l->nwritable)) ||
        (rc = vec(r, 1, "a lookup's read-only indexes", &l->readonly, &l->nreadonly)))
      return rc;
  }
  return SCP_OK;
}

int scp_sol_wire_decode(const uint8_t *in, size_t n, scp_sol_wire_tx *tx, scp_error *err) {
  memset(tx, 0, sizeof *tx);
  tx->bytes = malloc(n ? n : 1);
  if (!tx->bytes) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  if (n) memcpy(tx->bytes, in, n);
  tx->len = n;
  rd r = {.p = tx->bytes, .n = n, .at = 0, .err = err};
  const uint8_t *h = NULL;
  int rc = vec(&r, 64, "the signatures", &tx->sigs, &tx->nsigs);
  if (rc) goto fail;
  tx->msg = r.p + r.at;
  if (r.at < n && (r.p[r.at] & 0x80)) {
    if (r.p[r.at] != 0x80) {
      rc = scp_fail(err, SCP_ERR_MALFORMED, "message version %u at byte %zu: only legacy and v0 exist",
                    r.p[r.at] & 0x7fu, r.at);
      goto fail;
    }
    tx->v0 = true;
    r.at++;
  }
  if ((rc = take(&r, 3, "the message header", &h)) ||
      (rc = vec(&r, 32, "the account keys", &tx->keys, &tx->nkeys)) ||
      (rc = take(&r, 32, "the recent blockhash", &tx->blockhash)) || (rc = decode_ixs(&r, tx)) ||
      (tx->v0 && (rc = decode_lookups(&r, tx))))
    goto fail;
  tx->nreq = h[0], tx->nro_signed = h[1], tx->nro_unsigned = h[2];
  tx->msglen = (size_t)(r.p + r.at - tx->msg);
  if (r.at != n) {
    rc = scp_fail(err, SCP_ERR_MALFORMED, "%zu bytes after the transaction (it ends at byte %zu)", n - r.at, r.at);
    goto fail;
  }
  return SCP_OK;
fail:
  scp_sol_wire_free(tx);
  return rc;
}

void scp_sol_wire_free(scp_sol_wire_tx *tx) {
  free(tx->bytes);
  free(tx->ixs);
  free(tx->lookups);
  memset(tx, 0, sizeof *tx);
}

bool scp_sol_wire_verify(const scp_sol_wire_tx *tx) {
  if (tx->nsigs > tx->nkeys) return false;
  for (size_t i = 0; i < tx->nsigs; i++)
    if (crypto_sign_verify_detached(tx->sigs + 64 * i, tx->msg, tx->msglen, tx->keys + 32 * i)) return false;
  return true;
}

static bool is_b58(uint8_t c) {
  return (c >= '1' && c <= '9') || (c >= 'A' && c <= 'Z' && c != 'I' && c != 'O') ||
         (c >= 'a' && c <= 'z' && c != 'l');
}

int scp_sol_wire_text(const uint8_t *in, size_t n, uint8_t **out, size_t *outlen, scp_error *err) {
  *out = NULL;
  *outlen = 0;
  size_t a = 0, b = n;
  while (a < b && strchr(" \t\r\n", in[a]) && in[a]) a++;
  while (b > a && strchr(" \t\r\n", in[b - 1]) && in[b - 1]) b--;
  bool text = a < b, b58 = a < b;
  for (size_t i = a; i < b; i++) {
    if (in[i] < 0x20 || in[i] > 0x7e) text = false;
    if (!is_b58(in[i])) b58 = false;
  }
  if (!text) {
    *out = malloc(n ? n : 1);
    if (!*out) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    if (n) memcpy(*out, in, n);
    *outlen = n;
    return SCP_OK;
  }
  /* base58's alphabet is inside base64's, so text of base58 letters whose
   * length is a multiple of 4 reads as both: then the one whose bytes
   * decode as a transaction is meant (both: refused as ambiguous) */
  uint8_t *buf = malloc(b - a + 1), *alt = NULL;
  if (!buf) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  size_t len = 0, altlen = 0;
  const char *end = NULL;
  bool b64 = !sodium_base642bin(buf, b - a + 1, (const char *)in + a, b - a, NULL, &len, &end,
                                sodium_base64_VARIANT_ORIGINAL) &&
             end == (const char *)in + b && (b - a) % 4 == 0;
  if (b64 && b58) {
    int rc = scp_sol_b58_decode((const char *)in + a, b - a, &alt, &altlen);
    if (rc == SCP_ERR_NOMEM) {
      free(buf);
      return scp_fail(err, rc, "out of memory");
    }
    scp_sol_wire_tx t1 = {0}, t2 = {0};
    bool ok64 = !scp_sol_wire_decode(buf, len, &t1, NULL), ok58 = !rc && !scp_sol_wire_decode(alt, altlen, &t2, NULL);
    scp_sol_wire_free(&t1);
    scp_sol_wire_free(&t2);
    if (ok64 && ok58) {
      free(buf);
      free(alt);
      return scp_fail(err, SCP_ERR_MALFORMED, "text that reads as a transaction both in base64 and in base58");
    }
    if (ok58) {
      free(buf);
      *out = alt;
      *outlen = altlen;
      return SCP_OK;
    }
    free(alt);
  }
  if (b64) {
    *out = buf;
    *outlen = len;
    return SCP_OK;
  }
  free(buf);
  if (b58) {
    int rc = scp_sol_b58_decode((const char *)in + a, b - a, out, outlen);
    if (rc) return scp_fail(err, rc, rc == SCP_ERR_NOMEM ? "out of memory" : "text that is not base58");
    return SCP_OK;
  }
  return scp_fail(err, SCP_ERR_MALFORMED, "text that is neither base64 nor base58");
}

/* ---- sanitize, lookups, order --------------------------------------- */

/* agave's active reserved account keys: sysvars and builtin programs */
static const char *const RESERVED[] = {
    "AddressLookupTab1e1111111111111111111111111", "BPFLoader1111111111111111111111111111111111",
    "BPFLoader2111111111111111111111111111111111", "BPFLoaderUpgradeab1e11111111111111111111111",
    "ComputeBudget111111111111111111111111111111", "Config1111111111111111111111111111111111111",
    "Ed25519SigVerify111111111111111111111111111", "Feature111111111111111111111111111111111111",
    "LoaderV411111111111111111111111111111111111", "KeccakSecp256k11111111111111111111111111111",
    "Secp256r1SigVerify1111111111111111111111111", "Stake11111111111111111111111111111111111111",
    "StakeConfig11111111111111111111111111111111", "Vote111111111111111111111111111111111111111",
    "ZkE1Gama1Proof11111111111111111111111111111", "11111111111111111111111111111111",
    "NativeLoader1111111111111111111111111111111", "Sysvar1111111111111111111111111111111111111",
    "SysvarC1ock11111111111111111111111111111111", "SysvarEpochRewards1111111111111111111111111",
    "SysvarEpochSchedu1e111111111111111111111111", "SysvarFees111111111111111111111111111111111",
    "Sysvar1nstructions1111111111111111111111111", "SysvarLastRestartS1ot1111111111111111111111",
    "SysvarRecentB1ockHashes11111111111111111111", "SysvarRent111111111111111111111111111111111",
    "SysvarRewards111111111111111111111111111111", "SysvarS1otHashes111111111111111111111111111",
    "SysvarS1otHistory11111111111111111111111111", "SysvarStakeHistory1111111111111111111111111",
};

static bool key_is(const uint8_t key[32], const char *b58) {
  uint8_t k[32];
  return scp_sol_key_parse(b58, strlen(b58), k) && !memcmp(k, key, 32);
}

static bool reserved(const uint8_t key[32]) {
  for (size_t i = 0; i < sizeof RESERVED / sizeof *RESERVED; i++)
    if (key_is(key, RESERVED[i])) return true;
  return false;
}

/* Message::sanitize / v0::Message::sanitize, and the signature count */
static bool sane(const scp_sol_wire_tx *tx) {
  size_t nloaded = 0;
  for (size_t k = 0; k < tx->nlookups; k++) {
    const scp_sol_wire_lookup *l = &tx->lookups[k];
    if (!l->nwritable && !l->nreadonly) return false;
    nloaded += l->nwritable + l->nreadonly;
  }
  size_t total = tx->nkeys + nloaded;
  if ((size_t)tx->nreq + tx->nro_unsigned > tx->nkeys || tx->nro_signed >= tx->nreq) return false;
  if (tx->v0 && total > 256) return false;
  for (size_t k = 0; k < tx->nixs; k++) {
    const scp_sol_wire_ix *x = &tx->ixs[k];
    if (x->program == 0 || x->program >= tx->nkeys) return false;
    for (size_t i = 0; i < x->naccts; i++)
      if (x->accts[i] >= total) return false;
  }
  return tx->nsigs == tx->nreq && tx->nsigs <= tx->nkeys;
}

static const scp_sol_account *find(const scp_sol_account *state, size_t n, const uint8_t key[32]) {
  for (size_t i = 0; i < n; i++)
    if (!memcmp(state[i].key, key, 32)) return &state[i];
  return NULL;
}

/* AddressLookupTable::deserialize and lookup: the addresses usable now */
static const char *table_addresses(const scp_sol_account *a, const scp_sol_wire_slots *s,
                                   const uint8_t **addrs, size_t *n) {
  if (!a || !a->lamports) return "AddressLookupTableNotFound";
  if (!key_is(a->owner, scp_sol_alt_program)) return "InvalidAddressLookupTableOwner";
  if (a->len < 56 || (a->len - 56) % 32 || scp_le32(a->data) != 1 || a->data[21] > 1)
    return "InvalidAddressLookupTableData";
  uint64_t deactivation = scp_le64(a->data + 4), last_extended = scp_le64(a->data + 12);
  if (deactivation != UINT64_MAX && deactivation != s->current) {
    bool held = false;
    for (size_t i = 0; i < s->nhashes; i++) held |= s->hashes[i] == deactivation;
    if (!held) return "AddressLookupTableNotFound";
  }
  *addrs = a->data + 56;
  *n = s->current > last_extended ? (a->len - 56) / 32 : a->data[20];
  return NULL;
}

static int add_key(scp_sol_wire_msg *m, const uint8_t key[32], const scp_sol_account *state, size_t nstate) {
  scp_sol_account *a = &m->accts[m->naccts];
  const scp_sol_account *s = find(state, nstate, key);
  if (s) {
    if (scp_sol_account_copy(a, s)) return SCP_ERR_NOMEM;
  } else {
    memset(a, 0, sizeof *a);
    memcpy(a->key, key, 32);
  }
  m->naccts++;
  return SCP_OK;
}

/* The loaded keys: every writable of every table, then every read-only */
static int load_tables(const scp_sol_wire_tx *tx, const scp_sol_account *state, size_t nstate,
                       const scp_sol_wire_slots *slots, scp_sol_wire_msg *m) {
  for (int pass = 0; pass < 2; pass++)
    for (size_t k = 0; k < tx->nlookups; k++) {
      const scp_sol_wire_lookup *l = &tx->lookups[k];
      const uint8_t *addrs = NULL;
      size_t nactive = 0;
      const char *why = table_addresses(find(state, nstate, l->table), slots, &addrs, &nactive);
      if (why) {
        snprintf(m->txerr, sizeof m->txerr, "%s", why);
        return SCP_OK;
      }
      const uint8_t *idx = pass ? l->readonly : l->writable;
      size_t n = pass ? l->nreadonly : l->nwritable;
      for (size_t i = 0; i < n; i++) {
        if (idx[i] >= nactive) {
          snprintf(m->txerr, sizeof m->txerr, "InvalidAddressLookupTableIndex");
          return SCP_OK;
        }
        if (add_key(m, addrs + 32 * (size_t)idx[i], state, nstate)) return SCP_ERR_NOMEM;
      }
    }
  return SCP_OK;
}

static bool writable_index(const scp_sol_wire_tx *tx, size_t i, size_t nwritable_loaded) {
  if (i < tx->nkeys)
    return i < (size_t)(tx->nreq - tx->nro_signed) || (i >= tx->nreq && i < tx->nkeys - tx->nro_unsigned);
  return i - tx->nkeys < nwritable_loaded;
}

static void set_flags(const scp_sol_wire_tx *tx, scp_sol_wire_msg *m) {
  size_t nw = 0;
  for (size_t k = 0; k < tx->nlookups; k++) nw += tx->lookups[k].nwritable;
  bool upgradeable = false;
  for (size_t i = 0; i < m->nmsg; i++) upgradeable |= key_is(m->accts[i].key, "BPFLoaderUpgradeab1e11111111111111111111111");
  for (size_t i = 0; i < m->nmsg; i++) {
    bool called = false;
    for (size_t k = 0; k < tx->nixs; k++) called |= tx->ixs[k].program == i;
    m->writable[i] = writable_index(tx, i, nw) && !reserved(m->accts[i].key) && !(called && !upgradeable);
  }
}

static int build_ixs(const scp_sol_wire_tx *tx, scp_sol_wire_msg *m) {
  size_t total = 0;
  for (size_t k = 0; k < tx->nixs; k++) total += tx->ixs[k].naccts;
  m->ixs = calloc(tx->nixs ? tx->nixs : 1, sizeof *m->ixs);
  m->ixaccts = calloc(total ? total : 1, sizeof *m->ixaccts);
  if (!m->ixs || !m->ixaccts) return SCP_ERR_NOMEM;
  scp_sol_ixacct *at = m->ixaccts;
  for (size_t k = 0; k < tx->nixs; k++) {
    const scp_sol_wire_ix *x = &tx->ixs[k];
    for (size_t i = 0; i < x->naccts; i++)
      at[i] = (scp_sol_ixacct){.index = x->accts[i], .signer = x->accts[i] < tx->nreq,
                               .writable = m->writable[x->accts[i]]};
    m->ixs[k] = (scp_sol_tx_ix){.program = {0}, .accts = at, .naccts = x->naccts, .data = x->data, .len = x->len,
                                .label = NULL};
    memcpy(m->ixs[k].program, tx->keys + 32 * (size_t)x->program, 32);
    at += x->naccts;
  }
  m->nixs = tx->nixs;
  return SCP_OK;
}

int scp_sol_wire_load(const scp_sol_wire_tx *tx, const scp_sol_account *state, size_t nstate,
                      const scp_sol_wire_slots *slots, scp_sol_wire_msg *m, scp_error *err) {
  static const uint64_t LITESVM_SLOT = 447552000;
  scp_sol_wire_slots dflt = {.current = LITESVM_SLOT, .hashes = &LITESVM_SLOT, .nhashes = 1};
  memset(m, 0, sizeof *m);
  if (!sane(tx)) {
    snprintf(m->txerr, sizeof m->txerr, "SanitizeFailure");
    return SCP_OK;
  }
  size_t nloaded = 0;
  for (size_t k = 0; k < tx->nlookups; k++) nloaded += tx->lookups[k].nwritable + tx->lookups[k].nreadonly;
  size_t cap = tx->nkeys + nloaded + nstate + 1;
  m->accts = calloc(cap, sizeof *m->accts);
  m->writable = calloc(cap, 1);
  int rc = m->accts && m->writable ? SCP_OK : SCP_ERR_NOMEM;
  for (size_t i = 0; !rc && i < tx->nkeys; i++) rc = add_key(m, tx->keys + 32 * i, state, nstate);
  if (!rc) rc = load_tables(tx, state, nstate, slots ? slots : &dflt, m);
  if (rc) goto fail;
  if (m->txerr[0]) goto refused;
  m->nmsg = m->naccts;
  for (size_t i = 0; i < m->nmsg; i++)
    for (size_t j = 0; j < i; j++)
      if (!memcmp(m->accts[i].key, m->accts[j].key, 32)) {
        snprintf(m->txerr, sizeof m->txerr, "AccountLoadedTwice");
        goto refused;
      }
  if (m->nmsg > 128) {
    snprintf(m->txerr, sizeof m->txerr, "TooManyAccountLocks");
    goto refused;
  }
  /* the rest of the state: programs' programdata, lookup tables */
  for (size_t i = 0; !rc && i < nstate; i++)
    if (!find(m->accts, m->nmsg, state[i].key)) rc = add_key(m, state[i].key, state, nstate);
  if (!rc) set_flags(tx, m);
  if (!rc) rc = build_ixs(tx, m);
  if (rc) goto fail;
  return SCP_OK;
refused: {
  char why[96];
  memcpy(why, m->txerr, sizeof why);
  scp_sol_wire_msg_free(m);
  memcpy(m->txerr, why, sizeof why);
  return SCP_OK;
}
fail:
  scp_sol_wire_msg_free(m);
  return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
}

void scp_sol_wire_msg_free(scp_sol_wire_msg *m) {
  for (size_t i = 0; i < m->naccts; i++) scp_sol_account_free(&m->accts[i]);
  free(m->accts);
  free(m->writable);
  free(m->ixs);
  free(m->ixaccts);
  memset(m, 0, sizeof *m);
}

/* ---- compiling a scenario transaction ---------------------------------- */

typedef struct ckey {
  const uint8_t *key;
  bool signer, writable;
} ckey;

static size_t add_ckey(ckey *k, size_t *n, const uint8_t *key, bool signer, bool writable) {
  for (size_t i = 0; i < *n; i++)
    if (!memcmp(k[i].key, key, 32)) {
      k[i].signer |= signer, k[i].writable |= writable;
      return i;
    }
  if (*n < 257) k[*n] = (ckey){.key = key, .signer = signer, .writable = writable};
  return (*n)++;
}

static int ckey_rank(const ckey *k) { return (k->signer ? 0 : 2) + (k->writable ? 0 : 1); }

static uint8_t ckey_index(const ckey *k, size_t n, const uint8_t *key) {
  size_t i = 0;
  while (i < n && memcmp(k[i].key, key, 32)) i++;
  return (uint8_t)i;
}

int scp_sol_wire_compile(const uint8_t payer[32], const scp_sol_tx_ix *ixs, size_t n, const scp_sol_account *accts,
                         const uint8_t blockhash[32], uint8_t **out, size_t *len, scp_error *err) {
  ckey k[258], sorted[258];
  size_t nk = 0, nsig = 0, nro_signed = 0, nro_unsigned = 0;
  add_ckey(k, &nk, payer, true, true);
  for (size_t x = 0; x < n; x++)
    for (size_t i = 0; i < ixs[x].naccts; i++)
      add_ckey(k, &nk, accts[ixs[x].accts[i].index].key, ixs[x].accts[i].signer, ixs[x].accts[i].writable);
  for (size_t x = 0; x < n; x++) add_ckey(k, &nk, ixs[x].program, false, false);
  if (nk > 256) return scp_fail(err, SCP_ERR_ARG, "more than 256 accounts in one transaction");
  size_t ns = 0;
  sorted[ns++] = k[0];
  for (int rank = 0; rank < 4; rank++)
    for (size_t i = 1; i < nk; i++)
      if (ckey_rank(&k[i]) == rank) sorted[ns++] = k[i];
  for (size_t i = 0; i < ns; i++) {
    nsig += sorted[i].signer;
    nro_signed += sorted[i].signer && !sorted[i].writable;
    nro_unsigned += !sorted[i].signer && !sorted[i].writable;
  }
  scp_buf b = {0};
  uint8_t zero[64] = {0};
  scp_sol_wire_put_cu16(&b, nsig);
  for (size_t i = 0; i < nsig; i++) scp_buf_put(&b, zero, 64);
  scp_buf_putc(&b, (char)nsig), scp_buf_putc(&b, (char)nro_signed), scp_buf_putc(&b, (char)nro_unsigned);
  scp_sol_wire_put_cu16(&b, ns);
  for (size_t i = 0; i < ns; i++) scp_buf_put(&b, sorted[i].key, 32);
  scp_buf_put(&b, blockhash, 32);
  scp_sol_wire_put_cu16(&b, n);
  for (size_t x = 0; x < n; x++) {
    scp_buf_putc(&b, (char)ckey_index(sorted, ns, ixs[x].program));
    scp_sol_wire_put_cu16(&b, ixs[x].naccts);
    for (size_t i = 0; i < ixs[x].naccts; i++)
      scp_buf_putc(&b, (char)ckey_index(sorted, ns, accts[ixs[x].accts[i].index].key));
    scp_sol_wire_put_cu16(&b, ixs[x].len);
    scp_buf_put(&b, ixs[x].data, ixs[x].len);
  }
  if (b.oom) {
    scp_buf_free(&b);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  *out = (uint8_t *)b.data;
  *len = b.len;
  return SCP_OK;
}
