/*
 * replay_setups.h — test_replay.c's per-file tables: the objects each
 * reference test builds outside its traced calls, and the contents of its
 * *_from_slice calls, read from the tests' source (rs-soroban-env v28.0.2
 * soroban-env-host/src/test/).  Data only; test_replay.c is the engine.
 */
#ifndef SCP_TEST_REPLAY_SETUPS_H
#define SCP_TEST_REPLAY_SETUPS_H

#include "replay_bn254.h"
#include "replay_slices.h"

/* ---- untraced setup ---------------------------------------------------------
 * Objects a test builds with helpers that the trace does not show (e.g.
 * host.test_vec_obj::<u32>(&[1, 2, 3]) in rs-soroban-env's
 * soroban-env-host/src/test/vec.rs), in creation order, read from the
 * tests' source.  Items separated by ';':
 *   vec:1,2,3      a Vec of U32 values     map:1=2,4=8   a Map of U32 pairs
 *   acct:HEX / contract:HEX   an Address    muxed:ID:HEX  a MuxedAddress
 *   btext:TEXT     a Bytes object holding TEXT (stext: a String, ytext: a
 *                  Symbol, etext: an ExecutableTag)
 *   bhex:HEX[/N]   a Bytes object holding the bytes HEX spells, then zeros
 *                  up to N bytes (e.g. a curve point standing for a test's
 *                  random sample: no charge depends on which valid point)
 *   eip197         the pairing_vectors.h EIP-197 points, one Bytes object
 *                  per point: per vector its G1s, then its G2s
 *   vals:U256(0),I32(-1)   a Vec of these Vals (trace notation)
 *   pairs:Void,U32(1),...  a Map of these (key, value) Vals, keys in order
 *   rows:N         (repeats) a Vec of the newest run of U256 objects, then
 *                  U256(0)s up to N elements (a matrix row)
 *   vecs           (alone) every object is an empty Vec
 *   unused         (alone) objects no traced call reads (any object)
 *   copies         (alone) every object is a copy of the newest one
 *   elems:1,5/3,7  (last) the elements of the traced vec_new_from_slice
 *                  calls, in order: Bytes obj#1 and obj#5, then obj#3 and
 *                  obj#7; elems:recent takes the last objects setup made
 * A leading "proto:N;" sets the ledger protocol the test used; "skip:WHY"
 * marks a trace that is not replayable through direct calls.
 * They are created when a trace line shows the object count grew; their
 * cost is taken from the trace (like any untraced work).  slice_specs
 * below gives, for some files, the contents of the trace's
 * bytes_new_from_slice / bytes_copy_from_slice calls. */
