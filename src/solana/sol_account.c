/* sol_account.c — owning copies of accounts. */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol.h"

void scp_sol_account_free(scp_sol_account *a) {
  free(a->data);
  a->data = NULL;
  a->len = 0;
}

int scp_sol_account_copy(scp_sol_account *dst, const scp_sol_account *src) {
  uint8_t *d = malloc(src->len ? src->len : 1);
  if (!d) return SCP_ERR_NOMEM;
  if (src->len) memcpy(d, src->data, src->len);
  *dst = *src;
  dst->data = d;
  return SCP_OK;
}
