/*
 * test_sol_tx.c — transactions through the library entry point
 * (include/scprof.h scp_solana_*): the builtins' 150 CU, the default and
 * requested compute unit limits, all-or-nothing, the rent-state check, a
 * bad budget, the profile's instruction nodes, CPI three programs deep
 * on the cpi fixture, and the instruction rows of litesvm's programs
 * (p-token twice in a transaction, run twice; an ATA create's CPIs).  The numbers are the rules' (150 per builtin
 * instruction, 3,000 / 200,000 per instruction of the default limit) or
 * litesvm 1.5.0's for the same transaction (tests/oracle/cpi_expected.txt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scprof.h"
#include "profile/scp_prof.h"
#include "solana/scp_sol.h"
#include "solana/scp_sol_tx.h"
#include "solana/scp_sol_progs.h"
#include "sbpf/scp_sbpf.h"
#include "build_dir.h"

#include <openssl/sha.h>

static const uint8_t SYSTEM[32] = {0};
static uint8_t CB[32], A[32], B[32], C[32];

static void keys(void) {
  scp_sol_key_parse("ComputeBudget111111111111111111111111111111", 43, CB);
  memset(A, 3, 32);
  memset(B, 4, 32);
  memset(C, 5, 32);
}

static scp_solana *chain(void) {
  scp_solana *s;
  scp_error err;
  keys();
  assert_int_equal(scp_solana_new(&s, &err), SCP_OK);
  assert_int_equal(scp_solana_set_account(s, A, 1000000000, SYSTEM, NULL, 0, false, &err), SCP_OK);
  return s;
}

static void transfer_data(uint8_t d[12], uint64_t lamports) {
  memset(d, 0, 12);
  d[0] = 2;
  for (int i = 0; i < 8; i++) d[4 + i] = (uint8_t)(lamports >> (8 * i));
}

static uint64_t lamports_of(scp_solana *s, const uint8_t key[32]) {
  uint64_t l = 0;
  scp_solana_get_account(s, key, &l, NULL, NULL, NULL);
  return l;
}

static uint64_t self_sum(const scp_profile *p) {
  uint64_t sum = 0;
  for (size_t i = 0; i < p->nnodes; i++) sum += p->nodes[i].self[0];
  return sum;
}

static const char *frame_name(const scp_profile *p, uint32_t node) {
  return scp_prof_str(p, p->frames[p->nodes[node].frame].name);
}

static void test_transfer(void **state) {
  scp_solana *s = chain();
  scp_solana_meta m[2] = {{{0}, true, true}, {{0}, false, true}};
  memcpy(m[0].pubkey, A, 32);
  memcpy(m[1].pubkey, B, 32);
  uint8_t d[12];
  transfer_data(d, 1000000);
  scp_solana_ix ix = {{0}, m, 2, d, 12};
  scp_solana_result r;
  scp_profile *p;
  scp_error err;
  assert_int_equal(scp_solana_transaction(s, &ix, 1, "t", &p, &r, &err), SCP_OK);
  assert_int_equal(r.cu, 150);
  assert_int_equal(r.cu_limit, 3000);          /* one builtin instruction */
  assert_string_equal(r.outcome, "ok");
  assert_int_equal(r.nlogs, 2);
  assert_string_equal(r.logs[0], "Program 11111111111111111111111111111111 invoke [1]");
  assert_string_equal(r.logs[1], "Program 11111111111111111111111111111111 success");
  assert_int_equal(lamports_of(s, A), 999000000);
  assert_int_equal(lamports_of(s, B), 1000000);
  /* root -> instruction #1 -> program:system Transfer holding the 150 */
  assert_int_equal(p->nodes[0].total[0], 150);
  uint32_t ix1 = p->nodes[0].first_child, prog = p->nodes[ix1].first_child;
  assert_string_equal(frame_name(p, ix1), "instruction #1");
  assert_string_equal(frame_name(p, prog), "program:system Transfer");
  /* the frame says whose it is, by id, and what it ran */
  const scp_prof_frame *pf = &p->frames[p->nodes[prog].frame];
  assert_string_equal(scp_prof_str(p, pf->owner_id), "11111111111111111111111111111111");
  assert_string_equal(scp_prof_str(p, pf->owner), "system");
  assert_string_equal(scp_prof_str(p, pf->detail), "Transfer");
  assert_int_equal(p->nodes[prog].self[0], 150);
  assert_int_equal(self_sum(p), 150);
  scp_profile_destroy(p);
  scp_solana_result_free(&r);
  scp_solana_free(s);
}

