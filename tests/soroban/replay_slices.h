/*
 * replay_slices.h — more of test_replay.c's slice_specs (see
 * replay_setups.h for the notation): the byte strings the reference tests
 * write literally, read from their source (rs-soroban-env v28.0.2
 * soroban-env-host/src/test/).  "fill:HH" fills a slice of any length with
 * byte HH (vec![b'a'; 100_000]).  Data only; included by replay_setups.h.
 */
#ifndef SCP_TEST_REPLAY_SLICES_H
#define SCP_TEST_REPLAY_SLICES_H

/* crypto.rs ed25519_verify_test: RFC 8032 7.1's vectors, then the
 * failing cases (wrong message, 31-byte key, 65-byte signature, a
 * 10_000_000-byte message that runs out of budget) */
#define ED_PK2 "hex:3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c;"
#define ED_SIG2 "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da" \
                "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
#define ED_PK3 "hex:25ddcf6f16fe15f846553ceee99faad07b4c12e063cd817b7df66310d7338fda;"
#define SLICES_ED25519                                                                          \
  "hex:d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a;hex:;"                  \
  "hex:e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b;" \
  ED_PK2 "hex:72;hex:" ED_SIG2 ";"                                                              \
  ED_PK3 "fill:61;"                                                                             \
  "hex:1c2e91002652bf75c61d35055b674b7aab7a868a9feffd70b5f07abd8d95b09fb3d2e55b4a4b48f80bb92d1ed6b9d1cfe1388be443a2b37f95ee744756e1f702;" \
  ED_PK2 "hex:73;hex:" ED_SIG2 ";"                                                              \
  "hex:3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af466;hex:72;hex:" ED_SIG2 ";"   \
  ED_PK2 "hex:72;hex:" ED_SIG2 "00;"                                                            \
  ED_PK3 "fill:61;"                                                                             \
  "hex:87f78aa58df29e330f2dea33a0c668a9953a918552ba1c6d44e8bdeb41acbdf4e8c1202fd32652ebf0fecc82e2569c500faeb7b1c33ece63eb6d7381b0910a0b"

/* crypto.rs recover_ecdsa_secp256k1_key_test: go-ethereum's vector, then
 * bad recovery ids, a 31-byte digest, a 65-byte signature */
#define K1_MD "ce0677bb30baa8cf067c88db9811f4333d131bf8bcf12fe7065d211dce9710"
#define K1_SIG "90f27b8b488db00b00606796d2987f6a5f59ae62ea05effe84fef5b8b0e54998" \
               "4a691139ad57a3f0b906637673aa2f63d1f55cb1a69199d4009eea23ceaddc93"
#define SLICES_SECP256K1                                                         \
  "hex:" K1_MD "08;hex:" K1_SIG ";hex:" K1_MD "08;hex:" K1_SIG ";"               \
  "hex:" K1_MD "08;hex:" K1_SIG ";hex:" K1_MD ";hex:" K1_SIG ";"                 \
  "hex:" K1_MD "08;hex:" K1_SIG "00"

/* crypto.rs test_secp256r1_signature_verification: NIST's vector (PK, MD,
 * SIG), then each case's one changed input */
#define R1_PK "04e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e12f49abf3c" \
              "970eed7aa2bc48651545949de1dddaf0127e5965ac85d1243d6f60e7dfaee9"
#define R1_MD "d1b8ef21eb4182ee270638061063a3f3c16c114e33937f69fb232cc833965a"
#define R1_SIG "bf96b99aa49c705c910be33142017c642ff540c76349b9dab72f981fd9347f4f" \
               "17c55095819089c2e03b9cd415abdf12444e323075d98f31920b9e0f57ec87"
#define R1(pk, md, sig) "hex:" pk ";hex:" md ";hex:" sig ";"
#define SLICES_SECP256R1                                                                        \
  R1(R1_PK "27", R1_MD "94", R1_SIG "1c") R1(R1_PK "27", R1_MD, R1_SIG "1c")                    \
  R1(R1_PK "27", R1_MD "9400", R1_SIG "1c") R1(R1_PK "27", R1_MD "95", R1_SIG "1c")             \
  R1(R1_PK, R1_MD "94", R1_SIG "1c") R1(R1_PK "2700", R1_MD "94", R1_SIG "1c")                  \
  R1(R1_PK "28", R1_MD "94", R1_SIG "1c")                                                       \
  R1("02e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e12f49abf3c", R1_MD "94", R1_SIG "1c") \
  R1("03e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e12f49abf3c", R1_MD "94", R1_SIG "1c") \
  R1("00", R1_MD "94", R1_SIG "1c")                                                             \
  R1("09e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e12f49abf3c"                       \
     "970eed7aa2bc48651545949de1dddaf0127e5965ac85d1243d6f60e7dfaee927", R1_MD "94", R1_SIG "1c") \
  R1("04970eed7aa2bc48651545949de1dddaf0127e5965ac85d1243d6f60e7dfaee927"                       \
     "e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e12f49abf3c", R1_MD "94", R1_SIG "1c") \
  R1(R1_PK "27", R1_MD "94", R1_SIG) R1(R1_PK "27", R1_MD "94", R1_SIG "1c00")                  \
  R1(R1_PK "27", R1_MD "94", R1_SIG "1d")                                                       \
  R1(R1_PK "27", R1_MD "94", "0000000000000000000000000000000000000000000000000000000000000000" \
     "17c55095819089c2e03b9cd415abdf12444e323075d98f31920b9e0f57ec871c")                        \
  R1(R1_PK "27", R1_MD "94", "bf96b99aa49c705c910be33142017c642ff540c76349b9dab72f981fd9347f4f" \
     "0000000000000000000000000000000000000000000000000000000000000000")                        \
  R1(R1_PK "27", R1_MD "94", "bf96b99aa49c705c910be33142017c642ff540c76349b9dab72f981fd9347f4f" \
     "e83aaf697e6f763e1fc4632bea5420ed7898c87d313e0f5361ae2cb3a4769e35")                        \
  R1(R1_PK "27", R1_MD "94", R1_SIG "1d")

