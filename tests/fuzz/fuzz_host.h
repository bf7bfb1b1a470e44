/*
 * fuzz_host.h — one input as a sequence of host-function calls on one host,
 * the way a contract's VM makes them (scp_host_dispatch: relative handles,
 * a linear memory), with hostile arguments.  Used by the libFuzzer target
 * (fuzz_host.c, `make fuzz`) and by the corpus replay in the tests
 * (test_fuzz_replay.c, tests/fuzz/corpus-host).
 *
 * Input layout (every read past the end yields zeros, so any input is
 * valid):
 *   byte 0   budget: cpu limit 2^(18 + low nibble, at most 26), memory
 *            limit 2^(16 + bits 4..6); bit 7 = a protocol below 22, so the
 *            protocol gates (Context, IndexBounds) are hit too
 *   byte 1   bit 0 enforcing auth, bit 1 seed the base PRNG, bits 2..3 the
 *            linear memory size (0, 256, 4096, 65536 bytes), bit 4 frame
 *            without a contract id, bit 5 classic accounts, trustlines and
 *            the native and USDC asset contracts in the ledger (fh_ledger;
 *            their addresses, function names and argument Vecs join the
 *            pool), bit 6 signed authorization entries read from the
 *            next bytes (fh_entries: enforcing mode), bit 7 a source
 *            account (the all-zero key)
 *   then     steps: a function byte (id = b < count ? b : b - count), a
 *            mode byte (bit 0: a direct host call with absolute handles
 *            instead of the VM path; bit 1: no linear memory; bit 2: render
 *            the result as the CLI does), then one
 *            selector byte (plus payload) per argument, see fh_arg.
 * The linear memory holds the input itself, repeated, so the fuzzer controls
 * what the *_linear_memory functions read.  A pool of Vals (set up first:
 * addresses, Bytes of the curve-point sizes, a String, a Symbol, a Vec, a
 * Map, number objects; then every result) feeds the arguments.
 *
 * Oracles besides the sanitizers: a host error must come with an Error Val,
 * a budget error only with the budget exceeded, a success never after it,
 * the result must have the declared type, and nothing may return
 * SCP_ERR_INTERNAL / SCP_ERR_NOMEM (a host bug or an unbounded allocation).
 */
#ifndef SCP_FUZZ_HOST_H
#define SCP_FUZZ_HOST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_instance.h"
#include "soroban/core/scp_val.h"
#include "soroban/run/scp_scenario.h"
#include "soroban/run/sac_setup.h"

#define FH_POOL 96
#define FH_STEPS 96

typedef struct fh_in {
  const uint8_t *p;
  size_t n, at;
} fh_in;

static inline uint8_t fh_u8(fh_in *in) { return in->at < in->n ? in->p[in->at++] : 0; }
static inline uint32_t fh_u32(fh_in *in) {
  uint32_t x = 0;
  for (int i = 0; i < 4; i++) x = x << 8 | fh_u8(in);
  return x;
}
static inline uint64_t fh_u64(fh_in *in) {
  uint64_t hi = fh_u32(in);
  return hi << 32 | fh_u32(in);
}

typedef struct fh_state {
  scp_budget b;
  scp_host *h;
  fh_in in;
  uint64_t pool[FH_POOL];   /* relative Vals of the current frame */
  unsigned npool, next;
  uint8_t *lm;              /* the guest's linear memory */
  size_t lmlen;
  unsigned depth;           /* nested contract frames (fh_invoker) */
  bool ledger;              /* accounts, trustlines and asset contracts seeded */
  uint8_t sac[2][32];       /* the native and USDC asset contracts' ids */
} fh_state;

static inline void fh_keep(fh_state *s, uint64_t v) {
  if (s->npool < FH_POOL) s->pool[s->npool++] = v;
  else s->pool[FH_POOL / 2 + s->next++ % (FH_POOL / 2)] = v;   /* keep the set-up half */
}

