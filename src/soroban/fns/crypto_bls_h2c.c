/*
 * crypto_bls_h2c.c — RFC 9380 suites BLS12381G1_XMD:SHA-256_SSWU_RO_ and
 * BLS12381G2_XMD:SHA-256_SSWU_RO_ (sections 8.8.1, 8.8.2), with the map
 * and isogeny constants of appendices E.2 and E.3.  One simplified-SWU
 * routine serves both groups: G1 elements are Fp2 elements with a zero
 * imaginary part (crypto_ff.h), except for square roots, which must be
 * taken in Fp (every element of Fp is a square in Fp2).
 *
 * arkworks' SWUMap avoids inversions and picks its square roots its own
 * way, but the point it returns is the RFC's (same x; y's sign fixed by
 * sgn0(y) == sgn0(u)), so the straightforward RFC 6.6.2 steps are used.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "soroban/fns/crypto_bls_h2c.h"
#include "soroban/fns/host_bls.h"

/* ---- constants ------------------------------------------------------------ */

/* G1: E' : y^2 = x^3 + A'x + B', Z = 11; the 11-isogeny's k_(i,j),
 * ascending j; the dens' leading 1 is implicit. */
static const char *const G1_A = "144698a3b8e9433d693a02c96d4982b0ea985383ee66a8d8e8981aefd881ac98"
                                "936f8da0e0f97f5cf428082d584c1d";
static const char *const G1_B = "12e2908d11688030018b12e8753eee3b2016c1f0f24f4070a0b9c14fcef35ef5"
                                "5a23215a316ceaa5d1cc48e98e172be0";

