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
#define BN_R10(x) x x x x x x x x x x

/* ethereum_bn254_add_tests (go-ethereum contracts_test.go vectors): per case
 * its two points, then the expected sum */
#define BN_ETH_ADD \
  /* chfast1 */ "bhex:18b18acfb4c2c30276db5411368e7185b311dd124691610c5d3b74034e093dc9063c909c4720840cb5134cb9f59fa749755796819658d32efc0d288198f37266;" \
  "bhex:07c2b7f58a84bd6145f00c9c2bc0bb1a187f20ff2c92963a88019e7c6a014eed06614e20c147e940f2d70da3f74c9a17df361706a4485c742bd6788478fa17d7;" \
  "bhex:2243525c5efd4b9c3d3c45ac0ca3fe4dd85e830a4ce6b65fa1eeaee202839703301d1d33be6da8e509df21cc35964723180eed7532537db9ae5e7d48f195c915;" \
  /* chfast2 */ "bhex:2243525c5efd4b9c3d3c45ac0ca3fe4dd85e830a4ce6b65fa1eeaee202839703301d1d33be6da8e509df21cc35964723180eed7532537db9ae5e7d48f195c915;" \
  "bhex:18b18acfb4c2c30276db5411368e7185b311dd124691610c5d3b74034e093dc9063c909c4720840cb5134cb9f59fa749755796819658d32efc0d288198f37266;" \
  "bhex:2bd3e6d0f3b142924f5ca7b49ce5b9d54c4703d7ae5648e61d02268b1a0a9fb721611ce0a6af85915e2f1d70300909ce2e49dfad4a4619c8390cae66cefdb204;" \
  /* cdetrio1 */ "bhex:00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000;" \
  "bhex:00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000;" \
  "bhex:00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000;" \
  /* cdetrio6 */ "bhex:00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000;" \
  "bhex:00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000002;" \
  "bhex:00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000002;" \
  /* cdetrio9 */ "bhex:00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000002;" \
  "bhex:00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000;" \
  "bhex:00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000002;" \
  /* cdetrio11 */ "bhex:00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000002;" \
  "bhex:00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000002;" \
  "bhex:030644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd315ed738c0e0a7c92e7845f96b2ae9c0a68a6a449e3538fc7ff3ebf7a5a18a2c4;" \
  /* cdetrio13 */ "bhex:17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa901e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c;" \
  "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98;" \
  "bhex:15bf2bb17880144b5d1cd2b1f46eff9d617bffd1ca57c37fb5a49bd84e53cf66049c797f9ce0d17083deb32b5e36f2ea2a212ee036598dd7624c168993d1355f;"
/* ethereum_bn254_mul_tests: per case its point, its scalar's 32 bytes,
 * then the expected product */
