/*
 * test_sol_names.c — program and instruction names (scp_sol_names.h,
 * scp_sol_idl.h): known ids win over the input's name, a file's name
 * loses only its extension, the tag tables (u8, u32 little-endian, the
 * Token-2022 extensions' second byte, ATA's empty data), the hex fallback,
 * Anchor's snake case and discriminators.  The tag numbers are those of
 * the public interface crates; the discriminators below were computed
 * with `printf 'global:NAME' | sha256sum`, independently of scprof.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "solana/scp_sol_names.h"
#include "solana/scp_sol_idl.h"

static void key(const char *b58, uint8_t out[32]) {
  assert_true(scp_sol_key_parse(b58, strlen(b58), out));
}

static const char *ix(const char *prog, const uint8_t *data, size_t len) {
  static char out[SCP_SOL_NAME_MAX];
  uint8_t id[32];
  key(prog, id);
  scp_sol_ix_name(id, data, len, NULL, out, sizeof out);
  return out;
}

#define TOKEN "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
#define TOKEN22 "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"
#define ATA "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"
#define SYSTEM "11111111111111111111111111111111"
#define OTHER "ScprofProgram111111111111111111111111111111"

static void test_program_names(void **state) {
  (void)state;
  uint8_t id[32];
  char out[SCP_SOL_NAME_MAX];
  key(ATA, id);
  scp_sol_program_name(id, "ata", out, sizeof out);
  assert_string_equal(out, "associated-token-account");
  key(TOKEN, id);
  scp_sol_program_name(id, NULL, out, sizeof out);
  assert_string_equal(out, "token");
  key("Secp256r1SigVerify1111111111111111111111111", id);
  scp_sol_program_name(id, "", out, sizeof out);
  assert_string_equal(out, "secp256r1");
  key(OTHER, id);
  scp_sol_program_name(id, "p0", out, sizeof out);
  assert_string_equal(out, "p0");
  /* no name, or the id itself as the name: the id's first 8 characters */
  scp_sol_program_name(id, NULL, out, sizeof out);
  assert_string_equal(out, "ScprofPr");
  scp_sol_program_name(id, OTHER, out, sizeof out);
  assert_string_equal(out, "ScprofPr");
  scp_sol_file_name("dir/sub/spl_token-3.5.0.so", out, sizeof out);
  assert_string_equal(out, "spl_token-3.5.0");
  scp_sol_file_name("prog", out, sizeof out);
  assert_string_equal(out, "prog");
  scp_sol_file_name("x/.so", out, sizeof out);
  assert_string_equal(out, ".so");
}

