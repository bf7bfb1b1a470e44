/*
 * xdr_private.h — the type rows the codec walks (xdr_types.c holds them,
 * xdr_codec.c walks them).
 */
#ifndef SCP_XDR_PRIVATE_H
#define SCP_XDR_PRIVATE_H

#include "xdr/scp_xdr.h"

typedef enum {
  XK_NONE,        /* an arm the codec does not write: SCP_ERR_UNSUPPORTED */
  XK_U32, XK_I32, XK_U64, XK_I64, XK_BOOL,
  XK_UBIG, XK_SBIG,   /* n bits (128 or 256) as big-endian parts */
  XK_OPAQUE,      /* n bytes, hex */
  XK_VAROPAQUE,   /* at most n bytes, hex */
  XK_STRING,      /* at most n bytes, escaped text */
  XK_ASSETCODE,   /* n bytes (4 or 12), text without the trailing NULs */
  XK_STRKEY,      /* 32 bytes, strkey of version n */
  XK_STRUCT,      /* fields */
  XK_UNION,       /* arms; flat: the JSON is the arm's own (strkeys) */
  XK_ENUM,        /* arms without types */
  XK_ARRAY,       /* at most n of elem */
  XK_FARRAY,      /* exactly n of elem */
  XK_OPTION,      /* elem or null */
} xdr_kind;

typedef struct xdr_field {
  const char *name;
  const scp_xdr_type *type;
} xdr_field;

typedef struct xdr_arm {
  int32_t value;
  const char *name;
  const scp_xdr_type *type;     /* NULL: void */
} xdr_arm;

struct scp_xdr_type {
  const char *name;
  xdr_kind kind;
  uint32_t n;
  const scp_xdr_type *elem;
  const xdr_field *fields;
  const xdr_arm *arms;
  uint32_t count;               /* fields or arms */
  bool flat;
};

/* Every named type by its name (aliases too: AccountId is PublicKey),
 * NULL-ended (xdr_types.c, generated). */
typedef struct scp_xdr_named {
  const char *name;
  const scp_xdr_type *type;
} scp_xdr_named;
extern const scp_xdr_named scp_xdr_types[];

#endif