/* Whether v has the (marshalling) type vt; the same rules as host.c. */
static inline bool fh_fits(unsigned vt, uint64_t v) {
  unsigned t = scp_val_tag_of(v);
  switch (vt) {
  case SCP_VT_Val: return true;
  case SCP_VT_u64: case SCP_VT_i64: return true;
  case SCP_VT_StorageType: case SCP_VT_ContractTtlExtension: return v <= 2;
  case SCP_VT_Void: return t == SCP_TAG_VOID;
  case SCP_VT_Bool: return t <= SCP_TAG_TRUE;
  case SCP_VT_Error: return t == SCP_TAG_ERROR;
  case SCP_VT_U32Val: return t == SCP_TAG_U32;
  case SCP_VT_Symbol: return t == SCP_TAG_SYMBOL_SMALL || t == SCP_TAG_SYMBOL_OBJ;
  case SCP_VT_U64Val: return t == SCP_TAG_U64_SMALL || t == SCP_TAG_U64_OBJ;
  case SCP_VT_U256Val: return t == SCP_TAG_U256_SMALL || t == SCP_TAG_U256_OBJ;
  case SCP_VT_I256Val: return t == SCP_TAG_I256_SMALL || t == SCP_TAG_I256_OBJ;
  case SCP_VT_AddressObject: return t == SCP_TAG_ADDRESS_OBJ;
  case SCP_VT_MuxedAddressObject: return t == SCP_TAG_MUXED_ADDRESS_OBJ;
  case SCP_VT_BytesObject: return t == SCP_TAG_BYTES_OBJ;
  case SCP_VT_StringObject: return t == SCP_TAG_STRING_OBJ;
  case SCP_VT_SymbolObject: return t == SCP_TAG_SYMBOL_OBJ;
  case SCP_VT_VecObject: return t == SCP_TAG_VEC_OBJ;
  case SCP_VT_MapObject: return t == SCP_TAG_MAP_OBJ;
  case SCP_VT_U64Object: return t == SCP_TAG_U64_OBJ;
  case SCP_VT_I64Object: return t == SCP_TAG_I64_OBJ;
  case SCP_VT_TimepointObject: return t == SCP_TAG_TIMEPOINT_OBJ;
  case SCP_VT_DurationObject: return t == SCP_TAG_DURATION_OBJ;
  case SCP_VT_U128Object: return t == SCP_TAG_U128_OBJ;
  case SCP_VT_I128Object: return t == SCP_TAG_I128_OBJ;
  case SCP_VT_U256Object: return t == SCP_TAG_U256_OBJ;
  case SCP_VT_I256Object: return t == SCP_TAG_I256_OBJ;
  case SCP_VT_ExecutableTagObject: return t == SCP_TAG_EXECUTABLE_TAG_OBJ;
  default: return false;
  }
}

/* A small number: mostly tiny (lengths, positions, indices), sometimes any. */
static inline uint32_t fh_num(fh_in *in) {
  uint8_t k = fh_u8(in);
  if (k < 0xc0) return k;
  if (k < 0xf0) return (uint32_t)(k - 0xc0) << 8 | fh_u8(in);
  return fh_u32(in);
}

/* A small (non-object) Val of any tag 0..15, or a bad tag. */
static inline uint64_t fh_small(fh_in *in) {
  static const uint8_t tags[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 62 };
  unsigned t = tags[fh_u8(in) % sizeof tags];
  uint64_t body = fh_u8(in) & 1 ? fh_u64(in) >> 8 : fh_num(in);
  if (t == SCP_TAG_U32 || t == SCP_TAG_I32 || t == SCP_TAG_ERROR)
    return scp_val_from_major_minor((uint32_t)(body ? body : fh_num(in)), fh_u8(in) & 1 ? 0 : fh_u8(in) % 12, t);
  return scp_val_from_body(body, t);
}

/* One argument of type vt.  Selector s: 0..127 a value of the expected
 * type (a pool entry of that type when there is one), 128..191 any pool
 * entry, 192..223 a small Val of a random tag, 224..239 raw 64 bits,
 * 240..255 a forged object (random object tag and handle). */
static inline uint64_t fh_arg(fh_state *s, unsigned vt) {
  fh_in *in = &s->in;
  uint8_t sel = fh_u8(in);
  if (sel >= 240) {
    unsigned t = SCP_TAG_U64_OBJ + fh_u8(in) % (SCP_TAG_OBJECT_UPPER - SCP_TAG_U64_OBJ);
    uint32_t hnd = fh_u8(in) & 1 ? fh_u32(in) : fh_u8(in);
    return scp_val_object(t, hnd);
  }
  if (sel >= 224) return fh_u64(in);
  if (sel >= 192) return fh_small(in);
  if (sel >= 128) return s->npool ? s->pool[fh_u8(in) % s->npool] : SCP_VAL_VOID;
  switch (vt) {
  case SCP_VT_u64: case SCP_VT_i64:
    return sel & 1 ? fh_u64(in) : fh_num(in);
  case SCP_VT_StorageType: case SCP_VT_ContractTtlExtension: return sel % 4;
  case SCP_VT_Void: return SCP_VAL_VOID;
  case SCP_VT_Bool: return sel & 1;
  case SCP_VT_Error: return scp_val_error((scp_err_type)(fh_u8(in) % 11), fh_num(in));
  case SCP_VT_U32Val: return scp_val_u32(sel & 1 ? fh_u32(in) : fh_num(in));
  default: break;
  }
  /* a pool entry of the type, else a small Val of the type's small tag */
  unsigned k = s->npool ? fh_u8(in) : 0;
  for (unsigned i = 0; i < s->npool; i++) {
    uint64_t v = s->pool[(k + i) % s->npool];
    if (vt != SCP_VT_Val && fh_fits(vt, v)) return v;
  }
  switch (vt) {
  case SCP_VT_Symbol: return scp_val_from_body(fh_u64(in) >> 10, SCP_TAG_SYMBOL_SMALL);
  case SCP_VT_U64Val: return scp_val_small_u(fh_num(in), SCP_TAG_U64_SMALL);
  case SCP_VT_U256Val: return scp_val_small_u(fh_num(in), SCP_TAG_U256_SMALL);
  case SCP_VT_I256Val: return scp_val_small_i((int32_t)fh_u32(in), SCP_TAG_I256_SMALL);
  case SCP_VT_Val: return s->npool ? s->pool[k % s->npool] : fh_small(in);
  default: return fh_small(in);
  }
}

