/* sol_progs.c — the loaded-program cache (scp_sol_progs.h). */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_progs.h"
#include "solana/sol_sys.h"

struct scp_sol_prog {
  uint8_t *elf;                /* the key, and the bytes the mapper reads */
  size_t len;
  scp_sbpf_prog *prog;
  scp_sym *sym;
  bool sym_tried;
};

struct scp_sol_progs {
  scp_sbpf_loader *loader;
  scp_sol_prog **progs;
  size_t nprogs, cap;
};

int scp_sol_progs_new(scp_sol_progs **out, scp_error *err) {
  scp_sol_progs *c = calloc(1, sizeof *c);
  *out = NULL;
  if (!c) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  int rc = sol_run_loader(&c->loader, err);
  if (rc) {
    free(c);
    return rc;
  }
  *out = c;
  return SCP_OK;
}

static void prog_free(scp_sol_prog *p) {
  if (p->sym) scp_sym_destroy(p->sym);
  scp_sbpf_prog_free(p->prog);
  free(p->elf);
  free(p);
}

void scp_sol_progs_free(scp_sol_progs *c) {
  if (!c) return;
  for (size_t i = 0; i < c->nprogs; i++) prog_free(c->progs[i]);
  free(c->progs);
  scp_sbpf_loader_destroy(c->loader);
  free(c);
}

int scp_sol_progs_get(scp_sol_progs *c, const uint8_t *elf, size_t len, const char *name,
                      scp_sol_prog **out, scp_error *err) {
  *out = NULL;
  for (size_t i = 0; i < c->nprogs; i++)
    if (c->progs[i]->len == len && !memcmp(c->progs[i]->elf, elf, len)) {
      *out = c->progs[i];
      return SCP_OK;
    }
  scp_sol_prog *p = calloc(1, sizeof *p);
  if (!p || !scp_grow(&c->progs, &c->cap, c->nprogs + 1, sizeof *c->progs) ||
      !(p->elf = malloc(len ? len : 1))) {
    free(p);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (len) memcpy(p->elf, elf, len);
  p->len = len;
  int rc = scp_sbpf_load(c->loader, p->elf, len, name, &p->prog, err);
  if (rc) {
    prog_free(p);
    return rc;
  }
  c->progs[c->nprogs++] = p;
  *out = p;
  return SCP_OK;
}

const scp_sbpf_loader *scp_sol_progs_loader(const scp_sol_progs *c) { return c->loader; }
const scp_sbpf_prog *scp_sol_prog_sbpf(const scp_sol_prog *p) { return p->prog; }
size_t scp_sol_progs_count(const scp_sol_progs *c) { return c->nprogs; }

scp_sym *scp_sol_prog_sym(scp_sol_prog *p) {
  if (!p->sym_tried) {
    scp_sym_opts so = {0};
    scp_error serr;
    p->sym_tried = true;
    if (scp_sym_open_elf(p->elf, p->len, &so, &p->sym, &serr)) p->sym = NULL;
  }
  return p->sym;
}
