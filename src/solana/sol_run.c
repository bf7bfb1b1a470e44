/* sol_run.c — one instruction of an sBPF program under agave's BPF loader
 * rules, optionally profiled (the steps and the booking are in
 * scp_sol_run.h). */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_run.h"
#include "solana/scp_sol_input.h"
#include "solana/sol_sys.h"
#include "solana/sol_cpi.h"
#include "solana/sol_txprof.h"
#include "solana/scp_sol_progs.h"
#include "sbpf/scp_sbpf.h"
#include "run/scp_run.h"
#include "symbols/scp_sym.h"

typedef struct sol_state {
  const scp_sol_run_opts *o;
  sol_ctx c;
  uint64_t meter;              /* remaining CU */
  uint64_t limit;
  const scp_sbpf_loader *loader;  /* the cache's, as the program */
  scp_sol_prog *entry;            /* the program, from o->cache */
  const scp_sbpf_prog *prog;
  scp_run *run;
  uint32_t prog_node;
  uint64_t text_addr;
  scp_sym *sym;                   /* the cache's */
  const scp_sol_account *saved;   /* the accounts before the instruction */
  scp_sol_sysvars own_sysvars;    /* litesvm's, when the options give none */
  char key_text[SCP_SOL_B58_KEY_MAX];
  char frame[160];
  sol_progframe pf;               /* the root: the program and what it ran */
  const scp_strtab *seed;         /* the profile's first strings (scp_resolver.seed) */
} sol_state;

/* ---- the VM as the syscall bodies see it ---- */

static int io_translate(void *vm, uint64_t va, uint64_t len, bool write, uint8_t **host,
                        scp_error *err) {
  return scp_sbpf_vm_translate(vm, va, len, write, host, err);
}
static uint64_t io_remaining(void *vm) { return scp_sbpf_vm_remaining(vm); }
static int io_consume(void *vm, uint64_t n) { return scp_sbpf_vm_consume(vm, n); }

/* ctx is the syscall's row of sol_syscalls(); the instruction is the VM's
 * (run_vm makes the state its hooks context) */
static int thunk(void *ctx, scp_sbpf_vm *vm, const uint64_t args[5], uint64_t *r0, scp_error *err) {
  const sol_syscall *sc = ctx;
  sol_state *st = scp_sbpf_vm_hooks_ctx(vm);
  sol_io io = {.vm = vm, .translate = io_translate, .remaining = io_remaining, .consume = io_consume};
  int rc = sc->fn(&st->c, &io, args, r0, err);
  if (rc == SCP_ERR_UNSUPPORTED) scp_error_prefix(err, sc->name);
  return rc;
}

int sol_run_loader(scp_sbpf_loader **out, uint64_t mask, scp_error *err) {
  size_t n;
  const sol_syscall *sc = sol_syscalls(&n);
  int rc = scp_sbpf_loader_create(NULL, out);
  if (rc) return scp_fail(err, rc, "out of memory");
  for (size_t i = 0; i < n; i++)
    if (i < 64 && (mask >> i & 1) && (rc = scp_sbpf_loader_register(*out, sc[i].name, thunk, (void *)&sc[i], err))) {
      scp_sbpf_loader_destroy(*out);
      *out = NULL;
      return rc;
    }
  return SCP_OK;
}

/* ---- booking ---- */

static void read_meter(void *ctx, uint64_t *now) {
  sol_state *st = ctx;
  now[0] = st->limit - st->meter;
}

static void on_syscall_enter(void *ctx, scp_sbpf_vm *vm, uint32_t key, uint32_t pc, uint32_t node) {
  sol_state *st = ctx;
  /* the instructions flushed into the meter before the body are the
   * engine's to book */
  scp_run_skip(st->run);
  uint32_t sys = scp_run_enter(st->run, node, st->text_addr + 8ull * pc, SCP_KIND_HOST, 0, key);
  sol_cpi_at(st->c.cpi, scp_run_tree(st->run), sys);
}

static void on_syscall_exit(void *ctx, scp_sbpf_vm *vm, uint32_t key, uint32_t pc, int status) {
  scp_run_leave(((sol_state *)ctx)->run);
}