#define BN_ETH_MUL \
  /* chfast1 */ "bhex:2bd3e6d0f3b142924f5ca7b49ce5b9d54c4703d7ae5648e61d02268b1a0a9fb721611ce0a6af85915e2f1d70300909ce2e49dfad4a4619c8390cae66cefdb204;" \
  "bhex:00000000000000000000000000000000000000000000000011138ce750fa15c2;" \
  "bhex:070a8d6a982153cae4be29d434e8faef8a47b274a053f5a4ee2a6c9c13c31e5c031b8ce914eba3a9ffb989f9cdd5b0f01943074bf4f0f315690ec3cec6981afc;" \
  /* chfast2 */ "bhex:070a8d6a982153cae4be29d434e8faef8a47b274a053f5a4ee2a6c9c13c31e5c031b8ce914eba3a9ffb989f9cdd5b0f01943074bf4f0f315690ec3cec6981afc;" \
  "bhex:30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd46;" \
  "bhex:025a6f4181d2b4ea8b724290ffb40156eb0adb514c688556eb79cdea0752c2bb2eff3f31dea215f1eb86023a133a996eb6300b44da664d64251d05381bb8a02e;" \
  /* chfast3 */ "bhex:025a6f4181d2b4ea8b724290ffb40156eb0adb514c688556eb79cdea0752c2bb2eff3f31dea215f1eb86023a133a996eb6300b44da664d64251d05381bb8a02e;" \
  "bhex:183227397098d014dc2822db40c0ac2ecbc0b548b438e5469e10460b6c3e7ea3;" \
  "bhex:14789d0d4a730b354403b5fac948113739e276c23e0258d8596ee72f9cd9d3230af18a63153e0ec25ff9f2951dd3fa90ed0197bfef6e2a1a62b5095b9d2b4a27;" \
  /* cdetrio1 */ "bhex:1a87b0584ce92f4593d161480614f2989035225609f08058ccfa3d0f940febe31a2f3c951f6dadcc7ee9007dff81504b0fcd6d7cf59996efdc33d92bf7f9f8f6;" \
  "bhex:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;" \
  "bhex:2cde5879ba6f13c0b5aa4ef627f159a3347df9722efce88a9afbb20b763b4c411aa7e43076f6aee272755a7f9b84832e71559ba0d2e0b17d5f9f01755e5b0d11;" \
  /* cdetrio2 */ "bhex:1a87b0584ce92f4593d161480614f2989035225609f08058ccfa3d0f940febe31a2f3c951f6dadcc7ee9007dff81504b0fcd6d7cf59996efdc33d92bf7f9f8f6;" \
  "bhex:30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000;" \
  "bhex:1a87b0584ce92f4593d161480614f2989035225609f08058ccfa3d0f940febe3163511ddc1c3f25d396745388200081287b3fd1472d8339d5fecb2eae0830451;" \
  /* cdetrio3 */ "bhex:1a87b0584ce92f4593d161480614f2989035225609f08058ccfa3d0f940febe31a2f3c951f6dadcc7ee9007dff81504b0fcd6d7cf59996efdc33d92bf7f9f8f6;" \
  "bhex:0000000000000000000000000000000100000000000000000000000000000000;" \
  "bhex:1051acb0700ec6d42a88215852d582efbaef31529b6fcbc3277b5c1b300f5cf0135b2394bb45ab04b8bd7611bd2dfe1de6a4e6e2ccea1ea1955f577cd66af85b;" \
  /* cdetrio4 */ "bhex:1a87b0584ce92f4593d161480614f2989035225609f08058ccfa3d0f940febe31a2f3c951f6dadcc7ee9007dff81504b0fcd6d7cf59996efdc33d92bf7f9f8f6;" \
  "bhex:0000000000000000000000000000000000000000000000000000000000000009;" \
  "bhex:1dbad7d39dbc56379f78fac1bca147dc8e66de1b9d183c7b167351bfe0aeab742cd757d51289cd8dbd0acf9e673ad67d0f0a89f912af47ed1be53664f5692575;" \
  /* cdetrio5 */ "bhex:1a87b0584ce92f4593d161480614f2989035225609f08058ccfa3d0f940febe31a2f3c951f6dadcc7ee9007dff81504b0fcd6d7cf59996efdc33d92bf7f9f8f6;" \
  "bhex:0000000000000000000000000000000000000000000000000000000000000001;" \
  "bhex:1a87b0584ce92f4593d161480614f2989035225609f08058ccfa3d0f940febe31a2f3c951f6dadcc7ee9007dff81504b0fcd6d7cf59996efdc33d92bf7f9f8f6;" \
  /* cdetrio6 */ "bhex:17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa901e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c;" \
  "bhex:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;" \
  "bhex:29e587aadd7c06722aabba753017c093f70ba7eb1f1c0104ec0564e7e3e21f6022b1143f6a41008e7755c71c3d00b6b915d386de21783ef590486d8afa8453b1;" \
  /* cdetrio7 */ "bhex:17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa901e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c;" \
  "bhex:30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000;" \
  "bhex:17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa92e83f8d734803fc370eba25ed1f6b8768bd6d83887b87165fc2434fe11a830cb;" \
  /* cdetrio8 */ "bhex:17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa901e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c;" \
  "bhex:0000000000000000000000000000000100000000000000000000000000000000;" \
  "bhex:221a3577763877920d0d14a91cd59b9479f83b87a653bb41f82a3f6f120cea7c2752c7f64cdd7f0e494bff7b60419f242210f2026ed2ec70f89f78a4c56a1f15;" \
  /* cdetrio9 */ "bhex:17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa901e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c;" \
  "bhex:0000000000000000000000000000000000000000000000000000000000000009;" \
  "bhex:228e687a379ba154554040f8821f4e41ee2be287c201aa9c3bc02c9dd12f1e691e0fd6ee672d04cfd924ed8fdc7ba5f2d06c53c1edc30f65f2af5a5b97f0a76a;" \
  /* cdetrio10 */ "bhex:17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa901e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c;" \
  "bhex:0000000000000000000000000000000000000000000000000000000000000001;" \
  "bhex:17c139df0efee0f766bc0204762b774362e4ded88953a39ce849a8a7fa163fa901e0559bacb160664764a357af8a9fe70baa9258e0b959273ffc5718c6d4cc7c;" \
  /* cdetrio11 */ "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98;" \
  "bhex:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;" \
  "bhex:00a1a234d08efaa2616607e31eca1980128b00b415c845ff25bba3afcb81dc00242077290ed33906aeb8e42fd98c41bcb9057ba03421af3f2d08cfc441186024;" \
  /* cdetrio12 */ "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98;" \
  "bhex:30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000;" \
  "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b8692929ee761a352600f54921df9bf472e66217e7bb0cee9032e00acc86b3c8bfaf;" \
  /* cdetrio13 */ "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98;" \
  "bhex:0000000000000000000000000000000100000000000000000000000000000000;" \
  "bhex:1071b63011e8c222c5a771dfa03c2e11aac9666dd097f2c620852c3951a4376a2f46fe2f73e1cf310a168d56baa5575a8319389d7bfa6b29ee2d908305791434;" \
  /* cdetrio14 */ "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98;" \
  "bhex:0000000000000000000000000000000000000000000000000000000000000009;" \
  "bhex:19f75b9dd68c080a688774a6213f131e3052bd353a304a189d7a2ee367e3c2582612f545fb9fc89fde80fd81c68fc7dcb27fea5fc124eeda69433cf5c46d2d7f;" \
  /* cdetrio15 */ "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98;" \
  "bhex:0000000000000000000000000000000000000000000000000000000000000001;" \
  "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98;" \
  /* zeroScalar */ "bhex:039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98;" \
  "bhex:0000000000000000000000000000000000000000000000000000000000000000;" \
  "bhex:00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000;"