/* Set-up calls: content written to a scratch linear memory, an object made
 * from it through the VM path, the result pooled. */
static inline void fh_make(fh_state *s, const char *fn, const uint64_t *args, const void *src,
                           size_t len, uint8_t *scratch) {
  int id = scp_hostfn_find_name(fn);
  if (id < 0) __builtin_trap();
  if (src) memcpy(scratch, src, len);
  scp_hostmem m = { scratch, 4096 };
  uint64_t r;
  scp_error err;
  if (scp_host_dispatch(s->h, (unsigned)id, args, &m, &r, &err) == SCP_OK) fh_keep(s, r);
}

static inline void fh_setup(fh_state *s, const uint8_t contract[32], const uint8_t *wasm,
                            size_t wasmlen) {
  uint8_t *scratch = calloc(1, 4096);
  if (!scratch) return;
  char ck[57];
  scp_host_contract_strkey(contract, ck);
  static const char gk[] = "GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF";
  uint64_t a[4] = { scp_val_u32(0), scp_val_u32(56) }, scalar = SCP_VAL_VOID, pts[5];
  /* addresses: strkey_to_address on a String */
  fh_make(s, "string_new_from_linear_memory", a, ck, 56, scratch);
  if (s->npool) {
    uint64_t b[1] = { s->pool[s->npool - 1] };
    fh_make(s, "strkey_to_address", b, NULL, 0, scratch);
  }
  fh_make(s, "bytes_new_from_linear_memory", a, gk, 56, scratch);
  if (s->npool) {
    uint64_t b[1] = { s->pool[s->npool - 1] };
    fh_make(s, "strkey_to_address", b, NULL, 0, scratch);
  }
  /* Bytes of the input, at the sizes the crypto functions take: hashes
   * and keys (32), signatures (64), BLS12-381 Fp / G1 / G2 (48, 96, 192),
   * BN254 G1 / G2 (64, 128), secp256k1 keys (65), and empty */
  static const uint32_t sizes[] = { 0, 32, 48, 64, 65, 96, 128, 192, 200 };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    for (uint32_t j = 0; j < sizes[i]; j++)
      scratch[j] = s->in.n ? s->in.p[(j + 7 * i) % s->in.n] : (uint8_t)j;
    a[1] = scp_val_u32(sizes[i]);
    fh_make(s, "bytes_new_from_linear_memory", a, NULL, 0, scratch);
    if (sizes[i] == 32 && s->npool) scalar = s->pool[s->npool - 1];
  }
  /* valid curve points, so the arithmetic past the decoders is reached:
   * the BLS12-381 G1 and G2 generators (uncompressed, Fp2 as c1 || c0) and
   * BN254's G1 generator (1, 2) and a G1 / G2 pair of the EIP-197 pairing
   * example (tests/soroban/pairing_vectors.h) */
  static const char *const points[] = {
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1",
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
    "0000000000000000000000000000000000000000000000000000000000000001"
    "0000000000000000000000000000000000000000000000000000000000000002",
    "2cf44499d5d27bb186308b7af7af02ac5bc9eeb6a3d147c186b21fb1b76e18da"
    "2c0f001f52110ccfe69108924926e45f0b0c868df0e7bde1fe16d3242dc715f6",
    "1fb19bb476f6b9e44e2a32234da8212f61cd63919354bc06aef31e3cfaff3ebc"
    "22606845ff186793914e03e21df544c34ffe2f2f3504de8a79d9159eca2d98d9"
    "2bd368e28381e8eccb5fa81fc26cf3f048eea9abfdd85d7ed3ab3698d63e4f90"
    "2fe02e47887507adf0ff1743cbac6ba291e66f59be6bd763950bb16041a0a85e",
  };
  for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
    size_t n = strlen(points[i]) / 2;
    for (size_t j = 0; j < n; j++) {
      unsigned x;
      sscanf(points[i] + 2 * j, "%2x", &x);
      scratch[j] = (uint8_t)x;
    }
    a[1] = scp_val_u32((uint32_t)n);
    fh_make(s, "bytes_new_from_linear_memory", a, NULL, 0, scratch);
    pts[i] = s->npool ? s->pool[s->npool - 1] : SCP_VAL_VOID;
  }
  /* Vecs of them for the MSMs and pairing checks (with 32-byte scalars) */
  uint64_t vecs[][2] = { { pts[0], pts[0] }, { pts[1], pts[1] }, { pts[2], pts[3] }, { pts[4], pts[4] },
                         { scp_val_small_u(5, SCP_TAG_U256_SMALL), scp_val_small_u(1, SCP_TAG_U256_SMALL) },
                         { scalar, scalar } };
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++) {
    a[1] = scp_val_u32(2);
    fh_make(s, "vec_new_from_linear_memory", a, vecs[i], sizeof vecs[i], scratch);
  }
  /* a muxed account: ScVal::Address(ScAddress::MuxedAccount { id 7, key
   * 0x01.. }) XDR, deserialized */
  static const uint8_t muxed[48] = { 0, 0, 0, 18, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7, 1 };
  a[1] = scp_val_u32(sizeof muxed);
  fh_make(s, "bytes_new_from_linear_memory", a, muxed, sizeof muxed, scratch);
  if (s->npool) {
    uint64_t b[1] = { s->pool[s->npool - 1] };
    fh_make(s, "deserialize_from_bytes", b, NULL, 0, scratch);
  }
  /* Asset XDR for create_asset_contract / get_asset_contract_id: native,
   * and AlphaNum4 "USDC" issued by the zero account */
  static const uint8_t native[4] = { 0 }, usdc[44] = { 0, 0, 0, 1, 'U', 'S', 'D', 'C' };
  a[1] = scp_val_u32(sizeof native);
  fh_make(s, "bytes_new_from_linear_memory", a, native, sizeof native, scratch);
  a[1] = scp_val_u32(sizeof usdc);
  fh_make(s, "bytes_new_from_linear_memory", a, usdc, sizeof usdc, scratch);
  /* the module's bytes and, uploaded, its hash (create_contract's) */
  a[1] = scp_val_u32((uint32_t)wasmlen);
  fh_make(s, "bytes_new_from_linear_memory", a, wasm, wasmlen, scratch);
  if (s->npool) {
    uint64_t b[1] = { s->pool[s->npool - 1] };
    fh_make(s, "upload_wasm", b, NULL, 0, scratch);
  }
  a[1] = scp_val_u32(8);
  fh_make(s, "string_new_from_linear_memory", a, "transfer", 8, scratch);
  a[1] = scp_val_u32(20);
  fh_make(s, "symbol_new_from_linear_memory", a, "a_long_symbol_name_x", 20, scratch);
  /* a Vec and a Map of small Vals, and empty ones */
  uint64_t vals[3] = { scp_val_u32(1), SCP_VAL_TRUE, scp_val_from_body(12345, SCP_TAG_I64_SMALL) };
  a[1] = scp_val_u32(3);
  fh_make(s, "vec_new_from_linear_memory", a, vals, sizeof vals, scratch);
  fh_make(s, "vec_new", a, NULL, 0, scratch);
  fh_make(s, "map_new", a, NULL, 0, scratch);
  /* map_new_from_linear_memory: keys are (ptr, len) slices of symbols */
  memcpy(scratch + 64, "ab", 2);
  memcpy(scratch + 66, "cd", 2);
  uint64_t slices[2] = { (uint64_t)2 << 32 | 64, (uint64_t)2 << 32 | 66 };
  memcpy(scratch, slices, sizeof slices);
  memcpy(scratch + 32, vals, 2 * sizeof vals[0]);
  uint64_t m3[3] = { scp_val_u32(0), scp_val_u32(32), scp_val_u32(2) };
  fh_make(s, "map_new_from_linear_memory", m3, NULL, 0, scratch);
  /* number objects (too big for the small forms) */
  uint64_t n[4] = { UINT64_MAX, UINT64_MAX - 1, 1, (uint64_t)1 << 63 };
  fh_make(s, "obj_from_u64", n, NULL, 0, scratch);
  fh_make(s, "obj_from_i64", n + 3, NULL, 0, scratch);
  fh_make(s, "timepoint_obj_from_u64", n, NULL, 0, scratch);
  fh_make(s, "duration_obj_from_u64", n, NULL, 0, scratch);
  fh_make(s, "obj_from_u128_pieces", n, NULL, 0, scratch);
  fh_make(s, "obj_from_i128_pieces", n + 2, NULL, 0, scratch);
  fh_make(s, "obj_from_u256_pieces", n, NULL, 0, scratch);
  fh_make(s, "obj_from_i256_pieces", n, NULL, 0, scratch);
  free(scratch);
}