static int node_frame(void *ctx, const scp_tree_node *n, scp_frame_info *out) {
  sol_state *st = ctx;
  switch (n->kind) {
  case SCP_KIND_CONTRACT:
    if (n->callee) return sol_cpi_frame(st->c.cpi, n, out);   /* a CPI's callee */
    /* fall through */
  case SCP_KIND_ROOT:
    out->name = st->pf.name;
    out->source = SCP_SRC_HOST;
    return SCP_OK;
  case SCP_KIND_HOST: {
    const char *s = scp_sbpf_loader_syscall_name(st->loader, n->callee);
    return scp_prof_frame_printf(out, st->frame, sizeof st->frame, SCP_SRC_HOST, "syscall:%s",
                                 s ? s : "?");
  }
  case SCP_KIND_GUEST: {
    uint64_t addr = st->text_addr + 8ull * n->callee;
    if (scp_sym_function_at(st->sym, addr, out) == SCP_OK && out->name && out->name[0])
      return SCP_OK;
    uint32_t fi = scp_sbpf_prog_func_at(st->prog, n->callee);
    const scp_sbpf_func *f = fi == UINT32_MAX ? NULL : scp_sbpf_prog_func(st->prog, fi);
    if (f && f->name && f->name[0] && f->pc == n->callee)
      return scp_prof_frame_printf(out, st->frame, sizeof st->frame, SCP_SRC_RAW, "%s", f->name);
    return scp_prof_frame_printf(out, st->frame, sizeof st->frame, SCP_SRC_RAW, "[no symbols] 0x%llx",
                                 (unsigned long long)addr);
  }
  default:
    out->name = scp_kind_name((scp_kind)n->kind);
    return SCP_OK;
  }
}

static size_t pc_chain(void *ctx, uint32_t module, uint64_t pc, const scp_frame_info **chain) {
  return scp_sym_chain(((sol_state *)ctx)->sym, pc, chain);
}

static size_t pc_text(void *ctx, uint32_t module, uint64_t pc, char *buf, size_t size) {
  const sol_state *st = ctx;
  if (pc < st->text_addr || (pc - st->text_addr) % 8 || (pc - st->text_addr) / 8 > UINT32_MAX) {
    if (size) buf[0] = 0;
    return 0;
  }
  uint32_t at = (uint32_t)((pc - st->text_addr) / 8);
  /* the program's own copy: disassembled once per session, not per profile */
  const char *t = scp_sol_prog_insn_text(st->entry, at);
  size_t n = t ? strlen(t) : 0;
  if (!t || n >= size) return scp_sbpf_prog_disasm(st->prog, at, buf, size);
  memcpy(buf, t, n + 1);
  return n;
}

/* the program's kept text at pc and its number there (scp_resolver.memo) */
static const char *pc_text_key(void *ctx, uint32_t module, uint64_t pc, uint32_t *key) {
  const sol_state *st = ctx;
  if (pc < st->text_addr || (pc - st->text_addr) % 8 || (pc - st->text_addr) / 8 > UINT32_MAX) return NULL;
  return scp_sol_prog_insn_key(st->entry, (uint32_t)((pc - st->text_addr) / 8), key);
}

/* without DWARF the mapper's chains are one frame, no file, line 0 */
static bool no_lines(void *ctx, uint32_t module) {
  return !scp_sym_has_dwarf(((sol_state *)ctx)->sym);
}

/* ---- set-up ---- */

/* the program from the cache: loaded, relocated and verified the first
 * time the session runs these bytes */
static int load(sol_state *st, scp_error *err) {
  const scp_sol_run_opts *o = st->o;
  int rc = scp_sol_progs_get(o->cache, o->features, o->elf, o->elf_len, o->path ? o->path : o->name, &st->entry, err);
  if (rc) return rc;
  st->loader = scp_sol_progs_loader(o->cache, o->features);
  st->prog = scp_sol_prog_sbpf(st->entry);
  st->text_addr = scp_sbpf_prog_text_addr(st->prog);
  return SCP_OK;
}

static int check_opts(const scp_sol_run_opts *o, scp_error *err) {
  if (o->loader < SCP_SOL_LOADER_V1 || o->loader > SCP_SOL_LOADER_V3)
    return scp_fail(err, SCP_ERR_ARG, "loader %d: want v1, v2 or v3", (int)o->loader);
  uint32_t heap = o->heap_size ? o->heap_size : SCP_SBPF_HEAP_DEFAULT;
  if (heap % 1024 || heap < SCP_SBPF_HEAP_DEFAULT || heap > SCP_SBPF_HEAP_MAX)
    return scp_fail(err, SCP_ERR_ARG, "heap size %u: want a multiple of 1024 from 32768 to 262144", heap);
  for (size_t i = 0; i < o->nix; i++)
    if (o->ix[i].index >= o->naccts)
      return scp_fail(err, SCP_ERR_ARG, "instruction account %zu: no account %u", i, o->ix[i].index);
  return SCP_OK;
}