#define REPLAY_SETUPS_BN254                                                                     \
  { "test__bn254__hardcoded_serialization.json",                                               \
    "bhex:" BN_LISOTTO_G1A ";bhex:" BN_LISOTTO_G2 ";bhex:" BN_LISOTTO_G1B ";bhex:/64;"          \
    "elems:1,5/3,17" },                                                                         \
  { "test__bn254__g1_add_mul_hardcoded.json", "bhex:" BN_2G ";bhex:" BN_G },                   \
  /* test_bn254_g1_add: compressed_g1's 32 bytes (only their length is      \
   * read) */                                                                                   \
  { "test__bn254__test_bn254_g1_add.json", "bhex:/32" },                                     \
  { "test__bn254__ethereum_bn254_add_tests.json", BN_ETH_ADD },                                \
  { "test__bn254__ethereum_bn254_mul_tests.json", BN_ETH_MUL },                                \
  /* test_bn254_g{1,2}_deserialize_rejects_y_sign_bit: the ten copies with                  \
   * the y-sign bit set go to host-internal deserialization only (no       \
   * traced call reads them): any bytes of the size */                                          \
  { "test__bn254__test_bn254_g1_deserialize_rejects_y_sign_bit.json", BN_R10("bhex:/64;") },     \
  { "test__bn254__test_bn254_g2_deserialize_rejects_y_sign_bit.json", BN_R10("bhex:/128;") },

/* test_bn254_g1_add / _g1_mul: sample_g1 and g1_zero serialize with a
 * traced bytes_new_from_slice; samples are G or 2G (the sums the test
 * compares hold for any points), sample_g1_not_on_curve is (1, 1), minus_g1
 * of G is -G, and sample_g1_out_of_range copies MODULUS's 66-byte text */
#define BN_NEG_G "0000000000000000000000000000000000000000000000000000000000000001" \
                 "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd45"
#define BN_NOC "0000000000000000000000000000000000000000000000000000000000000001" \
               "0000000000000000000000000000000000000000000000000000000000000001"