typedef struct setup_spec { const char *file, *objects; } setup_spec;
static const setup_spec setups[] = {
  { "test__vec__vec_as_seen_by_host.json", "vec:1;vec:1" },
  { "test__vec__vec_front_and_back.json", "vec:1,2,3" },
  { "test__vec__empty_vec_front.json", "vec:" },
  { "test__vec__empty_vec_back.json", "vec:" },
  { "test__vec__vec_put_and_get.json", "vec:1,2,3" },
  { "test__vec__vec_push_pop_and_len.json", "vec:" },
  { "test__vec__vec_pop_empty_vec.json", "vec:" },
  { "test__vec__vec_push_pop_front.json", "vec:;vec:3,2,1;vec:2,1" },
  { "test__vec__vec_get_out_of_bound.json", "vec:1,2,3" },
  { "test__vec__vec_del_and_cmp.json", "vec:1,2,3;vec:1,3" },
  { "test__vec__vec_del_out_of_bound.json", "vec:1,2,3" },
  { "test__vec__vec_slice_and_cmp.json", "vec:1,2,3;vec:2,3" },
  { "test__vec__vec_slice_start_equal_to_end.json", "vec:1,2,3" },
  { "test__vec__vec_slice_start_greater_than_end.json", "vec:1,2,3" },
  { "test__vec__vec_slice_start_out_of_bound.json", "vec:1,2,3" },
  { "test__vec__vec_slice_end_out_of_bound.json", "vec:1,2,3" },
  { "test__vec__vec_insert_and_cmp.json", "vec:2;vec:1,2;vec:1,2,3;vec:1,2,4,3" },
  { "test__vec__vec_insert_out_of_bound.json", "vec:1,2,3" },
  { "test__vec__vec_append.json", "vec:1,2,3;vec:4,5,6;vec:1,2,3,4,5,6" },
  { "test__vec__vec_append_empty.json", "vec:" },
  { "test__vec__vec_index_of.json", "vec:3,4,2,2,2,5" },
  { "test__vec__vec_binary_search.json", "vec:1,2,4,5,7,9" },
  { "test__vec__vec_build_bad_element_integrity.json", "vec:1,2,3" },
  { "test__map__map_put_has_and_get.json", "map:1=2,2=4" },
  { "test__map__map_put_insert_and_remove.json", "map:1=10,3=30;map:0=0,1=10,2=20,3=30,4=40;"
                                                 "map:1=10,3=30" },
  { "test__map__map_iter_by_index.json", "map:1=2,4=8" },
  { "test__map__map_keys.json", "vec:1,2" },
  /* initialization_invalid: to_host_val of 32 ones, then of 7_000_000
   * zeros (keys and values in replay_slices.h) */
  { "test__map__initialization_invalid.json",
    "bhex:0101010101010101010101010101010101010101010101010101010101010101;bhex:/7000000" },
  /* instantiate_oversized_vec_from_slice: to_host_val of 7_000_000 zeros */
  { "test__vec__instantiate_oversized_vec_from_slice.json", "bhex:/7000000" },
  /* symbol.rs valid_long_symbol_conversions: each string's to_host_val of
   * an ScVal::Symbol */
  { "test__symbol__valid_long_symbol_conversions.json",
    "ytext:_abc_DEF_567_;ytext:abcdefghijklmnopqrstuvwxyz123456;"
    "ytext:098765ABCDEFGHIJKLMNOPQRSTUVWXYZ;ytext:________________________________" },
  /* executable_tag.rs test_executable_tag_conversion_roundtrip: to_host_val
   * of the tag's ScVal */
  { "test__executable_tag__test_executable_tag_conversion_roundtrip.json",
    "etext:executable tag" },
  /* depth_limit.rs deep_host_obj_cmp / deep_host_val_to_scval: each level's
   * test_vec_obj::<u32>(&[]) */
  { "test__depth_limit__deep_host_obj_cmp.json", "vecs" },
  { "test__depth_limit__deep_host_val_to_scval.json", "vecs" },
  /* bytes.rs test_malformed_xdr_decoding: [], [1..5], Void's XDR with a
   * bad tag, Vec[U32(100), U32(101)]'s XDR with length 1, 3 and 0xff000002,
   * an account Address's XDR one byte longer, shorter, with variant 1 */
  { "test__bytes__test_malformed_xdr_decoding.json",
    "bhex:;"
    "bhex:0102030405;"
    "bhex:01000001;"
    "bhex:00000010000000010000000100000003000000640000000300000065;"
    "bhex:00000010000000010000000300000003000000640000000300000065;"
    "bhex:0000001000000001ff00000200000003000000640000000300000065;"
    "bhex:000000120000000000000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;"
    "bhex:000000120000000000000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;"
    "bhex:000000120000000100000000ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff" },
  /* bytes.rs bytes_xdr_roundtrip: roundtrip's to_host_val objects and
   * deser_fails_scv's XDR bytes, in the test's order */
  { "test__bytes__bytes_xdr_roundtrip.json",
    "vals:Error(Contract, #123),U32(4294967295),Symbol(abc);"
    "bhex:0000001100000000;"                                        /* Map(None) */
    "bhex:00000010000000010000000200000003000010e1000000100000000100000001" "00000014;"
    "pairs:Void,U32(123),U64(222),U32(123),U64(333),U32(123);"
    "bhex:00000011000000010000000200000001000000030000007b00000001000000030000" "00ea;"
    "bhex:0000001100000000;"
    "bhex:00000011000000010000000200000005" "00000000000000de000000030000007b"
    "00000001000000030000007b;"                                     /* out of order */
    "bhex:00000011000000010000000200000005" "00000000000000de000000030000007b"
    "00000014000000030000007b;"                                     /* key not a Val */
    "bhex:00000011000000010000000200000005" "00000000000000de000000030000007b"
    "00000005000000000000014d00000014;"                             /* value not a Val */
    "ytext:_a_B_Z_d123456;"
    "bhex:0000000f000000026120" "0000;"                             /* Symbol("a ") */
    "acct:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;"
    "contract:ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;"
    "muxed:123456789012:0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c;"
    "bhex:0000001200000004" "0101010101010101010101010101010101010101010101010101010101010101;"
    "bhex:000000120000000300000000"
    "0303030303030303030303030303030303030303030303030303030303030303;"
    "bhex:00000014" },
  /* bls12_381.rs test_serialization_roundtrip: the points' and fields'
   * serialized Bytes go to host-internal deserialization only */
  { "test__bls12_381__test_serialization_roundtrip.json", "unused" },
  /* hetro_map_iter_by_index: the ScMap {1: 2} and ScVec [1] made host
   * objects untraced */
  { "test__map__hetro_map_iter_by_index.json", "map:1=2;vec:1" },
/* address.rs run_test_invalid_strkey_to_address: each rejected strkey as
 * a String, then three invalid UTF-8 Bytes (0x80 x56; C0 80 then G x54;
 * E0 then A x55) */
#define ADDR_BAD_STRKEYS \
  "stext:;" \
  "stext:GAAAAAAAACGC6;" \
  "stext:GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSG;" \
  "stext:GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZZ;" \
  "stext:GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZA;" \
  "stext:DA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUWDA;" \
  "stext:SBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHOKR;" \
  "stext:TBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHXL7;" \
  "stext:XBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWGTOG;" \
  "stext:PA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAQACAQDAQCQMBYIBEFAWDANBYHRAEISCMKBKFQXDAMRUGY4DUPB6IBZGM;" \
  "stext:LA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGZ5J;" \
  "stext:BAADMPVKHBTYIH522D2O3CGHPHSP4ZXFNISHBXEYYDWJYBZ5AXD3CA3GDE;" \
  "stext:GA0QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ;" \
  "stext:GA1QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ;" \
  "stext:GA8QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ;" \
  "stext:GA9QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ;" \
  "stext:ga7qynf7sowq3glr2bgmzehxavirza4kvwltjjfc7mgxua74p7ujvsgz;" \
  "stext:GA!QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ;" \
  "stext:GA QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ;" \
  "bhex:8080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080808080;" \
  "bhex:c080474747474747474747474747474747474747474747474747474747474747474747474747474747474747474747474747474747474747;" \
  "bhex:e041414141414141414141414141414141414141414141414141414141414141414141414141414141414141414141414141414141414141;"
  { "test__address__invalid_strkey_to_address_conversion.json",
    ADDR_BAD_STRKEYS "stext:MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ" },
  { "test__address__invalid_strkey_to_muxed_address_conversion.json", ADDR_BAD_STRKEYS },
#undef ADDR_BAD_STRKEYS
  /* its test is not in v28.0.2's source and its trace has no mem_peak:
   * the same calls as test_contract_address_conversions_with_muxed_address
   * (equal object digests) at other costs */
  { "test__address__test_contract_address_conversions_v2.json",
    "skip:recorded by another host version (no mem_peak, other costs)" },
  /* likewise: tests no longer in v28.0.2's map.rs (now under
   * map_new_and_unpack), traces without mem_peak */
  { "test__map__sparse_map_new_from_slices.json",
    "skip:recorded by another host version (no mem_peak; test not in v28.0.2)" },
  { "test__map__sparse_map_unpack_to_slice.json",
    "skip:recorded by another host version (no mem_peak; test not in v28.0.2)" },
#define PK "3f0c34bf93ad0d9971d04ccc90f705511c838aad9734a4a2fb0d7a03fc7fe89a"
  { "test__address__test_account_address_conversions.json",
    "acct:" PK ";btext:GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ" },
  { "test__address__test_account_address_conversions_with_muxed_address.json",
    "acct:" PK ";btext:GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ" },
  { "test__address__test_contract_address_conversions.json",
    "contract:" PK ";btext:CA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUWDA" },
  { "test__address__test_contract_address_conversions_with_muxed_address.json",
    "contract:" PK ";btext:CA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUWDA" },
  { "test__address__test_muxed_address_strkey_conversions.json",
    "muxed:0:" PK ";muxed:12345678901234567890:" PK
    ";btext:MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ" },
  { "test__address__test_muxed_address_to_components_conversion.json",
    "muxed:123:0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a" },
#undef PK
  { "test__protocol_gate__test_native_mode_calling_protocol_gated_host_fn.json", "proto:19" },
  { "test__protocol_gate__test_additional_protocol_guardrail_during_invocation.json",
    "skip:runs a hand-made wasmi VM: guest fuel and dispatch are in the trace" },
  { "test__map__map_values.json", "vec:10,20" },
  /* check_roundtrip_ok (num.rs) turns each number into an ScVal and back
   * untraced, then compares the two objects */
  { "test__num__test_num_scval_roundtrips.json", "copies" },
  /* poseidon{,2}.rs *_hostfn_success: the input [0, 1, 2] (and Poseidon2's
   * diagonal [1, 1, 2]) as small U256s, then vec_of_vec_to_vecobj's rows
   * (each row's U256 objects are traced, the row is not; Poseidon2's
   * partial-round constants are [c, 0, 0]) and the expected output's row */
#define POS_IN "vals:U256(0),U256(1),U256(2);"
  { "test__poseidon__poseidon__test_poseidon_bn254_hostfn_success.json",
    POS_IN "rows:3;elems:recent" },
  { "test__poseidon__poseidon__test_poseidon_bls12_381_hostfn_success.json",
    POS_IN "rows:3;elems:recent" },
  { "test__poseidon__poseidon2__test_poseidon2_bn254_hostfn_success.json",
    POS_IN "vals:U256(1),U256(1),U256(2);rows:3;elems:recent" },
  { "test__poseidon__poseidon2__test_poseidon2_bls12_381_hostfn_success.json",
    POS_IN "vals:U256(1),U256(1),U256(2);rows:3;elems:recent" },
#undef POS_IN
  { "test__bn254__g1_pairing_hardcoded.json",
    "bhex:2cf44499d5d27bb186308b7af7af02ac5bc9eeb6a3d147c186b21fb1b76e18da"
    "2c0f001f52110ccfe69108924926e45f0b0c868df0e7bde1fe16d3242dc715f6;"
    "bhex:1fb19bb476f6b9e44e2a32234da8212f61cd63919354bc06aef31e3cfaff3ebc"
    "22606845ff186793914e03e21df544c34ffe2f2f3504de8a79d9159eca2d98d9"
    "2bd368e28381e8eccb5fa81fc26cf3f048eea9abfdd85d7ed3ab3698d63e4f90"
    "2fe02e47887507adf0ff1743cbac6ba291e66f59be6bd763950bb16041a0a85e;"
    "bhex:0000000000000000000000000000000000000000000000000000000000000001"
    "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd45;"
    "bhex:1971ff0471b09fa93caaf13cbf443c1aede09cc4328f5a62aad45f40ec133eb4"
    "091058a3141822985733cbdddfed0fd8d6c104e9e9eff40bf5abfef9ab163bc7"
    "2a23af9a5ce2ba2796c1f4e453a370eb0af8c212d9dc9acd8fc02c2e907baea2"
    "23a8eb0b0996252cb548a4487da97b02422ebc0e834613f954de6c7e0afdc1fc;"
    "elems:1,5/3,7" },
  { "test__bn254__ethereum_bn254_pairing_tests.json", "eip197;elems:recent" },
  REPLAY_SETUPS_BN254
  /* sample_g1/g2 (soroban-env-host/src/test/bls12_381.rs) twice, g1/g2_zero,
   * then sample twice more: the generator, its double, infinity */
#define BLS_G1 "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb" \
               "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"
#define BLS_2G1 "0572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e" \
                "166a9d8cabc673a322fda673779d8e3822ba3ecb8670e461f73bb9021d5fd76a4c56d9d4cd16bd1bba86881979749d28"
#define BLS_G2 "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e" \
               "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8" \
               "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be" \
               "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"
  { "test__bls12_381__g1_mul.json",
    "bhex:" BLS_G1 ";bhex:40/96;bhex:" BLS_2G1 ";bhex:" BLS_G1 },
  { "test__bls12_381__g2_mul.json",
    "bhex:" BLS_G2 ";bhex:40/192;bhex:" BLS_G2 ";bhex:" BLS_G2 },
  /* invalid_g1/g2's points: any bytes for TooMany/TooFewBytes, the
   * trace's first byte for the three flag cases (a second non-zero byte:
   * infinity with other bits set), (0, 0) off the curve, (0, 2) of order 3
   * and RFC 9380's G2 Q0 for msg "" outside the subgroup; each invalid_*
   * but the first five makes an unused sample first */
#define BLS_G1_NOTSUB "bhex:000000000000000000000000000000000000000000000000" \
                      "000000000000000000000000000000000000000000000000" \
                      "000000000000000000000000000000000000000000000000" \
                      "000000000000000000000000000000000000000000000002;"
#define BLS_G2_NOTSUB "bhex:171c88b0b0efb5eb2b88913a9e74fe111a4f68867b59db252ce5868af4d1254bfab77ebde5d61cd1a86fb2fe4a5a1c1d" \
                      "019ad3fc9c72425a998d7ab1ea0e646a1f6093444fc6965f1cad5a3195a7b1e099c050d57f45e3fa191cc6d75ed7458c" \
                      "0eb22c7a543d3d376e9716a49b72e79a89c9bfe9feee8533ed931cbb5373dde1fbcd7411d8052e02693654f71e15410a" \
                      "0ba10604e62bdd9eeeb4156652066167b72c8d743b050fb4c1016c31b505129374f76e03fa127d6a156213576910fef3;"
#define R10(x) x x x x x x x x x x
#define R5S(x) x x x x x
#define BLS_BAD(n, a, b, c) "bhex:/" n ";bhex:/" n ";bhex:" a "/" n ";bhex:" b "01/" n ";bhex:" c "/" n ";"
  { "test__bls12_381__check_g1_is_in_subgroup.json",
    BLS_BAD("96", "09", "19", "04") "bhex:/96;bhex:/96;bhex:/96;bhex:/96;"
    R10("bhex:" BLS_G1 ";") "bhex:40/96;" R10("bhex:/96;" BLS_G1_NOTSUB) },
  { "test__bls12_381__check_g2_is_in_subgroup.json",
    BLS_BAD("192", "0f", "13", "08") "bhex:/192;bhex:/192;bhex:/192;bhex:/192;"
    R10("bhex:" BLS_G2 ";") "bhex:40/192;" R10("bhex:/192;" BLS_G2_NOTSUB) },
  { "test__bls12_381__g1_is_on_curve.json",
    BLS_BAD("96", "09", "19", "04") "bhex:/96;bhex:/96;" R10("bhex:" BLS_G1 ";") "bhex:40/96;"
    R10("bhex:/96;bhex:/96;") R10("bhex:/96;" BLS_G1_NOTSUB) },
  { "test__bls12_381__g2_is_on_curve.json",
    BLS_BAD("192", "0f", "13", "08") "bhex:/192;bhex:/192;" R10("bhex:" BLS_G2 ";")
    "bhex:40/192;" R10("bhex:/192;bhex:/192;") R10("bhex:/192;" BLS_G2_NOTSUB) },
  /* g1/g2_add: p2, the invalid p1s, p1, the invalid p2s, then x + 0,
   * 0 + x, a + b, (a + b) + c and a + (-a) (neg_g1/g2 is untraced) */
#define BLS_NEG_G1 "bhex:17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb" \
                   "114d1d6855d545a8aa7d76c8cf2e21f267816aef1db507c96655b9d5caac42364e6f38ba0ecb751bad54dcd6b939c2ca;"
#define BLS_NEG_G2 "bhex:13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e" \
                   "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8" \
                   "13fa4d4a0ad8b1ce186ed5061789213d993923066dddaf1040bc3ff59f825c78df74f2d75467e25e0f55f8a00fa030ed" \
                   "0d1b3cc2c7027888be51d9ef691d77bcb679afda66c73f17f9ee3837a55024f78c71363275a75d75d86bab79f74782aa;"
#define BLS_ADD(n, g, g2, neg, notsub, a, b, c, d, e, f) \
  g BLS_BAD(n, a, b, c) "bhex:/" n ";bhex:/" n ";bhex:/" n ";" notsub \
  g BLS_BAD(n, d, e, f) "bhex:/" n ";bhex:/" n ";bhex:/" n ";" notsub \
  g "bhex:40/" n ";" g "bhex:40/" n ";" g g2 g g2 g g neg "bhex:40/" n ";"
  { "test__bls12_381__g1_add.json",
    BLS_ADD("96", "bhex:" BLS_G1 ";", "bhex:" BLS_2G1 ";", BLS_NEG_G1, BLS_G1_NOTSUB,
            "19", "04", "0f", "00", "12", "0b") },
  { "test__bls12_381__g2_add.json",
    BLS_ADD("192", "bhex:" BLS_G2 ";", "bhex:" BLS_G2 ";", BLS_NEG_G2, BLS_G2_NOTSUB,
            "13", "08", "0e", "19", "0b", "14") },
#undef BLS_ADD
  /* g1/g2_msm: block 3's sample, invalid_g1(NotInSubgroup) and sample;
   * g1_zero for blocks 4 and 5; block 6's sample, zero, neg; block 7's
   * four samples; block 8's zero */
#define BLS_MSM(n, g, g2, neg, notsub) \
  g "bhex:/" n ";" notsub g "bhex:40/" n ";bhex:40/" n ";bhex:40/" n ";" g "bhex:40/" n ";" neg \
  "bhex:40/" n ";" g g2 g g2 "bhex:40/" n ";"
  { "test__bls12_381__g1_msm.json",
    BLS_MSM("96", "bhex:" BLS_G1 ";", "bhex:" BLS_2G1 ";", BLS_NEG_G1, BLS_G1_NOTSUB) },
  { "test__bls12_381__g2_msm.json",
    BLS_MSM("192", "bhex:" BLS_G2 ";", "bhex:" BLS_G2 ";", BLS_NEG_G2, BLS_G2_NOTSUB) },
#undef BLS_MSM
  /* pairing (bls12_381.rs): block 3's invalid_g1 not in the subgroup,
   * block 4's G2 off the curve ((0, 1)); blocks 5 to 7's p, -p, q, r (q
   * = r = the generator: e(-P, 2Q) e(P, Q)^2 = 1 holds as for any q, r),
   * p, s = 2p, r, -r and p, -p, q, -q; g1_zero / g2_zero for blocks 8 to
   * 10 (sampled points and the vecs are in slice_specs) */
#define BLS_G2_OFF_CURVE "bhex:" /* x = 0, y = 1 */ \
  "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" \
  "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000" "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001;"
  { "test__bls12_381__pairing.json",
    BLS_G1_NOTSUB BLS_G2_OFF_CURVE
    "bhex:" BLS_G1 ";" BLS_NEG_G1 "bhex:" BLS_G2 ";bhex:" BLS_G2 ";"
    "bhex:" BLS_G1 ";bhex:" BLS_2G1 ";bhex:" BLS_G2 ";" BLS_NEG_G2
    "bhex:" BLS_G1 ";" BLS_NEG_G1 "bhex:" BLS_G2 ";" BLS_NEG_G2
    "bhex:40/96;bhex:40/192;" R5S("bhex:40/96;") R5S("bhex:40/192;") },
#undef BLS_G2_OFF_CURVE
#undef BLS_BAD
  /* The Stellar Asset Contract tests with signed authorization,
   * accounts and trustlines are redone whole by sac_flows.h (the test's
   * keys from its PRNG, its ledger entries, Address objects and signed
   * entries), which test_replay.c runs in place of these tables for the
   * files it lists.  The ones below replay from the trace. */
  /* the Stellar Asset Contract tests' codes (test/stellar_asset_contract.rs);
   * the rest of test__stellar_asset_contract__* use the default "aaaa"
   * (sac_setup) */
  /* test_asset_init: the user's account and trustline (10_000_000 of
   * 100_000_000), then the user's Address */
#define USER "2222222222222222222222222222222222222222222222222222222222222222"
#define ISSUER "1111111111111111111111111111111111111111111111111111111111111111"
  { "test__stellar_asset_contract__test_asset4_init.json",
    "enforce;asset:zA9Z;vecsetup;entries:acct:" USER "|tl:" USER ":zA9Z:10000000:100000000;acct:" USER },
  { "test__stellar_asset_contract__test_asset12_init.json",
    "enforce;asset:123def456XYZ;vecsetup;entries:acct:" USER "|tl:" USER
    ":123def456XYZ:10000000:100000000;acct:" USER },
  { "test__stellar_asset_contract__test_asset4_trailing_zero_init.json",
    "enforce;asset:Az;vecsetup;entries:acct:" USER "|tl:" USER ":Az:10000000:100000000;acct:" USER },
  { "test__stellar_asset_contract__test_asset12_trailing_zero_init.json",
    "enforce;asset:789Az;vecsetup;entries:acct:" USER "|tl:" USER ":789Az:10000000:100000000;acct:" USER },
  /* cap_68_executable_getter (lifecycle.rs): the zero contract and account
   * addresses; get_account_executable's account (create_account) */
#define Z32 "0000000000000000000000000000000000000000000000000000000000000000"
  { "test__lifecycle__cap_68_executable_getter__get_non_existent_executable.json",
    "contract:" Z32 ";acct:" Z32 },
  { "test__lifecycle__cap_68_executable_getter__get_account_executable.json",
    "entries:acct:" Z32 ";strs:Wasm,StellarAsset,Account;acct:" Z32 },
#undef Z32
  { "test__lifecycle__cap_68_executable_getter__get_stellar_asset_contract_executable.json",
    "enforce;strs:Wasm,StellarAsset,Account" },
  /* the native asset's balance of an account */
  { "test__stellar_asset_contract__test_account_balance.json",
    "enforce;vecsetup;entries:acct:" USER ":100000000;acct:" USER },
  /* trust / balance of a generated contract address (cap_73) */
  { "test__stellar_asset_contract__cap_73__test_trust_noop_for_contract_address.json",
    "enforce;asset:aaaa;vecsetup;entries:acct:" ISSUER ";contract:" USER },
  { "test__stellar_asset_contract__cap_73__test_trust_fails_for_issuer.json",
    "enforce;asset:aaaa;vecsetup;entries:acct:" ISSUER ";acct:" ISSUER },
  { "test__stellar_asset_contract__cap_73__test_trust_noop_if_trustline_exists.json",
    "enforce;asset:aaaa;vecsetup;entries:acct:" USER "|acct:" ISSUER "|tl:" USER
    ":aaaa:1000:5000;acct:" USER },
#undef USER
#undef ISSUER
  /* frame.rs: add_host_object(ScAddress::Contract([0; 32])), then
   * register_test_contract's stub code entry and instance
   * (replay_testcontract.h) */
#define TC0 "0000000000000000000000000000000000000000000000000000000000000000"
  { "test__frame__has_frame.json", "enforce;entries:tc:" TC0 ";contract:" TC0 },
  { "test__frame__try_with_test_contract_frame_has_frame.json", "enforce;entries:tc:" TC0 ";contract:" TC0 },
  { "test__frame__try_with_test_contract_frame_catches_host_error.json",
    "enforce;entries:tc:" TC0 ";contract:" TC0 },
  { "test__frame__try_with_test_contract_frame_catches_panic.json",
    "enforce;entries:tc:" TC0 ";contract:" TC0 },
  /* invocation.rs native_invoke_return_err_variants: the same for
   * ReturnContractError */
  { "test__invocation__native_invoke_return_err_variants.json", "enforce;entries:tc:" TC0 ";contract:" TC0 },
  /* prng.rs host_and_contract_with_seed (prng:NN: set_base_prng_seed([NN;
   * 32])), PRNGUsingTest registered at [0; 32], then the call's args */
  { "test__prng__base_prng_seed_0.json", "enforce;entries:tc:" TC0 ";prng:00;contract:" TC0 ";vals:U64(0),U64(90)" },
  { "test__prng__base_prng_seed_1.json", "enforce;entries:tc:" TC0 ";prng:00;contract:" TC0 ";vals:U64(0),U64(90)" },
  { "test__prng__base_prng_seed_2.json", "enforce;entries:tc:" TC0 ";prng:02;contract:" TC0 ";vals:U64(0),U64(90)" },
  { "test__prng__base_prng_seed_bytes_0.json", "enforce;entries:tc:" TC0 ";prng:00;contract:" TC0 ";vals:U64(0)" },
  { "test__prng__base_prng_seed_bytes_1.json", "enforce;entries:tc:" TC0 ";prng:00;contract:" TC0 ";vals:U64(0)" },
  { "test__prng__base_prng_seed_bytes_2.json", "enforce;entries:tc:" TC0 ";prng:02;contract:" TC0 ";vals:U64(0)" },
  /* event.rs contract_event, test_event_rollback: the address, then
   * test_vec_obj::<i32>(&[1, 2]), then the registration */
  { "test__event__contract_event.json", "enforce;entries:tc:" TC0 ";contract:" TC0 ";vals:I32(1),I32(2)" },
  /* its ContractWithMultipleEvents calls record_contract_event, a host
   * method that is no host function: its conversions show as bare
   * bytes_new_from_slice steps and its event charges untraced */
  { "test__event__test_event_rollback.json",
    "skip:records events through Host::record_contract_event (no host function)" },
  /* prng_test: test_vec_obj::<i32>(&[1, 2]), ::<u64>(&[LO, HI]), then
   * test_vec_obj::<ScVec>(&[test_scvec::<i32>(&[1..=8])]) (the inner Vec
   * first); vec_new_from_slice(&[bytes0]) */
  { "test__prng__prng_test.json",
    "enforce;entries:tc:" TC0 ";prng:00;contract:" TC0 ";vals:I32(1),I32(2);vals:U64(12345),U64(78910);"
    "vals:I32(1),I32(2),I32(3),I32(4),I32(5),I32(6),I32(7),I32(8);vals:Vec(obj#39);elems:17" },
  /* check_caller_and_callee_seed_always_different: PRNGUsingTest at
   * [0; 32] and [1; 32]; per round (the base seed reset untraced) the
   * callee's test_vec_obj::<u32>(&[]) and vec_new_from_slice(&[id1]) */
#define TC1 "0101010101010101010101010101010101010101010101010101010101010101"
  { "test__prng__check_caller_and_callee_seed_always_different_0.json",
    "enforce;entries:tc:" TC0 "|tc:" TC1 ";prng:00;contract:" TC0 ";contract:" TC1
    ";loop:vec:;elems:loop:Address(obj#11)" },
  /* commit_reveal: test_vec_obj::<u32>(&[]); the ledger sequence bump
   * before the eventual reveal */
  { "test__prng__commit_reveal.json",
    "enforce;entries:tc:" TC0 ";seq+1@55;prng:00;contract:" TC0 ";vec:" },
  /* try_until_chosen_number: test_vec_obj::<u64>(&[0, 100]) per try */
  { "test__prng__try_until_chosen_number.json",
    "enforce;entries:tc:" TC0 ";prng:00;contract:" TC0 ";loop:vals:U64(0),U64(100)" },
};