/* The first transfer succeeds, the second overdraws: the transaction
 * fails at instruction 1, charges both, and changes nothing. */
static void test_all_or_nothing(void **state) {
  scp_solana *s = chain();
  scp_solana_meta m[2] = {{{0}, true, true}, {{0}, false, true}};
  memcpy(m[0].pubkey, A, 32);
  memcpy(m[1].pubkey, B, 32);
  uint8_t d1[12], d2[12], lim[5] = {2, 0x10, 0x27, 0, 0};  /* limit 10,000 */
  transfer_data(d1, 1000000);
  transfer_data(d2, 2000000000);
  scp_solana_ix ix[3] = {{{0}, NULL, 0, lim, 5}, {{0}, m, 2, d1, 12}, {{0}, m, 2, d2, 12}};
  memcpy(ix[0].program_id, CB, 32);
  scp_solana_result r;
  scp_profile *p;
  scp_error err;
  assert_int_equal(scp_solana_transaction(s, ix, 3, "t", &p, &r, &err), SCP_OK);
  assert_int_equal(r.cu_limit, 10000);
  assert_int_equal(r.cu, 450);
  assert_int_equal(r.failed, 2);
  assert_string_equal(r.outcome, "2 Custom(1)");
  assert_string_equal(r.logs[r.nlogs - 2], "Transfer: insufficient lamports 999000000, need 2000000000");
  assert_int_equal(lamports_of(s, A), 1000000000);
  assert_int_equal(lamports_of(s, B), 0);
  assert_int_equal(self_sum(p), 450);
  assert_int_equal(p->status, SCP_ERR_TRAP);
  scp_profile_destroy(p);
  scp_solana_result_free(&r);
  scp_solana_free(s);
}

/* The budget is read before anything runs: a duplicate limit or a bad heap
 * request fails the transaction with 0 CU and no logs; a limit over
 * 1,400,000 is cut to it. */
static void test_budget(void **state) {
  scp_solana *s = chain();
  uint8_t lim[5] = {2, 0x10, 0x27, 0, 0};
  scp_solana_ix ix[2] = {{{0}, NULL, 0, lim, 5}, {{0}, NULL, 0, lim, 5}};
  memcpy(ix[0].program_id, CB, 32);
  memcpy(ix[1].program_id, CB, 32);
  scp_solana_result r;
  scp_error err;
  assert_int_equal(scp_solana_transaction(s, ix, 2, "t", NULL, &r, &err), SCP_OK);
  assert_string_equal(r.outcome, "DuplicateInstruction { index: 1 }");
  assert_int_equal(r.cu, 0);
  assert_int_equal(r.nlogs, 0);
  scp_solana_result_free(&r);
  /* a heap request that is no multiple of 1 KiB */
  uint8_t heap[5] = {1, 0x01, 0x80, 0, 0};
  scp_solana_ix h = {{0}, NULL, 0, heap, 5};
  memcpy(h.program_id, CB, 32);
  assert_int_equal(scp_solana_transaction(s, &h, 1, "t", NULL, &r, &err), SCP_OK);
  assert_string_equal(r.outcome, "0 InvalidInstructionData");
  scp_solana_result_free(&r);
  /* 1.4M at most */
  uint8_t big[5] = {2, 0xff, 0xff, 0xff, 0x00};
  scp_solana_ix b = {{0}, NULL, 0, big, 5};
  memcpy(b.program_id, CB, 32);
  assert_int_equal(scp_solana_transaction(s, &b, 1, "t", NULL, &r, &err), SCP_OK);
  assert_int_equal(r.cu_limit, 1400000);
  assert_int_equal(r.cu, 150);
  scp_solana_result_free(&r);
  scp_solana_free(s);
}