static const char *const G1_XNUM[12] = {
  "11a05f2b1e833340b809101dd99815856b303e88a2d7005ff2627b56cdb4e2c85610c2d5f2e62d6eaeac1662734649b7",
  "17294ed3e943ab2f0588bab22147a81c7c17e75b2f6a8417f565e33c70d1e86b4838f2a6f318c356e834eef1b3cb83bb",
  "0d54005db97678ec1d1048c5d10a9a1bce032473295983e56878e501ec68e25c958c3e3d2a09729fe0179f9dac9edcb0",
  "1778e7166fcc6db74e0609d307e55412d7f5e4656a8dbf25f1b33289f1b330835336e25ce3107193c5b388641d9b6861",
  "0e99726a3199f4436642b4b3e4118e5499db995a1257fb3f086eeb65982fac18985a286f301e77c451154ce9ac8895d9",
  "1630c3250d7313ff01d1201bf7a74ab5db3cb17dd952799b9ed3ab9097e68f90a0870d2dcae73d19cd13c1c66f652983",
  "0d6ed6553fe44d296a3726c38ae652bfb11586264f0f8ce19008e218f9c86b2a8da25128c1052ecaddd7f225a139ed84",
  "17b81e7701abdbe2e8743884d1117e53356de5ab275b4db1a682c62ef0f2753339b7c8f8c8f475af9ccb5618e3f0c88e",
  "080d3cf1f9a78fc47b90b33563be990dc43b756ce79f5574a2c596c928c5d1de4fa295f296b74e956d71986a8497e317",
  "169b1f8e1bcfa7c42e0c37515d138f22dd2ecb803a0c5c99676314baf4bb1b7fa3190b2edc0327797f241067be390c9e",
  "10321da079ce07e272d8ec09d2565b0dfa7dccdde6787f96d50af36003b14866f69b771f8c285decca67df3f1605fb7b",
  "06e08c248e260e70bd1e962381edee3d31d79d7e22c837bc23c0bf1bc24c6b68c24b1b80b64d391fa9c8ba2e8ba2d229",
};
static const char *const G1_XDEN[10] = {
  "08ca8d548cff19ae18b2e62f4bd3fa6f01d5ef4ba35b48ba9c9588617fc8ac62b558d681be343df8993cf9fa40d21b1c",
  "12561a5deb559c4348b4711298e536367041e8ca0cf0800c0126c2588c48bf5713daa8846cb026e9e5c8276ec82b3bff",
  "0b2962fe57a3225e8137e629bff2991f6f89416f5a718cd1fca64e00b11aceacd6a3d0967c94fedcfcc239ba5cb83e19",
  "03425581a58ae2fec83aafef7c40eb545b08243f16b1655154cca8abc28d6fd04976d5243eecf5c4130de8938dc62cd8",
  "13a8e162022914a80a6f1d5f43e7a07dffdfc759a12062bb8d6b44e833b306da9bd29ba81f35781d539d395b3532a21e",
  "0e7355f8e4e667b955390f7f0506c6e9395735e9ce9cad4d0a43bcef24b8982f7400d24bc4228f11c02df9a29f6304a5",
  "0772caacf16936190f3e0c63e0596721570f5799af53a1894e2e073062aede9cea73b3538f0de06cec2574496ee84a3a",
  "14a7ac2a9d64a8b230b3f5b074cf01996e7f63c21bca68a81996e1cdf9822c580fa5b9489d11e2d311f7d99bbdcc5a5e",
  "0a10ecf6ada54f825e920b3dafc7a3cce07f8d1d7161366b74100da67f39883503826692abba43704776ec3a79a1d641",
  "095fc13ab9e92ad4476d6e3eb3a56680f682b4ee96f7d03776df533978f31c1593174e4b4b7865002d6384d168ecdd0a",
};
static const char *const G1_YNUM[16] = {
  "090d97c81ba24ee0259d1f094980dcfa11ad138e48a869522b52af6c956543d3cd0c7aee9b3ba3c2be9845719707bb33",
  "134996a104ee5811d51036d776fb46831223e96c254f383d0f906343eb67ad34d6c56711962fa8bfe097e75a2e41c696",
  "00cc786baa966e66f4a384c86a3b49942552e2d658a31ce2c344be4b91400da7d26d521628b00523b8dfe240c72de1f6",
  "01f86376e8981c217898751ad8746757d42aa7b90eeb791c09e4a3ec03251cf9de405aba9ec61deca6355c77b0e5f4cb",
  "08cc03fdefe0ff135caf4fe2a21529c4195536fbe3ce50b879833fd221351adc2ee7f8dc099040a841b6daecf2e8fedb",
  "16603fca40634b6a2211e11db8f0a6a074a7d0d4afadb7bd76505c3d3ad5544e203f6326c95a807299b23ab13633a5f0",
  "04ab0b9bcfac1bbcb2c977d027796b3ce75bb8ca2be184cb5231413c4d634f3747a87ac2460f415ec961f8855fe9d6f2",
  "0987c8d5333ab86fde9926bd2ca6c674170a05bfe3bdd81ffd038da6c26c842642f64550fedfe935a15e4ca31870fb29",
  "09fc4018bd96684be88c9e221e4da1bb8f3abd16679dc26c1e8b6e6a1f20cabe69d65201c78607a360370e577bdba587",
  "0e1bba7a1186bdb5223abde7ada14a23c42a0ca7915af6fe06985e7ed1e4d43b9b3f7055dd4eba6f2bafaaebca731c30",
  "19713e47937cd1be0dfd0b8f1d43fb93cd2fcbcb6caf493fd1183e416389e61031bf3a5cce3fbafce813711ad011c132",
  "18b46a908f36f6deb918c143fed2edcc523559b8aaf0c2462e6bfe7f911f643249d9cdf41b44d606ce07c8a4d0074d8e",
  "0b182cac101b9399d155096004f53f447aa7b12a3426b08ec02710e807b4633f06c851c1919211f20d4c04f00b971ef8",
  "0245a394ad1eca9b72fc00ae7be315dc757b3b080d4c158013e6632d3c40659cc6cf90ad1c232a6442d9d3f5db980133",
  "05c129645e44cf1102a159f748c4a3fc5e673d81d7e86568d9ab0f5d396a7ce46ba1049b6579afb7866b1e715475224b",
  "15e6be4e990f03ce4ea50b3b42df2eb5cb181d8f84965a3957add4fa95af01b2b665027efec01c7704b456be69c8b604",
};
static const char *const G1_YDEN[15] = {
  "16112c4c3a9c98b252181140fad0eae9601a6de578980be6eec3232b5be72e7a07f3688ef60c206d01479253b03663c1",
  "1962d75c2381201e1a0cbd6c43c348b885c84ff731c4d59ca4a10356f453e01f78a4260763529e3532f6102c2e49a03d",
  "058df3306640da276faaae7d6e8eb15778c4855551ae7f310c35a5dd279cd2eca6757cd636f96f891e2538b53dbf67f2",
  "16b7d288798e5395f20d23bf89edb4d1d115c5dbddbcd30e123da489e726af41727364f2c28297ada8d26d98445f5416",
  "0be0e079545f43e4b00cc912f8228ddcc6d19c9f0f69bbb0542eda0fc9dec916a20b15dc0fd2ededda39142311a5001d",
  "08d9e5297186db2d9fb266eaac783182b70152c65550d881c5ecd87b6f0f5a6449f38db9dfa9cce202c6477faaf9b7ac",
  "166007c08a99db2fc3ba8734ace9824b5eecfdfa8d0cf8ef5dd365bc400a0051d5fa9c01a58b1fb93d1a1399126a775c",
  "16a3ef08be3ea7ea03bcddfabba6ff6ee5a4375efa1f4fd7feb34fd206357132b920f5b00801dee460ee415a15812ed9",
  "1866c8ed336c61231a1be54fd1d74cc4f9fb0ce4c6af5920abc5750c4bf39b4852cfe2f7bb9248836b233d9d55535d4a",
  "167a55cda70a6e1cea820597d94a84903216f763e13d87bb5308592e7ea7d4fbc7385ea3d529b35e346ef48bb8913f55",
  "04d2f259eea405bd48f010a01ad2911d9c6dd039bb61a6290e591b36e636a5c871a5c29f4f83060400f8b49cba8f6aa8",
  "0accbb67481d033ff5852c1e48c50c477f94ff8aefce42d28c0f9a88cea7913516f968986f7ebbea9684b529e2561092",
  "0ad6b9514c767fe3c3613144b45f1496543346d98adf02267d5ceef9a00d9b8693000763e3b90ac11e99b138573345cc",
  "02660400eb2e4f3b628bdd0d53cd76f2bf565b94e72927c1cb748df27942480e420517bd8714cc80d1fadc1326ed06f7",
  "0e0fa1d816ddc03e6b24255e0d7819c171c40f65e273b853324efcd6356caa205ca2f570f13497804415473a1d634b8f",
};

