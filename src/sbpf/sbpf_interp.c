/*
 * sbpf_interp.c — the interpreter loop over the decoded form.
 *
 * Compiled twice: with computed goto (default) and, through
 * sbpf_interp_switch.c, with a portable switch; the bodies are the same
 * text.  Registers, the instruction pointer and the meter live in locals and
 * are spilled to the VM before a syscall body, a hook or a trap.
 *
 * Metering: ENTER(pc) starts a basic block.  It charges the block's whole
 * instruction count (cnt[pc], an lddw counts once) and counts one entry for
 * the block in the running frame's calling-context node; nothing happens
 * per instruction.  When the meter cannot pay for the whole block, the
 * instruction where solana-sbpf's step() would fail is replaced by
 * METER_OUT for the rest of the run (sbpf_meter_short), so the run stops
 * exactly there.  A trap in the middle of a block gives back what the block
 * charged beyond the instructions it executed (the faulting one counts, as
 * step() counts it before executing it).  A syscall is the last instruction
 * of its block, so the meter already holds every guest instruction when
 * the syscall body runs, as dispatch_syscall's flush does.
 */
#include "sbpf/sbpf_private.h"

#include <string.h>

#ifndef SBPF_SWITCH
#define EXEC_NAME scp_sbpf_exec_goto
#else
#define EXEC_NAME scp_sbpf_exec_switch
#endif

#ifndef SBPF_INTERP_HELPERS
#define SBPF_INTERP_HELPERS
static inline uint64_t ld(const uint8_t *h, unsigned n) {
  uint64_t v = 0;
  memcpy(&v, h, n);           /* little-endian host */
  return v;
}

static inline void st(uint8_t *h, uint64_t v, unsigned n) { memcpy(h, &v, n); }

static inline uint64_t sext32(uint32_t v) { return (uint64_t)(int64_t)(int32_t)v; }

static inline uint64_t bswap(uint64_t v, int32_t bits) {
  return bits == 16 ? __builtin_bswap16((uint16_t)v)
       : bits == 32 ? __builtin_bswap32((uint32_t)v) : __builtin_bswap64(v);
}

/* What entering the block at pc in frame f charges and which counter it
 * counts, as ENTER works them out; UINT64_MAX when no counter of f covers
 * it (ENTER records the stray). */
static inline void block_entry(const uint64_t *cntblk, const sbpf_frame *f, uint32_t pc,
                               uint64_t *charge, uint64_t **ctr) {
  uint64_t cb = cntblk[pc];
  uint32_t b = (uint32_t)(cb >> 32) - f->fb;
  *charge = b < f->fnb ? (uint32_t)cb : UINT64_MAX;
  *ctr = b < f->fnb ? &f->ctr[b] : NULL;
}

/* The calls counted in the keys of frames lo..hi go to their nodes, before
 * anything may read the tree (a hook, a syscall, the end of the run); with
 * forget the keys go too (the VM ran out of memory: from now on every
 * call takes sbpf_enter_call's fallback). */
static void keys_flush(scp_sbpf_vm *vm, sbpf_frame *lo, const sbpf_frame *hi, bool forget) {
  for (sbpf_frame *f = lo; f <= hi; f++) {
    if (f->kcalls && vm->cfg.tree) vm->cfg.tree->nodes[f->node].calls += f->kcalls;
    f->kcalls = 0;
    if (forget) f->kip = NULL;
  }
}

static void __attribute__((noinline)) stray(scp_sbpf_vm *vm, uint32_t node, uint32_t pc, sbpf_frame *lo,
                                            const sbpf_frame *hi) {
  sbpf_stray(vm, node, pc);
  if (vm->oom) keys_flush(vm, lo, hi, true);
}
#endif

