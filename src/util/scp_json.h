/*
 * scp_json.h — JSON input as the ecosystems write it, read exactly.
 *
 * jansson holds integers as int64 and refuses a larger literal ("too big
 * integer"), yet Solana's CLI prints rentEpoch as 18446744073709551615 and
 * Stellar's XDR JSON carries u64/i128 amounts as plain numbers in older
 * files.  scp_json_parse turns every integer literal outside int64 into a
 * string of the same digits before jansson sees it, so no value is ever
 * rounded through a double; readers then take integers with scp_json_u64 /
 * scp_json_i64 (a number or a decimal string) or the digits themselves.
 *
 * Key checking is here too, once for both chains: an unknown key is refused
 * with the nearest known key as a suggestion.
 * Internal to libscprof (not installed).
 */
#ifndef SCP_JSON_H
#define SCP_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/scp_util.h"

/* Parse len bytes of JSON text (any value at the top, duplicate keys
 * refused).  name is the file name used in the error line
 * "NAME: line L column C: MESSAGE", positions counted in the text as given.
 * On success *out is a new reference; on failure NULL and
 * SCP_ERR_MALFORMED (or SCP_ERR_NOMEM). */
int scp_json_parse(const uint8_t *text, size_t len, const char *name, json_t **out,
                   scp_error *err);

/* Read the file whole under max bytes (what names it in the size error,
 * as scp_read_file_max) and parse it as above. */
int scp_json_load_file(const char *path, size_t max, const char *what, json_t **out,
                       scp_error *err);

/* An unsigned integer: a JSON integer >= 0, or a string of decimal digits
 * (no sign, no spaces) within u64.  False otherwise (*out untouched). */
bool scp_json_u64(const json_t *v, uint64_t *out);

/* A signed integer: a JSON integer, or a string "-?digits" within i64. */
bool scp_json_i64(const json_t *v, int64_t *out);

/* The digits of an integer value as text (a JSON integer printed, or a
 * string that is "-?digits"), for values wider than 64 bits.  Writes at
 * most cap bytes with a NUL; false when v is not an integer or too long. */
bool scp_json_int_text(const json_t *v, char *buf, size_t cap);

/* The member of known (NULL-ended) nearest to key -- same letters ignoring
 * case, '_' and '-', a small edit distance, or one name inside the other --
 * or NULL when none is near enough to suggest. */
const char *scp_json_nearest(const char *key, const char *const *known);

/* Every key of obj must be in known (NULL-ended).  The first that is not
 * fails with SCP_ERR_MALFORMED and the line
 * "FILE: PATH: unknown key "K"; did you mean "X"?" (PATH omitted when
 * NULL or empty, the suggestion when none is near). */
int scp_json_check_keys(const json_t *obj, const char *const *known, const char *file,
                        const char *path, scp_error *err);

#endif
