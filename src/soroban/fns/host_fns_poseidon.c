/* poseidon_permutation and poseidon2_permutation (rs-soroban-env v28
 * host.rs, crypto/mod.rs, crypto/poseidon/, host/conversion.rs,
 * crypto/metered_scalar.rs).  Every charge follows the reference's order:
 * the Vec conversions, the parameter checks, the permutation's own
 * metered_clone / metered_collect allocations and each field operation,
 * then the result conversion.  Errors the reference raises part-way through
 * a round are raised at the same point, after the same charges. */
#include <stdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "soroban/fns/host_fns_private.h"

/* Declared sizes (host/declared_size.rs): an Fr, a Vec, a HostError, a Val. */
enum { SZ_FR = 32, SZ_VEC = 24, SZ_ERR = 16, SZ_VAL = 8 };

typedef uint64_t fr_t[4];

/* A Vec<S> row, or a Vec<Vec<S>> as rows. */
typedef struct pvec {
  fr_t *e;
  uint32_t n;
} pvec;

typedef struct pmat {
  pvec *rows;
  uint32_t n;
} pmat;

typedef struct pctx {
  scp_host *h;
  bool bn;
  const uint64_t *m;
} pctx;

static scp_cost_type c_addsub(const pctx *c) {
  return c->bn ? SCP_COST_Bn254FrAddSub : SCP_COST_Bls12381FrAddSub;
}

static int oob_err(scp_host *h, const char *msg) {
  return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS, "%s", msg);
}

/* ---- metered scalar operations (metered_scalar.rs) --------------------- */

static int f_add(const pctx *c, uint64_t *x, const uint64_t *y) {
  int rc = scp_host_charge(c->h, c_addsub(c), -1);
  if (rc == SCP_OK) scp_fr_add(x, y, c->m, x);
  return rc;
}

/* metered_double_in_place: a metered_clone of self (MemCpy 32), then add. */
static int f_double(const pctx *c, uint64_t *x) {
  int rc = scp_host_charge_copy(c->h, 1, SZ_FR);
  if (rc != SCP_OK) return rc;
  fr_t y;
  memcpy(y, x, sizeof y);
  return f_add(c, x, y);
}

static int f_mul(const pctx *c, uint64_t *x, const uint64_t *y) {
  int rc = scp_host_charge(c->h, c->bn ? SCP_COST_Bn254FrMul : SCP_COST_Bls12381FrMul, -1);
  if (rc == SCP_OK) scp_fr_mul(x, y, c->m, x);
  return rc;
}

/* sbox_p: metered_pow with the exponent's bit length as input. */
static int f_pow(const pctx *c, uint64_t *x, uint32_t d) {
  int rc = scp_host_charge(c->h, c->bn ? SCP_COST_Bn254FrPow : SCP_COST_Bls12381FrPow,
                           (int64_t)scp_hf_magnitude(d));
  if (rc != SCP_OK) return rc;
  uint64_t e = d;
  fr_t r;
  scp_fr_pow(x, &e, 1, c->m, r);
  memcpy(x, r, sizeof r);
  return SCP_OK;
}

/* metered_collect into Result<Vec<T>, HostError> of n items: the container
 * (24 + 16) copied, n items of Result<T, HostError> allocated and copied. */
static int charge_collect(scp_host *h, uint64_t n, uint64_t item) {
  int rc = scp_host_charge_copy(h, 1, SZ_VEC + SZ_ERR);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, n, item + SZ_ERR);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, item + SZ_ERR);
  return rc;
}

/* ---- conversions (host/conversion.rs) ---------------------------------- */

static void mat_free(pmat *m) {
  if (m->rows)
    for (uint32_t i = 0; i < m->n; i++) free(m->rows[i].e);
  free(m->rows);
  m->rows = NULL;
  m->n = 0;
}

static bool is_u256(uint64_t v) {
  unsigned t = scp_val_tag_of(v);
  return t == SCP_TAG_U256_SMALL || t == SCP_TAG_U256_OBJ;
}

/* metered_scalar_vec_from_vecobj. */
static int vec_from_obj(const pctx *c, uint64_t v, pvec *out) {
  const scp_hobj *o;
  int rc = scp_host_visit(c->h, v, &o);
  if (rc != SCP_OK) return rc;
  o = scp_hf_objp(c->h, v);
  uint32_t n = o->len;
  rc = scp_host_charge_bulk_init(c->h, n, SZ_FR);
  if (rc != SCP_OK) return rc;
  out->e = malloc((n ? n : 1) * sizeof *out->e);
  if (!out->e) return SCP_ERR_NOMEM;
  out->n = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t x = scp_hf_objp(c->h, v)->u.vals[i];
    if (!is_u256(x)) return scp_hf_err_crypto(c->h, "element must be U256Val");
    rc = scp_hf_fr_from_val(c->h, c->bn, x, out->e[i]);
    if (rc != SCP_OK) return rc;
    out->n = i + 1;
  }
  return SCP_OK;
}