int EXEC_NAME(scp_sbpf_vm *vm, uint64_t *r0out, scp_error *err) {
  const scp_sbpf_prog *p = vm->prog;
  const sbpf_insn *const code = p->code;
  const uint32_t *const cnt = p->cnt;
  const uint64_t *const cntblk = p->cntblk;
  const sbpf_region *const rg = vm->regions;
  const unsigned nreg = vm->nregions;
  const scp_sbpf_hooks *hooks = vm->cfg.hooks;
  void *hctx = vm->cfg.hooks_ctx;
  /* Without a tree every call keeps the fallback counters (sbpf_enter_call
   * sets the same ones again), so the call path skips it. */
  const bool tree = vm->cfg.tree != NULL;
  const bool hook_call = hooks && hooks->call, hook_ret = hooks && hooks->ret;
  /* what a call adds to r10: v1 and v2 leave the stack pointer to the program */
  const uint64_t frame_step = p->version == SCP_SBPF_V0 ? 2 * SCP_SBPF_FRAME_SIZE
                              : p->version == SCP_SBPF_V3 ? SCP_SBPF_FRAME_SIZE : 0;
  uint64_t r[11];
  memcpy(r, vm->reg, sizeof r);
  /* Instructions executed = insns + (m_sync - m): the meter is the only
   * per-block count; insns catches up where the meter is handed out. */
  uint64_t m = *vm->cfg.meter, m_sync = m, insns = 0;
  /* What the current block charged, when the meter ran short in it (set
   * only then: otherwise the block charged cnt[bpc]). */
  uint64_t charged = UINT64_MAX;
  uint32_t pc;
  const sbpf_insn *bip = code;   /* the current block's first instruction */
  /* The running function's counters (node, block range, ctr) live in its
   * frame, frames[depth]: a call fills the next frame, a return finds the
   * caller's again, and nothing is copied in between.  fr - frames is the
   * depth. */
  sbpf_frame *const frames = vm->frames, *fr = frames;
  sbpf_frame *khi = frames;    /* the highest frame a key was set in */
  bool pushed = false;         /* a trap after the frame push, before the callee */
  const sbpf_insn *ip;
  scp_sbpf_trap trap = SCP_SBPF_TRAP_NONE;
  bool filled = false;
  int status = SCP_OK;
  uint8_t *h;

#ifndef SBPF_SWITCH
  static const void *const labels[OP_COUNT] = {
#define BODY(name, flow) &&op_##name,
#include "sbpf/sbpf_ops.def"
  };
#define DISPATCH() goto *labels[ip->xop]
#define CASE(name) op_##name:
#else
#define DISPATCH() goto dispatch
#define CASE(name) case OP_##name:
#endif

#define NEXT() do { ip++; DISPATCH(); } while (0)
#define TRAP(t) do { trap = (t); goto trapped; } while (0)
#define ENTER(target) do {                                                  \
    uint32_t t_ = (target);                                                 \
    ip = bip = code + t_;                                                   \
    uint64_t cb_ = cntblk[t_], n_ = (uint32_t)cb_;                          \
    if (SCP_UNLIKELY(n_ > m)) {                                             \
      n_ = charged = m;                                                     \
      sbpf_meter_short(vm, t_, m);                                          \
    }                                                                       \
    m -= n_;                                                                \
    uint32_t b_ = (uint32_t)(cb_ >> 32) - fr->fb;                           \
    if (SCP_LIKELY(b_ < fr->fnb)) fr->ctr[b_]++;                            \
    else stray(vm, fr->node, t_, frames + 1, khi);                          \
    DISPATCH();                                                             \
  } while (0)
/* push_frame: save r6-r10 and the return pc, then check the depth. */
#define PUSH_FRAME() do {                                                   \
    memcpy(fr->saved, &r[6], sizeof fr->saved);                             \
    fr->rip = ip + 1;                                                       \
    if (SCP_UNLIKELY(fr == frames + SCP_SBPF_MAX_CALL_DEPTH - 1)) {          \
      pushed = true;                                                        \
      TRAP(SCP_SBPF_TRAP_CALL_DEPTH_EXCEEDED);                              \
    }                                                                       \
    r[10] += frame_step;                                                    \
  } while (0)