/* The stand-in for a nested contract VM (call, try_call, create_contract's
 * constructor): the frame push's charges, a contract frame, and a few
 * calls read from the input made in it (the pool's relative handles are
 * the caller's, so they name other objects or none there); the callee
 * fails when its last call did.  Results made in the frame leave the pool
 * with it. */
static int fh_run(fh_state *s, unsigned nsteps);
static inline int fh_invoker(void *ctx, scp_host *h, const scp_invocation *inv, uint64_t *ret,
                             scp_error *err) {
  fh_state *s = ctx;
  (void)err;
  if (inv->probe) {
    *ret = scp_val_u32(23);
    return SCP_OK;
  }
  int rc = scp_host_charge_push_context(h, inv->id);
  if (rc != SCP_OK) return rc;
  rc = scp_host_push_contract_frame(h, inv->id);
  if (rc != SCP_OK) return rc;
  unsigned n = s->depth < 3 ? fh_u8(&s->in) % 4 : 0, npool = s->npool;
  s->depth++;
  rc = fh_run(s, n);
  s->depth--;
  s->npool = npool;
  if (rc == SCP_OK) rc = scp_inst_frame_end(h);   /* persist_instance_storage */
  scp_host_pop_frame(h);
  *ret = SCP_VAL_VOID;
  return rc == SCP_ERR_UNSUPPORTED ? SCP_OK : rc;
}

/* Functions the fuzzer leaves alone (their files are being reworked
 * elsewhere; findings there are reported, not fixed here). */
static inline bool fh_skipped(unsigned id) {
  static const char *const skip[] = { NULL };
  const scp_hostfn *d = scp_hostfn_get(id);
  for (size_t i = 0; skip[i]; i++)
    if (!strcmp(d->name, skip[i])) return true;
  return false;
}