#define BN_MODULUS_TEXT "text:0x2523648240000001BA344D80000000086121000000000013A700000000000013;"
#define BN_S "hex:" BN_G ";"
#define BN_G1_ADD_SLICES                                                                  \
  BN_S BN_S BN_S BN_S BN_S "hex:" BN_NOC ";" BN_S BN_S BN_MODULUS_TEXT                 /* invalid p1 */        \
  BN_S BN_S BN_S BN_S "hex:" BN_NOC ";" BN_S BN_S BN_MODULUS_TEXT                   /* invalid p2 */        \
  BN_S "fill:00;" BN_S "fill:00;" BN_S "hex:" BN_2G ";" BN_S "hex:" BN_2G ";" BN_S /* 3 to 6 */            \
  BN_S "hex:" BN_NEG_G ";fill:00"                                    /* a - a */

/* test_bn254_g1_is_on_curve: three invalid encodings, ten samples, zero,
 * then ten invalid_g1(PointNotOnCurve) (a sample, then the point) */
#define BN_NOC_PAIR BN_S "hex:" BN_NOC ";"
#define BN_IS_ON_CURVE_SLICES                                                               \
  BN_S BN_S BN_S BN_S BN_MODULUS_TEXT BN_R10(BN_S) "fill:00;" BN_R10(BN_NOC_PAIR)

/* test_bn254_g1_msm: samples G (2G for the last block's p2), -G from
 * minus_g1, zero from g1_zero; the vecs hold the handles the trace made */
#define BN_MSM_SLICES                                                                       \
  BN_S BN_S "vals:Bytes(obj#5),Bytes(obj#7);vals:U256(obj#11),U256(obj#13),U256(obj#15);"  \
  BN_S BN_S "vals:Bytes(obj#19),Bytes(obj#21);vals:U256(0),U256(0);fill:00;"              \
  BN_S "hex:" BN_NEG_G ";vals:Bytes(obj#31),Bytes(obj#33);vals:U256(1),U256(1);fill:00;"   \
  BN_S "hex:" BN_2G ";vals:Bytes(obj#43),Bytes(obj#45);vals:U256(obj#47),U256(obj#49)"

/* test_bn254_multi_pairing_check: every point goes through a traced
 * bytes_new_from_slice.  G1 samples are G (s = 2G in block 6), the G2 ones
 * EIP-197's generator Q; block 3's off-curve G1 is (1, 1), block 4's G2
 * (1, sqrt(1 + b')) is on the twist outside the subgroup; q = r = Q in
 * block 5 (q + r = 2Q); block 7 takes [a]Q, [b]Q, [ab]Q for the traced
 * scalars a, b, ab.  Worked out with affine twist arithmetic (2Q and -Q
 * equal EIP-197's vectors); every pairing identity the test checks holds
 * for these as for its random points. */
#define BN_Q2 "hex:" \
  "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2" \
  "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed" \
  "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b" \
  "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa;"
#define BN_2Q2 "hex:" \
  "203e205db4f19b37b60121b83a7333706db86431c6d835849957ed8c3928ad79" \
  "27dc7234fd11d3e8c36c59277c3e6f149d5cd3cfa9a62aee49f8130962b4b3b9" \
  "195e8aa5b7827463722b8c153931579d3505566b4edf48d498e185f0509de152" \
  "04bb53b8977e5f92a0bc372742c4830944a59b4fe6b1c0466e2a6dad122b5d2e;"
#define BN_NEG_Q2 "hex:" \
  "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2" \
  "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed" \
  "275dc4a288d1afb3cbb1ac09187524c7db36395df7be3b99e673b13a075a65ec" \
  "1d9befcd05a5323e6da4d435f3b617cdb3af83285c2df711ef39c01571827f9d;"
#define BN_Q2_NOTSUB "hex:" \
  "0000000000000000000000000000000000000000000000000000000000000000" \
  "0000000000000000000000000000000000000000000000000000000000000001" \
  "0d1271953ed9ea0836846e70a1934187998c7f790cb4d7511b7f8da82de048a4" \
  "2869111d5381f072f8e2728fdb825a51aadd70e52c9830e9ab4b871c0531f1bb;"
