/*
 * scp_spec.h — a contract's own interface: the `contractspecv0` custom
 * section, a concatenation of XDR-encoded SCSpecEntry values (Stellar XDR,
 * Stellar-contract-spec.x), so users can give arguments by name
 * (`scprof profile c.wasm transfer --from G... --amount 100`) the way
 * stellar-cli's `invoke` does.
 *
 * Function and UDT (struct, union, enum, error enum) entries are decoded
 * fully (UDTs type JSON arguments); event entries are only skipped.  Malformed XDR gives one line naming the file and the byte
 * offset (in the file when the section came from a .wasm).
 */
#ifndef SCP_SPEC_H
#define SCP_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/scp_util.h"

/* SCSpecType: the XDR discriminants themselves. */
enum {
  SCP_SPEC_VAL = 0, SCP_SPEC_BOOL = 1, SCP_SPEC_VOID = 2, SCP_SPEC_ERROR = 3,
  SCP_SPEC_U32 = 4, SCP_SPEC_I32 = 5, SCP_SPEC_U64 = 6, SCP_SPEC_I64 = 7,
  SCP_SPEC_TIMEPOINT = 8, SCP_SPEC_DURATION = 9, SCP_SPEC_U128 = 10,
  SCP_SPEC_I128 = 11, SCP_SPEC_U256 = 12, SCP_SPEC_I256 = 13,
  SCP_SPEC_BYTES = 14, SCP_SPEC_STRING = 16, SCP_SPEC_SYMBOL = 17,
  SCP_SPEC_ADDRESS = 19, SCP_SPEC_MUXED_ADDRESS = 20,
  SCP_SPEC_OPTION = 1000, SCP_SPEC_RESULT = 1001, SCP_SPEC_VEC = 1002,
  SCP_SPEC_MAP = 1004, SCP_SPEC_TUPLE = 1005, SCP_SPEC_BYTES_N = 1006,
  SCP_SPEC_UDT = 2000
};

/* SCSpecEntryKind. */
enum {
  SCP_SPEC_ENTRY_FUNCTION = 0, SCP_SPEC_ENTRY_STRUCT = 1, SCP_SPEC_ENTRY_UNION = 2,
  SCP_SPEC_ENTRY_ENUM = 3, SCP_SPEC_ENTRY_ERROR_ENUM = 4, SCP_SPEC_ENTRY_EVENT = 5,
  SCP_SPEC_ENTRY_KINDS = 6
};

/* Type definitions nest at most this deep (the decoder's guard against
 * hostile input; real contracts stay far below). */
#define SCP_SPEC_MAX_DEPTH 32

/* SCSpecTypeDef.  sub holds: option [value]; result [ok, error]; vec
 * [element]; map [key, value]; tuple the nsub elements. */
typedef struct scp_spec_type {
  uint32_t kind;                 /* SCP_SPEC_* */
  uint32_t n;                    /* bytesN: N */
  char *name;                    /* udt: the type's name */
  struct scp_spec_type *sub;
  uint32_t nsub;
} scp_spec_type;

typedef struct scp_spec_input {
  char *doc, *name;
  scp_spec_type type;
} scp_spec_input;

typedef struct scp_spec_fn {
  char *doc, *name;
  scp_spec_input *inputs;
  uint32_t ninputs;
  scp_spec_type *outputs;        /* none or one */
  uint32_t noutputs;
} scp_spec_fn;

/* One struct field (one type), union case (its types; none for a void
 * case) or enum / error-enum case (value). */
typedef struct scp_spec_case {
  char *name;
  uint32_t value;
  scp_spec_type *types;
  uint32_t ntypes;
} scp_spec_case;

/* A user-defined type: struct, union, enum or error enum
 * (SCP_SPEC_ENTRY_*), what JSON arguments of that type are typed by. */
typedef struct scp_spec_udt {
  uint32_t kind;
  char *name;
  scp_spec_case *cases;
  uint32_t ncases;
} scp_spec_udt;

typedef struct scp_spec {
  scp_spec_fn *fns;              /* in section order */
  size_t nfns;
  scp_spec_udt *udts;            /* in section order */
  size_t nudts;
  size_t count[SCP_SPEC_ENTRY_KINDS];   /* entries of each kind */
  /* ScVal XDR made by scp_argjson_value for nested arguments; freed
   * with the spec */
  uint8_t **owned;
  size_t nowned, owned_cap;
  /* fns and udts by name (the first of a name): a scenario names a
   * function once per call */
  scp_bmap fn_index, udt_index;
} scp_spec;

/* Decode a whole contractspecv0 payload (len bytes).  base is the
 * payload's offset in `path` (0 for a bare payload), so errors name the
 * file offset: "PATH: contractspecv0: malformed XDR at byte N (what)".
 * SCP_OK (*out owned by the caller), SCP_ERR_MALFORMED, SCP_ERR_NOMEM. */
int scp_spec_parse(const uint8_t *p, size_t len, size_t base, const char *path,
                   scp_spec **out, scp_error *err);

/* Find the contractspecv0 section of a .wasm file's bytes and decode it.
 * *out is NULL (and SCP_OK returned) when the module has no such section,
 * or when its section framing is broken (the WASM loader, scp_wasm_load,
 * is the one to say what is wrong with a module). */
int scp_spec_from_wasm(const uint8_t *wasm, size_t len, const char *path,
                       scp_spec **out, scp_error *err);

void scp_spec_free(scp_spec *s);

/* The function entry called name, or NULL. */
const scp_spec_fn *scp_spec_find(const scp_spec *s, const char *name);

/* A type as users read it: "u32", "bytesn<32>", "option<address>",
 * "map<symbol, i128>", "tuple<u32, bool>", a UDT by its name. */
void scp_spec_type_format(const scp_spec_type *t, scp_buf *b);

/* One function as a usage line: "transfer --from <address> --to <address>
 * --amount <i128> -> void". */
void scp_spec_fn_format(const scp_spec_fn *f, scp_buf *b);

/* (args.c) Type the text a user gave for parameter `param` by its scalar
 * spec type t (or option of one) into *out (data points into text).  Other types
 * need the spec (scp_argjson_value): SCP_ERR_ARG naming the parameter
 * and the type. */
int scp_spec_arg_parse(const scp_spec_type *t, const char *param, const char *text,
                       scp_arg *out, scp_error *err);

/* The scp_arg_parse type a value of spec kind `kind` is given as on the
 * command line ("u32", "bytes" for bytes and bytesn), NULL for kinds not
 * typed from plain text. */
SCP_HIDDEN const char *scp_spec_kind_arg(uint32_t kind);

/* The UDT called name, or NULL. */
const scp_spec_udt *scp_spec_udt_find(const scp_spec *s, const char *name);

/* (spec_key.c) A storage key, the ScVal XDR xdr[0..len), as the
 * contract's source names it, appended to b: a union case of spec s as
 * `Balance(GABC...)` / `Admin`, a struct as `Name{field: value}`, another
 * vec as a tuple `(7, lock)`, the instance key as `instance`; s may be
 * NULL (no spec: a vec led by a symbol reads as a union case).  SCP_OK,
 * SCP_ERR_MALFORMED (not an ScVal), SCP_ERR_NOMEM. */
int scp_spec_key_format(const scp_spec *s, const uint8_t *xdr, size_t len, scp_buf *b);

#endif