/* metered_scalar_vec_of_vec_from_vecobj. */
static int mat_from_obj(const pctx *c, uint64_t v, pmat *out) {
  const scp_hobj *o;
  int rc = scp_host_visit(c->h, v, &o);
  if (rc != SCP_OK) return rc;
  o = scp_hf_objp(c->h, v);
  uint32_t n = o->len;
  rc = scp_host_charge_bulk_init(c->h, n, SZ_VEC);
  if (rc != SCP_OK) return rc;
  out->rows = calloc(n ? n : 1, sizeof *out->rows);
  if (!out->rows) return SCP_ERR_NOMEM;
  out->n = n;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t row = scp_hf_objp(c->h, v)->u.vals[i];
    if (scp_val_tag_of(row) != SCP_TAG_VEC_OBJ)
      return scp_hf_err_crypto(c->h, "poseidon_permutation: row must be a vector");
    rc = vec_from_obj(c, row, &out->rows[i]);
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}

/* metered_scalar_vec_to_vecobj: the collect, each into_u256val, then
 * HostVec::from_exact_iter and the object. */
static int vec_to_obj(const pctx *c, const pvec *s, uint64_t *ret) {
  int rc = charge_collect(c->h, s->n, SZ_VAL);
  if (rc != SCP_OK) return rc;
  uint64_t *vals = scp_hf_vals_alloc(s->n);
  if (!vals) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < s->n && rc == SCP_OK; i++)
    rc = scp_hf_fr_to_val(c->h, c->bn, s->e[i], &vals[i]);
  if (rc == SCP_OK) rc = scp_hf_charge_vec_new(c->h, s->n);
  if (rc != SCP_OK) {
    free(vals);
    return rc;
  }
  return scp_hf_add_vec_obj(c->h, vals, s->n, ret);
}

/* The field symbol (symbol_matches: a Budget compare of the symbol's bytes
 * with the name, MemCmp of the shorter length; an object is visited). */
static int field_is(scp_host *h, uint64_t sym, const char *name, bool *eq) {
  char buf[16];
  const uint8_t *p;
  size_t n, m = strlen(name);
  if (scp_val_tag_of(sym) == SCP_TAG_SYMBOL_SMALL) {
    n = scp_val_symbol_small_str(sym, buf);
    p = (const uint8_t *)buf;
  } else {
    const scp_hobj *o;
    int rc = scp_host_visit(h, sym, &o);
    if (rc != SCP_OK) return rc;
    o = scp_hf_objp(h, sym);
    p = o->u.bytes;
    n = o->len;
  }
  int rc = scp_host_charge(h, SCP_COST_MemCmp, (int64_t)(n < m ? n : m));
  *eq = n == m && !memcmp(p, name, m);
  return rc;
}

static int pick_field(scp_host *h, uint64_t sym, const char *fn, bool *bn) {
  bool eq;
  int rc = field_is(h, sym, "BLS12_381", &eq);
  if (rc != SCP_OK) return rc;
  if (eq) {
    *bn = false;
    return SCP_OK;
  }
  rc = field_is(h, sym, "BN254", &eq);
  if (rc != SCP_OK) return rc;
  if (eq) {
    *bn = true;
    return SCP_OK;
  }
  return scp_host_err(h, SCP_ET_CRYPTO, SCP_EC_INVALID_INPUT,
                      "%s: invalid field symbol, must be 'BLS12_381' or 'BN254'", fn);
}

/* Params::new's checks, shared by both (the second length is the mds
 * matrix's rows or the internal diagonal's length). */
static int check_params(scp_host *h, const char *who, const char *len_msg, uint32_t t,
                        uint32_t d, uint32_t rf, uint32_t rp, uint32_t len, uint32_t nrc) {
  char msg[128];
  if (d != 5) {
    snprintf(msg, sizeof msg, "%s: unsupported s-box degree", who);
    return scp_hf_err_crypto(h, msg);
  }
  if (len != t) return scp_hf_err_crypto(h, len_msg);
  if (rf % 2) {
    snprintf(msg, sizeof msg, "%s: `rounds_f` must be even", who);
    return scp_hf_err_crypto(h, msg);
  }
  if ((uint64_t)rf + rp > UINT32_MAX)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_ARITH_DOMAIN, "arithmetic overflow");
  if (nrc != rf + rp) {
    snprintf(msg, sizeof msg,
             "%s: round constants length does not match No. of rounds (rounds_f + rounds_p)", who);
    return scp_hf_err_crypto(h, msg);
  }
  return SCP_OK;
}