/* ---- the run ---- */

typedef struct vm_outcome {
  int rc;                 /* of scp_sbpf_vm_run */
  uint64_t r0;
  scp_error err;
  scp_sbpf_trap trap;
} vm_outcome;

static int run_vm(sol_state *st, const scp_sol_input *in, vm_outcome *out, scp_error *err) {
  const scp_sol_run_opts *o = st->o;
  scp_sbpf_region region = {.vaddr = SCP_SBPF_MM_INPUT, .host = in->buf, .len = in->len, .writable = true};
  scp_sbpf_hooks hooks = {.call = NULL, .ret = NULL, .syscall_enter = on_syscall_enter,
                          .syscall_exit = on_syscall_exit, .trap = NULL};
  scp_sbpf_vm_config cfg = {.meter = &st->meter, .heap_size = o->heap_size, .input = &region, .ninput = 1,
                            .hooks = st->run ? &hooks : NULL, .hooks_ctx = st,
                            .tree = st->run ? scp_run_tree(st->run) : NULL, .node = st->prog_node,
                            .pool = scp_sol_progs_pool(o->cache)};
  scp_sbpf_vm *vm = NULL;
  int rc = scp_sbpf_vm_create(st->prog, &cfg, &vm, err);
  if (rc) return rc;
  scp_sbpf_vm_set_reg(vm, 1, SCP_SBPF_MM_INPUT);
  scp_sbpf_vm_set_reg(vm, 2, SCP_SBPF_MM_INPUT + in->ixdata_off);
  out->rc = scp_sbpf_vm_run(vm, &out->r0, &out->err);
  out->trap = scp_sbpf_vm_trap(vm);
  scp_sbpf_vm_destroy(vm);
  if (out->rc == SCP_ERR_NOMEM) return scp_fail(err, SCP_ERR_NOMEM, "out of memory while profiling");
  /* the guest work since the last syscall is in the tree (settled) */
  if (st->run) scp_run_skip(st->run);
  return SCP_OK;
}

static void put_b64(scp_buf *b, const uint8_t *p, size_t n) {
  static const char T[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
    char q[4] = {T[v >> 18 & 63], T[v >> 12 & 63], i + 1 < n ? T[v >> 6 & 63] : '=', i + 2 < n ? T[v & 63] : '='};
    scp_buf_put(b, q, 4);
  }
}

/* After the VM: the consumed line, return data, the error, the depletion,
 * the write-back. */
static int finish(sol_state *st, scp_sol_input *in, const vm_outcome *v, uint64_t prev,
                  uint64_t vm_used, scp_sol_result *res, scp_error *err) {
  const scp_sol_run_opts *o = st->o;
  sol_ctx *c = &st->c;
  char why[600] = "";
  sol_log(c, "Program %s consumed %llu of %llu compute units", st->key_text,
          (unsigned long long)vm_used, (unsigned long long)prev);
  if (c->return_len) {
    scp_buf b = {0};
    put_b64(&b, c->return_data, c->return_len);
    scp_buf_putc(&b, 0);
    sol_log(c, "Program return: %s %s", st->key_text, b.oom ? "" : b.data);
    scp_buf_free(&b);
  }
  if (v->rc == SCP_OK && v->r0 != 0) {
    res->ierr = scp_sol_ierr_from_u64(v->r0);
    scp_sol_ierr_text(res->ierr, why, sizeof why);
  } else if (v->rc != SCP_OK) {
    snprintf(why, sizeof why, "%s", v->err.msg);
    if (v->trap == SCP_SBPF_TRAP_SYSCALL) {
      res->ierr = c->ierr.kind ? c->ierr : (scp_sol_ierr){.kind = SCP_SOL_IERR_PROGRAM_FAILED_TO_COMPLETE, .custom = 0};
    } else {
      res->ierr.kind = SCP_SOL_IERR_PROGRAM_FAILED_TO_COMPLETE;
      if (scp_sol_feature_on(o->features, SCP_SOL_F_DEPLETE_ON_FAULT)) {
        st->meter = 0;
        if (st->run) scp_run_book(st->run, st->prog_node);
      }
    }
  } else {
    scp_sol_ix ix = {.accts = o->ix, .naccts = o->nix, .data = o->data, .len = o->len, .program_id = o->program_id,
                     .loader = o->loader};
    int rc = scp_sol_input_deserialize(in, o->accts, &ix, &res->ierr);
    if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory");
    if (rc) scp_sol_ierr_text(res->ierr, why, sizeof why);
  }
  if (res->ierr.kind) {
    res->out_of_cu = v->trap == SCP_SBPF_TRAP_EXCEEDED_MAX_INSTRUCTIONS || c->callee_out_of_cu ||
                     res->ierr.kind == SCP_SOL_IERR_COMPUTATIONAL_BUDGET_EXCEEDED;
    sol_log(c, "Program %s failed: %s", st->key_text, why);
    return SCP_OK;
  }
  sol_log(c, "Program %s success", st->key_text);
  scp_sol_ix ix = {.accts = o->ix, .naccts = o->nix, .data = o->data, .len = o->len, .program_id = o->program_id,
                   .loader = o->loader};
  if (!scp_sol_input_balanced(st->saved, o->accts, &ix))
    res->ierr.kind = SCP_SOL_IERR_UNBALANCED_INSTRUCTION;
  return SCP_OK;
}