static inline void fh_check(bool ok) {
  if (!ok) __builtin_trap();
}

/* Up to nsteps calls read from the input, in the current frame; the status
 * of the last. */
static int fh_run(fh_state *s, unsigned nsteps) {
  unsigned count = scp_hostfn_count();
  bool trace = getenv("FUZZ_HOST_TRACE") != NULL;   /* one line per call, for triage */
  int last = SCP_OK;
  for (unsigned step = 0; step < nsteps && s->in.at < s->in.n; step++) {
    uint8_t fb = fh_u8(&s->in), mode = fh_u8(&s->in);
    unsigned id = fb < count ? fb : fb - count;
    if (fh_skipped(id)) continue;
    const scp_hostfn *d = scp_hostfn_get(id);
    uint64_t args[SCP_HOST_MAX_ARGS] = { 0 }, r = 0;
    for (unsigned i = 0; i < d->argc; i++) args[i] = fh_arg(s, scp_hostfn_argtype(id, i));
    scp_hostmem m = { s->lm, s->lmlen };
    scp_error err;
    bool direct = mode & 1;
    int rc;
    bool was_exceeded = s->b.exceeded;
    if (direct) {
      /* the reference's own tests' way (absolute handles, no dispatch charge) */
      for (unsigned i = 0; i < d->argc; i++) {
        uint64_t abs;
        if (scp_val_is_object(args[i]) && scp_host_to_absolute(s->h, args[i], &abs) == SCP_OK)
          args[i] = abs;
      }
      rc = scp_host_call(s->h, id, args, mode & 2 ? NULL : &m, &r, &err);
      unsigned rt = scp_hostfn_rettype(id);
      if (rc == SCP_OK && rt != SCP_VT_u64 && rt != SCP_VT_i64 && scp_val_is_object(r))
        rc = scp_host_to_relative(s->h, r, &r);
    } else {
      rc = scp_host_dispatch(s->h, id, args, &m, &r, &err);
    }
    if (trace) {
      fprintf(stderr, "%*s%u %s%s(", 2 * s->depth, "", step, d->name, direct ? " direct" : "");
      for (unsigned i = 0; i < d->argc; i++) fprintf(stderr, "%s%#llx", i ? ", " : "", (unsigned long long)args[i]);
      fprintf(stderr, ") -> rc %d %#llx cpu %llu mem %llu%s\n", rc, (unsigned long long)r,
              (unsigned long long)s->b.cpu, (unsigned long long)s->b.mem, s->b.exceeded ? " exceeded" : "");
    }
    switch (rc) {
    case SCP_OK:
      fh_check(!s->b.exceeded);
      fh_check(fh_fits(scp_hostfn_rettype(id), r) ||
               (scp_hostfn_rettype(id) == SCP_VT_Val && !scp_val_is_object(r)));
      if (scp_hostfn_rettype(id) != SCP_VT_u64 && scp_hostfn_rettype(id) != SCP_VT_i64) {
        fh_keep(s, r);
        if (mode & 4) {   /* the CLI's rendering of results */
          scp_buf out = { 0 };
          scp_host_val_format(s->h, r, &out);
          scp_buf_free(&out);
        }
      }
      break;
    case SCP_ERR_HOST:
      fh_check(scp_val_tag_of(r) == SCP_TAG_ERROR);
      break;
    case SCP_ERR_BUDGET:
      fh_check(s->b.exceeded);
      break;
    case SCP_ERR_UNSUPPORTED:
      break;
    default:
      fh_check(false);   /* SCP_ERR_INTERNAL / NOMEM / anything else: a host bug */
    }
    (void)was_exceeded;
    last = rc;
    if (s->b.exceeded) break;   /* every later call fails at its first charge */
  }
  return last;
}


/* ---- the ledger state and the signed entries (byte 1 bits 5..7) ------------------ */

/* The classic accounts and asset contracts: the all-zero account (USDC's
 * issuer, so the asset contract's admin; AUTH_REVOCABLE and
 * AUTH_CLAWBACK_ENABLED, as clawback and set_authorized need), FH_A1 (1e9
 * stroops, an extra signer, an authorized USDC trustline of 1000) and
 * FH_A2 (no account entry, an unauthorized trustline); the native and
 * USDC asset contracts.  Set-up, uncharged, before the first frame. */
static const uint8_t FH_A1[32] = { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                                   0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
                                   0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11 };
static const uint8_t FH_A2[32] = { 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33,
                                   0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33,
                                   0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33 };
#define FH_USDC "USDC:GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF"