/* ---- the shared round pieces (crypto/poseidon/utils.rs) ----------------- */

/* The permutation's metered_clone of the input Vec<S>. */
static int clone_state(const pctx *c, const pvec *in, pvec *st) {
  int rc = scp_host_charge_bulk_init(c->h, in->n, SZ_FR);
  if (rc != SCP_OK) return rc;
  st->e = malloc((in->n ? in->n : 1) * sizeof *st->e);
  if (!st->e) return SCP_ERR_NOMEM;
  memcpy(st->e, in->e, (size_t)in->n * sizeof *st->e);
  st->n = in->n;
  return SCP_OK;
}

/* add_rc: the length check, the collect, then per element a metered_add
 * (metered_clone MemCpy 32, then the addition). */
static int add_rc(const pctx *c, pvec *st, const pvec *rc_row) {
  if (st->n != rc_row->n)
    return scp_hf_err_crypto(c->h, "length mismatch between input array and round constants");
  int rc = charge_collect(c->h, st->n, SZ_FR);
  for (uint32_t i = 0; i < st->n && rc == SCP_OK; i++) {
    rc = scp_host_charge_copy(c->h, 1, SZ_FR);
    if (rc == SCP_OK) rc = f_add(c, st->e[i], rc_row->e[i]);
  }
  return rc;
}

/* sbox: the collect, then each element's pow. */
static int sbox(const pctx *c, pvec *st, uint32_t d) {
  int rc = charge_collect(c->h, st->n, SZ_FR);
  for (uint32_t i = 0; i < st->n && rc == SCP_OK; i++) rc = f_pow(c, st->e[i], d);
  return rc;
}

/* ---- Poseidon (crypto/poseidon/poseidon.rs) ----------------------------- */

static int p1_matmul(const pctx *c, pvec *st, const pmat *mds) {
  uint32_t t = st->n;
  if (mds->n != t)
    return scp_hf_err_crypto(c->h,
                             "Poseidon: matmul matrix dimension does not match the input length");
  int rc = scp_host_charge_bulk_init(c->h, t, SZ_FR);
  if (rc != SCP_OK) return rc;
  fr_t *out = calloc(t ? t : 1, sizeof *out);
  if (!out) return SCP_ERR_NOMEM;
  for (uint32_t i = 0; i < t && rc == SCP_OK; i++) {
    const pvec *row = &mds->rows[i];
    if (row->n != t) {
      rc = scp_hf_err_crypto(c->h,
                             "Poseidon: matmul matrix row length does not match input length");
      break;
    }
    for (uint32_t j = 0; j < t && rc == SCP_OK; j++) {
      fr_t tmp;
      memcpy(tmp, row->e[j], sizeof tmp);
      rc = f_mul(c, tmp, st->e[j]);
      if (rc == SCP_OK) rc = f_add(c, out[i], tmp);
    }
  }
  if (rc == SCP_OK) memcpy(st->e, out, (size_t)t * sizeof *out);
  free(out);
  return rc;
}

static int p1_full_round(const pctx *c, pvec *st, const pvec *rcr, uint32_t d,
                         const pmat *mds) {
  int rc = add_rc(c, st, rcr);
  if (rc == SCP_OK) rc = sbox(c, st, d);
  if (rc == SCP_OK) rc = p1_matmul(c, st, mds);
  return rc;
}

static int p1_permute(const pctx *c, const pvec *in, uint32_t t, uint32_t d, uint32_t rf,
                      uint32_t rp, const pmat *mds, const pmat *rcs, pvec *st) {
  if (in->n != t)
    return scp_hf_err_crypto(c->h, "Poseidon: permutation input length does not match `t`");
  int rc = clone_state(c, in, st);
  uint32_t r = 0, half = rf / 2, p_end = half + rp;
  for (; r < half && rc == SCP_OK; r++) rc = p1_full_round(c, st, &rcs->rows[r], d, mds);
  for (; r < p_end && rc == SCP_OK; r++) {
    rc = add_rc(c, st, &rcs->rows[r]);
    if (rc == SCP_OK && st->n == 0) rc = oob_err(c->h, "Poseidon: current_state is empty");
    if (rc == SCP_OK) rc = f_pow(c, st->e[0], d);
    if (rc == SCP_OK) rc = p1_matmul(c, st, mds);
  }
  for (; r < rf + rp && rc == SCP_OK; r++) rc = p1_full_round(c, st, &rcs->rows[r], d, mds);
  return rc;
}