static int add_meta(void *ctx, scp_profile *p, scp_error *err) {
  sol_state *st = ctx;
  static const char *const LOADER[] = {"", "v1 (deprecated, unaligned input)", "v2", "v3 (upgradeable)"};
  char version[8];
  snprintf(version, sizeof version, "v%d", (int)scp_sbpf_prog_version(st->prog));
  int rc = scp_prof_meta(p, "program", st->pf.owner);
  if (!rc) rc = scp_prof_meta(p, "program id", st->key_text);
  if (!rc) rc = scp_prof_meta(p, "sbpf", version);
  if (!rc) rc = scp_prof_meta(p, "loader", LOADER[st->o->loader <= 3 ? st->o->loader : 0]);
  for (size_t i = 0; !rc && i < st->c.nlogs; i++) rc = scp_prof_meta(p, "log", st->c.logs[i]);
  if (!rc && !scp_sym_has_dwarf(st->sym)) {
    char note[300];
    snprintf(note, sizeof note, "program:%s: " SCP_SYM_NO_DWARF_NOTE, st->o->name ? st->o->name : "");
    rc = scp_prof_meta(p, "source lines", note);
  }
  if (rc) scp_fail(err, rc, "out of memory");
  return rc;
}

static int build_profile(sol_state *st, scp_sol_result *res, scp_error *err) {
  st->sym = scp_sol_prog_sym(st->entry);
  scp_resolver resolver = {.ctx = st, .node_frame = node_frame, .pc_chain = pc_chain, .pc_text = pc_text,
                           .pc_text_key = pc_text_key, .memo = scp_sol_prog_memo(st->entry),
                           .no_lines = no_lines, .seed = st->seed};
  char status[700] = "";
  if (res->ierr.kind) {
    char name[96];
    scp_sol_ierr_name(res->ierr, name, sizeof name);
    snprintf(status, sizeof status, "instruction failed: %s", name);
  }
  int ended = !res->ierr.kind ? SCP_OK : res->out_of_cu ? SCP_ERR_BUDGET : SCP_ERR_TRAP;
  scp_run_report rep = {.nmetrics = 1, .title = st->pf.name, .status = ended, .status_msg = status,
                        .resolver = &resolver,
                        .add_meta = add_meta, .ctx = st};
  int rc = scp_run_build(st->run, &rep, &res->profile, err);
  /* this program's frames are its own; the callees' come with theirs */
  if (!rc && (rc = sol_txprof_own(res->profile, &st->pf))) rc = scp_fail(err, rc, "out of memory");
  if (!rc) res->profile->chain = SCP_CHAIN_SOLANA;
  /* the callees' profiles go where their invokes were */
  if (!rc) rc = sol_cpi_graft(st->c.cpi, res->profile, err);
  /* a top-level instruction's table (a transaction builds its own) */
  if (!rc && !st->o->depth && (rc = sol_txprof_programs(res->profile))) rc = scp_fail(err, rc, "out of memory");
  return rc;
}