static inline bool fh_ledger(fh_state *s) {
  scp_ledger_account acc[2] = { { .balance = 50000000, .flags = 2 | 8, .thresholds = { 1, 0, 0, 0 } },
                                { .balance = 1000000000, .seq_num = 5, .thresholds = { 1, 0, 1, 2 },
                                  .nsigners = 1, .signer_weight = { 1 } } };
  memcpy(acc[1].id, FH_A1, 32);
  memset(acc[1].signer_key[0], 0x22, 32);
  scp_ledger_trustline tl[2] = { { .asset = FH_USDC, .balance = 1000, .limit = INT64_MAX, .authorized = true },
                                 { .asset = FH_USDC, .limit = 5000 } };
  memcpy(tl[0].account, FH_A1, 32);
  memcpy(tl[1].account, FH_A2, 32);
  scp_ledger l = { .accounts = acc, .naccounts = 2, .trustlines = tl, .ntrustlines = 2 };
  scp_error err;
  if (scp_ledger_seed_classic(s->h, &l, &err) != SCP_OK) return false;
  static const char *const assets[2] = { "native", FH_USDC };
  for (int i = 0; i < 2; i++) {
    scp_sac_asset a;
    const char *why;
    if (scp_sac_asset_parse(assets[i], &a, &why) != SCP_OK ||
        scp_sac_setup_deploy(s->h, &a, s->sac[i], &err) != SCP_OK)
      return false;
  }
  return s->ledger = true;
}

/* Pool entries for the asset contracts' functions, made in the frame: the
 * accounts' and asset contracts' addresses, the functions' names and
 * argument Vecs shaped as they take them. */
static inline void fh_ledger_pool(fh_state *s, uint8_t *scratch) {
  const uint8_t *keys[5] = { FH_A1, FH_A2, s->sac[0], s->sac[1], NULL };
  uint64_t addr[4] = { 0 };
  for (int i = 0; i < 4; i++) {
    scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
    if (!(o.u.bytes = malloc(33))) return;
    o.u.bytes[0] = i >= 2;   /* SC_ADDRESS_TYPE_ACCOUNT 0, CONTRACT 1 */
    memcpy(o.u.bytes + 1, keys[i], 32);
    uint64_t abs;
    if (scp_host_add_obj(s->h, &o, &abs) != SCP_OK || scp_host_to_relative(s->h, abs, &addr[i]) != SCP_OK)
      return;
    fh_keep(s, addr[i]);
  }
  static const char *const names[] = { "transfer", "mint", "burn", "clawback", "balance", "approve",
                                       "set_admin", "decimals", "set_authorized", "authorized",
                                       "transfer_from", "burn_from", "trust" };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    uint64_t v, a[2] = { scp_val_u32(0), scp_val_u32((uint32_t)strlen(names[i])) };
    if (scp_val_symbol_small((const uint8_t *)names[i], strlen(names[i]), &v)) fh_keep(s, v);
    else fh_make(s, "symbol_new_from_linear_memory", a, names[i], strlen(names[i]), scratch);
  }
  uint64_t amt = scp_val_small_i(10, SCP_TAG_I128_SMALL);
  uint64_t shapes[][3] = { { addr[0], addr[1], amt },   /* transfer(from, to, amount) */
                           { addr[0], amt },            /* mint(to, amount), burn, clawback */
                           { addr[1], SCP_VAL_TRUE },   /* set_authorized(id, authorize) */
                           { addr[0] },                 /* balance(id), trust */
                           { addr[2], amt } };          /* a contract balance */
  static const uint32_t lens[] = { 3, 2, 2, 1, 2 };
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    uint64_t a[2] = { scp_val_u32(0), scp_val_u32(lens[i]) };
    fh_make(s, "vec_new_from_linear_memory", a, shapes[i], lens[i] * sizeof(uint64_t), scratch);
  }
}

/* A SorobanAuthorizationEntry's XDR, written from the input: credentials
 * SourceAccount / Address / AddressV2 of one of the accounts or contracts,
 * a nonce, an expiration around the ledger's sequence (100), a signature
 * (Void, a u32, or the Vec of {public_key, signature} maps an account's
 * check reads), and a tree of up to three levels naming the asset
 * contracts' or the fuzzed contract's functions with arguments shaped as
 * fh_ledger_pool's.  Corrupted on request (a byte flipped, or cut short),
 * so the parser's error paths are reached from near-valid entries. */
typedef struct fh_xb {
  uint8_t p[3072];
  size_t n;
} fh_xb;

static inline void fh_x32(fh_xb *b, uint32_t v) {
  if (b->n + 4 > sizeof b->p) return;
  for (int i = 0; i < 4; i++) b->p[b->n++] = (uint8_t)(v >> (24 - 8 * i));
}
static inline void fh_xbytes(fh_xb *b, const void *p, size_t n) {
  if (b->n + n + 4 > sizeof b->p) return;
  fh_x32(b, (uint32_t)n);
  memcpy(b->p + b->n, p, n);
  b->n += n;
  while (b->n % 4) b->p[b->n++] = 0;
}
static inline void fh_xaddr(fh_xb *b, unsigned kind, const uint8_t id[32]) {
  if (b->n + 40 > sizeof b->p) return;
  fh_x32(b, kind);
  if (!kind) fh_x32(b, 0);
  memcpy(b->p + b->n, id, 32);
  b->n += 32;
}

static inline void fh_xkey(fh_state *s, fh_xb *b, uint8_t k, const uint8_t contract[32]) {
  static const uint8_t zero[32];
  switch (k % 5) {
  case 0: fh_xaddr(b, 0, zero); break;
  case 1: fh_xaddr(b, 0, FH_A1); break;
  case 2: fh_xaddr(b, 0, FH_A2); break;
  case 3: fh_xaddr(b, 1, contract); break;
  default: fh_xaddr(b, 1, s->sac[k / 5 % 2]); break;
  }
}

