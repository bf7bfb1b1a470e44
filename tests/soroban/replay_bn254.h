/*
 * replay_bn254.h — test_replay.c's setups[] / slice_specs entries for the
 * BN254 tests (rs-soroban-env v28.0.2 soroban-env-host/src/test/bn254.rs),
 * in replay_setups.h's notation.  Points the test writes literally are
 * copied; a point the test samples from its StdRng is a fixed valid point
 * where no charge depends on which one (as for BLS12-381).  Data only.
 */
#ifndef SCP_TEST_REPLAY_BN254_H
#define SCP_TEST_REPLAY_BN254_H

/* hardcoded_serialization: Matteo Lisotto's vector past its 4-byte
 * selector: G1, G2, G1; the pairing's vecs [g1_1, g1_2] and [g2, g2_zero]
 * (g2_zero is a traced bytes_new_from_slice of zeros), then a raw zero G1 */
#define BN_LISOTTO_G1A "01698c70b2f3dd6b19a450205e703fe33be07c41caec66a6f03384788aac1c01" \
                       "21a63c107b0e9d223e3ccb9343ac4244d077b481d94ebf1b6e6fb6365e5818c7"
#define BN_LISOTTO_G2 "29b12498230d06e179d6858d9ce69c1ad1cd892bcbd9a89d2df0ba329bde9397" \
                      "1f05a1b0e7babcfb772f3f4c2088b16f45feb2aa0c58f18f78a5861fdc5cc020" \
                      "07e1f86e21d516b42a6ad7bad5bbcc4b8b3fbaefd56804748828cd3dece00f53" \
                      "1cc3ea0c1d713852e2916bf95e5e883e4ebdc2085a9652967ac6c1d164761bdb"
#define BN_LISOTTO_G1B "1f181e7635aad462677a0d5d24d1d7757fc074d17ba32d2aa2637b71d62c4265" \
                       "05f71b3f87954f7b27ba60325520b87701e95d457cf3bd7d663e9f1af453fb4d"
/* g1_add_mul_hardcoded (evm.codes): 2 * (1, 2), then (1, 2) */
#define BN_2G "030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd3" \
              "15ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4"
#define BN_G "0000000000000000000000000000000000000000000000000000000000000001" \
             "0000000000000000000000000000000000000000000000000000000000000002"
#define R10(x) x x x x x x x x x x

#define REPLAY_SETUPS_BN254                                                                     \
  { "test__bn254__hardcoded_serialization.json",                                               \
    "bhex:" BN_LISOTTO_G1A ";bhex:" BN_LISOTTO_G2 ";bhex:" BN_LISOTTO_G1B ";bhex:/64;"          \
    "elems:1,5/3,17" },                                                                         \
  { "test__bn254__g1_add_mul_hardcoded.json", "bhex:" BN_2G ";bhex:" BN_G },                   \
  /* test_bn254_g{1,2}_deserialize_rejects_y_sign_bit: the ten copies with                  \
   * the y-sign bit set go to host-internal deserialization only (no       \
   * traced call reads them): any bytes of the size */                                          \
  { "test__bn254__test_bn254_g1_deserialize_rejects_y_sign_bit.json", R10("bhex:/64;") },     \
  { "test__bn254__test_bn254_g2_deserialize_rejects_y_sign_bit.json", R10("bhex:/128;") },

#define REPLAY_SLICES_BN254 \
  { "test__bn254__hardcoded_serialization.json", "fill:00" },

#endif
