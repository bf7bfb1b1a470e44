/*
 * soroban.h — write Soroban contracts in C.
 *
 * Build:  clang --target=wasm32 -O2 -g -nostdlib -Wl,--no-entry
 *         -Wl,--export-dynamic -Wl,--allow-undefined -o c.wasm c.c
 *
 * Every value that crosses the contract/host boundary is a Val: a 64-bit
 * word whose low 8 bits are a tag and whose upper 56 bits are the body
 * (rs-soroban-env v28 soroban-env-common/src/val.rs).  Small values (bools,
 * u32/i32, integers that fit in 56 bits, symbols of up to 9 characters) live
 * in the word itself; everything else is an object handle the host owns.
 * The helpers below build and inspect Vals; the host functions are declared
 * at the end (generated from env.json by scripts/gen-host-fns).
 *
 * Freestanding: only clang's own <stdint.h> is used, no libc.
 */
#ifndef SOROBAN_H
#define SOROBAN_H

#include <stdint.h>

typedef uint64_t Val;

/* ---- tags (val.rs Tag) ------------------------------------------------ */
enum {
  SOROBAN_TAG_FALSE = 0, SOROBAN_TAG_TRUE = 1, SOROBAN_TAG_VOID = 2,
  SOROBAN_TAG_ERROR = 3, SOROBAN_TAG_U32 = 4, SOROBAN_TAG_I32 = 5,
  SOROBAN_TAG_U64_SMALL = 6, SOROBAN_TAG_I64_SMALL = 7,
  SOROBAN_TAG_TIMEPOINT_SMALL = 8, SOROBAN_TAG_DURATION_SMALL = 9,
  SOROBAN_TAG_U128_SMALL = 10, SOROBAN_TAG_I128_SMALL = 11,
  SOROBAN_TAG_U256_SMALL = 12, SOROBAN_TAG_I256_SMALL = 13,
  SOROBAN_TAG_SYMBOL_SMALL = 14,
  SOROBAN_TAG_U64_OBJECT = 64, SOROBAN_TAG_I64_OBJECT = 65,
  SOROBAN_TAG_TIMEPOINT_OBJECT = 66, SOROBAN_TAG_DURATION_OBJECT = 67,
  SOROBAN_TAG_U128_OBJECT = 68, SOROBAN_TAG_I128_OBJECT = 69,
  SOROBAN_TAG_U256_OBJECT = 70, SOROBAN_TAG_I256_OBJECT = 71,
  SOROBAN_TAG_BYTES_OBJECT = 72, SOROBAN_TAG_STRING_OBJECT = 73,
  SOROBAN_TAG_SYMBOL_OBJECT = 74, SOROBAN_TAG_VEC_OBJECT = 75,
  SOROBAN_TAG_MAP_OBJECT = 76, SOROBAN_TAG_ADDRESS_OBJECT = 77,
  SOROBAN_TAG_MUXED_ADDRESS_OBJECT = 78, SOROBAN_TAG_EXECUTABLE_TAG_OBJECT = 79
};

#define SOROBAN_FALSE ((Val)0)
#define SOROBAN_TRUE  ((Val)1)
#define SOROBAN_VOID  ((Val)2)

static inline unsigned val_tag(Val v) { return (unsigned)(v & 0xff); }
static inline int val_is_object(Val v) {
  return val_tag(v) > 63 && val_tag(v) < 80;
}
static inline int val_has_tag(Val v, unsigned tag) { return val_tag(v) == tag; }
static inline Val val_from_bool(int b) { return b ? SOROBAN_TRUE : SOROBAN_FALSE; }
static inline int val_is_true(Val v) { return v == SOROBAN_TRUE; }

