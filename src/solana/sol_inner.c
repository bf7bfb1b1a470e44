/* sol_inner.c — one inner instruction (a CPI the runtime ran) as one text
 * line, the form scprof's runs and an RPC node's meta.innerInstructions
 * are both written in, so the two compare line by line (sol_builtin.h). */
#include <stdlib.h>
#include <string.h>
#include "solana/sol_builtin.h"
#include "util/scp_codec.h"

int sol_inner_add(sol_logs *l, const sol_inner *in) {
  scp_buf b = {0};
  if (in->top >= 0) scp_buf_printf(&b, "index %ld ", in->top);
  scp_buf_printf(&b, "stackHeight %u programIdIndex ", in->height);
  if (in->program >= 0) scp_buf_printf(&b, "%ld", in->program);
  else scp_buf_printf(&b, "(not in the transaction)");
  scp_buf_printf(&b, " accounts [");
  for (size_t i = 0; i < in->naccts; i++) scp_buf_printf(&b, i ? ",%u" : "%u", in->accts[i]);
  scp_buf_printf(&b, "] data ");
  /* base58 grows a byte into at most 1.37 characters */
  size_t cap = in->len * 2 + 2;
  char *text = malloc(cap);
  if (text) {
    size_t n = scp_b58_encode(in->data, in->len, text, cap);
    scp_buf_put(&b, text, n);
  }
  free(text);
  scp_buf_putc(&b, '\0');
  if (!text || b.oom || !scp_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
    scp_buf_free(&b);
    l->oom = true;
    return SCP_ERR_NOMEM;
  }
  l->v[l->n++] = (char *)b.data;
  return SCP_OK;
}