/* num.rs test_u256/i256_bytes_roundtrip: {U,I}256::from_words(+-4353239472894,
 * 6576786237846).to_be_bytes() */
#define REPLAY_SLICES_NUM                                                                    \
  { "test__num__test_u256_bytes_roundtrip.json",                                             \
    "hex:0000000000000000000003f5914adafe0000000000000000000005fb4701e996" },                \
  { "test__num__test_i256_bytes_roundtrip.json",                                             \
    "hex:fffffffffffffffffffffc0a6eb525020000000000000000000005fb4701e996" },

/* vec.rs / map.rs *_build_bad_element_integrity: the good object, the
 * same handle with the next tag, then a handle past any object */
#define REPLAY_SLICES_INTEGRITY                                                                 \
  { "test__vec__vec_build_bad_element_integrity.json",                                        \
    "vals:Vec(obj#1);vals:Map(obj#1);vals:Vec(obj#16711681)" },                                \
  { "test__map__map_build_bad_element_integrity.json",                                        \
    "vals:Map(obj#1);vals:Address(obj#1);vals:Map(obj#16711681)" },                             \
  /* map.rs initialization_invalid: out of order, duplicate, a 34-char     \
   * key, then five copies of a 7 MB Bytes (vec.rs's vector likewise) */    \
  { "test__map__initialization_invalid.json",                                                \
    "keys:b,a;vals:U32(1),U32(2);keys:a,a;vals:U32(1),U32(2);"                              \
    "keys:012345678abcdefghijklmnopqrstuvwxy;vals:Bytes(obj#1);"                             \
    "keys:a,b,c,d,e;vals:Bytes(obj#3),Bytes(obj#3),Bytes(obj#3),Bytes(obj#3),Bytes(obj#3)" }, \
  { "test__vec__instantiate_oversized_vec_from_slice.json",                                 \
    "vals:Bytes(obj#1),Bytes(obj#1),Bytes(obj#1),Bytes(obj#1),Bytes(obj#1)" },

/* map.rs map_new_and_unpack::run_dense_map_new_test's maps, then
 * test_map_new_from_slices's two keys with one value */
#define MAP_A100 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SLICES_MAP_DENSE                                                                    \
  "keys:a,bbbbbbbbbbbb,cc;vals:U32(10),U32(20),U32(30);"                                     \
  "keys:a,bbbbbbbbbbbb,c,dd;vals:U32(10),Void,U32(30),Void;"                                 \
  "keys:a,b,c,d;vals:Void,Void,Void,Void;"                                                   \
  "keys:b,a;vals:U32(10),U32(20);keys:a,a;vals:U32(10),U32(20);"                              \
  "keys:!;vals:U32(10);keys:" MAP_A100 ";vals:U32(10);"

/* run_sparse_map_new_test's maps, then test_sparse_map_new_from_slices's
 * two keys with one value */
#define SLICES_MAP_SPARSE                                                                   \
  "keys:a,bbbbbbbbbbbb,cc;vals:U32(10),U32(20),U32(30);"                                     \
  "keys:a,bbbbbbbbbbbb,c,dd;vals:U32(10),Void,U32(30),Void;"                                 \
  "keys:a,b,cccccccccccccc,d;vals:Void,Void,Void,Void;"                                      \
  "keys:aaaaaaaaaaaaaa,c,b;vals:U32(10),Void,U32(20);"                                       \
  "keys:bbbbbbbbbbbbbbbbbbbb,a;vals:Void,Void;"                                              \
  "keys:aaaaaaaaaaaaaaaa,aaaaaaaaaaaaaaaa;vals:U32(10),Void;"                                \
  "keys:abcdefghijkl,abcdefghijkl,abcdefghijkl;vals:Void,Void,Void;"                         \
  "keys:!;vals:U32(10);keys:!;vals:Void;keys:" MAP_A100 ";vals:Void;"                        \
  "keys:a,b;vals:U32(10)"
