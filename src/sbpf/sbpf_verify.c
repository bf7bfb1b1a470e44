/*
 * sbpf_verify.c — solana-sbpf's RequisiteVerifier (and, for v3 under the
 * deployment options, its LocalVerifier), then the decoder that turns verified text into the
 * interpreter's form and finds the basic blocks the meter charges.
 *
 * Both read sbpf_ops.def: an opcode byte means a body in some versions and
 * carries one verifier rule.  Blocks end at every jump, call, exit and
 * trap; leaders are pc 0, the entrypoint, every function the registry
 * knows, every jump target and every pc after a block end.  cnt[pc] is the
 * number of instructions from pc up to and including the next one that is
 * not straight-line (an lddw is one): what the interpreter charges when
 * control arrives at pc.  Falling through into a leader charges nothing;
 * the profile's expansion (scp_sbpf_vm_settle) carries the entries of a
 * leader on into the blocks it falls into.
 */
#include "sbpf/sbpf_private.h"

#include <stdlib.h>
#include <string.h>

typedef struct enc {
  uint8_t op, check;
  bool valid;
} enc;

static const struct { uint8_t byte, versions, op, check; } encodings[] = {
#define ENC(b, vs, body, chk) { .byte = b, .versions = vs, .op = OP_##body, .check = chk },
#include "sbpf/sbpf_ops.def"
};

static const uint8_t flows[OP_COUNT] = {
#define BODY(name, flow) flow,
#include "sbpf/sbpf_ops.def"
};

static void enc_table(scp_sbpf_version v, enc t[256]) {
  memset(t, 0, 256 * sizeof *t);
  for (size_t i = 0; i < SCP_ARRAY_LEN(encodings); i++)
    if (encodings[i].versions & (1u << v))
      t[encodings[i].byte] = (enc){ .op = encodings[i].op, .check = encodings[i].check,
                                     .valid = true };
}

/* "Verifier error: <VerifierError text> (<variant>)" */
#define VFAIL(err, variant, ...) sbpf_fail(err, SCP_ERR_INVALID, "Verifier", variant, __VA_ARGS__)

typedef struct raw {
  uint8_t opc, dst, src;
  int16_t off;
  int32_t imm;
} raw;

static raw get(const scp_sbpf_prog *p, uint64_t i) {
  const uint8_t *b = p->text + 8 * i;
  raw r;
  r.opc = b[0];
  r.dst = b[1] & 15;
  r.src = b[1] >> 4;
  r.off = (int16_t)scp_le16(b + 2);
  r.imm = (int32_t)scp_le32(b + 4);
  return r;
}

static bool manual_bump(scp_sbpf_version v) { return v == SCP_SBPF_V1 || v == SCP_SBPF_V2; }