/* create_account with too few lamports for its size leaves a rent-paying
 * account: the transaction fails after the instruction succeeded. */
static void test_rent(void **state) {
  scp_solana *s = chain();
  scp_solana_meta m[2] = {{{0}, true, true}, {{0}, true, true}};
  memcpy(m[0].pubkey, A, 32);
  memcpy(m[1].pubkey, C, 32);
  uint8_t d[52] = {0};
  d[4] = 0xe8, d[5] = 0x03;     /* 1,000 lamports */
  d[12] = 10;                   /* 10 bytes */
  memset(d + 20, 0xff, 32);
  scp_solana_ix ix = {{0}, m, 2, d, 52};
  scp_solana_result r;
  scp_error err;
  assert_int_equal(scp_solana_transaction(s, &ix, 1, "t", NULL, &r, &err), SCP_OK);
  assert_int_equal(r.cu, 150);
  assert_int_equal(r.failed, -1);
  assert_string_equal(r.outcome, "InsufficientFundsForRent { account_index: 2 }");
  assert_int_equal(lamports_of(s, C), 0);
  scp_solana_result_free(&r);
  /* enough for 10 bytes: (128 + 10) * 6960 */
  d[4] = 0x80, d[5] = 0xa8, d[6] = 0x0e;     /* 960,640 */
  assert_int_equal(scp_solana_transaction(s, &ix, 1, "t", NULL, &r, &err), SCP_OK);
  assert_string_equal(r.outcome, "ok");
  assert_int_equal(lamports_of(s, C), 960640);
  scp_solana_result_free(&r);
  scp_solana_free(s);
}

static uint8_t *slurp(const char *name, size_t *len) {
  const char *dir = getenv("SCP_BUILD");
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/fixtures/sbpf/%s", dir ? dir : "build", name);
  uint8_t *data;
  scp_error err;
  if (scp_read_file(path, &data, len, &err) != SCP_OK) return NULL;
  return data;
}

/* The cpi fixture invokes itself twice (depth 3) with return data:
 * litesvm charges 2969; each callee sits under its invoke, the invoke node
 * keeps 946, every program node's total is its "consumed" line. */
static void test_cpi_nested(void **state) {
  size_t len;
  uint8_t *elf = slurp("cpi.so", &len);
  if (!elf) skip();
  scp_solana *s = chain();
  uint8_t id[32];
  scp_error err;
  scp_sol_key_parse("ScprofProgram111111111111111111111111111111", 43, id);
  assert_int_equal(scp_solana_add_program(s, id, elf, len, 3, "cpi", &err), SCP_OK);
  free(elf);
  scp_solana_meta m = {{0}, false, false};
  memcpy(m.pubkey, id, 32);
  uint8_t d[2] = {2, 2};
  scp_solana_ix ix = {{0}, &m, 1, d, 2};
  memcpy(ix.program_id, id, 32);
  scp_solana_result r;
  scp_profile *p;
  assert_int_equal(scp_solana_transaction(s, &ix, 1, "t", &p, &r, &err), SCP_OK);
  assert_string_equal(r.outcome, "ok");
  assert_int_equal(r.cu, 2969);
  assert_int_equal(self_sum(p), 2969);
  /* consumed lines, innermost first, against the program nodes' totals */
  uint64_t consumed[3];
  size_t nc = 0;
  for (size_t i = 0; i < r.nlogs; i++) {
    unsigned long long n, of;
    if (sscanf(r.logs[i], "Program ScprofProgram111111111111111111111111111111 consumed %llu of %llu", &n, &of) == 2)
      consumed[nc++] = n;
  }
  assert_int_equal(nc, 3);
  uint64_t totals[3];
  size_t nt = 0, invokes = 0;
  for (size_t i = 0; i < p->nnodes; i++) {
    /* not an Anchor program: its instructions show as their first bytes */
    if (!strncmp(frame_name(p, (uint32_t)i), "program:cpi ix 0x02", 19)) totals[nt++] = p->nodes[i].total[0];
    if (!strcmp(frame_name(p, (uint32_t)i), "syscall:sol_invoke_signed_c")) {
      assert_int_equal(p->nodes[i].self[0], 946);
      invokes++;
    }
  }
  assert_int_equal(nt, 3);
  assert_int_equal(invokes, 2);
  /* preorder: outermost first */
  assert_int_equal(totals[0], consumed[2]);
  assert_int_equal(totals[1], consumed[1]);
  assert_int_equal(totals[2], consumed[0]);
  assert_true(scp_prof_check(p));
  scp_profile_destroy(p);
  scp_solana_result_free(&r);
  scp_solana_free(s);
}