/* ---- Poseidon2 (crypto/poseidon/poseidon2.rs) --------------------------- */

/* sum = a + b (a plain copy of a, then the metered add). */
static int sum2(const pctx *c, uint64_t *sum, const uint64_t *a, const uint64_t *b) {
  memcpy(sum, a, sizeof(fr_t));
  return f_add(c, sum, b);
}

static int p2_m4(const pctx *c, pvec *st, uint32_t t) {
  if (t % 4)
    return scp_hf_err_crypto(c->h, "Poseidon2: matmul_m4 state size must be divisible by 4");
  int rc = SCP_OK;
  for (uint32_t i = 0; i < t / 4 && rc == SCP_OK; i++) {
    uint64_t(*s)[4] = &st->e[4 * i];
    fr_t t0, t1, t2, t3, t4, t5, t6, t7;
    rc = sum2(c, t0, s[0], s[1]);
    if (rc == SCP_OK) rc = sum2(c, t1, s[2], s[3]);
    memcpy(t2, s[1], sizeof t2);
    if (rc == SCP_OK) rc = f_double(c, t2);
    if (rc == SCP_OK) rc = f_add(c, t2, t1);
    memcpy(t3, s[3], sizeof t3);
    if (rc == SCP_OK) rc = f_double(c, t3);
    if (rc == SCP_OK) rc = f_add(c, t3, t0);
    memcpy(t4, t1, sizeof t4);
    if (rc == SCP_OK) rc = f_double(c, t4);
    if (rc == SCP_OK) rc = f_double(c, t4);
    if (rc == SCP_OK) rc = f_add(c, t4, t3);
    memcpy(t5, t0, sizeof t5);
    if (rc == SCP_OK) rc = f_double(c, t5);
    if (rc == SCP_OK) rc = f_double(c, t5);
    if (rc == SCP_OK) rc = f_add(c, t5, t2);
    if (rc == SCP_OK) rc = sum2(c, t6, t3, t5);
    if (rc == SCP_OK) rc = sum2(c, t7, t2, t4);
    if (rc != SCP_OK) break;
    memcpy(s[0], t6, sizeof t6);
    memcpy(s[1], t5, sizeof t5);
    memcpy(s[2], t7, sizeof t7);
    memcpy(s[3], t4, sizeof t4);
  }
  return rc;
}

static int p2_external(const pctx *c, pvec *st, uint32_t t) {
  if (st->n != t)
    return scp_hf_err_crypto(c->h, "Poseidon2: matmul_external input length does not match `t`");
  fr_t sum;
  int rc = SCP_OK;
  switch (t) {
  case 2:
  case 3:
    rc = sum2(c, sum, st->e[0], st->e[1]);
    if (rc == SCP_OK && t == 3) rc = f_add(c, sum, st->e[2]);
    for (uint32_t i = 0; i < t && rc == SCP_OK; i++) rc = f_add(c, st->e[i], sum);
    return rc;
  case 4:
    return p2_m4(c, st, t);
  case 8: case 12: case 16: case 20: case 24: {
    rc = p2_m4(c, st, t);
    if (rc == SCP_OK) rc = scp_host_charge_bulk_init(c->h, 4, SZ_FR);
    fr_t stored[4];
    for (uint32_t l = 0; l < 4 && rc == SCP_OK; l++) {
      memcpy(stored[l], st->e[l], sizeof stored[l]);
      for (uint32_t j = 1; j < t / 4 && rc == SCP_OK; j++)
        rc = f_add(c, stored[l], st->e[4 * j + l]);
    }
    for (uint32_t i = 0; i < t && rc == SCP_OK; i++) rc = f_add(c, st->e[i], stored[i % 4]);
    return rc;
  }
  default:
    return scp_hf_err_crypto(c->h, "Poseidon2: matmul_external unsupported state size");
  }
}

