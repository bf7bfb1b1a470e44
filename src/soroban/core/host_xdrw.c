/*
 * host_xdrw.c — the metered XDR writer of host_xdrw.h.
 */
#include <string.h>

#include "soroban/core/host_xdrw.h"

int scp_xdrw_append(scp_xdrw *w, const uint8_t *p, size_t len) {
  if (!len) return SCP_OK;
  if (!scp_grow(&w->p, &w->cap, w->n + len, 1)) return SCP_ERR_NOMEM;
  memcpy(w->p + w->n, p, len);
  w->n += len;
  return SCP_OK;
}

int scp_xdrw_put(scp_host *h, scp_xdrw *w, const void *p, size_t len) {
  if (!len) return SCP_OK;
  if (w->charge) {
    int rc = scp_host_charge(h, SCP_COST_ValSer, (int64_t)len);
    if (rc != SCP_OK) return rc;
  }
  return scp_xdrw_append(w, p, len);
}

int scp_xdrw_u32(scp_host *h, scp_xdrw *w, uint32_t x) {
  uint8_t t[4];
  scp_put_be32(t, x);
  return scp_xdrw_put(h, w, t, 4);
}

int scp_xdrw_address(scp_host *h, scp_xdrw *w, const uint8_t a[33]) {
  int rc = scp_xdrw_u32(h, w, a[0]);
  if (rc == SCP_OK && a[0] == 0) rc = scp_xdrw_u32(h, w, 0);   /* PUBLIC_KEY_TYPE_ED25519 */
  return rc == SCP_OK ? scp_xdrw_put(h, w, a + 1, 32) : rc;
}

int scp_xdrw_var(scp_host *h, scp_xdrw *w, const void *p, uint32_t len) {
  static const uint8_t zero[3];
  int rc = scp_xdrw_u32(h, w, len);
  if (rc == SCP_OK) rc = scp_xdrw_put(h, w, p, len);
  return rc == SCP_OK ? scp_xdrw_put(h, w, zero, (4 - len % 4) % 4) : rc;
}