/* The callee's frame gets its node and counters (without a tree, the
 * caller's: sbpf_enter_call would set the same fallback ones), then the
 * hook, then its first block.  A `call imm` (fixed target) made again
 * from the same node finds the callee's node and counters still in the
 * frame above, left by the last such call, with what its first block and
 * the caller's block after the call charge and count (block_entry); it
 * only counts the call in the key.  A block entry charges what was worked
 * out then unless the meter cannot pay it (the charge is below the meter).
 * With a call hook no call is reused (each one calls it); with a return
 * hook no return takes the short way (rcnt UINT64_MAX). */
#define ENTER_CALL(target, fixed) do {                                      \
    uint32_t tc_ = (target);                                                \
    sbpf_frame *nf_ = fr + 1;                                               \
    if ((fixed) && nf_->kip == ip && nf_->knode == fr->node) {              \
      nf_->kcalls++;                                                        \
    } else {                                                                \
      pc = (uint32_t)(ip - code);                                           \
      keys_flush(vm, nf_, nf_, false);                                      \
      if (!tree) {                                                          \
        nf_->node = fr->node; nf_->fb = fr->fb; nf_->fnb = fr->fnb;         \
        nf_->ctr = fr->ctr;                                                 \
      } else {                                                              \
        uint64_t cs_ = p->text_addr + 8ull * pc;                            \
        if (!sbpf_call_cached(vm, nf_, fr->node, cs_, tc_))                 \
          sbpf_enter_call(vm, nf_, fr->node, cs_, tc_);                     \
      }                                                                     \
      nf_->knode = fr->node;                                                \
      nf_->kip = (fixed) && !hook_call ? ip : NULL;                         \
      if (nf_ > khi) khi = nf_;                                             \
      block_entry(cntblk, nf_, tc_, &nf_->ecnt, &nf_->ectr);                \
      block_entry(cntblk, fr, pc + 1, &nf_->rcnt, &nf_->rctr);              \
      nf_->eip = code + tc_;                                                \
      if (hook_ret) nf_->rcnt = UINT64_MAX;                                 \
      if (SCP_UNLIKELY(vm->oom)) keys_flush(vm, frames + 1, khi, true);     \
      if (hook_call) {                                                      \
        keys_flush(vm, frames + 1, khi, false);                             \
        vm->depth = (uint32_t)(nf_ - frames);                               \
        hooks->call(hctx, vm, pc, tc_, nf_->node);                          \
      }                                                                     \
    }                                                                       \
    fr = nf_;                                                               \
    if (SCP_LIKELY(fr->ecnt < m)) {                                         \
      m -= fr->ecnt;                                                        \
      ++*fr->ectr;                                                          \
      ip = bip = fr->eip;                                                   \
      DISPATCH();                                                           \
    }                                                                       \
    ENTER(tc_);                                                             \
  } while (0)
#define DST r[ip->dst]
#define SRC r[ip->src]
#define IMM ((uint64_t)ip->imm)
#define LOAD(n) do {                                                        \
    uint64_t a_ = SRC + (uint64_t)(int64_t)ip->aux;                         \
    if (!(h = sbpf_xlate(rg, nreg, a_, n, false)) &&                          \
        !(h = sbpf_xlate_reach(vm, a_, n, false))) {                             \
      trap = sbpf_access_violation(vm, a_, n, false, err); filled = true;   \
      goto trapped;                                                         \
    }                                                                       \
    DST = ld(h, n);                                                         \
    NEXT();                                                                 \
  } while (0)
#define STORE(n, v) do {                                                    \
    uint64_t a_ = DST + (uint64_t)(int64_t)ip->aux;                         \
    if (!(h = sbpf_xlate(rg, nreg, a_, n, true)) &&                          \
        !(h = sbpf_xlate_reach(vm, a_, n, true))) {                              \
      trap = sbpf_access_violation(vm, a_, n, true, err); filled = true;    \
      goto trapped;                                                         \
    }                                                                       \
    st(h, (v), n);                                                          \
    NEXT();                                                                 \
  } while (0)