static void test_tags(void **state) {
  (void)state;
  /* System: a u32 tag (bincode); 2 Transfer, 0 CreateAccount, 13 the last */
  const uint8_t transfer[12] = {2, 0, 0, 0, 0x40, 0x42, 0x0f};
  assert_string_equal(ix(SYSTEM, transfer, sizeof transfer), "Transfer");
  const uint8_t create[4] = {0, 0, 0, 0};
  assert_string_equal(ix(SYSTEM, create, 4), "CreateAccount");
  const uint8_t prefund[4] = {13, 0, 0, 0};
  assert_string_equal(ix(SYSTEM, prefund, 4), "CreateAccountAllowPrefund");
  /* a tag over the table, or a short one: the bytes */
  const uint8_t big[4] = {0, 1, 0, 0};
  assert_string_equal(ix(SYSTEM, big, 4), "ix 0x00010000");
  assert_string_equal(ix(SYSTEM, transfer, 2), "ix 0x0200");
  assert_string_equal(ix(SYSTEM, NULL, 0), "");
  /* Compute Budget: u8 */
  const uint8_t limit[5] = {2, 0x40, 0x0d, 3, 0};
  assert_string_equal(ix("ComputeBudget111111111111111111111111111111", limit, 5), "SetComputeUnitLimit");
  /* Token: 21 22 18 are ATA's three invokes; 24 the last of Token's own */
  const uint8_t t21 = 21, t22 = 22, t18 = 18, t24 = 24, t26 = 26, t38 = 38, t45 = 45, t255 = 255;
  assert_string_equal(ix(TOKEN, &t21, 1), "GetAccountDataSize");
  assert_string_equal(ix(TOKEN, &t22, 1), "InitializeImmutableOwner");
  assert_string_equal(ix(TOKEN, &t18, 1), "InitializeAccount3");
  assert_string_equal(ix(TOKEN, &t24, 1), "UiAmountToAmount");
  /* p-token's additions at Token's id; Token-2022's extensions are not Token's */
  assert_string_equal(ix(TOKEN, &t38, 1), "WithdrawExcessLamports");
  assert_string_equal(ix(TOKEN, &t45, 1), "UnwrapLamports");
  assert_string_equal(ix(TOKEN, &t255, 1), "Batch");
  assert_string_equal(ix(TOKEN, &t26, 1), "ix 0x1a");
  /* Token-2022: the same tags, then the extensions with their second byte */
  assert_string_equal(ix(TOKEN22, &t21, 1), "GetAccountDataSize");
  const uint8_t fee[2] = {26, 1}, hook[2] = {36, 1}, pause[2] = {44, 2}, cbad[2] = {27, 99};
  assert_string_equal(ix(TOKEN22, fee, 2), "TransferFee::TransferCheckedWithFee");
  assert_string_equal(ix(TOKEN22, hook, 2), "TransferHook::Update");
  assert_string_equal(ix(TOKEN22, pause, 2), "Pausable::Resume");
  /* an extension tag alone, or with a sub-tag out of its table */
  assert_string_equal(ix(TOKEN22, fee, 1), "TransferFeeExtension");
  assert_string_equal(ix(TOKEN22, cbad, 2), "ConfidentialTransferExtension");
  const uint8_t t45b = 45;
  assert_string_equal(ix(TOKEN22, &t45b, 1), "ix 0x2d");
  /* ATA: empty data is Create */
  const uint8_t one = 1, two = 2, three = 3;
  assert_string_equal(ix(ATA, NULL, 0), "Create");
  assert_string_equal(ix(ATA, &one, 1), "CreateIdempotent");
  assert_string_equal(ix(ATA, &two, 1), "RecoverNested");
  assert_string_equal(ix(ATA, &three, 1), "ix 0x03");
  /* ALT and Stake: u32 */
  const uint8_t ext[4] = {2, 0, 0, 0}, move[4] = {16, 0, 0, 0};
  assert_string_equal(ix("AddressLookupTab1e1111111111111111111111111", ext, 4), "ExtendLookupTable");
  assert_string_equal(ix("Stake11111111111111111111111111111111111111", move, 4), "MoveStake");
  assert_string_equal(ix("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr", (const uint8_t *)"hi", 2), "Memo");
  /* a program whose instructions scprof does not know: at most 8 bytes */
  const uint8_t nine[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  assert_string_equal(ix(OTHER, nine, 9), "ix 0x0102030405060708");
}

static void test_snake(void **state) {
  (void)state;
  char out[64];
  static const char *const cases[][2] = {
      {"initializeVault", "initialize_vault"}, {"HTTPServer", "http_server"},
      {"reset_counter", "reset_counter"},      {"setValue2", "set_value2"},
      {"value2Set", "value2_set"},             {"already snake", "already_snake"},
      {"A", "a"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    scp_sol_idl_snake(cases[i][0], out, sizeof out);
    assert_string_equal(out, cases[i][1]);
  }
}

static char *write_tmp(const char *text) {
  static char path[64];
  snprintf(path, sizeof path, "/tmp/scp_idl_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

/* sha256("global:initialize_vault")[0..8] = 30 bf f7 64 d8 6b 02 de
 * (sha256sum); the old shape's camelCase name hashes to it */
static void test_idl(void **state) {
  (void)state;
  uint8_t id[32], other[32];
  key(OTHER, id);
  key(SYSTEM, other);
  scp_sol_idls *idls = NULL;
  scp_error err = {0};
  char *path = write_tmp("{\"instructions\": [{\"name\": \"initializeVault\"}]}");
  assert_int_equal(scp_sol_idls_add(&idls, id, path, &err), SCP_OK);
  remove(path);
  const uint8_t data[10] = {0x30, 0xbf, 0xa3, 0x2c, 0x47, 0x81, 0x3f, 0xa4, 9, 9};
  assert_string_equal(scp_sol_idl_lookup(idls, id, data, sizeof data), "initializeVault");
  assert_null(scp_sol_idl_lookup(idls, id, data, 7));
  assert_null(scp_sol_idl_lookup(idls, other, data, sizeof data));
  char out[SCP_SOL_NAME_MAX];
  scp_sol_ix_name(id, data, sizeof data, idls, out, sizeof out);
  assert_string_equal(out, "initializeVault");
  /* the 0.30 shape: given discriminators, the longest match wins */
  path = write_tmp("{\"instructions\": [{\"name\": \"short\", \"discriminator\": [48]},"
                   " {\"name\": \"long\", \"discriminator\": [48, 191]}]}");
  assert_int_equal(scp_sol_idls_add(&idls, id, path, &err), SCP_OK);
  assert_string_equal(scp_sol_idl_lookup(idls, id, data, 1), "short");
  /* both files match all 8 bytes' prefix: the first file's 8-byte one is longest */
  assert_string_equal(scp_sol_idl_lookup(idls, id, data, sizeof data), "initializeVault");
  /* a refused file leaves what was read */
  FILE *f = fopen(path, "w");
  fputs("{\"instructions\": 3}", f);
  fclose(f);
  assert_int_equal(scp_sol_idls_add(&idls, id, path, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "no \"instructions\" array"));
  assert_string_equal(scp_sol_idl_lookup(idls, id, data, 2), "long");
  remove(path);
  scp_sol_idls_free(idls);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_program_names),
      cmocka_unit_test(test_tags),
      cmocka_unit_test(test_snake),
      cmocka_unit_test(test_idl),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