static int run_instruction(sol_state *st, scp_sol_result *res, scp_error *err) {
  const scp_sol_run_opts *o = st->o;
  sol_ctx *c = &st->c;
  scp_sol_input in = {0};
  vm_outcome v = {0};
  int rc;
  sol_log(c, "Program %s invoke [%u]", st->key_text, c->stack_height);
  scp_sol_ix ix = {.accts = o->ix, .naccts = o->nix, .data = o->data, .len = o->len, .program_id = o->program_id,
                   .loader = o->loader};
  if ((rc = scp_sol_input_serialize(o->accts, o->naccts, &ix, &in, &res->ierr, err))) {
    if (rc != SCP_ERR_LIMIT) return rc;
    char why[128];
    scp_sol_ierr_text(res->ierr, why, sizeof why);
    sol_log(c, "Program %s failed: %s", st->key_text, why);
    return SCP_OK;
  }
  uint64_t prev = st->meter;
  /* calculate_heap_cost: 8 CU per 32 KiB page beyond the first */
  uint32_t heap = o->heap_size ? o->heap_size : SCP_SBPF_HEAP_DEFAULT;
  uint64_t heap_cost = ((heap + 32767u) / 32768u - 1) * 8u;
  st->meter = st->meter > heap_cost ? st->meter - heap_cost : 0;
  if (st->run) scp_run_book(st->run, st->prog_node);
  uint64_t before_vm = st->meter;
  if ((rc = run_vm(st, &in, &v, err))) goto done;
  rc = finish(st, &in, &v, prev, before_vm - st->meter, res, err);
done:
  scp_sol_input_free(&in);
  return rc;
}

static int run(const scp_sol_run_opts *o, const scp_strtab *seed, scp_sol_result *res, scp_error *err) {
  memset(res, 0, sizeof *res);
  int rc = check_opts(o, err);
  if (rc) return rc;
  sol_state *st = calloc(1, sizeof *st);
  scp_sol_account *saved = calloc(o->naccts ? o->naccts : 1, sizeof *saved);
  if (!st || !saved) {
    free(st);
    free(saved);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  size_t nsaved = 0;
  st->o = o;
  st->seed = seed;
  st->limit = st->meter = o->cu_limit ? o->cu_limit : SCP_SOL_DEFAULT_CU_LIMIT;
  res->cu_limit = st->limit;
  memcpy(st->c.program_id, o->program_id, 32);
  st->c.features = o->features;
  st->c.check_aligned = o->loader != SCP_SOL_LOADER_V1;
  st->c.stack_height = o->depth ? o->depth : 1;
  st->c.heap_size = o->heap_size ? o->heap_size : SCP_SBPF_HEAP_DEFAULT;
  if (o->sysvars) {
    st->c.sysvars = o->sysvars;
  } else if (scp_sol_sysvars_init(&st->own_sysvars)) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto fail;
  } else {
    st->c.sysvars = &st->own_sysvars;
  }
  scp_sol_key_str(o->program_id, st->key_text);
  sol_progframe_of(&st->pf, o->program_id, o->name, o->data, o->len, o->idls);
  for (; nsaved < o->naccts; nsaved++)
    if ((rc = scp_sol_account_copy(&saved[nsaved], &o->accts[nsaved]))) {
      scp_fail(err, rc, "out of memory");
      goto fail;
    }
  st->saved = saved;
  if ((rc = load(st, err))) goto fail;
  if ((rc = sol_cpi_new(o, &st->c, err))) goto fail;
  snprintf(res->sbpf_version, sizeof res->sbpf_version, "v%d", (int)scp_sbpf_prog_version(st->prog));
  if (o->profile) {
    const scp_metric m = {.name = "CU", .unit = "compute units", .limit = st->limit};
    scp_run_opts ro = {.nmetrics = 1, .metrics = &m, .meter = read_meter, .meter_ctx = st, .totals = NULL};
    /* the root is the program: its frames hang under it */
    if ((rc = scp_run_create(&ro, &st->run, err))) goto fail;
    scp_run_set_shape(st->run, &o->shape);
    st->prog_node = 0;
  }
  if ((rc = run_instruction(st, res, err))) goto fail;
  res->cu = st->limit - st->meter;
  if (st->run && (rc = build_profile(st, res, err))) goto fail;
  if (st->c.log_oom) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto fail;
  }
  /* a failed instruction commits nothing */
  if (res->ierr.kind)
    for (size_t i = 0; i < o->naccts; i++) {
      scp_sol_account_free(&o->accts[i]);
      o->accts[i] = saved[i];
      saved[i].data = NULL;
    }
  memcpy(res->return_program, st->c.return_program, 32);
  memcpy(res->return_data, st->c.return_data, st->c.return_len);
  res->return_len = st->c.return_len;
  res->logs = st->c.logs;
  res->nlogs = st->c.nlogs;
  st->c.logs = NULL;
  st->c.nlogs = 0;
  if (st->c.inner.oom) {
    rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    goto fail;
  }
  res->inner = st->c.inner.v;
  res->ninner = st->c.inner.n;
  st->c.inner = (sol_logs){0};