/* Contents of a trace's bytes_new_from_slice / bytes_copy_from_slice /
 * vec_new_from_slice calls in order, read from the tests' source,
 * ';'-separated: "hex:HEX", "text:TEXT", "fill:HH" (any length of byte HH),
 * "vals:V,V,..." (Vals in trace
 * notation), "keys:K1,K2" (a map_new_from_slices's keys, before its
 * vals:), or "-" for contents that stay invented (as past the end). */
typedef struct slice_spec { const char *file, *slices; } slice_spec;
/* sample_g1/g2_out_of_range (soroban-env-host/src/test/bls12_381.rs)
 * copies MODULUS's text over a point; invalid_fp(OutOfRange) is p itself */
#define BLS_P "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab"
static const slice_spec slice_specs[] = {
  REPLAY_SLICES_CRYPTO
  REPLAY_SLICES_NUM
  REPLAY_SLICES_BN254
  REPLAY_SLICES_INTEGRITY
  REPLAY_SLICES_MAP
  REPLAY_SLICES_MISC
  { "test__bls12_381__check_g1_is_in_subgroup.json", "text:0x" BLS_P },
  { "test__bls12_381__check_g2_is_in_subgroup.json", "text:0x" BLS_P },
  { "test__bls12_381__g1_is_on_curve.json", "text:0x" BLS_P },
  { "test__bls12_381__g2_is_on_curve.json", "text:0x" BLS_P },
  { "test__bls12_381__map_fp_to_g1.json", "-;-;hex:" BLS_P },
  /* g1/g2_msm (bls12_381.rs): sample_host_vec's points are bytes of valid
   * points; the vecs hold the handles the trace shows made before them
   * (block 7's shuffles: any order costs and sums the same) */
#define BLS_MSM_SLICES(g)                                                                    \
  g g "vals:Bytes(obj#5),Bytes(obj#7);vals:U256(obj#11),U256(obj#13),U256(obj#15);"          \
  "vals:Bytes(obj#19),Bytes(obj#23),Bytes(obj#25);vals:U256(obj#29),U256(obj#31),U256(obj#33);" \
  "vals:Bytes(obj#37),Bytes(obj#37),Bytes(obj#37);vals:U256(obj#41),U256(obj#43),U256(obj#45);" \
  g g g "vals:Bytes(obj#53),Bytes(obj#55),Bytes(obj#57);vals:U256(0),U256(0),U256(0);"      \
  "vals:Bytes(obj#67),Bytes(obj#71);vals:U256(1),U256(1);"                                   \
  R11("vals:Bytes(obj#81),Bytes(obj#83),Bytes(obj#85),Bytes(obj#87);"                        \
      "vals:U256(obj#89),U256(obj#91),U256(obj#93),U256(obj#95);")
#define R11(x) x x x x x x x x x x x
#define R5(x) x x x x x
  { "test__bls12_381__g1_msm.json",
    BLS_MSM_SLICES("hex:" BLS_G1 ";") R5("hex:" BLS_G1 ";") R5("hex:" BLS_2G1 ";")
    "vals:Bytes(obj#163),Bytes(obj#165),Bytes(obj#167),Bytes(obj#169),Bytes(obj#171),"
    "Bytes(obj#173),Bytes(obj#175),Bytes(obj#177),Bytes(obj#179),Bytes(obj#181);"
    "vals:U256(obj#185),U256(obj#187),U256(obj#189),U256(obj#191),U256(obj#193),"
    "U256(obj#195),U256(obj#197),U256(obj#199),U256(obj#201),U256(obj#203)" },
  { "test__bls12_381__g2_msm.json",
    BLS_MSM_SLICES("hex:" BLS_G2 ";") R5("hex:" BLS_G2 ";")
    "vals:Bytes(obj#163),Bytes(obj#165),Bytes(obj#167),Bytes(obj#169),Bytes(obj#171);"
    "vals:U256(obj#175),U256(obj#177),U256(obj#179),U256(obj#181),U256(obj#183)" },
  /* pairing: the samples G1 / G2 and the vecs' handles, block by block */
#define PG1 "hex:" BLS_G1 ";"
#define PG2 "hex:" BLS_G2 ";"
  { "test__bls12_381__pairing.json",
    PG1 PG1 PG1 "vals:Bytes(obj#1),Bytes(obj#3),Bytes(obj#5);" PG2 PG2
    "vals:Bytes(obj#9),Bytes(obj#11);vals:;vals:;"
    PG1 PG1 PG1 "vals:Bytes(obj#19),Bytes(obj#21),Bytes(obj#23);" PG2 PG2
    "vals:Bytes(obj#31),Bytes(obj#33);"
    PG1 PG1 PG1 "vals:Bytes(obj#37),Bytes(obj#39),Bytes(obj#41);" PG2 PG2 PG2
    "vals:Bytes(obj#45),Bytes(obj#47),Bytes(obj#49);"
    "vals:Bytes(obj#59),Bytes(obj#57),Bytes(obj#57);vals:Bytes(obj#65),Bytes(obj#61),Bytes(obj#63);"
    "vals:Bytes(obj#79),Bytes(obj#71),Bytes(obj#73);vals:Bytes(obj#77),Bytes(obj#75),Bytes(obj#75);"
    "vals:Bytes(obj#97),Bytes(obj#99),Bytes(obj#107),Bytes(obj#91);"
    "vals:Bytes(obj#103),Bytes(obj#101),Bytes(obj#95),Bytes(obj#109);"
    PG1 PG1 PG1 "vals:Bytes(obj#115),Bytes(obj#117),Bytes(obj#119);" PG2 PG2 PG2
    "vals:Bytes(obj#127),Bytes(obj#129),Bytes(obj#131);"
    PG1 PG1 PG1 "vals:Bytes(obj#135),Bytes(obj#137),Bytes(obj#139);" PG2 PG2 PG2
    "vals:Bytes(obj#143),Bytes(obj#145),Bytes(obj#147);"
    "vals:Bytes(obj#155),Bytes(obj#157),Bytes(obj#159),Bytes(obj#161),Bytes(obj#163);"
    "vals:Bytes(obj#167),Bytes(obj#169),Bytes(obj#171),Bytes(obj#173),Bytes(obj#175)" },
#undef PG1
#undef PG2
#undef R5
#undef R11
#undef BLS_MSM_SLICES
};
#undef BLS_P
#undef BLS_NEG_G2
#undef BLS_NEG_G1
#undef R10
#undef R5S
#undef BLS_G2_NOTSUB
#undef BLS_G1_NOTSUB
#undef BLS_G2
#undef BLS_2G1
#undef BLS_G1

#endif