/* G2: A' = 240u, B' = 1012(1 + u), Z = -(2 + u); the 3-isogeny's
 * k_(i,j) as (c0, c1) pairs, ascending j (hex, any length). */
static const char *const G2_XNUM[4][2] = {
  { "5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6",
    "5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6" },
  { "0",
    "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71a" },
  { "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71e",
    "8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38d" },
  { "171d6541fa38ccfaed6dea691f5fb614cb14b4e7f4e810aa22d6108f142b85757098e38d0f671c7188e2aaaaaaaa5ed1",
    "0" },
};
static const char *const G2_XDEN[2][2] = {
  { "0",
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa63" },
  { "c",
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa9f" },
};
static const char *const G2_YNUM[4][2] = {
  { "1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706",
    "1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706" },
  { "0",
    "5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97be" },
  { "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71c",
    "8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38f" },
  { "124c9ad43b6cf79bfbf7043de3811ad0761b0f37a1e26286b0e977c69aa274524e79097a56dc4bd9e1b371c71c718b10",
    "0" },
};
static const char *const G2_YDEN[3][2] = {
  { "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fb",
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fb" },
  { "0",
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa9d3" },
  { "12",
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa99" },
};

/* h_eff: 1 - x for G1; RFC 9380 8.8.2's for G2 (the psi-based clearing
 * arkworks uses equals multiplication by it, RFC 9380 appendix G.3). */
static const char *const G1_HEFF = "d201000000010001";
static const char *const G2_HEFF =
  "0bc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015d1212b0"
  "2ec0ec69d7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551";

typedef struct iso {
  scp_fe2 a, b, z;
  int nxn, nxd, nyn, nyd;          /* coefficient counts (dens without the leading 1) */
  scp_fe2 xn[16], xd[16], yn[16], yd[16];
  uint8_t heff[80];
  size_t heff_len;
} iso;

static iso g1_iso, g2_iso;
static pthread_once_t iso_once = PTHREAD_ONCE_INIT;

static size_t unhex(const char *s, uint8_t *out, size_t cap) {
  size_t n = strlen(s) / 2;
  if (n > cap) n = cap;
  for (size_t i = 0; i < n; i++) {
    int hi = s[2 * i] <= '9' ? s[2 * i] - '0' : s[2 * i] - 'a' + 10;
    int lo = s[2 * i + 1] <= '9' ? s[2 * i + 1] - '0' : s[2 * i + 1] - 'a' + 10;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return n;
}

/* hex digits (any count up to 96) -> Fp; the constants are all < p. */
static void fe_hex(const char *s, scp_fe *r) {
  const scp_ff *f = scp_ff_bls12_381();
  scp_fe_zero(r);
  for (size_t i = 0; s[i]; i++) {
    int d = s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10;
    mpn_lshift(r->l, r->l, f->n, 4);
    r->l[0] |= (mp_limb_t)d;
  }
}

static void fe2_hex(const char *c0, const char *c1, scp_fe2 *r) {
  fe_hex(c0, &r->c0);
  fe_hex(c1, &r->c1);
}

static void g1_fill(scp_fe2 *dst, const char *const *src, int n) {
  for (int i = 0; i < n; i++) {
    memset(&dst[i], 0, sizeof dst[i]);
    fe_hex(src[i], &dst[i].c0);
  }
}

static void iso_setup(void) {
  const scp_ff *f = scp_ff_bls12_381();
  memset(&g1_iso, 0, sizeof g1_iso);
  memset(&g2_iso, 0, sizeof g2_iso);
  fe_hex(G1_A, &g1_iso.a.c0);
  fe_hex(G1_B, &g1_iso.b.c0);
  scp_fe_set_u64(&g1_iso.z.c0, 11);
  g1_iso.nxn = 12, g1_iso.nxd = 10, g1_iso.nyn = 16, g1_iso.nyd = 15;
  g1_fill(g1_iso.xn, G1_XNUM, 12);
  g1_fill(g1_iso.xd, G1_XDEN, 10);
  g1_fill(g1_iso.yn, G1_YNUM, 16);
  g1_fill(g1_iso.yd, G1_YDEN, 15);
  g1_iso.heff_len = unhex(G1_HEFF, g1_iso.heff, sizeof g1_iso.heff);

  scp_fe_set_u64(&g2_iso.a.c1, 240);
  scp_fe_set_u64(&g2_iso.b.c0, 1012);
  scp_fe_set_u64(&g2_iso.b.c1, 1012);
  scp_fe two, one;
  scp_fe_set_u64(&two, 2);
  scp_fe_set_u64(&one, 1);
  scp_fe_neg(f, &two, &g2_iso.z.c0);
  scp_fe_neg(f, &one, &g2_iso.z.c1);
  g2_iso.nxn = 4, g2_iso.nxd = 2, g2_iso.nyn = 4, g2_iso.nyd = 3;
  for (int i = 0; i < 4; i++) fe2_hex(G2_XNUM[i][0], G2_XNUM[i][1], &g2_iso.xn[i]);
  for (int i = 0; i < 2; i++) fe2_hex(G2_XDEN[i][0], G2_XDEN[i][1], &g2_iso.xd[i]);
  for (int i = 0; i < 4; i++) fe2_hex(G2_YNUM[i][0], G2_YNUM[i][1], &g2_iso.yn[i]);
  for (int i = 0; i < 3; i++) fe2_hex(G2_YDEN[i][0], G2_YDEN[i][1], &g2_iso.yd[i]);
  g2_iso.heff_len = unhex(G2_HEFF, g2_iso.heff, sizeof g2_iso.heff);
}

static const iso *get_iso(bool g2) {
  pthread_once(&iso_once, iso_setup);
  return g2 ? &g2_iso : &g1_iso;
}

/* ---- the map ---------------------------------------------------------------- */

static bool sqrt_in(bool g2, const scp_fe2 *a, scp_fe2 *r) {
  const scp_ff *f = scp_ff_bls12_381();
  if (g2) return scp_fe2_sqrt(f, a, r);
  memset(r, 0, sizeof *r);
  return scp_fe_sqrt(f, &a->c0, &r->c0);
}

/* sum k_i x^i (+ x^n when monic), Horner. */
static void poly(const scp_fe2 *k, int n, bool monic, const scp_fe2 *x, scp_fe2 *r) {
  const scp_ff *f = scp_ff_bls12_381();
  scp_fe2 acc;
  if (monic) {
    memset(&acc, 0, sizeof acc);
    acc.c0.l[0] = 1;
    scp_fe2_mul(f, &acc, x, &acc);
    scp_fe2_add(f, &acc, &k[n - 1], &acc);
  } else {
    acc = k[n - 1];
  }
  for (int i = n - 2; i >= 0; i--) {
    scp_fe2_mul(f, &acc, x, &acc);
    scp_fe2_add(f, &acc, &k[i], &acc);
  }
  *r = acc;
}

static void curve_rhs(const iso *c, const scp_fe2 *x, scp_fe2 *r) {
  const scp_ff *f = scp_ff_bls12_381();
  scp_fe2 t;
  scp_fe2_mul(f, x, x, &t);
  scp_fe2_add(f, &t, &c->a, &t);
  scp_fe2_mul(f, &t, x, &t);
  scp_fe2_add(f, &t, &c->b, r);
}

/* RFC 9380 6.6.2 on E', then iso_map (6.6.3) to E.  A zero isogeny
 * denominator is mapped as arkworks' batch_inversion leaves it (the
 * inverse of 0 taken as 0); it does not happen for any known input. */
static void map(bool g2, const scp_fe2 *u, scp_ecp *out) {
  const scp_ff *f = scp_ff_bls12_381();
  const iso *c = get_iso(g2);
  scp_fe2 u2, zu2, tv1, t, x1, x2, gx, x, y, one = { 0 };
  one.c0.l[0] = 1;
  scp_fe2_mul(f, u, u, &u2);
  scp_fe2_mul(f, &c->z, &u2, &zu2);
  scp_fe2_mul(f, &zu2, &zu2, &t);
  scp_fe2_add(f, &t, &zu2, &t);          /* Z^2 u^4 + Z u^2 */
  if (scp_fe2_is_zero(f, &t)) {
    scp_fe2_mul(f, &c->z, &c->a, &t);    /* x1 = B / (Z A) */
    scp_fe2_inv(f, &t, &t);
    scp_fe2_mul(f, &c->b, &t, &x1);
  } else {
    scp_fe2_inv(f, &t, &tv1);
    scp_fe2_add(f, &tv1, &one, &tv1);
    scp_fe2_inv(f, &c->a, &t);           /* x1 = (-B / A)(1 + tv1) */
    scp_fe2_mul(f, &c->b, &t, &t);
    scp_fe2_neg(f, &t, &t);
    scp_fe2_mul(f, &t, &tv1, &x1);
  }
  curve_rhs(c, &x1, &gx);
  if (sqrt_in(g2, &gx, &y)) {
    x = x1;
  } else {
    scp_fe2_mul(f, &zu2, &x1, &x2);
    curve_rhs(c, &x2, &gx);
    sqrt_in(g2, &gx, &y);                /* gx2 is square when gx1 is not */
    x = x2;
  }
  if (scp_fe2_sgn0(f, u) != scp_fe2_sgn0(f, &y)) scp_fe2_neg(f, &y, &y);

  scp_fe2 xn, xd, yn, yd;
  poly(c->xn, c->nxn, false, &x, &xn);
  poly(c->xd, c->nxd, true, &x, &xd);
  poly(c->yn, c->nyn, false, &x, &yn);
  poly(c->yd, c->nyd, true, &x, &yd);
  scp_fe2_inv(f, &xd, &xd);
  scp_fe2_inv(f, &yd, &yd);
  memset(out, 0, sizeof *out);
  scp_fe2_mul(f, &xn, &xd, &out->x);
  scp_fe2_mul(f, &y, &yn, &out->y);
  scp_fe2_mul(f, &out->y, &yd, &out->y);
}

void scp_bls_map_g1(const scp_fe *u, scp_ecp *out) {
  scp_fe2 e = { 0 };
  e.c0 = *u;
  map(false, &e, out);
}

void scp_bls_map_g2(const scp_fe2 *u, scp_ecp *out) { map(true, u, out); }

/* ---- hashing ---------------------------------------------------------------- */

static bool sha256_parts(const uint8_t *const *p, const size_t *n, int k, uint8_t out[32]) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  bool ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
  for (int i = 0; i < k && ok; i++) ok = EVP_DigestUpdate(ctx, p[i], n[i]);
  unsigned len = 0;
  ok = ok && EVP_DigestFinal_ex(ctx, out, &len) && len == 32;
  EVP_MD_CTX_free(ctx);
  return ok;
}

bool scp_bls_expand_xmd(const uint8_t *msg, size_t len, const uint8_t *dst, size_t dlen,
                        uint8_t *out, size_t out_len) {
  size_t ell = (out_len + 31) / 32;
  if (ell > 255 || dlen > 255 || out_len > 65535) return false;
  static const uint8_t zpad[64];
  uint8_t lib[3] = { (uint8_t)(out_len >> 8), (uint8_t)out_len, 0 };
  uint8_t dl = (uint8_t)dlen, b0[32], bi[32], t[32];
  const uint8_t *p0[] = { zpad, msg, lib, dst, &dl };
  const size_t n0[] = { sizeof zpad, len, 3, dlen, 1 };
  if (!sha256_parts(p0, n0, 5, b0)) return false;
  for (size_t i = 1; i <= ell; i++) {
    uint8_t ib = (uint8_t)i;
    for (int j = 0; j < 32; j++) t[j] = i == 1 ? b0[j] : (uint8_t)(b0[j] ^ bi[j]);
    const uint8_t *p[] = { t, &ib, dst, &dl };
    const size_t n[] = { 32, 1, dlen, 1 };
    if (!sha256_parts(p, n, 4, bi)) return false;
    size_t off = 32 * (i - 1), take = out_len - off < 32 ? out_len - off : 32;
    memcpy(out + off, bi, take);
  }
  return true;
}

/* hash_to_field(msg, 2) with L = 64, map each element, add, clear the
 * cofactor. */
static bool hash(bool g2, const uint8_t *msg, size_t len, const uint8_t *dst, size_t dlen,
                 scp_ecp *out) {
  const scp_ff *f = scp_ff_bls12_381();
  const scp_ec *c = g2 ? scp_bls_g2() : scp_bls_g1();
  const iso *ic = get_iso(g2);
  int m = g2 ? 2 : 1;
  uint8_t buf[256];
  if (!scp_bls_expand_xmd(msg, len, dst, dlen, buf, (size_t)(2 * m * 64))) return false;
  scp_ecp q[2], r;
  for (int i = 0; i < 2; i++) {
    scp_fe2 e = { 0 };
    scp_fe_from_be_reduce(f, buf + 64 * (i * m), 64, &e.c0);
    if (g2) scp_fe_from_be_reduce(f, buf + 64 * (i * m + 1), 64, &e.c1);
    map(g2, &e, &q[i]);
  }
  scp_ec_add_affine(c, &q[0], &q[1], &r);
  scp_ec_mul(c, &r, ic->heff, ic->heff_len, out);
  return true;
}

bool scp_bls_hash_g1(const uint8_t *msg, size_t len, const uint8_t *dst, size_t dlen,
                     scp_ecp *out) {
  return hash(false, msg, len, dst, dlen, out);
}

bool scp_bls_hash_g2(const uint8_t *msg, size_t len, const uint8_t *dst, size_t dlen,
                     scp_ecp *out) {
  return hash(true, msg, len, dst, dlen, out);
}
