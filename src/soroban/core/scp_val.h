/*
 * scp_val.h — the Soroban Val: a 64-bit word, tag in bits 0..7, body in
 * bits 8..63 (rs-soroban-env v28 soroban-env-common/src/val.rs, symbol.rs,
 * error.rs; summary in docs/reference/val.txt).  Header-only.
 *
 * Object handles: body major = handle, minor = 0.  Handle bit 0 clear =
 * relative (per-VM-frame table, what a guest sees), set = absolute (the
 * host's object table); index = handle >> 1 (host_object.rs).
 */
#ifndef SCP_VAL_H
#define SCP_VAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum scp_val_tag {
  SCP_TAG_FALSE = 0, SCP_TAG_TRUE = 1, SCP_TAG_VOID = 2, SCP_TAG_ERROR = 3,
  SCP_TAG_U32 = 4, SCP_TAG_I32 = 5, SCP_TAG_U64_SMALL = 6,
  SCP_TAG_I64_SMALL = 7, SCP_TAG_TIMEPOINT_SMALL = 8,
  SCP_TAG_DURATION_SMALL = 9, SCP_TAG_U128_SMALL = 10,
  SCP_TAG_I128_SMALL = 11, SCP_TAG_U256_SMALL = 12, SCP_TAG_I256_SMALL = 13,
  SCP_TAG_SYMBOL_SMALL = 14, SCP_TAG_SMALL_UPPER = 15,
  SCP_TAG_OBJECT_LOWER = 63,
  SCP_TAG_U64_OBJ = 64, SCP_TAG_I64_OBJ = 65, SCP_TAG_TIMEPOINT_OBJ = 66,
  SCP_TAG_DURATION_OBJ = 67, SCP_TAG_U128_OBJ = 68, SCP_TAG_I128_OBJ = 69,
  SCP_TAG_U256_OBJ = 70, SCP_TAG_I256_OBJ = 71, SCP_TAG_BYTES_OBJ = 72,
  SCP_TAG_STRING_OBJ = 73, SCP_TAG_SYMBOL_OBJ = 74, SCP_TAG_VEC_OBJ = 75,
  SCP_TAG_MAP_OBJ = 76, SCP_TAG_ADDRESS_OBJ = 77,
  SCP_TAG_MUXED_ADDRESS_OBJ = 78, SCP_TAG_EXECUTABLE_TAG_OBJ = 79,
  SCP_TAG_OBJECT_UPPER = 80,
  SCP_TAG_BAD = 0x7f
} scp_val_tag;

/* ScErrorType and ScErrorCode (Stellar-contract.x). */
typedef enum scp_err_type {
  SCP_ET_CONTRACT = 0, SCP_ET_WASM_VM = 1, SCP_ET_CONTEXT = 2,
  SCP_ET_STORAGE = 3, SCP_ET_OBJECT = 4, SCP_ET_CRYPTO = 5,
  SCP_ET_EVENTS = 6, SCP_ET_BUDGET = 7, SCP_ET_VALUE = 8, SCP_ET_AUTH = 9
} scp_err_type;

typedef enum scp_err_code {
  SCP_EC_ARITH_DOMAIN = 0, SCP_EC_INDEX_BOUNDS = 1, SCP_EC_INVALID_INPUT = 2,
  SCP_EC_MISSING_VALUE = 3, SCP_EC_EXISTING_VALUE = 4,
  SCP_EC_EXCEEDED_LIMIT = 5, SCP_EC_INVALID_ACTION = 6,
  SCP_EC_INTERNAL_ERROR = 7, SCP_EC_UNEXPECTED_TYPE = 8,
  SCP_EC_UNEXPECTED_SIZE = 9
} scp_err_code;

#define SCP_VAL_FALSE ((uint64_t)0)
#define SCP_VAL_TRUE ((uint64_t)1)
#define SCP_VAL_VOID ((uint64_t)2)

static inline unsigned scp_val_tag_of(uint64_t v) { return (unsigned)(v & 0xff); }
static inline uint64_t scp_val_body(uint64_t v) { return v >> 8; }
static inline uint32_t scp_val_major(uint64_t v) { return (uint32_t)(v >> 32); }
static inline uint32_t scp_val_minor(uint64_t v) { return (uint32_t)((v >> 8) & 0xffffff); }
static inline uint64_t scp_val_from_body(uint64_t body, unsigned tag) {
  return (body << 8) | tag;
}
static inline uint64_t scp_val_from_major_minor(uint32_t major, uint32_t minor,
                                                unsigned tag) {
  return ((uint64_t)major << 32) | ((uint64_t)(minor & 0xffffff) << 8) | tag;
}

static inline bool scp_val_tag_is_object(unsigned tag) {
  return tag > SCP_TAG_OBJECT_LOWER && tag < SCP_TAG_OBJECT_UPPER;
}
static inline bool scp_val_is_object(uint64_t v) {
  return scp_val_tag_is_object(scp_val_tag_of(v));
}