static int check_one(const scp_sbpf_prog *p, const enc *t, uint64_t *ip, scp_error *err) {
  uint64_t i = *ip, n = p->text_len_bytes / 8;
  unsigned long long ui = (unsigned long long)i;
  raw r = get(p, i);
  const enc *e = &t[r.opc];
  bool store = false;
  if (!e->valid) return VFAIL(err, "UnknownOpCode", "unknown eBPF opcode 0x%x (insn #%llu)", r.opc, ui);
  switch ((sbpf_check)e->check) {
  case CHK_NONE: break;
  case CHK_STORE: store = true; break;
  case CHK_DIVZ:
    if (r.imm == 0) return VFAIL(err, "DivisionByZero", "division by 0 (insn #%llu)", ui);
    break;
  case CHK_SH32: case CHK_SH64: {
    unsigned bits = e->check == CHK_SH32 ? 32 : 64;
    if (r.imm < 0 || (uint64_t)r.imm >= bits)
      return VFAIL(err, "ShiftWithOverflow", "Shift with overflow of %llu-bit value by %u (insn #%llu)",
                   (unsigned long long)(uint64_t)(int64_t)r.imm, bits, ui);
    break;
  }
  case CHK_END:
    if (r.imm != 16 && r.imm != 32 && r.imm != 64)
      return VFAIL(err, "UnsupportedLEBEArgument", "unsupported argument for LE/BE (insn #%llu)", ui);
    break;
  case CHK_LDDW:
    if ((i + 1) * 8 >= p->text_len_bytes)
      return VFAIL(err, "LDDWCannotBeLast", "LD_DW instruction cannot be last in program");
    if (get(p, i + 1).opc != 0)
      return VFAIL(err, "IncompleteLDDW", "incomplete LD_DW instruction (insn #%llu)", ui);
    *ip = i + 1;
    break;
  case CHK_JMP: {
    int64_t d = (int64_t)i + 1 + r.off;
    if (d < 0 || (uint64_t)d >= n)
      return VFAIL(err, "JumpOutOfCode", "jump out of code to #%llu (insn #%llu)",
                   (unsigned long long)(uint64_t)d, ui);
    if (get(p, (uint64_t)d).opc == 0)
      return VFAIL(err, "JumpToMiddleOfLDDW", "jump to middle of LD_DW at #%llu (insn #%llu)",
                   (unsigned long long)d, ui);
    break;
  }
  case CHK_CALLX: {
    int64_t reg = p->version == SCP_SBPF_V2 ? r.src : p->version >= SCP_SBPF_V3 ? r.dst : r.imm;
    if (reg < 0 || reg >= 10)
      return VFAIL(err, "InvalidRegister", "Invalid register specified at instruction %llu", ui);
    break;
  }
  }
  if (r.opc == 0x07 && r.dst == 10 && manual_bump(p->version) && (r.imm & 63))
    return VFAIL(err, "UnalignedImmediate", "Unaligned immediate (insn #%llu)", ui);
  if (r.src > 10) return VFAIL(err, "InvalidSourceRegister", "invalid source register (insn #%llu)", ui);
  if (r.dst == 10 && !store && !(manual_bump(p->version) && r.opc == 0x07))
    return VFAIL(err, "CannotWriteR10", "cannot write into register r10 (insn #%llu)", ui);
  if (r.dst > 10)
    return VFAIL(err, "InvalidDestinationRegister", "invalid destination register (insn #%llu)", ui);
  return SCP_OK;
}

int sbpf_verify(const scp_sbpf_prog *p, scp_error *err) {
  enc t[256];
  enc_table(p->version, t);
  if (p->text_len_bytes % 8)
    return VFAIL(err, "ProgramLengthNotMultiple", "program length must be a multiple of 8 octets");
  if (p->text_len_bytes == 0)
    return VFAIL(err, "NoProgram", "no program set, call prog_set() to load one");
  uint64_t n = p->text_len_bytes / 8, i = 0;
  for (; i < n; i++) {
    int rc = check_one(p, t, &i, err);
    if (rc) return rc;
  }
  /* LocalVerifier (v3 syscall keys, call -1) is a deployment check: what
   * agave executes went through RequisiteVerifier alone, and an unknown
   * key is then UnsupportedInstruction when it runs. */
  if (p->version < SCP_SBPF_V3 || !p->loader->opts.reject_broken_elfs) return SCP_OK;
  for (i = 0; i < n; i++) {
    raw r = get(p, i);
    if (r.opc == 0x18) i++;
    else if (r.opc == 0x85 && r.src == 0 && !sbpf_loader_find(p->loader, (uint32_t)r.imm))
      return VFAIL(err, "InvalidSyscall", "Invalid syscall code %u", (uint32_t)r.imm);
    else if (r.opc == 0x85 && r.src == 1 && r.imm == -1)
      return VFAIL(err, "InvalidFunction", "Invalid function at instruction %llu", (unsigned long long)i);
  }
  return SCP_OK;
}

/* ---- decoding ------------------------------------------------------------ */

static int add_use(scp_sbpf_prog *p, uint32_t key) {
  for (size_t i = 0; i < p->nuses; i++)
    if (p->uses[i].key == key) return SCP_OK;
  if (!scp_grow(&p->uses, &p->capuses, p->nuses + 1, sizeof *p->uses)) return SCP_ERR_NOMEM;
  p->uses[p->nuses++] =
      (scp_sbpf_syscall_use){ .key = key, .name = scp_sbpf_loader_syscall_name(p->loader, key) };
  return SCP_OK;
}

