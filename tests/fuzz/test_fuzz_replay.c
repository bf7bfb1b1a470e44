/*
 * test_fuzz_replay.c — replays the fuzz corpus (tests/fuzz/corpus) and
 * every fixture module through the fuzz target, the host-call corpus
 * (tests/fuzz/corpus-host) through fuzz_host, the Solana account-file
 * corpus (tests/fuzz/corpus-solstate) through fuzz_solstate, the authorization-entry
 * corpus (tests/fuzz/corpus-auth) through fuzz_auth and the scenario
 * corpus (tests/fuzz/corpus-scenario) through fuzz_scenario, the sBPF corpus
 * (tests/fuzz/corpus-sbpf) and the linked sBPF fixtures with their
 * truncations through fuzz_sbpf, and the differential corpus
 * (tests/fuzz/corpus-diff) through fuzz_diff against wabt's wasm-interp,
 * the XDR corpus (tests/fuzz/corpus-xdr, with truncations) through
 * fuzz_xdr, and the wire-transaction corpus (tests/fuzz/corpus-wire) with
 * its truncations through fuzz_wire, so inputs that once crashed or
 * differed stay fixed.  Runs under the
 * sanitizers in `make check`.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_auth.h"
#include "fuzz_diff.h"
#include "fuzz_host.h"
#include "fuzz_sbpf.h"
#include "fuzz_scenario.h"
#include "fuzz_solstate.h"
#include "fuzz_wasm.h"
#include "fuzz_xdr.h"
#include "fuzz_wire.h"
#include "build_dir.h"
#include "replay_dir.h"

static void test_corpus(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus", false, fuzz_wasm_one) > 0);
}

static void test_corpus_host(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus-host", false, fuzz_host_one) > 0);
}

static void test_corpus_auth(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus-auth", false, fuzz_auth_one) > 0);
}

static void test_corpus_scenario(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus-scenario", false, fuzz_scenario_one) > 0);
}

static void test_corpus_diff(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus-diff", false, fuzz_diff_one) > 0);
}

static void test_corpus_wire(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus-wire", true, fuzz_wire_one) >= 8);
}

static void test_corpus_sbpf(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus-sbpf", true, fuzz_sbpf_one) > 0);
  const char *b = getenv("SCP_BUILD");
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/tests/fixtures/sbpf", b ? b : "build");
  assert_true(replay_dir(dir, true, fuzz_sbpf_one) > 0);
}

static void test_corpus_xdr(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus-xdr", true, fuzz_xdr_one) > 0);
}

static void test_corpus_solstate(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz/corpus-solstate", true, fuzz_solstate_one) >= 8);
}

static void test_fixtures(void **state) {
  (void)state;
  assert_true(replay_dir(build_path("examples"), true, fuzz_wasm_one) > 0);
  assert_true(replay_dir(build_path("tests/fixtures/wasm"), true, fuzz_wasm_one) > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_corpus),
    cmocka_unit_test(test_corpus_host),
    cmocka_unit_test(test_corpus_auth),
    cmocka_unit_test(test_corpus_scenario),
    cmocka_unit_test(test_corpus_diff),
    cmocka_unit_test(test_corpus_sbpf),
    cmocka_unit_test(test_corpus_xdr),
    cmocka_unit_test(test_corpus_wire),
    cmocka_unit_test(test_corpus_solstate),
    cmocka_unit_test(test_fixtures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