/* litesvm's first blockhash, written out in sol_tx.c, is sha256("genesis") */
static void test_genesis(void **state) {
  (void)state;
  uint8_t want[32], got[32];
  SHA256((const uint8_t *)"genesis", 7, want);
  scp_sol_blockhash_genesis(got);
  assert_memory_equal(got, want, 32);
}

/* A token account of mint 01..01, owner A, holding amount (p-token's
 * layout, as bench/sol/scenario.py writes it). */
static void token_account(uint8_t d[165], uint64_t amount) {
  memset(d, 0, 165);
  memset(d, 1, 32);
  memcpy(d + 32, A, 32);
  for (int i = 0; i < 8; i++) d[64 + i] = (uint8_t)(amount >> (8 * i));
  d[108] = 1;   /* initialized */
}

/* litesvm's programs live in build/oracle whatever the build folder (make
 * check builds into build/san), or in $SCP_ORACLE_DIR, as the e2e scripts'
 * oracle_setup finds them; missing, the test fails unless SCP_NO_ORACLE=1. */
static const char *oracle_path(const char *name) {
  static char path[4096];
  const char *dir = getenv("SCP_ORACLE_DIR");
  snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "build/oracle", name);
  return path;
}

/* The instruction rows of a transaction's profile grafted from two
 * invocations of one program without DWARF (litesvm's p-token, whose
 * every executed pc has a row), and of the same transaction again (the
 * program's texts kept from the first, and taken at once at the start of
 * each later build, so their string ids differ from the first's): every
 * row's text is its pc's disassembly (independent: scp_sbpf_prog_disasm
 * on the program loaded apart), and both profiles have the same rows and
 * texts. */