#define ALU(expr) do { DST = (expr); NEXT(); } while (0)
#define FUSED(expr) do { DST = (expr); ip += 2; DISPATCH(); } while (0)
/* add64 imm, then the jump after it: DST, SRC and IMM are the jump's */
#define ADDJ(cond) do { DST += IMM; ip++; JMP(cond); } while (0)
#define JMP(cond) do { if (cond) ENTER((uint32_t)ip->aux); ENTER((uint32_t)(ip - code) + 1); } while (0)
#define DIVZ(x) do { if ((x) == 0) TRAP(SCP_SBPF_TRAP_DIVIDE_BY_ZERO); } while (0)
#define DIVO(d, s, min) do { if ((d) == (min) && (s) == -1) TRAP(SCP_SBPF_TRAP_DIVIDE_OVERFLOW); } while (0)

  for (unsigned d = 0; d < SCP_SBPF_MAX_CALL_DEPTH; d++) {
    frames[d].kip = NULL;
    frames[d].kcalls = 0;
  }
  frames[0].rcnt = UINT64_MAX;   /* its exit ends the run */
  sbpf_enter_call(vm, fr, vm->cfg.node, 0, p->entry);
  ENTER(p->entry);

#ifdef SBPF_SWITCH
dispatch:
  switch ((sbpf_op)ip->xop) {
#endif
  CASE(LDDW) DST = IMM; ip += 2; DISPATCH();
  CASE(LDXB) LOAD(1);
  CASE(LDXH) LOAD(2);
  CASE(LDXW) LOAD(4);
  CASE(LDXDW) LOAD(8);
  CASE(STB) STORE(1, IMM);
  CASE(STH) STORE(2, IMM);
  CASE(STW) STORE(4, IMM);
  CASE(STDW) STORE(8, IMM);
  CASE(STXB) STORE(1, SRC);
  CASE(STXH) STORE(2, SRC);
  CASE(STXW) STORE(4, SRC);
  CASE(STXDW) STORE(8, SRC);

  CASE(ADD32I_S) ALU(sext32((uint32_t)DST + (uint32_t)IMM));
  CASE(ADD32R_S) ALU(sext32((uint32_t)DST + (uint32_t)SRC));
  CASE(SUB32I_S) ALU(sext32((uint32_t)DST - (uint32_t)IMM));
  CASE(SUB32R_S) ALU(sext32((uint32_t)DST - (uint32_t)SRC));
  CASE(MUL32I_S) ALU(sext32((uint32_t)DST * (uint32_t)IMM));
  CASE(MUL32R_S) ALU(sext32((uint32_t)DST * (uint32_t)SRC));
  CASE(ADD32I_Z) ALU((uint32_t)((uint32_t)DST + (uint32_t)IMM));
  CASE(ADD32R_Z) ALU((uint32_t)((uint32_t)DST + (uint32_t)SRC));
  CASE(SUB32I_SWAP) ALU((uint32_t)((uint32_t)IMM - (uint32_t)DST));
  CASE(SUB32R_Z) ALU((uint32_t)((uint32_t)DST - (uint32_t)SRC));
  CASE(DIV32I) ALU((uint32_t)DST / (uint32_t)IMM);
  CASE(DIV32R) DIVZ((uint32_t)SRC); ALU((uint32_t)DST / (uint32_t)SRC);
  CASE(MOD32I) ALU((uint32_t)DST % (uint32_t)IMM);
  CASE(MOD32R) DIVZ((uint32_t)SRC); ALU((uint32_t)DST % (uint32_t)SRC);
  CASE(OR32I) ALU((uint32_t)DST | (uint32_t)IMM);
  CASE(OR32R) ALU((uint32_t)DST | (uint32_t)SRC);
  CASE(AND32I) ALU((uint32_t)DST & (uint32_t)IMM);
  CASE(AND32R) ALU((uint32_t)DST & (uint32_t)SRC);
  CASE(LSH32I) ALU((uint32_t)((uint32_t)DST << (IMM & 31)));
  CASE(LSH32R) ALU((uint32_t)((uint32_t)DST << (SRC & 31)));
  CASE(RSH32I) ALU((uint32_t)DST >> (IMM & 31));
  CASE(RSH32R) ALU((uint32_t)DST >> (SRC & 31));
  CASE(NEG32) ALU((uint32_t)(0u - (uint32_t)DST));
  CASE(XOR32I) ALU((uint32_t)DST ^ (uint32_t)IMM);
  CASE(XOR32R) ALU((uint32_t)DST ^ (uint32_t)SRC);
  CASE(MOV32I) ALU((uint32_t)IMM);
  CASE(MOV32R) ALU((uint32_t)SRC);
  CASE(MOV32R_S) ALU(sext32((uint32_t)SRC));
  CASE(ARSH32I) ALU((uint32_t)((int32_t)(uint32_t)DST >> (IMM & 31)));
  CASE(ARSH32R) ALU((uint32_t)((int32_t)(uint32_t)DST >> (SRC & 31)));
  CASE(LE) ALU(ip->imm == 16 ? (uint16_t)DST : ip->imm == 32 ? (uint32_t)DST : DST);
  CASE(BE) ALU(bswap(DST, (int32_t)ip->imm));

  CASE(ADD64I) ALU(DST + IMM);
  CASE(ADD64R) ALU(DST + SRC);
  CASE(SUB64I) ALU(DST - IMM);
  CASE(SUB64I_SWAP) ALU(IMM - DST);
  CASE(SUB64R) ALU(DST - SRC);
  CASE(MUL64I) ALU(DST * IMM);
  CASE(MUL64R) ALU(DST * SRC);
  CASE(DIV64I) ALU(DST / IMM);
  CASE(DIV64R) DIVZ(SRC); ALU(DST / SRC);
  CASE(MOD64I) ALU(DST % IMM);
  CASE(MOD64R) DIVZ(SRC); ALU(DST % SRC);
  CASE(OR64I) ALU(DST | IMM);
  CASE(OR64R) ALU(DST | SRC);
  CASE(AND64I) ALU(DST & IMM);
  CASE(AND64R) ALU(DST & SRC);
  CASE(LSH64I) ALU(DST << (IMM & 63));
  CASE(LSH64R) ALU(DST << (SRC & 63));
  CASE(RSH64I) ALU(DST >> (IMM & 63));
  CASE(RSH64R) ALU(DST >> (SRC & 63));
  CASE(NEG64) ALU(0 - DST);
  CASE(XOR64I) ALU(DST ^ IMM);
  CASE(XOR64R) ALU(DST ^ SRC);
  CASE(MOV64I) ALU(IMM);
  CASE(MOV64R) ALU(SRC);
  CASE(ARSH64I) ALU((uint64_t)((int64_t)DST >> (IMM & 63)));
  CASE(ARSH64R) ALU((uint64_t)((int64_t)DST >> (SRC & 63)));
  CASE(HOR64I) ALU(DST | IMM << 32);

  CASE(LMUL32I) ALU((uint32_t)((uint32_t)DST * (uint32_t)IMM));
  CASE(LMUL32R) ALU((uint32_t)((uint32_t)DST * (uint32_t)SRC));
  CASE(LMUL64I) ALU(DST * IMM);
  CASE(LMUL64R) ALU(DST * SRC);
  CASE(UHMUL64I) ALU((uint64_t)((unsigned __int128)DST * (uint32_t)IMM >> 64));
  CASE(UHMUL64R) ALU((uint64_t)((unsigned __int128)DST * SRC >> 64));
  CASE(SHMUL64I) ALU((uint64_t)((__int128)(int64_t)DST * ip->imm >> 64));
  CASE(SHMUL64R) ALU((uint64_t)((__int128)(int64_t)DST * (int64_t)SRC >> 64));
  CASE(UDIV32I) ALU((uint32_t)DST / (uint32_t)IMM);
  CASE(UDIV32R) DIVZ((uint32_t)SRC); ALU((uint32_t)DST / (uint32_t)SRC);
  CASE(UDIV64I) ALU(DST / (uint32_t)IMM);
  CASE(UDIV64R) DIVZ(SRC); ALU(DST / SRC);
  CASE(UREM32I) ALU((uint32_t)DST % (uint32_t)IMM);
  CASE(UREM32R) DIVZ((uint32_t)SRC); ALU((uint32_t)DST % (uint32_t)SRC);
  CASE(UREM64I) ALU(DST % (uint32_t)IMM);
  CASE(UREM64R) DIVZ(SRC); ALU(DST % SRC);
  CASE(SDIV32I) DIVO((int32_t)DST, (int32_t)ip->imm, INT32_MIN);
    ALU((uint32_t)((int32_t)DST / (int32_t)ip->imm));
  CASE(SDIV32R) DIVZ((int32_t)SRC); DIVO((int32_t)DST, (int32_t)SRC, INT32_MIN);
    ALU((uint32_t)((int32_t)DST / (int32_t)SRC));
  CASE(SDIV64I) DIVO((int64_t)DST, ip->imm, INT64_MIN); ALU((uint64_t)((int64_t)DST / ip->imm));
  CASE(SDIV64R) DIVZ((int64_t)SRC); DIVO((int64_t)DST, (int64_t)SRC, INT64_MIN);
    ALU((uint64_t)((int64_t)DST / (int64_t)SRC));
  CASE(SREM32I) DIVO((int32_t)DST, (int32_t)ip->imm, INT32_MIN);
    ALU((uint32_t)((int32_t)DST % (int32_t)ip->imm));
  CASE(SREM32R) DIVZ((int32_t)SRC); DIVO((int32_t)DST, (int32_t)SRC, INT32_MIN);
    ALU((uint32_t)((int32_t)DST % (int32_t)SRC));
  CASE(SREM64I) DIVO((int64_t)DST, ip->imm, INT64_MIN); ALU((uint64_t)((int64_t)DST % ip->imm));
  CASE(SREM64R) DIVZ((int64_t)SRC); DIVO((int64_t)DST, (int64_t)SRC, INT64_MIN);
    ALU((uint64_t)((int64_t)DST % (int64_t)SRC));

  CASE(JA) ENTER((uint32_t)ip->aux);
  CASE(JEQI) JMP(DST == IMM);
  CASE(JEQR) JMP(DST == SRC);
  CASE(JGTI) JMP(DST > IMM);
  CASE(JGTR) JMP(DST > SRC);
  CASE(JGEI) JMP(DST >= IMM);
  CASE(JGER) JMP(DST >= SRC);
  CASE(JLTI) JMP(DST < IMM);
  CASE(JLTR) JMP(DST < SRC);
  CASE(JLEI) JMP(DST <= IMM);
  CASE(JLER) JMP(DST <= SRC);
  CASE(JSETI) JMP(DST & IMM);
  CASE(JSETR) JMP(DST & SRC);
  CASE(JNEI) JMP(DST != IMM);
  CASE(JNER) JMP(DST != SRC);
  CASE(JSGTI) JMP((int64_t)DST > ip->imm);
  CASE(JSGTR) JMP((int64_t)DST > (int64_t)SRC);
  CASE(JSGEI) JMP((int64_t)DST >= ip->imm);
  CASE(JSGER) JMP((int64_t)DST >= (int64_t)SRC);
  CASE(JSLTI) JMP((int64_t)DST < ip->imm);
  CASE(JSLTR) JMP((int64_t)DST < (int64_t)SRC);
  CASE(JSLEI) JMP((int64_t)DST <= ip->imm);
  CASE(JSLER) JMP((int64_t)DST <= (int64_t)SRC);
  CASE(JEQ32I) JMP((uint32_t)DST == (uint32_t)IMM);
  CASE(JEQ32R) JMP((uint32_t)DST == (uint32_t)SRC);
  CASE(JGT32I) JMP((uint32_t)DST > (uint32_t)IMM);
  CASE(JGT32R) JMP((uint32_t)DST > (uint32_t)SRC);
  CASE(JGE32I) JMP((uint32_t)DST >= (uint32_t)IMM);
  CASE(JGE32R) JMP((uint32_t)DST >= (uint32_t)SRC);
  CASE(JLT32I) JMP((uint32_t)DST < (uint32_t)IMM);
  CASE(JLT32R) JMP((uint32_t)DST < (uint32_t)SRC);
  CASE(JLE32I) JMP((uint32_t)DST <= (uint32_t)IMM);
  CASE(JLE32R) JMP((uint32_t)DST <= (uint32_t)SRC);
  CASE(JSET32I) JMP((uint32_t)DST & (uint32_t)IMM);
  CASE(JSET32R) JMP((uint32_t)DST & (uint32_t)SRC);
  CASE(JNE32I) JMP((uint32_t)DST != (uint32_t)IMM);
  CASE(JNE32R) JMP((uint32_t)DST != (uint32_t)SRC);
  CASE(JSGT32I) JMP((int32_t)DST > (int32_t)ip->imm);
  CASE(JSGT32R) JMP((int32_t)DST > (int32_t)SRC);
  CASE(JSGE32I) JMP((int32_t)DST >= (int32_t)ip->imm);
  CASE(JSGE32R) JMP((int32_t)DST >= (int32_t)SRC);
  CASE(JSLT32I) JMP((int32_t)DST < (int32_t)ip->imm);
  CASE(JSLT32R) JMP((int32_t)DST < (int32_t)SRC);
  CASE(JSLE32I) JMP((int32_t)DST <= (int32_t)ip->imm);
  CASE(JSLE32R) JMP((int32_t)DST <= (int32_t)SRC);

  CASE(CALL) {
    PUSH_FRAME();
    ENTER_CALL((uint32_t)ip->aux, true);
  }
  CASE(CALLX) {
    pc = (uint32_t)(ip - code);
    uint64_t target = r[ip->src];
    PUSH_FRAME();
    target = (target - p->text_vaddr) / 8;
    if (target >= p->ninsns) {
      pushed = true;
      TRAP(SCP_SBPF_TRAP_CALL_OUTSIDE_TEXT_SEGMENT);
    }
    ENTER_CALL((uint32_t)target, false);
  }
  /* fr->rcnt is below the meter only on a return the call worked out
   * without a hook (frames[0]'s never is: the end of the run) */
  CASE(EXIT) {
    if (SCP_LIKELY(fr->rcnt < m)) {
      m -= fr->rcnt;
      ++*fr->rctr;
      fr--;
      memcpy(&r[6], fr->saved, sizeof fr->saved);
      ip = bip = fr->rip;
      DISPATCH();
    }
    if (fr == frames) {
      *r0out = r[0];
      goto done;
    }
    fr--;
    memcpy(&r[6], fr->saved, sizeof fr->saved);
    if (hook_ret) {
      keys_flush(vm, frames + 1, khi, false);
      vm->depth = (uint32_t)(fr - frames);
      hooks->ret(hctx, vm, (uint32_t)(fr->rip - code), fr->node);
    }
    ENTER((uint32_t)(fr->rip - code));
  }
  CASE(SYSCALL) {
    const sbpf_syscall *s = &p->loader->sys[ip->aux];
    uint64_t ret = 0;
    pc = (uint32_t)(ip - code);
    insns += m_sync - m;
    *vm->cfg.meter = m;
    vm->pc = pc;
    vm->node = fr->node;
    vm->depth = (uint32_t)(fr - frames);
    vm->insns = insns;
    memcpy(vm->reg, r, sizeof r);
    keys_flush(vm, frames + 1, khi, false);
    if (hooks && hooks->syscall_enter) hooks->syscall_enter(hctx, vm, s->key, pc, fr->node);
    status = s->fn(s->ctx, vm, &r[1], &ret, err);
    if (hooks && hooks->syscall_exit) hooks->syscall_exit(hctx, vm, s->key, pc, status);
    m = m_sync = *vm->cfg.meter;
    if (status) {
      vm->syscall_status = status;
      filled = true;
      TRAP(SCP_SBPF_TRAP_SYSCALL);
    }
    r[0] = ret;
    ENTER(pc + 1);
  }
  /* Fused pairs: the mov's dst is the second one's, whose register operand
   * (ip[1].src) is not that dst, so reading it after the mov's write is
   * reading it before. */
  CASE(MOVR_ADD64R) FUSED(SRC + r[ip[1].src]);
  CASE(MOVR_SUB64R) FUSED(SRC - r[ip[1].src]);
  CASE(MOVR_XOR64R) FUSED(SRC ^ r[ip[1].src]);
  CASE(MOVR_OR64R) FUSED(SRC | r[ip[1].src]);
  CASE(MOVR_AND64R) FUSED(SRC & r[ip[1].src]);
  CASE(MOVR_ADD64I) FUSED(SRC + (uint64_t)ip[1].imm);
  CASE(MOVR_AND64I) FUSED(SRC & (uint64_t)ip[1].imm);
  CASE(MOVR_LSH64I) FUSED(SRC << (ip[1].imm & 63));
  CASE(MOVR_RSH64I) FUSED(SRC >> (ip[1].imm & 63));
  CASE(MOVR_ARSH64I) FUSED((uint64_t)((int64_t)SRC >> (ip[1].imm & 63)));
  CASE(MOVR_MOVR) DST = SRC; r[ip[1].dst] = r[ip[1].src]; ip += 2; DISPATCH();
  CASE(ADDI_JEQI) ADDJ(DST == IMM);
  CASE(ADDI_JEQR) ADDJ(DST == SRC);
  CASE(ADDI_JNEI) ADDJ(DST != IMM);
  CASE(ADDI_JNER) ADDJ(DST != SRC);
  CASE(ADDI_JGTI) ADDJ(DST > IMM);
  CASE(ADDI_JGTR) ADDJ(DST > SRC);
  CASE(ADDI_JLTI) ADDJ(DST < IMM);
  CASE(ADDI_JLTR) ADDJ(DST < SRC);

  CASE(BADCALL) TRAP(SCP_SBPF_TRAP_UNSUPPORTED_INSTRUCTION);
  CASE(UNSUPPORTED) TRAP(SCP_SBPF_TRAP_UNSUPPORTED_INSTRUCTION);
  CASE(OVERRUN) TRAP(SCP_SBPF_TRAP_EXECUTION_OVERRUN);
  CASE(METER_OUT) TRAP(SCP_SBPF_TRAP_EXCEEDED_MAX_INSTRUCTIONS);
#ifdef SBPF_SWITCH
  default: TRAP(SCP_SBPF_TRAP_UNSUPPORTED_INSTRUCTION);
  }