fail:
  for (size_t i = 0; i < nsaved; i++) scp_sol_account_free(&saved[i]);
  free(saved);
  if (rc) scp_sol_result_free(res);
  sol_cpi_free(st->c.cpi);
  sol_ctx_free(&st->c);
  scp_run_destroy(st->run);
  scp_sol_sysvars_free(&st->own_sysvars);
  free(st);
  return rc;
}

int scp_sol_run(const scp_sol_run_opts *o, scp_sol_result *res, scp_error *err) {
  return scp_sol_run_seeded(o, NULL, res, err);
}

int scp_sol_run_seeded(const scp_sol_run_opts *o, const scp_strtab *seed, scp_sol_result *res,
                       scp_error *err) {
  if (o->cache) return run(o, seed, res, err);
  /* a cache for this instruction alone, which its CPIs share */
  scp_sol_run_opts with = *o;
  memset(res, 0, sizeof *res);
  int rc = scp_sol_progs_new(&with.cache, err);
  if (!rc) rc = run(&with, seed, res, err);
  scp_sol_progs_free(with.cache);
  return rc;
}

void scp_sol_result_free(scp_sol_result *res) {
  for (size_t i = 0; i < res->nlogs; i++) free(res->logs[i]);
  free(res->logs);
  for (size_t i = 0; i < res->ninner; i++) free(res->inner[i]);
  free(res->inner);
  if (res->profile) scp_profile_destroy(res->profile);
  memset(res, 0, sizeof *res);
}

int scp_sol_list(const uint8_t *elf, size_t len, const char *name, struct scp_sol_progs *cache, char **out,
                 scp_error *err) {
  scp_sol_run_opts o = {0};
  sol_state st = {0};
  scp_buf b = {0};
  o.elf = elf;
  o.elf_len = len;
  o.name = name;
  o.path = name;
  st.o = &o;
  *out = NULL;
  int rc = cache ? SCP_OK : scp_sol_progs_new(&o.cache, err);
  if (cache) o.cache = cache;
  if (!rc) rc = load(&st, err);
  if (rc) goto done;
  scp_buf_printf(&b, "sbpf v%d\n", (int)scp_sbpf_prog_version(st.prog));
  scp_buf_printf(&b, "e_machine %u\n", scp_sbpf_prog_machine(st.prog));
  scp_buf_printf(&b, "instructions %u\n", scp_sbpf_prog_ninsns(st.prog));
  uint32_t entry = scp_sbpf_prog_entry(st.prog);
  st.sym = scp_sol_prog_sym(st.entry);
  for (uint32_t i = 0; i < scp_sbpf_prog_nfuncs(st.prog); i++) {
    const scp_sbpf_func *f = scp_sbpf_prog_func(st.prog, i);
    uint64_t addr = st.text_addr + 8ull * f->pc;
    scp_frame_info fi = {0};
    const char *fname = f->name && f->name[0] ? f->name : NULL;
    /* the mapper's name (DWARF, demangled) when it has one for this address */
    if (st.sym && scp_sym_function_at(st.sym, addr, &fi) == SCP_OK && fi.name && fi.name[0] &&
        fi.source != SCP_SRC_RAW)
      fname = fi.name;
    char raw[32];
    snprintf(raw, sizeof raw, "fn_0x%llx", (unsigned long long)addr);
    scp_buf_printf(&b, "function 0x%llx %s%s\n", (unsigned long long)addr, fname ? fname : raw,
                   f->pc == entry ? " (entrypoint)" : "");
  }
  for (uint32_t i = 0; i < scp_sbpf_prog_nsyscalls(st.prog); i++) {
    const scp_sbpf_syscall_use *u = scp_sbpf_prog_syscall(st.prog, i);
    scp_buf_printf(&b, "syscall 0x%08x %s\n", u->key, u->name ? u->name : "?");
  }
  scp_buf_putc(&b, 0);
  if (b.oom) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  else *out = b.data, b.data = NULL;
done:
  scp_buf_free(&b);
  if (!cache) scp_sol_progs_free(o.cache);
  return rc;
}