static void test_rows_across_transactions(void **state) {
  uint8_t *elf;
  size_t len;
  scp_error err;
  if (scp_read_file(oracle_path("token.so"), &elf, &len, &err)) {
    const char *no = getenv("SCP_NO_ORACLE");
    if (no && strcmp(no, "1") == 0) skip();
    fail_msg("%s (install litesvm: scripts/deps, or SCP_NO_ORACLE=1)", err.msg);
  }
  scp_sol_progs *c;
  scp_sol_prog *apart;
  assert_int_equal(scp_sol_progs_new(&c, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, elf, len, "token", &apart, &err), SCP_OK);
  const scp_sbpf_prog *sp = scp_sol_prog_sbpf(apart);
  scp_solana *s = chain();
  uint8_t tk[32], acct[165];
  scp_sol_key_parse("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", 43, tk);
  assert_int_equal(scp_solana_add_program(s, tk, elf, len, 3, "token", &err), SCP_OK);
  token_account(acct, 100000000);
  assert_int_equal(scp_solana_set_account(s, B, 2039280, tk, acct, sizeof acct, false, &err), SCP_OK);
  token_account(acct, 0);
  assert_int_equal(scp_solana_set_account(s, C, 2039280, tk, acct, sizeof acct, false, &err), SCP_OK);
  scp_solana_meta m[3] = {{{0}, false, true}, {{0}, false, true}, {{0}, true, false}};
  memcpy(m[0].pubkey, B, 32);
  memcpy(m[1].pubkey, C, 32);
  memcpy(m[2].pubkey, A, 32);
  uint8_t d[9] = {3, 1};
  scp_solana_ix ix[2] = {{{0}, m, 3, d, 9}, {{0}, m, 3, d, 9}};
  memcpy(ix[0].program_id, tk, 32);
  memcpy(ix[1].program_id, tk, 32);
  scp_profile *p[2];
  for (int t = 0; t < 2; t++) {
    scp_solana_result r;
    assert_int_equal(scp_solana_transaction(s, ix, 2, "t", &p[t], &r, &err), SCP_OK);
    assert_string_equal(r.outcome, "ok");
    scp_solana_result_free(&r);
  }
  assert_true(p[0]->npcs > 50);
  assert_int_equal(p[0]->npcs, p[1]->npcs);
  for (size_t i = 0; i < p[0]->npcs; i++) {
    const scp_prof_pc *a = &p[0]->pcs[i], *b = &p[1]->pcs[i];
    assert_int_equal(a->pc, b->pc);
    assert_int_equal(a->node, b->node);
    assert_int_equal(a->cost[0], b->cost[0]);
    char want[96];
    uint64_t at = (a->pc - scp_sbpf_prog_text_addr(sp)) / 8;
    assert_true(scp_sbpf_prog_disasm(sp, (uint32_t)at, want, sizeof want) < sizeof want);
    assert_string_equal(scp_prof_str(p[0], a->text), want);
    assert_string_equal(scp_prof_str(p[1], b->text), want);
  }
  scp_profile_destroy(p[0]);
  scp_profile_destroy(p[1]);
  scp_solana_free(s);
  scp_sol_progs_free(c);
  free(elf);
}

/* The nearest program node at or above node n (SCP_NODE_NONE: none). */
static uint32_t program_of(const scp_profile *p, uint32_t n) {
  while (n != SCP_NODE_NONE && strncmp(frame_name(p, n), "program:", 8)) n = p->nodes[n].parent;
  return n;
}

static uint8_t *oracle_elf(const char *name, size_t *len) {
  uint8_t *elf;
  scp_error err;
  if (!scp_read_file(oracle_path(name), &elf, len, &err)) return elf;
  const char *no = getenv("SCP_NO_ORACLE");
  if (no && strcmp(no, "1") == 0) skip();
  fail_msg("%s (install litesvm: scripts/deps, or SCP_NO_ORACLE=1)", err.msg);
  return NULL;
}

/* The instruction rows of an ATA create (litesvm's ata.so and p-token,
 * neither with DWARF: every executed pc has a row), whose token CPIs'
 * profiles are merged into the ATA program's and the whole taken into the
 * transaction's: every node's rows sum to its self cost, and every row's
 * text is the disassembly at its pc of the program whose node it is under
 * (independent: scp_sbpf_prog_disasm on each program loaded apart; a
 * token row under the ATA program, or the reverse, reads another text or
 * falls outside the program).  Both programs have rows. */