static int cmp_func(const void *a, const void *b) {
  uint32_t x = ((const scp_sbpf_func *)a)->pc, y = ((const scp_sbpf_func *)b)->pc;
  return x < y ? -1 : x > y;
}

static int cmp_use(const void *a, const void *b) {
  uint32_t x = ((const scp_sbpf_syscall_use *)a)->key, y = ((const scp_sbpf_syscall_use *)b)->key;
  return x < y ? -1 : x > y;
}

/* One slot into the internal form; returns an error only on OOM. */
static int decode_one(scp_sbpf_prog *p, const enc *t, uint32_t i, sbpf_insn *d) {
  raw r = get(p, i);
  const enc *e = &t[r.opc];
  *d = (sbpf_insn){ .op = e->valid ? e->op : OP_UNSUPPORTED, .dst = r.dst, .src = r.src,
                    .xop = 0, .aux = r.off, .imm = r.imm };
  switch (d->op) {
  case OP_LDDW:
    d->imm = (int64_t)((uint64_t)(uint32_t)r.imm | (uint64_t)(uint32_t)get(p, i + 1).imm << 32);
    break;
  case OP_CALLX:
    d->src = (uint8_t)(p->version == SCP_SBPF_V2 ? r.src : p->version >= SCP_SBPF_V3 ? r.dst : r.imm);
    break;
  case OP_CALL: {
    const sbpf_syscall *s = NULL;
    if (p->version < SCP_SBPF_V3 || r.src == 0) s = sbpf_loader_find(p->loader, (uint32_t)r.imm);
    if (s) {
      d->op = OP_SYSCALL;
      d->aux = (int32_t)sbpf_loader_index(p->loader, s);
      return add_use(p, s->key);
    }
    if (p->version >= SCP_SBPF_V3) {
      int64_t target = (int64_t)i + 1 + r.imm;
      if (r.src == 1 && target >= 0 && target < p->ninsns) d->aux = (int32_t)target;
      else {
        d->op = OP_BADCALL;
        if (r.src == 0) return add_use(p, (uint32_t)r.imm);
      }
    } else {
      const sbpf_key *k = sbpf_lookup_key(p, (uint32_t)r.imm);
      if (k) d->aux = (int32_t)k->pc;
      else {
        d->op = OP_BADCALL;
        if (r.imm != -1) return add_use(p, (uint32_t)r.imm);
      }
    }
    break;
  }
  default:
    if (flows[d->op] == JUMP || flows[d->op] == GOTO) d->aux = (int32_t)(i + 1 + r.off);
    break;
  }
  return SCP_OK;
}

static uint32_t next_pc(const scp_sbpf_prog *p, uint32_t pc) {
  return pc + (p->code[pc].op == OP_LDDW ? 2 : 1);
}

static int find_blocks(scp_sbpf_prog *p, uint8_t *leader) {
  uint32_t n = p->ninsns;
  leader[0] = leader[n] = 1;
  leader[p->entry] = 1;
  for (size_t f = 0; f < p->nfuncs; f++) leader[p->funcs[f].pc] = 1;
  for (uint32_t pc = 0; pc < n; pc = next_pc(p, pc)) {
    const sbpf_insn *d = &p->code[pc];
    uint8_t fl = flows[d->op];
    if (fl == JUMP || fl == GOTO) leader[d->aux] = 1;
    if (fl != PLAIN) leader[next_pc(p, pc)] = 1;
  }
  for (uint32_t pc = 0; pc < n; pc = next_pc(p, pc))
    if (p->code[pc].op == OP_LDDW) leader[pc + 1] = 1;  /* its tail: only callx reaches it */
  /* cnt, backwards.  A run goes on through leaders up to the next
   * instruction that is not PLAIN (the overrun slot is one), so falling
   * into a jump target needs no charge of its own. */
  p->cnt[n] = 1;
  for (uint32_t pc = n; pc-- > 0;) {
    uint32_t nx = next_pc(p, pc);
    p->cnt[pc] = (flows[p->code[pc].op] != PLAIN || nx > n) ? 1 : 1 + p->cnt[nx];
  }
  uint32_t nb = 0;
  for (uint32_t pc = 0; pc <= n; pc++) nb += leader[pc];
  p->block_pc = malloc((nb + 1) * sizeof *p->block_pc);
  p->func_block = malloc((p->nfuncs + 1) * sizeof *p->func_block);
  if (!p->block_pc || !p->func_block) return SCP_ERR_NOMEM;
  nb = 0;
  for (uint32_t pc = 0; pc <= n; pc++) {
    p->blk[pc] = leader[pc] ? nb : UINT32_MAX;
    if (leader[pc]) p->block_pc[nb++] = pc;
  }
  p->nblocks = nb;
  for (size_t f = 0; f < p->nfuncs; f++) p->func_block[f] = p->blk[p->funcs[f].pc];
  p->func_block[p->nfuncs] = p->blk[n];   /* the overrun block belongs to no function */
  return SCP_OK;
}