static int p2_internal(const pctx *c, pvec *st, uint32_t t, const pvec *diag) {
  if (t != st->n || t != diag->n)
    return scp_hf_err_crypto(c->h, "Poseidon2: matmul_internal length mismatch between `t`, "
                                   "input length and/or matrix length");
  fr_t sum;
  int rc;
  switch (t) {
  case 2:
  case 3:
    rc = sum2(c, sum, st->e[0], st->e[1]);
    if (rc == SCP_OK && t == 3) rc = f_add(c, sum, st->e[2]);
    for (uint32_t i = 0; i + 1 < t && rc == SCP_OK; i++) rc = f_add(c, st->e[i], sum);
    if (rc == SCP_OK) rc = f_double(c, st->e[t - 1]);
    if (rc == SCP_OK) rc = f_add(c, st->e[t - 1], sum);
    return rc;
  case 4: case 8: case 12: case 16: case 20: case 24:
    memcpy(sum, st->e[0], sizeof sum);
    rc = SCP_OK;
    for (uint32_t i = 1; i < t && rc == SCP_OK; i++) rc = f_add(c, sum, st->e[i]);
    for (uint32_t i = 0; i < t && rc == SCP_OK; i++) {
      rc = f_mul(c, st->e[i], diag->e[i]);
      if (rc == SCP_OK) rc = f_add(c, st->e[i], sum);
    }
    return rc;
  default:
    return scp_hf_err_crypto(c->h, "Poseidon2: matmul_internal unsupported state size");
  }
}

static int p2_full_round(const pctx *c, pvec *st, const pvec *rcr, uint32_t t, uint32_t d) {
  int rc = add_rc(c, st, rcr);
  if (rc == SCP_OK) rc = sbox(c, st, d);
  if (rc == SCP_OK) rc = p2_external(c, st, t);
  return rc;
}

static int p2_permute(const pctx *c, const pvec *in, uint32_t t, uint32_t d, uint32_t rf,
                      uint32_t rp, const pvec *diag, const pmat *rcs, pvec *st) {
  if (in->n != t)
    return scp_hf_err_crypto(c->h, "Poseidon2: permutation input length does not match `t`");
  int rc = clone_state(c, in, st);
  if (rc == SCP_OK) rc = p2_external(c, st, t);
  uint32_t r = 0, half = rf / 2, p_end = half + rp;
  for (; r < half && rc == SCP_OK; r++) rc = p2_full_round(c, st, &rcs->rows[r], t, d);
  for (; r < p_end && rc == SCP_OK; r++) {
    if (rcs->rows[r].n == 0)
      rc = oob_err(c->h, "Poseidon2: round constant vector is empty");
    else if (st->n == 0)
      rc = oob_err(c->h, "Poseidon2: current_state is empty");
    if (rc == SCP_OK) rc = f_add(c, st->e[0], rcs->rows[r].e[0]);
    if (rc == SCP_OK) rc = f_pow(c, st->e[0], d);
    if (rc == SCP_OK) rc = p2_internal(c, st, t, diag);
  }
  for (; r < rf + rp && rc == SCP_OK; r++) rc = p2_full_round(c, st, &rcs->rows[r], t, d);
  return rc;
}

/* ---- the host functions -------------------------------------------------- */

static int permutation(scp_host *h, const uint64_t *a, bool v2, uint64_t *ret) {
  const char *fn = v2 ? "poseidon2_permutation" : "poseidon_permutation";
  pctx c = { .h = h };
  int rc = pick_field(h, a[1], fn, &c.bn);
  if (rc != SCP_OK) return rc;
  c.m = scp_hf_fr_modulus(c.bn);
  uint32_t t = scp_hf_u32_arg(a[2]), d = scp_hf_u32_arg(a[3]);
  uint32_t rf = scp_hf_u32_arg(a[4]), rp = scp_hf_u32_arg(a[5]);
  pvec in = { 0 }, diag = { 0 }, st = { 0 };
  pmat mds = { 0 }, rcs = { 0 };
  rc = vec_from_obj(&c, a[0], &in);
  if (rc == SCP_OK) rc = v2 ? vec_from_obj(&c, a[6], &diag) : mat_from_obj(&c, a[6], &mds);
  if (rc == SCP_OK) rc = mat_from_obj(&c, a[7], &rcs);
  if (rc == SCP_OK) {
    if (v2)
      rc = check_params(h, "Poseidon2", "Poseidon2: mat_internal_diag_m_1 length does not match `t`",
                        t, d, rf, rp, diag.n, rcs.n);
    else
      rc = check_params(h, "Poseidon", "Poseidon: mds matrix length does not match `t`", t, d,
                        rf, rp, mds.n, rcs.n);
  }
  if (rc == SCP_OK)
    rc = v2 ? p2_permute(&c, &in, t, d, rf, rp, &diag, &rcs, &st)
            : p1_permute(&c, &in, t, d, rf, rp, &mds, &rcs, &st);
  if (rc == SCP_OK) rc = vec_to_obj(&c, &st, ret);
  free(in.e);
  free(diag.e);
  free(st.e);
  mat_free(&mds);
  mat_free(&rcs);
  return rc;
}

HOSTFN(poseidon_permutation) { return permutation(h, a, false, ret); }
HOSTFN(poseidon2_permutation) { return permutation(h, a, true, ret); }
