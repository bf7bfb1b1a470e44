/*
 * arg_json.h — contract-call arguments given as JSON, typed by the
 * contract's spec (arg_json.c).
 */
#ifndef SCP_ARG_JSON_H
#define SCP_ARG_JSON_H

#include "soroban/run/scp_spec.h"

/* Type the text a user gave for parameter `param` by its spec type t,
 * scalars as scp_spec_arg_parse does, and every other type from JSON the
 * way stellar-cli's invoke takes it (array for vec and tuple, object or
 * array of [key, value] pairs for map, object by field name for a
 * struct, array for a tuple struct, "Case" or {"Case": value} for a
 * union, the number for an enum, null for an absent option, strings or
 * numbers for integers, hex for bytes, strkeys for addresses, G... or
 * M... for muxed_address).  Such a value becomes kind SCP_ARG_SCVAL
 * holding its ScVal XDR, owned by s.  Errors: SCP_ERR_ARG naming the
 * parameter and the JSON path ("argument --pair.b[1]: not an i128"). */
int scp_argjson_value(scp_spec *s, const scp_spec_type *t, const char *param, const char *text,
                      scp_arg *out, scp_error *err);

#endif
