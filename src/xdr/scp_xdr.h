/*
 * scp_xdr.h — Stellar XDR for the Soroban subset, in its three encodings:
 * binary, base64 and the JSON form of stellar-xdr's serde (enums as
 * snake_case strings, unions as {"arm": value} or a bare string for an
 * empty arm, bytes as hex, keys and addresses as strkeys, strings with
 * non-printable bytes as \xNN).
 *
 * One codec: every type is a row of the tables in xdr_types.c (struct,
 * union, enum, array, option, opaque, string, integer), and one walker
 * turns any of them from binary to JSON and from JSON to binary.
 *
 * JSON is read in both styles stellar-xdr has written: 64-bit integers as
 * numbers or strings, 128/256-bit integers as {hi, lo} parts or decimal
 * strings.  It is written in one style, chosen by the caller.
 * Internal to libscprof (not installed).
 */
#ifndef SCP_XDR_H
#define SCP_XDR_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/scp_util.h"

typedef struct scp_xdr_type scp_xdr_type;

/* The type named as in the .x files ("ScVal", "LedgerKey", "LedgerEntry",
 * "AccountEntry", "TrustLineEntry", "TrustLineAsset", "ContractCodeEntry",
 * "ScAddress", "TransactionEnvelope", ...), NULL when not in the subset. */
const scp_xdr_type *scp_xdr_find(const char *name);

/* How integers wider than 32 bits are written: STRINGS as stellar-xdr 23
 * and later (64-bit as "123", 128/256-bit as decimal strings), NUMBERS as
 * earlier (JSON numbers, {hi, lo} parts). */
typedef enum { SCP_XDR_JSON_STRINGS = 0, SCP_XDR_JSON_NUMBERS = 1 } scp_xdr_style;

/* Deepest nesting the codec follows (an ScVal inside vecs and maps). */
#define SCP_XDR_MAX_DEPTH 128

/* The binary value of type t at p: *used is its length (len may be
 * longer).  SCP_OK, or SCP_ERR_MALFORMED with err saying what and at which
 * byte (a bad discriminant, a length past the end or over the type's
 * bound, nonzero padding, a bool other than 0/1, too deep). */
int scp_xdr_check(const scp_xdr_type *t, const uint8_t *p, size_t len, size_t *used,
                  scp_error *err);

/* The JSON form of the binary value of type t that fills p[0..len): a new
 * reference in *out.  Errors as scp_xdr_check (trailing bytes too), or
 * SCP_ERR_UNSUPPORTED for an arm whose JSON form the codec does not write
 * (a muxed account address), SCP_ERR_NOMEM. */
int scp_xdr_to_json(const scp_xdr_type *t, const uint8_t *p, size_t len, scp_xdr_style style,
                    json_t **out, scp_error *err);

/* The binary form of JSON value v of type t, appended to out.  On error
 * err is "PATH: problem" with PATH the JSON path below v (e.g.
 * "data.contract_data.val.map[2].key"): SCP_ERR_MALFORMED (an unknown arm
 * or key, a missing field, a bad strkey or hex, a number out of range),
 * SCP_ERR_UNSUPPORTED (an arm the codec does not write), SCP_ERR_NOMEM.
 * out may hold part of the value after a failure. */
int scp_xdr_from_json(const scp_xdr_type *t, const json_t *v, scp_buf *out, scp_error *err);

/* base64 (standard alphabet, padded) of len bytes; NULL when out of memory. */
char *scp_xdr_base64(const uint8_t *p, size_t len);

/* The bytes of base64 text (whitespace around it ignored) into *out (a
 * new allocation); false when the text is not base64 or out of memory. */
bool scp_xdr_unbase64(const char *text, uint8_t **out, size_t *len);

/* ---- strkeys (SEP-23) ----------------------------------------------------
 * Version bytes of the kinds the subset holds. */
enum {
  SCP_STRKEY_ACCOUNT = 6 << 3,     /* G */
  SCP_STRKEY_CONTRACT = 2 << 3,    /* C */
  SCP_STRKEY_MUXED = 12 << 3,      /* M */
  SCP_STRKEY_PRE_AUTH_TX = 19 << 3,   /* T */
  SCP_STRKEY_HASH_X = 23 << 3,     /* X */
};

/* The one strkey codec of the project (host, arguments, XDR JSON).
 * scp_xdr_strkey_encode: the strkey of version byte ver and n payload
 * bytes (n + 3 <= SCP_XDR_STRKEY_MAX_RAW) into out, NUL-terminated; its
 * length.  scp_xdr_strkey_raw: strict base32 of s (n characters: no
 * padding, unused trailing bits zero) into raw (at most cap bytes, *len of
 * them: version, payload, checksum); false when malformed or the CRC16
 * checksum is wrong. */
#define SCP_XDR_STRKEY_MAX_RAW 64
uint16_t scp_xdr_crc16_xmodem(const uint8_t *p, size_t n);
size_t scp_xdr_strkey_encode(uint8_t ver, const uint8_t *payload, size_t n, char *out);
bool scp_xdr_strkey_raw(const uint8_t *s, size_t n, uint8_t *raw, size_t cap, size_t *len);

/* The 56-character strkey of a 32-byte payload with version byte ver. */
void scp_xdr_strkey(uint8_t ver, const uint8_t key[32], char out[57]);

/* The payload of a 56-character strkey of version ver: false when s is
 * another kind, malformed, not canonical, or its checksum is wrong. */
bool scp_xdr_strkey_decode(const char *s, uint8_t ver, uint8_t key[32]);

/* The writes stellar-xdr's WriteXdr makes for the binary value of type t
 * that fills p[0..len), in order (xdr_writes.c says which): fn(ctx, n)
 * for each non-empty write_all of n bytes.  SCP_OK; fn's nonzero return
 * (the walk stops there); SCP_ERR_MALFORMED with err saying what and at
 * which byte (truncated, a bad discriminant or flag, a length over its
 * bound, trailing bytes); SCP_ERR_UNSUPPORTED for an arm the codec does
 * not read.  The values themselves are not checked beyond that. */
typedef int (*scp_xdr_write_fn)(void *ctx, size_t n);
int scp_xdr_writes(const scp_xdr_type *t, const uint8_t *p, size_t len, scp_xdr_write_fn fn, void *ctx,
                   scp_error *err);

#endif