static inline void fh_xinvocation(fh_state *s, fh_xb *b, const uint8_t contract[32], unsigned depth) {
  static const char *const fns[] = { "transfer", "mint", "burn", "clawback", "set_authorized",
                                     "approve", "balance", "trust", "a_long_symbol_name_x", "" };
  uint8_t k = fh_u8(&s->in), shape = fh_u8(&s->in);
  fh_x32(b, 0);   /* SOROBAN_AUTHORIZED_FUNCTION_TYPE_CONTRACT_FN */
  fh_xaddr(b, 1, k & 1 ? contract : s->sac[k >> 1 & 1]);
  const char *fn = fns[(k >> 2) % (sizeof fns / sizeof fns[0])];
  fh_xbytes(b, fn, strlen(fn));
  uint64_t amount = shape & 0x80 ? fh_num(&s->in) : 10;
  switch (shape & 7) {
  case 0: case 1:   /* (from, to, amount) / (to, amount) */
    fh_x32(b, (shape & 7) == 0 ? 3 : 2);
    fh_x32(b, 18);
    fh_xaddr(b, 0, FH_A1);
    if ((shape & 7) == 0) {
      fh_x32(b, 18);
      fh_xaddr(b, 0, FH_A2);
    }
    fh_x32(b, 10);   /* SCV_I128 */
    fh_x32(b, 0);
    fh_x32(b, 0);
    fh_x32(b, 0);
    fh_x32(b, (uint32_t)amount);
    break;
  case 2:   /* (id, authorize) */
    fh_x32(b, 2);
    fh_x32(b, 18);
    fh_xaddr(b, 0, FH_A2);
    fh_x32(b, 0);   /* SCV_BOOL */
    fh_x32(b, 1);
    break;
  case 3:   /* a u32, a symbol, a Vec holding an address */
    fh_x32(b, 3);
    fh_x32(b, 3);
    fh_x32(b, (uint32_t)amount);
    fh_x32(b, 15);
    fh_xbytes(b, "ab", 2);
    fh_x32(b, 16);
    fh_x32(b, 1);
    fh_x32(b, 1);
    fh_x32(b, 18);
    fh_xkey(s, b, fh_u8(&s->in), contract);
    break;
  default:
    fh_x32(b, 0);
  }
  unsigned nsub = depth < 2 ? shape >> 3 & 3 : 0;
  fh_x32(b, nsub == 3 ? 1 : nsub);
  for (unsigned i = 0; i < (nsub == 3 ? 1u : nsub); i++) fh_xinvocation(s, b, contract, depth + 1);
}

static inline void fh_xentry(fh_state *s, fh_xb *b, const uint8_t contract[32]) {
  uint8_t c = fh_u8(&s->in);
  b->n = 0;
  fh_x32(b, c % 3);   /* SOURCE_ACCOUNT, ADDRESS, ADDRESS_V2 */
  if (c % 3) {
    uint8_t k = fh_u8(&s->in);
    fh_xkey(s, b, k, contract);
    fh_x32(b, 0);
    fh_x32(b, fh_u8(&s->in));                 /* nonce */
    fh_x32(b, 90 + fh_u8(&s->in) % 32);       /* expiration: some already past */
    switch (c >> 2 & 3) {
    case 0: fh_x32(b, 1); break;              /* SCV_VOID */
    case 1: fh_x32(b, 3); fh_x32(b, fh_u8(&s->in)); break;
    default: {                                /* Vec[Map{public_key, signature}] */
      unsigned n = (c >> 2 & 3) - 1;
      fh_x32(b, 16);
      fh_x32(b, 1);
      fh_x32(b, n);
      for (unsigned i = 0; i < n; i++) {
        uint8_t pk[32], sig[64];
        memset(pk, i ? 0x22 : (k % 5 == 1 ? 0x11 : 0), 32);
        for (int j = 0; j < 64; j++) sig[j] = fh_u8(&s->in);
        fh_x32(b, 17);
        fh_x32(b, 1);
        fh_x32(b, 2);
        fh_x32(b, 15);
        fh_xbytes(b, "public_key", 10);
        fh_x32(b, 13);
        fh_xbytes(b, pk, 32);
        fh_x32(b, 15);
        fh_xbytes(b, "signature", 9);
        fh_x32(b, 13);
        fh_xbytes(b, sig, 64);
      }
    }
    }
  }
  fh_xinvocation(s, b, contract, 0);
  if (c & 0x40 && b->n) {   /* corrupted: a byte flipped, or the entry cut short */
    size_t at = ((size_t)fh_u8(&s->in) << 8 | fh_u8(&s->in)) % b->n;
    uint8_t x = fh_u8(&s->in);
    if (c & 0x80) b->n = at;
    else b->p[at] ^= x ? x : 1;
  }
}

/* Oracles of scp_host_set_auth_entries: a documented status, no entry
 * kept on failure, a budget error only with the budget exceeded. */