#define BN_AQ2 "hex:" \
  "1149992c59587017fb949cbc91bf611052dd1510357c3313a5f975bdb09d00ce" \
  "0050124206b09ed5cdc6769db7a41cb26b71d954e8abc32200216a6703879efc" \
  "1d0ba64a7ff47b41859a20ed3d368961f1064876e841ddde8fc367a443241f0f" \
  "1cb17788ddcb021dc34cfceac21850f5b84b5fdcf3b6384a8497e1f2a187a63f;"
#define BN_BQ2 "hex:" \
  "23f6552a3b0c63d728bb593bb815bd47a37c372340d9268711bb9077b44a4c86" \
  "0163b71aa9eb20ab0ba83c40c4dbfa23d10fc9ba626b32802055e8ade0f5f17d" \
  "2f2d2507bd778db8e9b7ed55f0f3841627d2fb62f37ba02e029d5a6815016cc6" \
  "0c2b458caa13ac69fc4a55c3bcf89e1b368ab375bcd2ecd9fff99c455faa5d8a;"
#define BN_ABQ2 "hex:" \
  "2df0aecd249715a05411f1baa6580030c68ecca45accbbc45888e0984c09c979" \
  "0a9f06f9121ca256a48a8864de777c72828743d9edfd5134a2c3ae1a37c13d49" \
  "20630188f6d4eb38ca21228b413a071a76b45be5d4b9c34160f3ed4ea50d5498" \
  "1998345be130aee9fe94e49a8ae08932567fd49ef1a39935b1015de2d31915d5;"
#define BN_V3(a, b, c) "vals:Bytes(obj#" #a "),Bytes(obj#" #b "),Bytes(obj#" #c ");"
#define BN_PAIRING_SLICES                                                                   \
  BN_S BN_S BN_S BN_V3(1, 3, 5) BN_Q2 BN_Q2 "vals:Bytes(obj#9),Bytes(obj#11);"               \
  BN_S BN_S "hex:" BN_NOC ";" BN_S BN_V3(19, 23, 25) BN_Q2 BN_Q2 BN_Q2 BN_V3(29, 31, 33)     \
  BN_S BN_S BN_S BN_V3(37, 39, 41) BN_Q2 BN_Q2 BN_Q2_NOTSUB BN_Q2 BN_V3(45, 49, 51)          \
  BN_S "hex:" BN_NEG_G ";" BN_2Q2 BN_Q2 BN_Q2 BN_V3(57, 55, 55) BN_V3(59, 61, 63)            \
  BN_S "hex:" BN_2G ";" BN_Q2 BN_NEG_Q2 BN_V3(77, 69, 71) BN_V3(75, 73, 73)                 \
  BN_S "hex:" BN_NEG_G ";" BN_NEG_Q2 BN_AQ2 BN_BQ2 BN_ABQ2                                   \
  "vals:Bytes(obj#93),Bytes(obj#95),Bytes(obj#103),Bytes(obj#89);"                          \
  "vals:Bytes(obj#99),Bytes(obj#97),Bytes(obj#91),Bytes(obj#105);"                          \
  BN_S "fill:00;" BN_S BN_V3(111, 113, 115) BN_Q2 BN_Q2 BN_Q2 BN_V3(119, 121, 123)          \
  BN_S BN_S BN_S BN_V3(127, 129, 131) BN_Q2 BN_Q2 "fill:00;" BN_V3(135, 137, 139)           \
  "fill:00;fill:00;vals:Bytes(obj#143),Bytes(obj#145);"                                     \
  "fill:00;fill:00;vals:Bytes(obj#149),Bytes(obj#151)"

#define REPLAY_SLICES_BN254                                                              \
  { "test__bn254__test_bn254_multi_pairing_check.json", BN_PAIRING_SLICES },             \
  { "test__bn254__test_bn254_g1_msm.json", BN_MSM_SLICES },                              \
  { "test__bn254__test_bn254_g1_is_on_curve.json", BN_IS_ON_CURVE_SLICES },              \
  { "test__bn254__hardcoded_serialization.json", "fill:00" },                            \
  { "test__bn254__test_bn254_g1_add.json", BN_G1_ADD_SLICES },                          \
  { "test__bn254__test_bn254_g1_mul.json", BN_S "fill:00;" BN_S BN_S },

#endif