/* run_dense_map_unpack_test: each query unpacks a new map of MAP_KV */
#define MAP_KV "keys:aa,bbbbbbbbbbbb,cc,d,eeeee;vals:U32(10),U32(20),U32(30),Void,U32(50);"
#define SLICES_MAP_UNPACK                                                                   \
  MAP_KV "keys:aa,bbbbbbbbbbbb,cc,d,eeeee;" MAP_KV "keys:aa,bbbbbbbbbbbb;"                    \
  MAP_KV "keys:aa,bbbbbbbbbbbb,cc,d,zzzzz;" MAP_KV "keys:aa,bbbbbbbbbbbb,cc,d,eeeee,z;"       \
  MAP_KV "keys:" MAP_A100 ",bbbbbbbbbbbb,cc,d,eeeee;" MAP_KV "keys:aa,cc,bbbbbbbbbbbb,d,eeeee"

/* run_sparse_map_unpack_test: each query unpacks a new map of MAP_KV;
 * then a two-entry map unpacked with one key into two outputs */
#define SLICES_MAP_SPARSE_UNPACK                                                            \
  MAP_KV "keys:aa,bbbbbbbbbbbb,cc,d,eeeee;" MAP_KV "keys:bbbbbbbbbbbb,d;" MAP_KV "keys:;"     \
  MAP_KV "keys:x,yyyyyyyyyyyyyy,z;" MAP_KV "keys:a,bbbbbbbbbbbb,cc,e,eeeee,y,z;"              \
  MAP_KV "keys:!," MAP_A100 ";" MAP_KV "keys:cc,aaaaaaaaaaaaaaa;"                            \
  "keys:aa,bbb;vals:U32(10),U32(20);keys:aa;vals:Void,Void"

#define REPLAY_SLICES_MAP                                                                   \
  { "test__map__map_new_and_unpack__test_sparse_map_unpack_to_slice.json",                  \
    SLICES_MAP_SPARSE_UNPACK },                                                             \
  { "test__map__map_new_and_unpack__test_sparse_map_new_from_slices.json",                  \
    SLICES_MAP_SPARSE },                                                                    \
  { "test__map__map_new_and_unpack__test_map_unpack_to_slice.json", SLICES_MAP_UNPACK },    \
  { "test__map__map_new_and_unpack__test_map_new_from_slices.json",                         \
    SLICES_MAP_DENSE "keys:a,bbbbbbbbbbbb;vals:U32(10)" },

#define SLICES_CTOR "text:__constructor;text:__constructor"
#define REPLAY_SLICES_MISC                                                                  \
  /* event.rs too_big_event_topic: 0x0FFFFFFF zeros as the one topic */                      \
  { "test__event__too_big_event_topic.json", "fill:00;vals:Bytes(obj#1)" },                  \
  { "test__executable_tag__test_executable_tag_conversion_roundtrip.json",                   \
    "text:executable tag" },                                                                 \
  /* frame.rs NoopContractFunctionSet: every call compares the function    */               \
  /* with symbol_new_from_slice(b"__constructor"), the constructor's first */               \
  { "test__frame__has_frame.json", SLICES_CTOR },                                            \
  { "test__frame__try_with_test_contract_frame_has_frame.json", SLICES_CTOR },               \
  { "test__frame__try_with_test_contract_frame_catches_panic.json", SLICES_CTOR },           \
  { "test__frame__try_with_test_contract_frame_catches_host_error.json",                     \
    SLICES_CTOR ";text:nonexistent" },                                                      \
  { "test__invocation__native_invoke_return_err_variants.json",                             \
    SLICES_CTOR ";" SLICES_CTOR },                                                          \
  { "test__prng__base_prng_seed_0.json", SLICES_CTOR ";text:__constructor" },                \
  { "test__prng__base_prng_seed_1.json", SLICES_CTOR ";text:__constructor" },                \
  { "test__prng__base_prng_seed_2.json", SLICES_CTOR ";text:__constructor" },                \
  { "test__prng__base_prng_seed_bytes_0.json", SLICES_CTOR ";text:__constructor" },          \
  { "test__prng__base_prng_seed_bytes_1.json", SLICES_CTOR ";text:__constructor" },          \
  { "test__prng__base_prng_seed_bytes_2.json", SLICES_CTOR ";text:__constructor" },         \
  { "test__prng__try_until_chosen_number.json", "loop:text:__constructor" },                  \
  { "test__prng__prng_test.json", "loop:text:__constructor" },                               \
  { "test__prng__commit_reveal.json", "loop:text:__constructor" },                           \
  { "test__prng__check_caller_and_callee_seed_always_different_0.json",                      \
    SLICES_CTOR ";" SLICES_CTOR },                                                          \
  { "test__event__contract_event.json", SLICES_CTOR ";text:__constructor" },

#define REPLAY_SLICES_CRYPTO                                                   \
  { "test__crypto__ed25519_verify_test.json", SLICES_ED25519 },                \
  { "test__crypto__recover_ecdsa_secp256k1_key_test.json", SLICES_SECP256K1 }, \
  { "test__crypto__test_secp256r1_signature_verification.json", SLICES_SECP256R1 },

#endif