#endif

trapped: {
  pc = (uint32_t)(ip - code);
  uint32_t bpc = (uint32_t)(bip - code);
  keys_flush(vm, frames + 1, khi, false);
  /* step() counted the faulting instruction; the meter stop is not one. */
  uint64_t done_n = cnt[bpc] - cnt[pc] + (trap != SCP_SBPF_TRAP_EXCEEDED_MAX_INSTRUCTIONS);
  uint64_t full = charged != UINT64_MAX ? charged : cnt[bpc];
  if (trap != SCP_SBPF_TRAP_SYSCALL && done_n < full) m += full - done_n;
  sbpf_unpatch(vm);
  *vm->cfg.meter = m;
  vm->insns = insns + (m_sync - m);
  vm->depth = (uint32_t)(fr - frames) + pushed;
  vm->trap = trap;
  vm->trap_pc = pc;
  memcpy(vm->reg, r, sizeof r);
  sbpf_trap(vm, trap, pc, bpc, done_n, fr, filled ? NULL : err);
  if (hooks && hooks->trap) hooks->trap(hctx, vm, trap, pc);
  return SCP_ERR_TRAP;
}
done:
  keys_flush(vm, frames + 1, khi, false);
  sbpf_unpatch(vm);
  *vm->cfg.meter = m;
  vm->insns = insns + (m_sync - m);
  memcpy(vm->reg, r, sizeof r);
  return SCP_OK;

#undef DISPATCH
#undef CASE
#undef NEXT
#undef TRAP
#undef ENTER
#undef ENTER_CALL
#undef PUSH_FRAME
#undef DST
#undef SRC
#undef IMM
#undef LOAD
#undef STORE
#undef ALU
#undef FUSED
#undef ADDJ
#undef JMP
#undef DIVZ
#undef DIVO
}
