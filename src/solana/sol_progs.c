/* sol_progs.c — the loaded-program cache (scp_sol_progs.h). */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_progs.h"
#include "solana/sol_sys.h"
#include "solana/scp_sol_feature.h"

struct scp_sol_prog {
  uint8_t *elf;                /* the key, and the bytes the mapper reads */
  size_t len;
  scp_sbpf_prog *prog;
  scp_sym *sym;
  bool sym_tried;
};

/* The programs loaded under one set of registered syscalls: the feature
 * gates decide which syscalls exist, and a program is verified against
 * them, so each set has its own loader and its own programs. */
typedef struct prog_set {
  uint64_t mask;               /* bit i: sol_syscalls()[i] is registered */
  scp_sbpf_loader *loader;
  scp_sol_prog **progs;
  size_t nprogs, cap;
} prog_set;

struct scp_sol_progs {
  prog_set *sets;
  size_t nsets, cap;
  scp_sbpf_pool *pool;         /* the VMs' memory, reused by every invocation */
};

int scp_sol_progs_new(scp_sol_progs **out, scp_error *err) {
  *out = calloc(1, sizeof **out);
  if (*out && !((*out)->pool = scp_sbpf_pool_new())) {
    free(*out);
    *out = NULL;
  }
  return *out ? SCP_OK : scp_fail(err, SCP_ERR_NOMEM, "out of memory");
}

scp_sbpf_pool *scp_sol_progs_pool(const scp_sol_progs *c) { return c->pool; }

static uint64_t mask_of(const scp_sol_features *f) {
  size_t n;
  const sol_syscall *sc = sol_syscalls(&n);
  uint64_t m = 0;
  for (size_t i = 0; i < n && i < 64; i++)
    if (scp_sol_features_syscall(f, sc[i].name)) m |= (uint64_t)1 << i;
  return m;
}

static prog_set *set_of(const scp_sol_progs *c, uint64_t mask) {
  for (size_t i = 0; i < c->nsets; i++)
    if (c->sets[i].mask == mask) return &c->sets[i];
  return NULL;
}

static void prog_free(scp_sol_prog *p) {
  if (p->sym) scp_sym_destroy(p->sym);
  scp_sbpf_prog_free(p->prog);
  free(p->elf);
  free(p);
}

void scp_sol_progs_free(scp_sol_progs *c) {
  if (!c) return;
  for (size_t k = 0; k < c->nsets; k++) {
    prog_set *ps = &c->sets[k];
    for (size_t i = 0; i < ps->nprogs; i++) prog_free(ps->progs[i]);
    free(ps->progs);
    scp_sbpf_loader_destroy(ps->loader);
  }
  free(c->sets);
  scp_sbpf_pool_free(c->pool);
  free(c);
}

int scp_sol_progs_get(scp_sol_progs *c, const scp_sol_features *features, const uint8_t *elf, size_t len,
                      const char *name, scp_sol_prog **out, scp_error *err) {
  *out = NULL;
  uint64_t mask = mask_of(features);
  prog_set *ps = set_of(c, mask);
  if (!ps) {
    if (!scp_grow(&c->sets, &c->cap, c->nsets + 1, sizeof *c->sets))
      return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    ps = &c->sets[c->nsets];
    *ps = (prog_set){.mask = mask};
    int rc = sol_run_loader(&ps->loader, mask, err);
    if (rc) return rc;
    c->nsets++;
  }
  for (size_t i = 0; i < ps->nprogs; i++)
    if (ps->progs[i]->len == len && !memcmp(ps->progs[i]->elf, elf, len)) {
      *out = ps->progs[i];
      return SCP_OK;
    }
  scp_sol_prog *p = calloc(1, sizeof *p);
  if (!p || !scp_grow(&ps->progs, &ps->cap, ps->nprogs + 1, sizeof *ps->progs) ||
      !(p->elf = malloc(len ? len : 1))) {
    free(p);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (len) memcpy(p->elf, elf, len);
  p->len = len;
  int rc = scp_sbpf_load(ps->loader, p->elf, len, name, &p->prog, err);
  if (rc) {
    prog_free(p);
    return rc;
  }
  ps->progs[ps->nprogs++] = p;
  *out = p;
  return SCP_OK;
}

const scp_sbpf_loader *scp_sol_progs_loader(const scp_sol_progs *c, const scp_sol_features *features) {
  const prog_set *ps = set_of(c, mask_of(features));
  return ps ? ps->loader : NULL;
}
const scp_sbpf_prog *scp_sol_prog_sbpf(const scp_sol_prog *p) { return p->prog; }
size_t scp_sol_progs_count(const scp_sol_progs *c) {
  size_t n = 0;
  for (size_t k = 0; k < c->nsets; k++) n += c->sets[k].nprogs;
  return n;
}

scp_sym *scp_sol_prog_sym(scp_sol_prog *p) {
  if (!p->sym_tried) {
    scp_sym_opts so = {0};
    scp_error serr;
    p->sym_tried = true;
    if (scp_sym_open_elf(p->elf, p->len, &so, &p->sym, &serr)) p->sym = NULL;
  }
  return p->sym;
}
