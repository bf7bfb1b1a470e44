/* test_sol_progs.c — the loaded-program cache (src/solana/scp_sol_progs.h):
 * one entry per distinct ELF whatever buffer carries it, a failed load not
 * kept, the mapper opened once; and a program shared across transactions
 * and its own CPIs costs what it costs when loaded afresh (the cpi
 * fixture's 2969 CU, litesvm's number, as in test_sol_tx.c) on every run
 * of a handle and on two handles side by side. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scprof.h"
#include "solana/scp_sol.h"
#include "solana/scp_sol_progs.h"
#include "solana/scp_sol_feature.h"
#include "build_dir.h"

/* the cpi fixture (tests/fixtures/sbpf/cpi.c), NULL when not built */
static uint8_t *cpi_elf(size_t *len) {
  uint8_t *data;
  scp_error err;
  return scp_read_file(build_path("tests/fixtures/sbpf/cpi.so"), &data, len, &err) == SCP_OK ? data : NULL;
}

static void test_one_entry_per_elf(void **state) {
  size_t len;
  uint8_t *elf = cpi_elf(&len);
  if (!elf) skip();
  uint8_t *copy = malloc(len);
  assert_non_null(copy);
  memcpy(copy, elf, len);
  scp_sol_progs *c;
  scp_error err;
  assert_int_equal(scp_sol_progs_new(&c, &err), SCP_OK);
  scp_sol_prog *a, *b, *bad;
  assert_int_equal(scp_sol_progs_get(c, NULL, elf, len, "cpi", &a, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, copy, len, "other", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  assert_int_equal(scp_sol_progs_count(c), 1);
  assert_non_null(scp_sol_prog_sym(a));
  assert_ptr_equal(scp_sol_prog_sym(a), scp_sol_prog_sym(b));
  /* the same bytes cut short: another key, which does not load and is not kept */
  assert_int_equal(scp_sol_progs_get(c, NULL, elf, 40, "short.so", &bad, &err), SCP_ERR_MALFORMED);
  assert_null(bad);
  assert_non_null(strstr(err.msg, "short.so"));
  assert_int_equal(scp_sol_progs_count(c), 1);
  /* one byte changed: another program */
  copy[len - 1] ^= 1;
  assert_int_equal(scp_sol_progs_get(c, NULL, copy, len, "changed", &b, &err), SCP_OK);
  assert_ptr_not_equal(a, b);
  assert_int_equal(scp_sol_progs_count(c), 2);
  scp_sol_progs_free(c);
  free(copy);
  free(elf);
}

/* A pinned buffer is found by its address; any other buffer by its bytes,
 * so an account whose data is rewritten in place (an upgrade) gets the new
 * program, at the same address and length. */
static void test_pinned_and_rewritten(void **state) {
  size_t len;
  uint8_t *elf = cpi_elf(&len);
  if (!elf) skip();
  uint8_t *pinned = malloc(len), *acct = malloc(len);
  assert_true(pinned && acct);
  memcpy(pinned, elf, len);
  memcpy(acct, elf, len);
  scp_sol_progs *c;
  scp_error err;
  scp_sol_prog *a, *b;
  assert_int_equal(scp_sol_progs_new(&c, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_pin(c, pinned, len, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, pinned, len, "pinned", &a, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, acct, len, "account", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  /* the account's data rewritten in place: compared, so another program */
  acct[len - 1] ^= 1;
  assert_int_equal(scp_sol_progs_get(c, NULL, acct, len, "account", &b, &err), SCP_OK);
  assert_ptr_not_equal(a, b);
  assert_int_equal(scp_sol_progs_count(c), 2);
  /* and back: the first program again */
  acct[len - 1] ^= 1;
  assert_int_equal(scp_sol_progs_get(c, NULL, acct, len, "account", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  /* the pinned buffer is not compared again (which is why its caller may
   * not change it): the same entry although its last byte now differs */
  pinned[len - 1] ^= 1;
  assert_int_equal(scp_sol_progs_get(c, NULL, pinned, len, "pinned", &b, &err), SCP_OK);
  assert_ptr_equal(a, b);
  /* the same address with another length is not the pinned buffer */
  assert_int_equal(scp_sol_progs_get(c, NULL, pinned, 40, "short.so", &b, &err), SCP_ERR_MALFORMED);
  assert_int_equal(scp_sol_progs_count(c), 2);
  scp_sol_progs_free(c);
  free(pinned);
  free(acct);
  free(elf);
}

static scp_solana *cpi_chain(const uint8_t *elf, size_t len, uint8_t id[32]) {
  scp_solana *s;
  scp_error err;
  assert_int_equal(scp_solana_new(&s, &err), SCP_OK);
  scp_sol_key_parse("ScprofProgram111111111111111111111111111111", 43, id);
  assert_int_equal(scp_solana_add_program(s, id, elf, len, 3, "cpi", &err), SCP_OK);
  return s;
}

static uint64_t run_cpi(scp_solana *s, const uint8_t id[32], size_t *nnodes) {
  scp_solana_meta m = {{0}, false, false};
  memcpy(m.pubkey, id, 32);
  uint8_t d[2] = {2, 2};
  scp_solana_ix ix = {{0}, &m, 1, d, 2};
  memcpy(ix.program_id, id, 32);
  scp_solana_result r;
  scp_profile *p;
  scp_error err;
  assert_int_equal(scp_solana_transaction(s, &ix, 1, "t", &p, &r, &err), SCP_OK);
  assert_string_equal(r.outcome, "ok");
  uint64_t sum = 0;
  for (size_t i = 0; i < p->nnodes; i++) sum += p->nodes[i].self[0];
  assert_int_equal(sum, r.cu);
  *nnodes = p->nnodes;
  uint64_t cu = r.cu;
  scp_profile_destroy(p);
  scp_solana_result_free(&r);
  return cu;
}

/* The fixture invokes itself twice (depth 3): three live instructions of
 * one cached program at once, each with its own state. */
static void test_shared_across_runs_and_handles(void **state) {
  size_t len, n1, n2, n3;
  uint8_t *elf = cpi_elf(&len);
  if (!elf) skip();
  uint8_t id[32];
  scp_solana *s = cpi_chain(elf, len, id), *t = cpi_chain(elf, len, id);
  assert_int_equal(run_cpi(s, id, &n1), 2969);
  assert_int_equal(run_cpi(t, id, &n2), 2969);
  assert_int_equal(run_cpi(s, id, &n3), 2969);
  assert_int_equal(n1, n2);
  assert_int_equal(n1, n3);
  scp_solana_free(s);
  scp_solana_free(t);
  free(elf);
}

/* Each program's instruction texts are its own, as the disassembler
 * writes them (independent: scp_sbpf_prog_disasm on each program's own
 * instructions), numbered so that equal texts, and only they, share a
 * number; two programs, at the same pcs, keep their own texts and their
 * own memo of profile ids, as an upgraded program (other bytes, another
 * entry) does. */
static void test_insn_texts_per_program(void **state) {
  size_t la, lb;
  uint8_t *ea = cpi_elf(&la), *eb = NULL;
  scp_error err;
  if (!ea || scp_read_file(build_path("tests/fixtures/sbpf/counter.so"), &eb, &lb, &err)) {
    free(ea);
    skip();
  }
  scp_sol_progs *c;
  assert_int_equal(scp_sol_progs_new(&c, &err), SCP_OK);
  scp_sol_prog *pa, *pb;
  assert_int_equal(scp_sol_progs_get(c, NULL, ea, la, "cpi", &pa, &err), SCP_OK);
  assert_int_equal(scp_sol_progs_get(c, NULL, eb, lb, "counter", &pb, &err), SCP_OK);
  assert_ptr_not_equal(scp_sol_prog_memo(pa), scp_sol_prog_memo(pb));
  uint32_t na = scp_sbpf_prog_ninsns(scp_sol_prog_sbpf(pa)), nb = scp_sbpf_prog_ninsns(scp_sol_prog_sbpf(pb));
  uint32_t n = na < nb ? na : nb, differ = 0;
  if (n > 200) n = 200;
  uint32_t *ka = calloc(n, sizeof *ka);
  assert_non_null(ka);
  for (uint32_t pc = 0; pc < n; pc++) {
    char want_a[96], want_b[96];
    uint32_t kb;
    scp_sbpf_prog_disasm(scp_sol_prog_sbpf(pa), pc, want_a, sizeof want_a);
    scp_sbpf_prog_disasm(scp_sol_prog_sbpf(pb), pc, want_b, sizeof want_b);
    /* b first: a's texts must not move when b's are made */
    const char *tb = scp_sol_prog_insn_key(pb, pc, &kb), *ta = scp_sol_prog_insn_key(pa, pc, &ka[pc]);
    assert_non_null(ta);
    assert_non_null(tb);
    assert_string_equal(ta, want_a);
    assert_string_equal(tb, want_b);
    assert_string_equal(scp_sol_prog_insn_text(pa, pc), want_a);
    differ += strcmp(want_a, want_b) != 0;
  }
  assert_true(differ > 0);   /* the two programs do differ at some shared pc */
  uint32_t shared = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = i + 1; j < n; j++) {
      bool same = !strcmp(scp_sol_prog_insn_text(pa, i), scp_sol_prog_insn_text(pa, j));
      assert_int_equal(same, ka[i] == ka[j]);
      shared += same;
    }
  assert_true(shared > 0);   /* some texts repeat, so the numbers are shared */
  /* past the program: no text */
  uint32_t k;
  assert_null(scp_sol_prog_insn_key(pa, na, &k));
  free(ka);
  scp_sol_progs_free(c);
  free(ea);
  free(eb);
}

/* Each feature set gets the loader of its own syscall mask, however the
 * sets asked about alternate: remaining_compute_units_syscall_enabled
 * (off by default) registers one more syscall, so its programs load under
 * another loader; the default set given explicitly is the same as NULL. */
static void test_loader_per_feature_set(void **state) {
  size_t len;
  uint8_t *elf = cpi_elf(&len);
  if (!elf) skip();
  scp_sol_progs *c;
  scp_error err;
  assert_int_equal(scp_sol_progs_new(&c, &err), SCP_OK);
  scp_sol_features dflt, more;
  scp_sol_features_default(&dflt);
  scp_sol_features_default(&more);
  assert_false(more.on[SCP_SOL_F_REMAINING_CU_SYSCALL]);
  more.on[SCP_SOL_F_REMAINING_CU_SYSCALL] = true;
  scp_sol_prog *a, *b, *a2;
  assert_int_equal(scp_sol_progs_get(c, NULL, elf, len, "cpi", &a, &err), SCP_OK);
  const scp_sbpf_loader *l0 = scp_sol_progs_loader(c, NULL);
  assert_non_null(l0);
  assert_null(scp_sol_progs_loader(c, &more));   /* no program under that mask yet */
  assert_int_equal(scp_sol_progs_get(c, &more, elf, len, "cpi", &b, &err), SCP_OK);
  const scp_sbpf_loader *l1 = scp_sol_progs_loader(c, &more);
  assert_non_null(l1);
  assert_ptr_not_equal(l0, l1);
  assert_ptr_not_equal(a, b);
  assert_int_equal(scp_sol_progs_count(c), 2);
  assert_ptr_equal(scp_sol_progs_loader(c, NULL), l0);
  assert_ptr_equal(scp_sol_progs_loader(c, &dflt), l0);
  assert_ptr_equal(scp_sol_progs_loader(c, &more), l1);
  assert_int_equal(scp_sol_progs_get(c, &dflt, elf, len, "cpi", &a2, &err), SCP_OK);
  assert_ptr_equal(a2, a);
  assert_ptr_equal(scp_sol_progs_loader(c, &more), l1);
  assert_int_equal(scp_sol_progs_count(c), 2);
  scp_sol_progs_free(c);
  free(elf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_entry_per_elf),
      cmocka_unit_test(test_pinned_and_rewritten),
      cmocka_unit_test(test_shared_across_runs_and_handles),
      cmocka_unit_test(test_insn_texts_per_program),
      cmocka_unit_test(test_loader_per_feature_set),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