/* U32Val / I32Val: the 32-bit payload is the body's upper 32 bits. */
static inline Val val_from_u32(uint32_t x) {
  return ((uint64_t)x << 32) | SOROBAN_TAG_U32;
}
static inline uint32_t val_to_u32(Val v) { return (uint32_t)(v >> 32); }
static inline Val val_from_i32(int32_t x) {
  return ((uint64_t)(uint32_t)x << 32) | SOROBAN_TAG_I32;
}
static inline int32_t val_to_i32(Val v) { return (int32_t)(uint32_t)(v >> 32); }

/* Error values: major = code, minor = ScErrorType (Contract = 0). */
static inline Val val_from_contract_error(uint32_t code) {
  return ((uint64_t)code << 32) | SOROBAN_TAG_ERROR;
}

/* u64 below 2^56 fits in a U64Small; larger ones need obj_from_u64. */
static inline int u64_fits_small(uint64_t x) { return x < ((uint64_t)1 << 56); }
static inline Val val_from_small_u64(uint64_t x) {
  return (x << 8) | SOROBAN_TAG_U64_SMALL;
}
static inline uint64_t val_to_small_u64(Val v) { return v >> 8; }
static inline int i64_fits_small(int64_t x) {
  return x >= -((int64_t)1 << 55) && x < ((int64_t)1 << 55);
}
static inline Val val_from_small_i64(int64_t x) {
  return ((uint64_t)x << 8) | SOROBAN_TAG_I64_SMALL;
}
static inline int64_t val_to_small_i64(Val v) { return (int64_t)v >> 8; }

/* SymbolSmall: up to 9 characters from [_0-9A-Za-z], 6 bits each, packed
 * first character most significant (symbol.rs).  Returns SOROBAN_VOID when
 * the text does not fit (use symbol_new_from_linear_memory then). */
static inline Val val_symbol_small(const char *s) {
  uint64_t acc = 0;
  unsigned n = 0;
  for (; s[n]; n++) {
    char c = s[n];
    uint64_t code;
    if (n >= 9) return SOROBAN_VOID;
    if (c == '_') code = 1;
    else if (c >= '0' && c <= '9') code = 2 + (uint64_t)(c - '0');
    else if (c >= 'A' && c <= 'Z') code = 12 + (uint64_t)(c - 'A');
    else if (c >= 'a' && c <= 'z') code = 38 + (uint64_t)(c - 'a');
    else return SOROBAN_VOID;
    acc = (acc << 6) | code;
  }
  return (acc << 8) | SOROBAN_TAG_SYMBOL_SMALL;
}

/* Linear-memory positions and lengths travel as U32Vals. */
static inline Val val_ptr(const void *p) {
  return val_from_u32((uint32_t)(uintptr_t)p);
}

#define SOROBAN_IMPORT(mod, field) \
  __attribute__((import_module(mod), import_name(field)))
#define SOROBAN_EXPORT(name) __attribute__((export_name(name)))

/* BEGIN GENERATED HOST FUNCTIONS (scripts/gen-host-fns) */
/* Every host function of env.json (rs-soroban-env v28.0.2); each argument and
 * result is a Val (uint64_t) unless typed i64/u64 there. */