static void test_cpi_rows(void **state) {
  size_t alen, tlen;
  uint8_t *ata = oracle_elf("ata.so", &alen), *tok = oracle_elf("token.so", &tlen);
  scp_error err;
  scp_sol_progs *c;
  scp_sol_prog *pa, *pt;
  assert_int_equal(scp_sol_progs_new(&c, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, ata, alen, "ata", &pa, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, tok, tlen, "token", &pt, &err), SCP_OK);
  const scp_sbpf_prog *sp[2] = {scp_sol_prog_sbpf(pa), scp_sol_prog_sbpf(pt)};
  scp_solana *s = chain();   /* A is the wallet: 32 bytes of 03 */
  uint8_t ata_id[32], tk[32], mint[32], addr[32], mintd[82] = {1};
  scp_sol_key_parse("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL", 44, ata_id);
  scp_sol_key_parse("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", 43, tk);
  scp_sol_key_parse("4iVXddBZKmBBRndg5o9PCs4pG4kP59at3r7oD4kdM62i", 44, addr);
  memset(mint, 1, 32);
  /* authority A, supply 10^8, 6 decimals, initialized */
  memcpy(mintd + 4, A, 32);
  for (int i = 0; i < 8; i++) mintd[36 + i] = (uint8_t)(100000000ull >> (8 * i));
  mintd[44] = 6;
  mintd[45] = 1;
  assert_int_equal(scp_solana_add_program(s, ata_id, ata, alen, 2, "ata", &err), SCP_OK);
  assert_int_equal(scp_solana_add_program(s, tk, tok, tlen, 3, "token", &err), SCP_OK);
  assert_int_equal(scp_solana_set_account(s, mint, 1461600, tk, mintd, sizeof mintd, false, &err), SCP_OK);
  scp_solana_meta m[6] = {{{0}, true, true}, {{0}, false, true}, {{0}, false, false},
                          {{0}, false, false}, {{0}, false, false}, {{0}, false, false}};
  memcpy(m[0].pubkey, A, 32);
  memcpy(m[1].pubkey, addr, 32);
  memcpy(m[2].pubkey, A, 32);
  memcpy(m[3].pubkey, mint, 32);
  memcpy(m[4].pubkey, SYSTEM, 32);
  memcpy(m[5].pubkey, tk, 32);
  scp_solana_ix ix = {{0}, m, 6, NULL, 0};
  memcpy(ix.program_id, ata_id, 32);
  scp_solana_result r;
  scp_profile *p;
  assert_int_equal(scp_solana_transaction(s, &ix, 1, "create", &p, &r, &err), SCP_OK);
  assert_string_equal(r.outcome, "ok");
  size_t rows[2] = {0};
  for (uint32_t n = 0; n < p->nnodes; n++) {
    const scp_prof_node *x = &p->nodes[n];
    if (!x->npcs) continue;
    uint32_t owner = program_of(p, n);
    assert_int_not_equal(owner, SCP_NODE_NONE);
    int k = !strncmp(frame_name(p, owner), "program:token", 13);
    if (!k) assert_string_equal(frame_name(p, owner), "program:associated-token-account Create");
    uint64_t sum = 0;
    for (uint32_t i = 0; i < x->npcs; i++) {
      const scp_prof_pc *row = &p->pcs[x->pcs_first + i];
      assert_int_equal(row->node, n);
      sum += row->cost[0];
      char want[96];
      uint64_t at = (row->pc - scp_sbpf_prog_text_addr(sp[k])) / 8;
      assert_true(at < scp_sbpf_prog_ninsns(sp[k]));
      assert_true(scp_sbpf_prog_disasm(sp[k], (uint32_t)at, want, sizeof want) < sizeof want);
      assert_string_equal(scp_prof_str(p, row->text), want);
    }
    assert_int_equal(sum, x->self[0]);
    rows[k] += x->npcs;
  }
  assert_true(rows[0] > 100 && rows[1] > 100);
  scp_profile_destroy(p);
  scp_solana_result_free(&r);
  scp_solana_free(s);
  scp_sol_progs_free(c);
  free(ata);
  free(tok);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_transfer),  cmocka_unit_test(test_all_or_nothing),
      cmocka_unit_test(test_budget),    cmocka_unit_test(test_rent),
      cmocka_unit_test(test_cpi_nested), cmocka_unit_test(test_genesis),
      cmocka_unit_test(test_rows_across_transactions), cmocka_unit_test(test_cpi_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
