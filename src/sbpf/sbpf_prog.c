/*
 * sbpf_prog.c — the loader object (syscall registry), the function
 * registry of a program, and loading as a whole: ELF (sbpf_elf.c), then the
 * verifier and the decoder (sbpf_verify.c).
 *
 * Function keys follow FunctionRegistry::register_function_hashed_legacy:
 * murmur3 of the target pc's 8 little-endian bytes, murmur3("entrypoint")
 * for the entrypoint, a SymbolHashCollision when a key names a syscall or
 * another pc.
 */
#include "sbpf/sbpf_private.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

uint32_t scp_sbpf_hash(const void *data, size_t len) { return scp_murmur3_32(data, len); }

uint32_t sbpf_hash_pc(uint64_t pc) {
  uint8_t b[8];
  scp_put_le64(b, pc);
  return scp_sbpf_hash(b, 8);
}

/* ---- errors ------------------------------------------------------------- */

int sbpf_fail(scp_error *err, int code, const char *kind, const char *variant, const char *fmt,
              ...) {
  char text[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  return scp_fail(err, code, "%s error: %s (%s)", kind, text, variant);
}

/* ---- traps -------------------------------------------------------------- */

static const char *const trap_names[] = {
#define X(id, variant, text) variant,
#include "sbpf/sbpf_traps.def"
#undef X
};
_Static_assert(SCP_ARRAY_LEN(trap_names) == SCP_SBPF_TRAP_COUNT, "one name per trap");

const char *scp_sbpf_trap_name(scp_sbpf_trap t) {
  return (unsigned)t < SCP_SBPF_TRAP_COUNT ? trap_names[t] : "unknown";
}

/* ---- loader ------------------------------------------------------------- */

void scp_sbpf_loader_opts_default(scp_sbpf_loader_opts *o) {
  memset(o, 0, sizeof *o);
  o->min_version = SCP_SBPF_V0;
  o->max_version = SCP_SBPF_V3;
}

int scp_sbpf_loader_create(const scp_sbpf_loader_opts *opts, scp_sbpf_loader **out) {
  scp_sbpf_loader *l = calloc(1, sizeof *l);
  *out = NULL;
  if (!l) return SCP_ERR_NOMEM;
  if (opts) l->opts = *opts;
  else scp_sbpf_loader_opts_default(&l->opts);
  *out = l;
  return SCP_OK;
}

void scp_sbpf_loader_destroy(scp_sbpf_loader *l) {
  if (!l) return;
  for (size_t i = 0; i < l->nsys; i++) free(l->sys[i].name);
  free(l->sys);
  free(l);
}

/* The first of n records of `size` bytes, sorted by the uint32_t key each
 * starts with (sbpf_syscall, sbpf_key), whose key is not below key. */
static size_t key_lower(const void *base, size_t n, size_t size, uint32_t key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    uint32_t k;
    memcpy(&k, (const char *)base + mid * size, sizeof k);
    if (k < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

_Static_assert(offsetof(sbpf_syscall, key) == 0 && offsetof(sbpf_key, key) == 0,
               "key_lower reads the key at the start of a record");

static size_t sys_lower(const scp_sbpf_loader *l, uint32_t key) {
  return key_lower(l->sys, l->nsys, sizeof *l->sys, key);
}

const sbpf_syscall *sbpf_loader_find(const scp_sbpf_loader *l, uint32_t key) {
  size_t i = sys_lower(l, key);
  return i < l->nsys && l->sys[i].key == key ? &l->sys[i] : NULL;
}

uint32_t sbpf_loader_index(const scp_sbpf_loader *l, const sbpf_syscall *s) {
  return (uint32_t)(s - l->sys);
}

int scp_sbpf_loader_register(scp_sbpf_loader *l, const char *name, scp_sbpf_syscall_fn fn,
                             void *ctx, scp_error *err) {
  uint32_t key = scp_sbpf_hash(name, strlen(name));
  size_t i = sys_lower(l, key);
  if (i < l->nsys && l->sys[i].key == key)
    return scp_fail(err, SCP_ERR_INVALID, "syscall %s: key 0x%08x is already taken by %s", name,
                    key, l->sys[i].name);
  char *copy = strdup(name);
  if (!copy || !scp_grow(&l->sys, &l->capsys, l->nsys + 1, sizeof *l->sys)) {
    free(copy);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  memmove(&l->sys[i + 1], &l->sys[i], (l->nsys - i) * sizeof *l->sys);
  l->sys[i] = (sbpf_syscall){ .key = key, .name = copy, .fn = fn, .ctx = ctx };
  l->nsys++;
  return SCP_OK;
}

const char *scp_sbpf_loader_syscall_name(const scp_sbpf_loader *l, uint32_t key) {
  const sbpf_syscall *s = sbpf_loader_find(l, key);
  return s ? s->name : NULL;
}

/* ---- function registry ------------------------------------------------- */

static size_t prog_key_lower(const scp_sbpf_prog *p, uint32_t key) {
  return key_lower(p->keys, p->nkeys, sizeof *p->keys, key);
}

const sbpf_key *sbpf_lookup_key(const scp_sbpf_prog *p, uint32_t key) {
  size_t i = prog_key_lower(p, key);
  return i < p->nkeys && p->keys[i].key == key ? &p->keys[i] : NULL;
}

static int collision(uint32_t key, scp_error *err) {
  return sbpf_fail(err, SCP_ERR_MALFORMED, "ELF", "SymbolHashCollision",
                   "Symbol hash collision 0x%x", key);
}

int sbpf_register_key(scp_sbpf_prog *p, uint32_t key, uint32_t pc, scp_error *err) {
  size_t i = prog_key_lower(p, key);
  if (i < p->nkeys && p->keys[i].key == key) {
    if (p->keys[i].pc != pc) return collision(key, err);
    return SCP_OK;
  }
  if (!scp_grow(&p->keys, &p->capkeys, p->nkeys + 1, sizeof *p->keys))
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  memmove(&p->keys[i + 1], &p->keys[i], (p->nkeys - i) * sizeof *p->keys);
  p->keys[i] = (sbpf_key){ .key = key, .pc = pc };
  p->nkeys++;
  return SCP_OK;
}

int sbpf_register_hashed(scp_sbpf_prog *p, uint32_t pc, bool entry, uint32_t *key,
                         scp_error *err) {
  uint32_t k = entry ? scp_sbpf_hash("entrypoint", 10) : sbpf_hash_pc(pc);
  if (sbpf_loader_find(p->loader, k)) return collision(k, err);
  if (entry) {
    /* unregister_function(entrypoint) first: the entry may move. */
    size_t i = prog_key_lower(p, k);
    if (i < p->nkeys && p->keys[i].key == k) {
      memmove(&p->keys[i], &p->keys[i + 1], (p->nkeys - i - 1) * sizeof *p->keys);
      p->nkeys--;
    }
  }
  *key = k;
  return sbpf_register_key(p, k, pc, err);
}

/* Add or name a function at pc.  A later name does not replace an earlier
 * non-empty one (.symtab is read before .dynsym). */
int sbpf_add_func(scp_sbpf_prog *p, uint32_t pc, const char *name, size_t nlen) {
  for (size_t i = 0; i < p->nfuncs; i++)
    if (p->funcs[i].pc == pc) {
      if (!p->funcs[i].name[0] && nlen) {
        char *copy = strndup(name, nlen);
        if (!copy) return SCP_ERR_NOMEM;
        free((char *)p->funcs[i].name);
        p->funcs[i].name = copy;
      }
      return SCP_OK;
    }
  char *copy = strndup(name ? name : "", nlen);
  if (!copy || !scp_grow(&p->funcs, &p->capfuncs, p->nfuncs + 1, sizeof *p->funcs)) {
    free(copy);
    return SCP_ERR_NOMEM;
  }
  p->funcs[p->nfuncs++] = (scp_sbpf_func){ .pc = pc, .key = pc, .name = copy };
  return SCP_OK;
}

/* ---- loading ------------------------------------------------------------ */

void scp_sbpf_prog_free(scp_sbpf_prog *p) {
  if (!p) return;
  for (size_t i = 0; i < p->nfuncs; i++) free((char *)p->funcs[i].name);
  free(p->funcs);
  free(p->keys);
  free(p->uses);
  free(p->text);
  free(p->ro);
  free(p->code);
  free(p->cnt);
  free(p->blk);
  free(p->cntblk);
  free(p->block_pc);
  free(p->func_block);
  free(p->name);
  free(p);
}

/* Superinstructions: a mov64 reg followed, in the same straight-line run,
 * by a 64-bit ALU instruction on the same dst runs as one body; so does an
 * add64 imm followed by the conditional jump that ends its block, and two
 * mov64 reg in a row.  Neither half can trap, so a trap never falls
 * inside a pair; the meter stop unfuses the pair it would fall inside
 * (sbpf_meter_short).  A register operand
 * equal to dst is left alone: the fused body reads it before the mov. */
static void sbpf_fuse(scp_sbpf_prog *p) {
  static const struct { uint8_t second, fused; bool reg; } pairs[] = {
    { .second = OP_ADD64R, .fused = OP_MOVR_ADD64R, .reg = true },
    { .second = OP_SUB64R, .fused = OP_MOVR_SUB64R, .reg = true },
    { .second = OP_XOR64R, .fused = OP_MOVR_XOR64R, .reg = true },
    { .second = OP_OR64R, .fused = OP_MOVR_OR64R, .reg = true },
    { .second = OP_AND64R, .fused = OP_MOVR_AND64R, .reg = true },
    { .second = OP_ADD64I, .fused = OP_MOVR_ADD64I, .reg = false },
    { .second = OP_AND64I, .fused = OP_MOVR_AND64I, .reg = false },
    { .second = OP_LSH64I, .fused = OP_MOVR_LSH64I, .reg = false },
    { .second = OP_RSH64I, .fused = OP_MOVR_RSH64I, .reg = false },
    { .second = OP_ARSH64I, .fused = OP_MOVR_ARSH64I, .reg = false },
  };
  for (uint32_t pc = 0; pc + 1 < p->ninsns; pc++) {
    sbpf_insn *a = &p->code[pc], *b = a + 1;
    if (a->op != OP_MOV64R || p->cnt[pc] < 2 || b->dst != a->dst) continue;
    for (size_t k = 0; k < SCP_ARRAY_LEN(pairs); k++)
      if (b->op == pairs[k].second && !(pairs[k].reg && b->src == a->dst)) a->xop = pairs[k].fused;
  }
  /* Two mov64 reg in a row, in order; a second mov already heading a pair
   * with an ALU instruction keeps that pair. */
  for (uint32_t pc = 0; pc + 1 < p->ninsns; pc++) {
    sbpf_insn *a = &p->code[pc], *b = a + 1;
    if (a->op == OP_MOV64R && a->xop == a->op && p->cnt[pc] >= 2 && b->op == OP_MOV64R && b->xop == b->op)
      a->xop = OP_MOVR_MOVR;
  }
  /* add64 imm and the conditional jump after it in the same block: the
   * jump reads the add's result whichever registers it names. */
  static const struct { uint8_t jump, fused; } jumps[] = {
    { .jump = OP_JEQI, .fused = OP_ADDI_JEQI },
    { .jump = OP_JEQR, .fused = OP_ADDI_JEQR },
    { .jump = OP_JNEI, .fused = OP_ADDI_JNEI },
    { .jump = OP_JNER, .fused = OP_ADDI_JNER },
    { .jump = OP_JGTI, .fused = OP_ADDI_JGTI },
    { .jump = OP_JGTR, .fused = OP_ADDI_JGTR },
    { .jump = OP_JLTI, .fused = OP_ADDI_JLTI }, { .jump = OP_JLTR, .fused = OP_ADDI_JLTR },
  };
  for (uint32_t pc = 0; pc + 1 < p->ninsns; pc++) {
    sbpf_insn *a = &p->code[pc], *b = a + 1;
    if (a->op != OP_ADD64I || p->cnt[pc] < 2) continue;
    for (size_t k = 0; k < SCP_ARRAY_LEN(jumps); k++)
      if (b->op == jumps[k].jump) a->xop = jumps[k].fused;
  }
}

static int finish(scp_sbpf_prog *p, scp_error *err) {
  int rc = sbpf_verify(p, err);
  if (!rc) rc = sbpf_decode(p, err);
  if (rc) return rc;
  /* one load per block entry instead of two */
  p->cntblk = malloc(((size_t)p->ninsns + 1) * sizeof *p->cntblk);
  if (!p->cntblk) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  for (uint32_t pc = 0; pc <= p->ninsns; pc++) p->cntblk[pc] = p->cnt[pc] | (uint64_t)p->blk[pc] << 32;
  for (uint32_t pc = 0; pc <= p->ninsns; pc++) p->code[pc].xop = p->code[pc].op;
  sbpf_fuse(p);
  return SCP_OK;
}

static scp_sbpf_prog *new_prog(const scp_sbpf_loader *l, const char *name) {
  scp_sbpf_prog *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->loader = l;
  p->name = strdup(name ? name : "program");
  if (!p->name) {
    free(p);
    return NULL;
  }
  return p;
}

int scp_sbpf_load(const scp_sbpf_loader *l, const uint8_t *elf, size_t len, const char *name,
                  scp_sbpf_prog **out, scp_error *err) {
  *out = NULL;
  scp_sbpf_prog *p = new_prog(l, name);
  if (!p) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  int rc = sbpf_elf_load(p, elf, len, err);
  if (!rc) rc = finish(p, err);
  if (rc) {
    if (err && name) scp_error_prefix(err, name);
    scp_sbpf_prog_free(p);
    return rc;
  }
  *out = p;
  return SCP_OK;
}

int sbpf_load_text(const scp_sbpf_loader *l, const uint8_t *text, size_t len,
                   scp_sbpf_version v, scp_sbpf_prog **out, scp_error *err) {
  *out = NULL;
  scp_sbpf_prog *p = new_prog(l, "text");
  if (!p) return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  int rc = SCP_ERR_NOMEM;
  p->version = v;
  p->machine = SCP_SBPF_EM_SBPF;
  p->text = malloc(len + 8);
  p->ro = malloc(len + 1);
  if (!p->text || !p->ro) goto fail;
  memcpy(p->text, text, len);
  memcpy(p->ro, text, len);
  p->text_len_bytes = len;
  p->ro_len = len;
  p->ro_vaddr = v >= SCP_SBPF_V3 ? SCP_SBPF_MM_RODATA : SCP_SBPF_MM_BYTECODE;
  p->text_vaddr = SCP_SBPF_MM_BYTECODE;
  p->ninsns = (uint32_t)(len / 8);
  p->entry = 0;
  if (v < SCP_SBPF_V3) {
    /* Executable::new_from_text_bytes takes call imms as keys already:
     * register pc-relative targets the way the ELF loader would. */
    for (uint32_t i = 0; i < p->ninsns; i++) {
      uint8_t *insn = p->text + 8 * (size_t)i;
      int32_t imm;
      memcpy(&imm, insn + 4, 4);
      if (insn[0] != 0x85 || imm == -1 || sbpf_loader_find(l, (uint32_t)imm)) continue;
      int64_t t = (int64_t)i + 1 + imm;
      if (t < 0 || t >= p->ninsns) continue;
      uint32_t key;
      if ((rc = sbpf_register_hashed(p, (uint32_t)t, false, &key, err))) goto fail;
      memcpy(insn + 4, &key, 4);
    }
    uint32_t key;
    if ((rc = sbpf_register_hashed(p, 0, true, &key, err))) goto fail;
  }
  if ((rc = sbpf_add_func(p, 0, "entrypoint", 10))) goto fail;
  if ((rc = finish(p, err))) goto fail;
  *out = p;
  return SCP_OK;
fail:
  if (rc == SCP_ERR_NOMEM) scp_fail(err, rc, "out of memory");
  scp_sbpf_prog_free(p);
  return rc;
}

/* ---- accessors ---------------------------------------------------------- */

scp_sbpf_version scp_sbpf_prog_version(const scp_sbpf_prog *p) { return p->version; }
uint16_t scp_sbpf_prog_machine(const scp_sbpf_prog *p) { return p->machine; }
uint32_t scp_sbpf_prog_ninsns(const scp_sbpf_prog *p) { return p->ninsns; }
uint32_t scp_sbpf_prog_entry(const scp_sbpf_prog *p) { return p->entry; }
uint64_t scp_sbpf_prog_text_addr(const scp_sbpf_prog *p) { return p->text_addr; }

void scp_sbpf_prog_text_range(const scp_sbpf_prog *p, uint64_t *vaddr, uint64_t *len) {
  *vaddr = p->text_vaddr;
  *len = p->text_len_bytes;
}

void scp_sbpf_prog_ro_range(const scp_sbpf_prog *p, uint64_t *vaddr, uint64_t *len) {
  *vaddr = p->ro_vaddr;
  *len = p->ro_len;
}

uint32_t scp_sbpf_prog_nfuncs(const scp_sbpf_prog *p) { return (uint32_t)p->nfuncs; }

const scp_sbpf_func *scp_sbpf_prog_func(const scp_sbpf_prog *p, uint32_t i) {
  return i < p->nfuncs ? &p->funcs[i] : NULL;
}

uint32_t scp_sbpf_prog_func_at(const scp_sbpf_prog *p, uint32_t pc) {
  size_t lo = 0, hi = p->nfuncs;
  if (pc >= p->ninsns) return UINT32_MAX;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (p->funcs[mid].pc <= pc) lo = mid + 1;
    else hi = mid;
  }
  return lo ? (uint32_t)(lo - 1) : UINT32_MAX;
}

uint32_t scp_sbpf_prog_nsyscalls(const scp_sbpf_prog *p) { return (uint32_t)p->nuses; }

const scp_sbpf_syscall_use *scp_sbpf_prog_syscall(const scp_sbpf_prog *p, uint32_t i) {
  return i < p->nuses ? &p->uses[i] : NULL;
}