static inline void fh_set_entries(fh_state *s, const uint8_t *const *p, const size_t *l, size_t n) {
  scp_error err;
  int rc = scp_host_set_auth_entries(s->h, p, l, n, &err);
  if (getenv("FUZZ_HOST_TRACE")) fprintf(stderr, "set_auth_entries(%zu) -> rc %d %s\n", n, rc, rc ? err.msg : "");
  switch (rc) {
  case SCP_OK: if (scp_auth_enf_count(s->h) != n) __builtin_trap(); break;
  case SCP_ERR_BUDGET: if (!s->b.exceeded) __builtin_trap(); /* fall through */
  case SCP_ERR_MALFORMED: case SCP_ERR_UNSUPPORTED: case SCP_ERR_HOST:
    if (scp_auth_enf_count(s->h) || !err.msg[0]) __builtin_trap();
    break;
  default: __builtin_trap();
  }
}

/* (mkseed_auth.c) Called with the entries fh_entries built, before they
 * are set: the seeds of fuzz_auth are made from them. */
static void (*fh_entries_hook)(fh_state *s, const uint8_t *const *p, const size_t *l, size_t n);

static inline void fh_entries(fh_state *s, const uint8_t contract[32]) {
  fh_xb *b = calloc(3, sizeof *b);
  if (!b) return;
  size_t n = fh_u8(&s->in) % 4, l[3];
  const uint8_t *p[3];
  for (size_t i = 0; i < n; i++) {
    fh_xentry(s, &b[i], contract);
    p[i] = b[i].p;
    l[i] = b[i].n;
  }
  if (fh_entries_hook) fh_entries_hook(s, p, l, n);
  fh_set_entries(s, p, l, n);
  free(b);
}

/* The host of one input: budget, options, the contract and its frame.
 * entries (may be NULL): sets the authorization entries instead of
 * fh_entries (fuzz_auth.h).  NULL when the set-up failed (s freed). */
typedef void (*fh_entries_fn)(fh_state *s, const uint8_t contract[32], void *ctx);
static inline fh_state *fh_open(const uint8_t *data, size_t size, fh_entries_fn entries, void *ctx) {
  fh_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->in = (fh_in){ data, size, 0 };
  uint8_t c0 = fh_u8(&s->in), c1 = fh_u8(&s->in);
  unsigned cpu_exp = 18 + (c0 & 15);   /* the set-up takes some 70,000 */
  if (cpu_exp > 26) cpu_exp = 26;
  scp_budget_init(&s->b, (uint64_t)1 << cpu_exp, (uint64_t)1 << (16 + (c0 >> 4 & 7)));
  scp_host_opts o = { .auth_enforcing = c1 & 1, .ledger_sequence = 100,
                      .ledger_timestamp = 1700000000, .has_source_account = c1 >> 7 };
  if (c0 & 0x80) o.protocol = 21;
  static const size_t lmsizes[] = { 0, 256, 4096, 65536 };
  s->lmlen = lmsizes[c1 >> 2 & 3];
  if (scp_host_create(&s->b, &o, &s->h) != SCP_OK) {
    free(s);
    return NULL;
  }
  s->lm = malloc(s->lmlen ? s->lmlen : 1);
  if (!s->lm) goto fail;
  for (size_t i = 0; i < s->lmlen; i++) s->lm[i] = size ? data[i % size] : 0;
  static const uint8_t wasm[] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
  static const uint8_t deployer[32] = { 1 }, salt[32] = { 2 };
  uint8_t contract[32];
  if (scp_host_deploy(s->h, wasm, sizeof wasm, deployer, salt, contract) != SCP_OK) goto fail;
  scp_host_set_invoker(s->h, fh_invoker, s);
  if (c1 & 2) {
    uint8_t seed[32] = { 3 };
    if (scp_host_set_base_prng_seed(s->h, seed) != SCP_OK) goto fail;
  }
  if (c1 & 32 && !fh_ledger(s)) goto fail;
  /* signed entries, set before the invocation as the reference's
   * set_authorization_entries is */
  if (entries) entries(s, contract, ctx);
  else if (c1 & 64) fh_entries(s, contract);
  if ((c1 & 16 ? scp_host_push_frame(s->h) : scp_host_push_contract_frame(s->h, contract)) != SCP_OK)
    goto fail;
  fh_setup(s, contract, wasm, sizeof wasm);
  if (s->ledger) {
    uint8_t *scratch = calloc(1, 4096);
    if (scratch) fh_ledger_pool(s, scratch);
    free(scratch);
  }
  return s;
fail:
  scp_host_destroy(s->h);
  free(s->lm);
  free(s);
  return NULL;
}

static inline void fh_close(fh_state *s) {
  /* the report's views of what the calls did */
  for (size_t i = 0; i < scp_host_auth_count(s->h); i++) {
    scp_buf ab = { 0 };
    scp_host_auth_format(s->h, i, &ab);
    scp_buf_free(&ab);
  }
  (void)scp_host_event_count(s->h);
  scp_host_destroy(s->h);
  free(s->lm);
  free(s);
}

static inline void fuzz_host_one(const uint8_t *data, size_t size) {
  fh_state *s = fh_open(data, size, NULL, NULL);
  if (!s) return;
  if (!s->b.exceeded) fh_run(s, FH_STEPS);   /* a call charging nothing would succeed */
  fh_close(s);
}

#endif
