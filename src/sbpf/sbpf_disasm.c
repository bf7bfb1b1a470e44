/*
 * sbpf_disasm.c — one instruction of a loaded program as text, for
 * annotate's listing of code without source lines.  It reads the decoded
 * form, so the mnemonic is what the instruction does in the program's sBPF
 * version (the same byte means different things in v0 and v2), named after
 * its interpreter body in sbpf_ops.def: "add64i r1, 5", "ldxdw r2,
 * [r1+0x8]", "jnei r3, 0, 0x2c8", "call 0x2c8", "syscall sol_log_".
 */
#include "sbpf/sbpf_private.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const body_names[OP_COUNT] = {
#define BODY(name, flow) #name,
#include "sbpf/sbpf_ops.def"
#undef BODY
};

/* The operand kind of a body name: the letter before an optional "_X"
 * suffix ("ADD32I_S": I, an immediate; "MOV32R_S": R, a register). */
static char operand_kind(const char *name) {
  const char *us = strchr(name, '_');
  size_t n = us ? (size_t)(us - name) : strlen(name);
  return n ? name[n - 1] : 0;
}

size_t scp_sbpf_prog_disasm(const scp_sbpf_prog *p, uint32_t pc, char *buf, size_t size) {
  if (!size) return 0;
  buf[0] = 0;
  if (!p || pc >= p->ninsns) return 0;
  const sbpf_insn *d = &p->code[pc];
  const char *body = d->op < OP_COUNT ? body_names[d->op] : "?";
  char mn[24];
  size_t i = 0;
  for (; body[i] && i + 1 < sizeof mn; i++) mn[i] = (char)tolower((unsigned char)body[i]);
  mn[i] = 0;
  unsigned long long target = (unsigned long long)(p->text_addr + 8ull * (uint32_t)d->aux);
  long long imm = (long long)d->imm;
  int off = d->aux;
  int n;
  switch (d->op) {
  case OP_LDDW: n = snprintf(buf, size, "%s r%u, 0x%llx", mn, d->dst, (unsigned long long)d->imm); break;
  case OP_LDXB: case OP_LDXH: case OP_LDXW: case OP_LDXDW:
    n = snprintf(buf, size, "%s r%u, [r%u%+d]", mn, d->dst, d->src, off); break;
  case OP_STB: case OP_STH: case OP_STW: case OP_STDW:
    n = snprintf(buf, size, "%s [r%u%+d], %lld", mn, d->dst, off, imm); break;
  case OP_STXB: case OP_STXH: case OP_STXW: case OP_STXDW:
    n = snprintf(buf, size, "%s [r%u%+d], r%u", mn, d->dst, off, d->src); break;
  case OP_JA: n = snprintf(buf, size, "ja 0x%llx", target); break;
  case OP_CALL: n = snprintf(buf, size, "call 0x%llx", target); break;
  case OP_SYSCALL: {
    const char *s = (size_t)d->aux < p->loader->nsys ? p->loader->sys[d->aux].name : "?";
    n = snprintf(buf, size, "syscall %s", s);
    break;
  }
  case OP_CALLX: n = snprintf(buf, size, "callx r%u", d->src); break;
  case OP_EXIT: case OP_BADCALL: case OP_UNSUPPORTED: case OP_OVERRUN: case OP_METER_OUT:
    n = snprintf(buf, size, "%s", mn); break;
  case OP_NEG32: case OP_NEG64: n = snprintf(buf, size, "%s r%u", mn, d->dst); break;
  case OP_LE: case OP_BE: n = snprintf(buf, size, "%s%lld r%u", mn, imm, d->dst); break;
  default: {
    bool jump = mn[0] == 'j';
    char k = operand_kind(body);
    if (k == 'R' && jump) n = snprintf(buf, size, "%s r%u, r%u, 0x%llx", mn, d->dst, d->src, target);
    else if (jump) n = snprintf(buf, size, "%s r%u, %lld, 0x%llx", mn, d->dst, imm, target);
    else if (k == 'R') n = snprintf(buf, size, "%s r%u, r%u", mn, d->dst, d->src);
    else n = snprintf(buf, size, "%s r%u, %lld", mn, d->dst, imm);
  }
  }
  return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}