static inline uint64_t scp_val_bool(bool b) { return b ? SCP_VAL_TRUE : SCP_VAL_FALSE; }
static inline uint64_t scp_val_u32(uint32_t x) {
  return scp_val_from_major_minor(x, 0, SCP_TAG_U32);
}
static inline uint64_t scp_val_i32(int32_t x) {
  return scp_val_from_major_minor((uint32_t)x, 0, SCP_TAG_I32);
}
static inline uint64_t scp_val_error(scp_err_type type, uint32_t code) {
  return scp_val_from_major_minor(code, (uint32_t)type, SCP_TAG_ERROR);
}

/* Small integer bodies: unsigned fit in 56 bits, signed in 56-bit two's
 * complement (get_signed_body = (int64)raw >> 8). */
static inline bool scp_val_u64_fits_small(uint64_t x) { return x < ((uint64_t)1 << 56); }
static inline bool scp_val_i64_fits_small(int64_t x) {
  return x >= -((int64_t)1 << 55) && x < ((int64_t)1 << 55);
}
static inline uint64_t scp_val_small_u(uint64_t x, unsigned tag) {
  return scp_val_from_body(x, tag);
}
static inline uint64_t scp_val_small_i(int64_t x, unsigned tag) {
  return ((uint64_t)x << 8) | tag;
}
static inline int64_t scp_val_signed_body(uint64_t v) { return (int64_t)v >> 8; }

/* Object handles. */
static inline uint32_t scp_val_handle(uint64_t v) { return scp_val_major(v); }
static inline bool scp_val_handle_is_relative(uint32_t h) { return (h & 1) == 0; }
static inline uint64_t scp_val_object(unsigned tag, uint32_t handle) {
  return scp_val_from_major_minor(handle, 0, tag);
}

/* SymbolSmall character codes (symbol.rs encode_byte); -1 if not allowed. */
static inline int scp_val_symbol_code(uint8_t c) {
  if (c == '_') return 1;
  if (c >= '0' && c <= '9') return 2 + (c - '0');
  if (c >= 'A' && c <= 'Z') return 12 + (c - 'A');
  if (c >= 'a' && c <= 'z') return 38 + (c - 'a');
  return -1;
}
static inline char scp_val_symbol_char(unsigned code) {
  if (code == 1) return '_';
  if (code >= 2 && code <= 11) return (char)('0' + code - 2);
  if (code >= 12 && code <= 37) return (char)('A' + code - 12);
  if (code >= 38 && code <= 63) return (char)('a' + code - 38);
  return '?';
}
#define SCP_SYMBOL_SMALL_MAX 9
#define SCP_SYMBOL_MAX 32   /* SCSYMBOL_LIMIT */

/* Pack up to 9 valid characters into a SymbolSmall; false if it does not
 * fit (too long or a character outside [_0-9A-Za-z]). */
static inline bool scp_val_symbol_small(const uint8_t *s, size_t n, uint64_t *out) {
  if (n > SCP_SYMBOL_SMALL_MAX) return false;
  uint64_t acc = 0;
  for (size_t i = 0; i < n; i++) {
    int c = scp_val_symbol_code(s[i]);
    if (c < 0) return false;
    acc = (acc << 6) | (uint64_t)c;
  }
  *out = scp_val_from_body(acc, SCP_TAG_SYMBOL_SMALL);
  return true;
}

/* Unpack a SymbolSmall into buf (>= 10 bytes, NUL-terminated); length. */
static inline size_t scp_val_symbol_small_str(uint64_t v, char *buf) {
  uint64_t body = scp_val_body(v);
  char tmp[10];
  size_t n = 0;
  while (body && n < SCP_SYMBOL_SMALL_MAX) {
    tmp[n++] = scp_val_symbol_char((unsigned)(body & 63));
    body >>= 6;
  }
  for (size_t i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  buf[n] = 0;
  return n;
}

/* Val::is_good (val.rs): the tag is known and the body is well formed. */
static inline bool scp_val_is_good(uint64_t v) {
  unsigned tag = scp_val_tag_of(v);
  switch (tag) {
  case SCP_TAG_FALSE: case SCP_TAG_TRUE: case SCP_TAG_VOID:
    return scp_val_body(v) == 0;
  case SCP_TAG_U32: case SCP_TAG_I32:
    return scp_val_minor(v) == 0;
  case SCP_TAG_ERROR: {
    /* ScError::try_from: a known type; non-contract codes must be known. */
    uint32_t type = scp_val_minor(v), code = scp_val_major(v);
    if (type > SCP_ET_AUTH) return false;
    return type == SCP_ET_CONTRACT || code <= SCP_EC_UNEXPECTED_SIZE;
  }
  case SCP_TAG_SYMBOL_SMALL:
    /* bits 54 and 55 of the body must be clear */
    return (scp_val_body(v) >> 54) == 0;
  case SCP_TAG_U64_SMALL: case SCP_TAG_I64_SMALL: case SCP_TAG_TIMEPOINT_SMALL:
  case SCP_TAG_DURATION_SMALL: case SCP_TAG_U128_SMALL: case SCP_TAG_I128_SMALL:
  case SCP_TAG_U256_SMALL: case SCP_TAG_I256_SMALL:
    return true;
  default:
    return scp_val_tag_is_object(tag) && scp_val_minor(v) == 0;
  }
}

#endif