SOROBAN_IMPORT("x", "_") uint64_t log_from_linear_memory(uint64_t msg_pos, uint64_t msg_len, uint64_t vals_pos, uint64_t vals_len);
SOROBAN_IMPORT("x", "0") int64_t obj_cmp(uint64_t a, uint64_t b);
SOROBAN_IMPORT("x", "1") uint64_t contract_event(uint64_t topics, uint64_t data);
SOROBAN_IMPORT("x", "2") uint64_t get_ledger_version(void);
SOROBAN_IMPORT("x", "3") uint64_t get_ledger_sequence(void);
SOROBAN_IMPORT("x", "4") uint64_t get_ledger_timestamp(void);
SOROBAN_IMPORT("x", "5") uint64_t fail_with_error(uint64_t error);
SOROBAN_IMPORT("x", "6") uint64_t get_ledger_network_id(void);
SOROBAN_IMPORT("x", "7") uint64_t get_current_contract_address(void);
SOROBAN_IMPORT("x", "8") uint64_t get_max_live_until_ledger(void);
SOROBAN_IMPORT("i", "_") uint64_t obj_from_u64(uint64_t v);
SOROBAN_IMPORT("i", "0") uint64_t obj_to_u64(uint64_t obj);
SOROBAN_IMPORT("i", "1") uint64_t obj_from_i64(int64_t v);
SOROBAN_IMPORT("i", "2") int64_t obj_to_i64(uint64_t obj);
SOROBAN_IMPORT("i", "3") uint64_t obj_from_u128_pieces(uint64_t hi, uint64_t lo);
SOROBAN_IMPORT("i", "4") uint64_t obj_to_u128_lo64(uint64_t obj);
SOROBAN_IMPORT("i", "5") uint64_t obj_to_u128_hi64(uint64_t obj);
SOROBAN_IMPORT("i", "6") uint64_t obj_from_i128_pieces(int64_t hi, uint64_t lo);
SOROBAN_IMPORT("i", "7") uint64_t obj_to_i128_lo64(uint64_t obj);
SOROBAN_IMPORT("i", "8") int64_t obj_to_i128_hi64(uint64_t obj);
SOROBAN_IMPORT("i", "9") uint64_t obj_from_u256_pieces(uint64_t hi_hi, uint64_t hi_lo, uint64_t lo_hi, uint64_t lo_lo);
SOROBAN_IMPORT("i", "a") uint64_t u256_val_from_be_bytes(uint64_t bytes);
SOROBAN_IMPORT("i", "b") uint64_t u256_val_to_be_bytes(uint64_t val);
SOROBAN_IMPORT("i", "c") uint64_t obj_to_u256_hi_hi(uint64_t obj);
SOROBAN_IMPORT("i", "d") uint64_t obj_to_u256_hi_lo(uint64_t obj);
SOROBAN_IMPORT("i", "e") uint64_t obj_to_u256_lo_hi(uint64_t obj);
SOROBAN_IMPORT("i", "f") uint64_t obj_to_u256_lo_lo(uint64_t obj);
SOROBAN_IMPORT("i", "g") uint64_t obj_from_i256_pieces(int64_t hi_hi, uint64_t hi_lo, uint64_t lo_hi, uint64_t lo_lo);
SOROBAN_IMPORT("i", "h") uint64_t i256_val_from_be_bytes(uint64_t bytes);
SOROBAN_IMPORT("i", "i") uint64_t i256_val_to_be_bytes(uint64_t val);
SOROBAN_IMPORT("i", "j") int64_t obj_to_i256_hi_hi(uint64_t obj);
SOROBAN_IMPORT("i", "k") uint64_t obj_to_i256_hi_lo(uint64_t obj);
SOROBAN_IMPORT("i", "l") uint64_t obj_to_i256_lo_hi(uint64_t obj);
SOROBAN_IMPORT("i", "m") uint64_t obj_to_i256_lo_lo(uint64_t obj);
SOROBAN_IMPORT("i", "n") uint64_t u256_add(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "o") uint64_t u256_sub(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "p") uint64_t u256_mul(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "q") uint64_t u256_div(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "r") uint64_t u256_rem_euclid(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "s") uint64_t u256_pow(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "t") uint64_t u256_shl(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "u") uint64_t u256_shr(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "v") uint64_t i256_add(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "w") uint64_t i256_sub(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "x") uint64_t i256_mul(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "y") uint64_t i256_div(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "z") uint64_t i256_rem_euclid(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "A") uint64_t i256_pow(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "B") uint64_t i256_shl(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "C") uint64_t i256_shr(uint64_t lhs, uint64_t rhs);
SOROBAN_IMPORT("i", "D") uint64_t timepoint_obj_from_u64(uint64_t v);
SOROBAN_IMPORT("i", "E") uint64_t timepoint_obj_to_u64(uint64_t obj);
SOROBAN_IMPORT("i", "F") uint64_t duration_obj_from_u64(uint64_t v);
SOROBAN_IMPORT("i", "G") uint64_t duration_obj_to_u64(uint64_t obj);
SOROBAN_IMPORT("i", "H") uint64_t u256_checked_add(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("i", "I") uint64_t u256_checked_sub(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("i", "J") uint64_t u256_checked_mul(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("i", "K") uint64_t u256_checked_pow(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("i", "L") uint64_t i256_checked_add(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("i", "M") uint64_t i256_checked_sub(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("i", "N") uint64_t i256_checked_mul(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("i", "O") uint64_t i256_checked_pow(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("m", "_") uint64_t map_new(void);
SOROBAN_IMPORT("m", "0") uint64_t map_put(uint64_t m, uint64_t k, uint64_t v);
SOROBAN_IMPORT("m", "1") uint64_t map_get(uint64_t m, uint64_t k);
SOROBAN_IMPORT("m", "2") uint64_t map_del(uint64_t m, uint64_t k);
SOROBAN_IMPORT("m", "3") uint64_t map_len(uint64_t m);
SOROBAN_IMPORT("m", "4") uint64_t map_has(uint64_t m, uint64_t k);
SOROBAN_IMPORT("m", "5") uint64_t map_key_by_pos(uint64_t m, uint64_t i);
SOROBAN_IMPORT("m", "6") uint64_t map_val_by_pos(uint64_t m, uint64_t i);
SOROBAN_IMPORT("m", "7") uint64_t map_keys(uint64_t m);
SOROBAN_IMPORT("m", "8") uint64_t map_values(uint64_t m);
SOROBAN_IMPORT("m", "9") uint64_t map_new_from_linear_memory(uint64_t keys_pos, uint64_t vals_pos, uint64_t len);
SOROBAN_IMPORT("m", "a") uint64_t map_unpack_to_linear_memory(uint64_t map, uint64_t keys_pos, uint64_t vals_pos, uint64_t len);
SOROBAN_IMPORT("m", "b") uint64_t sparse_map_new_from_linear_memory(uint64_t keys_pos, uint64_t vals_pos, uint64_t len);  /* protocol 28.. */
SOROBAN_IMPORT("m", "c") uint64_t sparse_map_unpack_to_linear_memory(uint64_t map, uint64_t keys_pos, uint64_t vals_pos, uint64_t len);  /* protocol 28.. */
SOROBAN_IMPORT("v", "_") uint64_t vec_new(void);
SOROBAN_IMPORT("v", "0") uint64_t vec_put(uint64_t v, uint64_t i, uint64_t x);
SOROBAN_IMPORT("v", "1") uint64_t vec_get(uint64_t v, uint64_t i);
SOROBAN_IMPORT("v", "2") uint64_t vec_del(uint64_t v, uint64_t i);
SOROBAN_IMPORT("v", "3") uint64_t vec_len(uint64_t v);
SOROBAN_IMPORT("v", "4") uint64_t vec_push_front(uint64_t v, uint64_t x);
SOROBAN_IMPORT("v", "5") uint64_t vec_pop_front(uint64_t v);
SOROBAN_IMPORT("v", "6") uint64_t vec_push_back(uint64_t v, uint64_t x);
SOROBAN_IMPORT("v", "7") uint64_t vec_pop_back(uint64_t v);
SOROBAN_IMPORT("v", "8") uint64_t vec_front(uint64_t v);
SOROBAN_IMPORT("v", "9") uint64_t vec_back(uint64_t v);
SOROBAN_IMPORT("v", "a") uint64_t vec_insert(uint64_t v, uint64_t i, uint64_t x);
SOROBAN_IMPORT("v", "b") uint64_t vec_append(uint64_t v1, uint64_t v2);
SOROBAN_IMPORT("v", "c") uint64_t vec_slice(uint64_t v, uint64_t start, uint64_t end);
SOROBAN_IMPORT("v", "d") uint64_t vec_first_index_of(uint64_t v, uint64_t x);
SOROBAN_IMPORT("v", "e") uint64_t vec_last_index_of(uint64_t v, uint64_t x);
SOROBAN_IMPORT("v", "f") uint64_t vec_binary_search(uint64_t v, uint64_t x);
SOROBAN_IMPORT("v", "g") uint64_t vec_new_from_linear_memory(uint64_t vals_pos, uint64_t len);
SOROBAN_IMPORT("v", "h") uint64_t vec_unpack_to_linear_memory(uint64_t vec, uint64_t vals_pos, uint64_t len);
SOROBAN_IMPORT("l", "_") uint64_t put_contract_data(uint64_t k, uint64_t v, uint64_t t);
SOROBAN_IMPORT("l", "0") uint64_t has_contract_data(uint64_t k, uint64_t t);
SOROBAN_IMPORT("l", "1") uint64_t get_contract_data(uint64_t k, uint64_t t);
SOROBAN_IMPORT("l", "2") uint64_t del_contract_data(uint64_t k, uint64_t t);
SOROBAN_IMPORT("l", "3") uint64_t create_contract(uint64_t deployer, uint64_t wasm_hash, uint64_t salt);
SOROBAN_IMPORT("l", "4") uint64_t create_asset_contract(uint64_t serialized_asset);
SOROBAN_IMPORT("l", "5") uint64_t upload_wasm(uint64_t wasm);
SOROBAN_IMPORT("l", "6") uint64_t update_current_contract_wasm(uint64_t hash);
SOROBAN_IMPORT("l", "7") uint64_t extend_contract_data_ttl(uint64_t k, uint64_t t, uint64_t threshold, uint64_t extend_to);
SOROBAN_IMPORT("l", "8") uint64_t extend_current_contract_instance_and_code_ttl(uint64_t threshold, uint64_t extend_to);
SOROBAN_IMPORT("l", "9") uint64_t extend_contract_instance_and_code_ttl(uint64_t contract, uint64_t threshold, uint64_t extend_to);
SOROBAN_IMPORT("l", "a") uint64_t get_contract_id(uint64_t deployer, uint64_t salt);
SOROBAN_IMPORT("l", "b") uint64_t get_asset_contract_id(uint64_t serialized_asset);
SOROBAN_IMPORT("l", "c") uint64_t extend_contract_instance_ttl(uint64_t contract, uint64_t threshold, uint64_t extend_to);  /* protocol 21.. */
SOROBAN_IMPORT("l", "d") uint64_t extend_contract_code_ttl(uint64_t contract, uint64_t threshold, uint64_t extend_to);  /* protocol 21.. */
SOROBAN_IMPORT("l", "e") uint64_t create_contract_with_constructor(uint64_t deployer, uint64_t wasm_hash, uint64_t salt, uint64_t constructor_args);  /* protocol 22.. */
SOROBAN_IMPORT("l", "f") uint64_t extend_contract_data_ttl_v2(uint64_t k, uint64_t t, uint64_t extend_to, uint64_t min_extension, uint64_t max_extension);  /* protocol 26.. */
SOROBAN_IMPORT("l", "g") uint64_t extend_contract_instance_and_code_ttl_v2(uint64_t contract, uint64_t extension_scope, uint64_t extend_to, uint64_t min_extension, uint64_t max_extension);  /* protocol 26.. */
SOROBAN_IMPORT("l", "h") uint64_t create_executable_tag(uint64_t tag_string);  /* protocol 28.. */
SOROBAN_IMPORT("l", "i") uint64_t create_external_ref_contract(uint64_t deployer, uint64_t executable_owner, uint64_t tag, uint64_t salt, uint64_t constructor_args);  /* protocol 28.. */
SOROBAN_IMPORT("l", "j") uint64_t update_current_contract_executable_ref(uint64_t executable_owner, uint64_t tag);  /* protocol 28.. */
SOROBAN_IMPORT("d", "_") uint64_t call(uint64_t contract, uint64_t func, uint64_t args);
SOROBAN_IMPORT("d", "0") uint64_t try_call(uint64_t contract, uint64_t func, uint64_t args);
SOROBAN_IMPORT("b", "_") uint64_t serialize_to_bytes(uint64_t v);
SOROBAN_IMPORT("b", "0") uint64_t deserialize_from_bytes(uint64_t b);
SOROBAN_IMPORT("b", "1") uint64_t bytes_copy_to_linear_memory(uint64_t b, uint64_t b_pos, uint64_t lm_pos, uint64_t len);
SOROBAN_IMPORT("b", "2") uint64_t bytes_copy_from_linear_memory(uint64_t b, uint64_t b_pos, uint64_t lm_pos, uint64_t len);
SOROBAN_IMPORT("b", "3") uint64_t bytes_new_from_linear_memory(uint64_t lm_pos, uint64_t len);
SOROBAN_IMPORT("b", "4") uint64_t bytes_new(void);
SOROBAN_IMPORT("b", "5") uint64_t bytes_put(uint64_t b, uint64_t i, uint64_t u);
SOROBAN_IMPORT("b", "6") uint64_t bytes_get(uint64_t b, uint64_t i);
SOROBAN_IMPORT("b", "7") uint64_t bytes_del(uint64_t b, uint64_t i);
SOROBAN_IMPORT("b", "8") uint64_t bytes_len(uint64_t b);
SOROBAN_IMPORT("b", "9") uint64_t bytes_push(uint64_t b, uint64_t u);
SOROBAN_IMPORT("b", "a") uint64_t bytes_pop(uint64_t b);
SOROBAN_IMPORT("b", "b") uint64_t bytes_front(uint64_t b);
SOROBAN_IMPORT("b", "c") uint64_t bytes_back(uint64_t b);
SOROBAN_IMPORT("b", "d") uint64_t bytes_insert(uint64_t b, uint64_t i, uint64_t u);
SOROBAN_IMPORT("b", "e") uint64_t bytes_append(uint64_t b1, uint64_t b2);
SOROBAN_IMPORT("b", "f") uint64_t bytes_slice(uint64_t b, uint64_t start, uint64_t end);
SOROBAN_IMPORT("b", "g") uint64_t string_copy_to_linear_memory(uint64_t s, uint64_t s_pos, uint64_t lm_pos, uint64_t len);
SOROBAN_IMPORT("b", "h") uint64_t symbol_copy_to_linear_memory(uint64_t s, uint64_t s_pos, uint64_t lm_pos, uint64_t len);
SOROBAN_IMPORT("b", "i") uint64_t string_new_from_linear_memory(uint64_t lm_pos, uint64_t len);
SOROBAN_IMPORT("b", "j") uint64_t symbol_new_from_linear_memory(uint64_t lm_pos, uint64_t len);
SOROBAN_IMPORT("b", "k") uint64_t string_len(uint64_t s);
SOROBAN_IMPORT("b", "l") uint64_t symbol_len(uint64_t s);
SOROBAN_IMPORT("b", "m") uint64_t symbol_index_in_linear_memory(uint64_t sym, uint64_t slices_pos, uint64_t len);
SOROBAN_IMPORT("b", "n") uint64_t string_to_bytes(uint64_t str);  /* protocol 23.. */
SOROBAN_IMPORT("b", "o") uint64_t bytes_to_string(uint64_t bytes);  /* protocol 23.. */
SOROBAN_IMPORT("c", "_") uint64_t compute_hash_sha256(uint64_t x);
SOROBAN_IMPORT("c", "0") uint64_t verify_sig_ed25519(uint64_t k, uint64_t x, uint64_t s);
SOROBAN_IMPORT("c", "1") uint64_t compute_hash_keccak256(uint64_t x);
SOROBAN_IMPORT("c", "2") uint64_t recover_key_ecdsa_secp256k1(uint64_t msg_digest, uint64_t signature, uint64_t recovery_id);
SOROBAN_IMPORT("c", "3") uint64_t verify_sig_ecdsa_secp256r1(uint64_t public_key, uint64_t msg_digest, uint64_t signature);  /* protocol 21.. */
SOROBAN_IMPORT("c", "4") uint64_t bls12_381_check_g1_is_in_subgroup(uint64_t point);  /* protocol 22.. */
SOROBAN_IMPORT("c", "5") uint64_t bls12_381_g1_add(uint64_t point1, uint64_t point2);  /* protocol 22.. */
SOROBAN_IMPORT("c", "6") uint64_t bls12_381_g1_mul(uint64_t point, uint64_t scalar);  /* protocol 22.. */
SOROBAN_IMPORT("c", "7") uint64_t bls12_381_g1_msm(uint64_t vp, uint64_t vs);  /* protocol 22.. */
SOROBAN_IMPORT("c", "8") uint64_t bls12_381_map_fp_to_g1(uint64_t fp);  /* protocol 22.. */
SOROBAN_IMPORT("c", "9") uint64_t bls12_381_hash_to_g1(uint64_t msg, uint64_t dst);  /* protocol 22.. */
SOROBAN_IMPORT("c", "a") uint64_t bls12_381_check_g2_is_in_subgroup(uint64_t point);  /* protocol 22.. */
SOROBAN_IMPORT("c", "b") uint64_t bls12_381_g2_add(uint64_t point1, uint64_t point2);  /* protocol 22.. */
SOROBAN_IMPORT("c", "c") uint64_t bls12_381_g2_mul(uint64_t point, uint64_t scalar);  /* protocol 22.. */
SOROBAN_IMPORT("c", "d") uint64_t bls12_381_g2_msm(uint64_t vp, uint64_t vs);  /* protocol 22.. */
SOROBAN_IMPORT("c", "e") uint64_t bls12_381_map_fp2_to_g2(uint64_t fp2);  /* protocol 22.. */
SOROBAN_IMPORT("c", "f") uint64_t bls12_381_hash_to_g2(uint64_t msg, uint64_t dst);  /* protocol 22.. */
SOROBAN_IMPORT("c", "g") uint64_t bls12_381_multi_pairing_check(uint64_t vp1, uint64_t vp2);  /* protocol 22.. */
SOROBAN_IMPORT("c", "h") uint64_t bls12_381_fr_add(uint64_t lhs, uint64_t rhs);  /* protocol 22.. */
SOROBAN_IMPORT("c", "i") uint64_t bls12_381_fr_sub(uint64_t lhs, uint64_t rhs);  /* protocol 22.. */
SOROBAN_IMPORT("c", "j") uint64_t bls12_381_fr_mul(uint64_t lhs, uint64_t rhs);  /* protocol 22.. */
SOROBAN_IMPORT("c", "k") uint64_t bls12_381_fr_pow(uint64_t lhs, uint64_t rhs);  /* protocol 22.. */
SOROBAN_IMPORT("c", "l") uint64_t bls12_381_fr_inv(uint64_t lhs);  /* protocol 22.. */
SOROBAN_IMPORT("c", "m") uint64_t bn254_g1_add(uint64_t point1, uint64_t point2);  /* protocol 25.. */
SOROBAN_IMPORT("c", "n") uint64_t bn254_g1_mul(uint64_t point, uint64_t scalar);  /* protocol 25.. */
SOROBAN_IMPORT("c", "o") uint64_t bn254_multi_pairing_check(uint64_t vp1, uint64_t vp2);  /* protocol 25.. */
SOROBAN_IMPORT("c", "p") uint64_t poseidon_permutation(uint64_t input, uint64_t field, uint64_t t, uint64_t d, uint64_t rounds_f, uint64_t rounds_p, uint64_t mds, uint64_t round_constants);  /* protocol 25.. */
SOROBAN_IMPORT("c", "q") uint64_t poseidon2_permutation(uint64_t input, uint64_t field, uint64_t t, uint64_t d, uint64_t rounds_f, uint64_t rounds_p, uint64_t mat_internal_diag_m_1, uint64_t round_constants);  /* protocol 25.. */
SOROBAN_IMPORT("c", "r") uint64_t bn254_g1_msm(uint64_t vp, uint64_t vs);  /* protocol 26.. */
SOROBAN_IMPORT("c", "s") uint64_t bn254_fr_add(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("c", "t") uint64_t bn254_fr_sub(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("c", "u") uint64_t bn254_fr_mul(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("c", "v") uint64_t bn254_fr_pow(uint64_t lhs, uint64_t rhs);  /* protocol 26.. */
SOROBAN_IMPORT("c", "w") uint64_t bn254_fr_inv(uint64_t lhs);  /* protocol 26.. */
SOROBAN_IMPORT("c", "x") uint64_t bls12_381_g1_is_on_curve(uint64_t point);  /* protocol 26.. */
SOROBAN_IMPORT("c", "y") uint64_t bls12_381_g2_is_on_curve(uint64_t point);  /* protocol 26.. */
SOROBAN_IMPORT("c", "z") uint64_t bn254_g1_is_on_curve(uint64_t point);  /* protocol 26.. */
SOROBAN_IMPORT("a", "_") uint64_t require_auth_for_args(uint64_t address, uint64_t args);
SOROBAN_IMPORT("a", "0") uint64_t require_auth(uint64_t address);
SOROBAN_IMPORT("a", "1") uint64_t strkey_to_address(uint64_t strkey);
SOROBAN_IMPORT("a", "2") uint64_t address_to_strkey(uint64_t address);
SOROBAN_IMPORT("a", "3") uint64_t authorize_as_curr_contract(uint64_t auth_entires);
SOROBAN_IMPORT("a", "4") uint64_t get_address_from_muxed_address(uint64_t muxed_address);  /* protocol 23.. */
SOROBAN_IMPORT("a", "5") uint64_t get_id_from_muxed_address(uint64_t muxed_address);  /* protocol 23.. */
SOROBAN_IMPORT("a", "6") uint64_t get_address_executable(uint64_t address);  /* protocol 23.. */
SOROBAN_IMPORT("a", "7") uint64_t strkey_to_muxed_address(uint64_t strkey);  /* protocol 26.. */
SOROBAN_IMPORT("a", "8") uint64_t muxed_address_to_strkey(uint64_t address);  /* protocol 26.. */
SOROBAN_IMPORT("a", "9") uint64_t get_delegated_signers_for_current_auth_check(void);  /* protocol 27.. */
SOROBAN_IMPORT("a", "a") uint64_t delegate_account_auth(uint64_t address);  /* protocol 27.. */
SOROBAN_IMPORT("t", "_") uint64_t dummy0(void);
SOROBAN_IMPORT("t", "0") uint64_t protocol_gated_dummy(void);  /* protocol 19..19 */
SOROBAN_IMPORT("p", "_") uint64_t prng_reseed(uint64_t seed);
SOROBAN_IMPORT("p", "0") uint64_t prng_bytes_new(uint64_t length);
SOROBAN_IMPORT("p", "1") uint64_t prng_u64_in_inclusive_range(uint64_t lo, uint64_t hi);
SOROBAN_IMPORT("p", "2") uint64_t prng_vec_shuffle(uint64_t vec);
/* END GENERATED HOST FUNCTIONS */

#endif
