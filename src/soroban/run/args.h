/*
 * args.h — the text helpers of args.c that arg_json.c shares: typed
 * scalar values, 256-bit decimals, hex and strkeys.
 */
#ifndef SCP_ARGS_H
#define SCP_ARGS_H

#include "scprof.h"
#include "util/scp_util.h"

/* Parse value as an argument of type `type` (the names scp_arg_parse
 * takes before the colon); label names the argument in messages
 * ("argument LABEL: not a u32").  Shared by scp_arg_parse,
 * scp_spec_arg_parse and the JSON scalars so all accept the same
 * spellings. */
SCP_HIDDEN int scp_arg_parse_as(const char *type, size_t tlen, const char *value,
                                const char *label, scp_arg *out, scp_error *err);
/* Decimal text (n bytes) -> 256-bit two's complement, 32 bytes
 * big-endian.  Unsigned: [0, 2^256); signed: [-2^255, 2^255).  False on
 * junk or overflow. */
SCP_HIDDEN bool scp_arg_parse_256(const char *s, size_t n, bool sign, uint8_t out[32]);
/* n bytes from 2n hex digits already checked to be hex. */
SCP_HIDDEN void scp_arg_hex_decode(const uint8_t *hex, size_t n, uint8_t *out);
/* A strkey (SEP-23: base32 of version byte, payload, CRC16-XModem
 * little-endian) decoded into raw (at most cap bytes, *len of them, the
 * checksum included); false when it is not base32 of at least 3 bytes
 * with a good checksum. */
SCP_HIDDEN bool scp_arg_strkey_decode(const uint8_t *s, size_t n, uint8_t *raw, size_t cap,
                                      size_t *len);

#endif
