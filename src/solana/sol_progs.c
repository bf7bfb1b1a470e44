/* sol_progs.c — the loaded-program cache (scp_sol_progs.h). */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_progs.h"
#include "solana/sol_sys.h"
#include "solana/scp_sol_feature.h"

/* A file given for the symbols of a program (scp_sol_progs_add_symbols). */
typedef struct sym_file {
  uint8_t *bytes;
  size_t len;
} sym_file;

struct scp_sol_prog {
  uint8_t *elf;                /* the key, and the bytes the mapper reads */
  size_t len;
  const uint8_t *pinned;       /* a pinned buffer known to hold these bytes */
  const struct scp_sol_progs *owner;
  scp_sbpf_prog *prog;
  scp_sym *sym;
  bool sym_tried;
  /* each instruction's disassembly, made the first time a profile shows
   * it: text_key[i] is its id in texts plus one (0: not made yet), equal
   * texts one id; memo is what those ids are in the profile being built */
  uint32_t *text_key;
  uint32_t ninsns;             /* text_key's length */
  scp_strtab texts;
  scp_prof_memo memo;
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
  sym_file *syms;
  size_t nsyms, capsyms;
  sym_file *pins;              /* scp_sol_progs_pin: borrowed, never changed */
  size_t npins, cappins;
  scp_sbpf_pool *pool;         /* the VMs' memory, reused by every invocation */
  /* the syscall mask of the last feature set asked about (every
   * instruction of a scenario asks with the same one) */
  bool memo_set, memo_default;
  scp_sol_features memo_features;
  uint64_t memo_mask;
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

static bool memo_holds(const scp_sol_progs *c, const scp_sol_features *f) {
  return c->memo_set && (f ? !c->memo_default && !memcmp(&c->memo_features, f, sizeof *f) : c->memo_default);
}

static uint64_t mask_memo(scp_sol_progs *c, const scp_sol_features *f) {
  if (memo_holds(c, f)) return c->memo_mask;
  c->memo_mask = mask_of(f);
  c->memo_set = true;
  c->memo_default = !f;
  if (f) c->memo_features = *f;
  return c->memo_mask;
}

static prog_set *set_of(const scp_sol_progs *c, uint64_t mask) {
  for (size_t i = 0; i < c->nsets; i++)
    if (c->sets[i].mask == mask) return &c->sets[i];
  return NULL;
}

static void prog_free(scp_sol_prog *p) {
  free(p->text_key);
  scp_strtab_free(&p->texts);
  scp_prof_memo_free(&p->memo);
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
  for (size_t i = 0; i < c->nsyms; i++) free(c->syms[i].bytes);
  free(c->syms);
  free(c->pins);
  scp_sbpf_pool_free(c->pool);
  free(c);
}

int scp_sol_progs_add_symbols(scp_sol_progs *c, const uint8_t *bytes, size_t len, scp_error *err) {
  uint8_t *copy = malloc(len ? len : 1);
  if (!copy || !scp_grow(&c->syms, &c->capsyms, c->nsyms + 1, sizeof *c->syms)) {
    free(copy);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (len) memcpy(copy, bytes, len);
  c->syms[c->nsyms++] = (sym_file){.bytes = copy, .len = len};
  return SCP_OK;
}

int scp_sol_progs_pin(scp_sol_progs *c, const uint8_t *bytes, size_t len, scp_error *err) {
  if (!scp_grow(&c->pins, &c->cappins, c->npins + 1, sizeof *c->pins))
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  c->pins[c->npins++] = (sym_file){.bytes = (uint8_t *)bytes, .len = len};
  return SCP_OK;
}

static bool is_pinned(const scp_sol_progs *c, const uint8_t *elf, size_t len) {
  for (size_t i = 0; i < c->npins; i++)
    if (c->pins[i].bytes == elf && c->pins[i].len == len) return true;
  return false;
}

/* The program of these bytes in ps, or NULL.  A pinned buffer that matched
 * once is that program for the cache's life (its bytes never change), so
 * it is found by its address; any other buffer is compared byte for byte,
 * as an account's data may have changed since (an upgrade in place). */
static scp_sol_prog *find(const scp_sol_progs *c, const prog_set *ps, const uint8_t *elf, size_t len) {
  for (size_t i = 0; i < ps->nprogs; i++)
    if (ps->progs[i]->pinned == elf && ps->progs[i]->len == len) return ps->progs[i];
  for (size_t i = 0; i < ps->nprogs; i++)
    if (ps->progs[i]->len == len && !memcmp(ps->progs[i]->elf, elf, len)) {
      if (!ps->progs[i]->pinned && is_pinned(c, elf, len)) ps->progs[i]->pinned = elf;
      return ps->progs[i];
    }
  return NULL;
}

int scp_sol_progs_get(scp_sol_progs *c, const scp_sol_features *features, const uint8_t *elf, size_t len,
                      const char *name, scp_sol_prog **out, scp_error *err) {
  *out = NULL;
  uint64_t mask = mask_memo(c, features);
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
  if ((*out = find(c, ps, elf, len))) return SCP_OK;
  scp_sol_prog *p = calloc(1, sizeof *p);
  if (!p || !scp_grow(&ps->progs, &ps->cap, ps->nprogs + 1, sizeof *ps->progs) ||
      !(p->elf = malloc(len ? len : 1))) {
    free(p);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  if (len) memcpy(p->elf, elf, len);
  p->len = len;
  p->owner = c;
  if (is_pinned(c, elf, len)) p->pinned = elf;
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
  const prog_set *ps = set_of(c, memo_holds(c, features) ? c->memo_mask : mask_of(features));
  return ps ? ps->loader : NULL;
}
const scp_sbpf_prog *scp_sol_prog_sbpf(const scp_sol_prog *p) { return p->prog; }
size_t scp_sol_progs_count(const scp_sol_progs *c) {
  size_t n = 0;
  for (size_t k = 0; k < c->nsets; k++) n += c->sets[k].nprogs;
  return n;
}

/* A stripped program's functions start at the loader's call targets too
 * (scp_sym_add_entries), named as the loader names them. */
static void add_call_targets(scp_sol_prog *p) {
  uint32_t n = scp_sbpf_prog_nfuncs(p->prog);
  uint64_t *pcs = calloc(n + 1, sizeof *pcs);
  const char **names = calloc(n + 1, sizeof *names);
  uint64_t text = scp_sbpf_prog_text_addr(p->prog);
  for (uint32_t i = 0; pcs && names && i < n; i++) {
    const scp_sbpf_func *f = scp_sbpf_prog_func(p->prog, i);
    pcs[i] = text + 8ull * f->pc;
    names[i] = f->name;
  }
  /* out of memory: the functions stay as the symbols cut them */
  if (pcs && names) scp_sym_add_entries(p->sym, pcs, names, n);
  free(pcs);
  free(names);
}

scp_sym *scp_sol_prog_sym(scp_sol_prog *p) {
  if (!p->sym_tried) {
    scp_sym_opts so = {0};
    scp_error serr;
    const uint8_t *bytes = p->elf;
    size_t len = p->len;
    p->sym_tried = true;
    for (size_t i = 0; p->owner && i < p->owner->nsyms; i++)
      if (!scp_sym_elf_matches(p->elf, p->len, p->owner->syms[i].bytes, p->owner->syms[i].len, &serr)) {
        bytes = p->owner->syms[i].bytes;
        len = p->owner->syms[i].len;
        break;
      }
    if (scp_sym_open_elf(bytes, len, &so, &p->sym, &serr)) p->sym = NULL;
    if (p->sym) add_call_targets(p);
  }
  return p->sym;
}

const char *scp_sol_prog_insn_key(scp_sol_prog *p, uint32_t pc, uint32_t *key) {
  /* a text made already: its number, no more (a profile asks per row) */
  if (p->text_key && pc < p->ninsns && p->text_key[pc]) {
    *key = p->text_key[pc] - 1;
    return scp_strtab_get(&p->texts, *key);
  }
  uint32_t n = scp_sbpf_prog_ninsns(p->prog);
  if (pc >= n) return NULL;
  if (!p->text_key && !(p->text_key = calloc(n, sizeof *p->text_key))) return NULL;
  p->ninsns = n;
  if (!p->text_key[pc]) {
    char line[96];
    size_t len = scp_sbpf_prog_disasm(p->prog, pc, line, sizeof line);
    if (len >= sizeof line) return NULL;
    uint32_t id = scp_strtab_intern_n(&p->texts, line, len);
    if (id == UINT32_MAX || id == UINT32_MAX - 1) return NULL;
    p->text_key[pc] = id + 1;
  }
  *key = p->text_key[pc] - 1;
  return scp_strtab_get(&p->texts, *key);
}

const char *scp_sol_prog_insn_text(scp_sol_prog *p, uint32_t pc) {
  uint32_t key;
  return scp_sol_prog_insn_key(p, pc, &key);
}

scp_prof_memo *scp_sol_prog_memo(scp_sol_prog *p) { return &p->memo; }