int sbpf_decode(scp_sbpf_prog *p, scp_error *err) {
  enc t[256];
  enc_table(p->version, t);
  uint32_t n = p->ninsns;
  uint8_t *leader = NULL, *tail = NULL;
  p->code = calloc(n + 2, sizeof *p->code);
  p->cnt = calloc(n + 2, sizeof *p->cnt);
  p->blk = calloc(n + 2, sizeof *p->blk);
  leader = calloc(n + 3, 1);
  tail = calloc(n + 3, 1);
  if (!p->code || !p->cnt || !p->blk || !leader || !tail) goto oom;
  for (uint32_t pc = 0; pc < n; pc++) {
    if (decode_one(p, t, pc, &p->code[pc])) goto oom;
    if (p->code[pc].op == OP_LDDW) {
      p->code[pc + 1] = (sbpf_insn){ .op = OP_UNSUPPORTED };
      tail[++pc] = 1;
    }
  }
  p->code[n] = (sbpf_insn){ .op = OP_OVERRUN };
  /* Functions: the registry's pcs (v0-v2) or the pc-relative call targets
   * (v3), and pc 0 so that every pc lies in a function. */
  if (p->version < SCP_SBPF_V3) {
    for (size_t k = 0; k < p->nkeys; k++)
      if (p->keys[k].pc < n && sbpf_add_func(p, p->keys[k].pc, "", 0)) goto oom;
  } else {
    for (uint32_t pc = 0; pc < n; pc++)
      if (p->code[pc].op == OP_CALL && sbpf_add_func(p, (uint32_t)p->code[pc].aux, "", 0)) goto oom;
  }
  if (sbpf_add_func(p, 0, "", 0)) goto oom;
  /* A symbol may point at an lddw tail; such "functions" are dropped. */
  size_t w = 0;
  for (size_t f = 0; f < p->nfuncs; f++) {
    uint32_t pc = p->funcs[f].pc;
    if (pc >= n || tail[pc]) {
      free((char *)p->funcs[f].name);
      continue;
    }
    p->funcs[w++] = p->funcs[f];
  }
  p->nfuncs = w;
  if (p->nfuncs) qsort(p->funcs, p->nfuncs, sizeof *p->funcs, cmp_func);
  if (p->nuses) qsort(p->uses, p->nuses, sizeof *p->uses, cmp_use);
  uint32_t entry_key = scp_sbpf_hash("entrypoint", 10);
  for (size_t f = 0; f < p->nfuncs; f++) {
    uint32_t pc = p->funcs[f].pc;
    const sbpf_key *k = p->version < SCP_SBPF_V3 ? sbpf_lookup_key(p, sbpf_hash_pc(pc)) : NULL;
    p->funcs[f].key = k && k->pc == pc ? k->key
                      : (pc == p->entry && p->version < SCP_SBPF_V3) ? entry_key : pc;
  }
  if (find_blocks(p, leader)) goto oom;
  free(leader);
  free(tail);
  return SCP_OK;
oom:
  free(leader);
  free(tail);
  return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
}
