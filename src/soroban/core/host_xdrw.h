/*
 * host_xdrw.h — an XDR writer for the images the host hashes or compares
 * (signature payloads, create-contract authorized functions), charging
 * one ValSer(len) per write_all as the reference's metered writer does,
 * or nothing when built with charge = false (then h may be NULL).  Hidden
 * internals.
 */
#ifndef SCP_HOST_XDRW_H
#define SCP_HOST_XDRW_H

#include "soroban/core/host_private.h"

typedef struct scp_xdrw {
  uint8_t *p;     /* malloc'd; the caller frees it */
  size_t n, cap;
  bool charge;
} scp_xdrw;

/* One write_all of len bytes (nothing for len 0). */
SCP_HIDDEN int scp_xdrw_put(scp_host *h, scp_xdrw *w, const void *p, size_t len);
SCP_HIDDEN int scp_xdrw_u32(scp_host *h, scp_xdrw *w, uint32_t x);
/* ScAddress from the host's encoding (kind, 32 bytes): the discriminant,
 * an account's PublicKey type, the 32 bytes. */
SCP_HIDDEN int scp_xdrw_address(scp_host *h, scp_xdrw *w, const uint8_t a[33]);
/* Opaque / string bodies: the length, the bytes, the zero padding. */
SCP_HIDDEN int scp_xdrw_var(scp_host *h, scp_xdrw *w, const void *p, uint32_t len);
/* An image whose writes were charged where it was made: appended free. */
SCP_HIDDEN int scp_xdrw_append(scp_xdrw *w, const uint8_t *p, size_t len);

#endif
