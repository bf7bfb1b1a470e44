/*
 * test_util.c — the shared helpers: LEB128 under the WebAssembly rules,
 * string interning, byte-string maps, the error table, buffers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/scp_util.h"

static bool u32_of(const uint8_t *b, size_t n, uint32_t *v, size_t *used) {
  const uint8_t *p = b;
  bool ok = scp_leb_u32(&p, b + n, v);
  *used = (size_t)(p - b);
  return ok;
}

static void test_leb_u32(void **state) {
  (void)state;
  uint32_t v;
  size_t used;
  assert_true(u32_of((const uint8_t[]){0x00}, 1, &v, &used) && v == 0 && used == 1);
  assert_true(u32_of((const uint8_t[]){0xe5, 0x8e, 0x26}, 3, &v, &used) && v == 624485 && used == 3);
  /* padded but within 5 bytes: fine */
  assert_true(u32_of((const uint8_t[]){0x80, 0x80, 0x80, 0x80, 0x00}, 5, &v, &used) && v == 0);
  assert_true(u32_of((const uint8_t[]){0xff, 0xff, 0xff, 0xff, 0x0f}, 5, &v, &used) && v == UINT32_MAX);
  /* unused bits set in the 5th byte, a 6th byte, truncation: rejected */
  assert_false(u32_of((const uint8_t[]){0xff, 0xff, 0xff, 0xff, 0x1f}, 5, &v, &used));
  assert_false(u32_of((const uint8_t[]){0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 6, &v, &used));
  assert_false(u32_of((const uint8_t[]){0x80, 0x80}, 2, &v, &used));
  assert_false(u32_of((const uint8_t[]){0}, 0, &v, &used));
}

static void test_leb_signed(void **state) {
  (void)state;
  const uint8_t *p;
  int32_t v32;
  int64_t v64;
  const uint8_t m1[] = {0x7f};
  p = m1;
  assert_true(scp_leb_s32(&p, m1 + 1, &v32) && v32 == -1);
  const uint8_t min32[] = {0x80, 0x80, 0x80, 0x80, 0x78};
  p = min32;
  assert_true(scp_leb_s32(&p, min32 + 5, &v32) && v32 == INT32_MIN);
  /* 5th byte must sign-extend: 0x70 has bit 3 clear but higher bits set */
  const uint8_t bad32[] = {0x80, 0x80, 0x80, 0x80, 0x70};
  p = bad32;
  assert_false(scp_leb_s32(&p, bad32 + 5, &v32));
  const uint8_t min64[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f};
  p = min64;
  assert_true(scp_leb_s64(&p, min64 + 10, &v64) && v64 == INT64_MIN);
  const uint8_t bad64[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x70};
  p = bad64;
  assert_false(scp_leb_s64(&p, bad64 + 10, &v64));
  /* s33 (block types): -64 is one byte 0x40 */
  const uint8_t bt[] = {0x40};
  p = bt;
  assert_true(scp_leb_s33(&p, bt + 1, &v64) && v64 == -64);
}

static void test_strtab(void **state) {
  (void)state;
  scp_strtab t = {0};
  assert_int_equal(scp_strtab_intern(&t, ""), 0);
  uint32_t a = scp_strtab_intern(&t, "alpha");
  uint32_t b = scp_strtab_intern(&t, "beta");
  assert_int_equal(a, 1);
  assert_int_equal(b, 2);
  assert_int_equal(scp_strtab_intern(&t, "alpha"), a);
  assert_int_equal(scp_strtab_intern_n(&t, "betamax", 4), b);
  /* an embedded NUL ends the entry: no read past the shorter copy */
  assert_int_equal(scp_strtab_intern_n(&t, "beta\0xyz", 8), b);
  assert_int_equal(scp_strtab_intern_n(&t, "alpha\0", 6), a);
  /* stable ids through rehashing */
  char name[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(name, sizeof name, "s%d", i);
    assert_int_equal(scp_strtab_intern(&t, name), (uint32_t)i + 3);
  }
  assert_string_equal(scp_strtab_get(&t, 4002), "s3999");
  assert_string_equal(scp_strtab_get(&t, 999999), "");
  scp_strtab_free(&t);
}

/* A string interned with the hash its caller kept is the string interned
 * plainly (one id either way, the table begun by either), and a table
 * given room for n strings takes them without growing again. */
static void test_strtab_hashed_reserve(void **state) {
  (void)state;
  scp_strtab t = {0};
  assert_int_equal(scp_strtab_intern_h(&t, "alpha", 5, scp_murmur3_32("alpha", 5)), 1);
  assert_string_equal(scp_strtab_get(&t, 0), "");
  assert_int_equal(scp_strtab_intern(&t, "alpha"), 1);
  assert_int_equal(scp_strtab_intern(&t, "beta"), 2);
  assert_int_equal(scp_strtab_intern_h(&t, "beta", 4, scp_murmur3_32("beta", 4)), 2);
  assert_int_equal(scp_strtab_intern_h(&t, "", 0, scp_murmur3_32("", 0)), 0);
  assert_true(scp_strtab_reserve(&t, 5000));
  assert_true(t.cap >= 5000 && t.nslots >= 10000);
  const uint32_t *slots = t.slots;
  char *const *strs = t.strs;
  char name[32];
  for (int i = 3; i < 5000; i++) {
    snprintf(name, sizeof name, "s%d", i);
    assert_int_equal(scp_strtab_intern_h(&t, name, strlen(name), scp_murmur3_32(name, strlen(name))), (uint32_t)i);
  }
  assert_ptr_equal(t.slots, slots);
  assert_ptr_equal(t.strs, strs);
  assert_int_equal(scp_strtab_intern(&t, "s4999"), 4999);
  assert_int_equal(scp_strtab_intern(&t, "alpha"), 1);
  scp_strtab_free(&t);
  /* room asked of a table not yet begun begins it */
  assert_true(scp_strtab_reserve(&t, 10));
  assert_int_equal(t.n, 1);
  assert_int_equal(scp_strtab_intern(&t, "x"), 1);
  scp_strtab_free(&t);
}

/* n strings interned in one copy read as the same strings interned one
 * by one: a string the table held keeps its id, one repeated in the
 * block gets the first one's, the rest come next in order. */
static void test_strtab_block(void **state) {
  (void)state;
  static const char bytes[] = "mov r1\0alpha\0exit\0mov r1\0";
  static const uint32_t off[] = {0, 7, 13, 18};
  uint32_t hash[4], ids[4];
  for (int i = 0; i < 4; i++) hash[i] = scp_murmur3_32(bytes + off[i], strlen(bytes + off[i]));
  scp_strtab t = {0};
  assert_int_equal(scp_strtab_intern(&t, "alpha"), 1);
  assert_true(scp_strtab_intern_block(&t, bytes, sizeof bytes, off, hash, 4, ids));
  assert_int_equal(ids[0], 2);
  assert_int_equal(ids[1], 1);
  assert_int_equal(ids[2], 3);
  assert_int_equal(ids[3], 2);
  assert_int_equal(t.n, 4);
  assert_string_equal(scp_strtab_get(&t, 2), "mov r1");
  assert_string_equal(scp_strtab_get(&t, 3), "exit");
  assert_ptr_not_equal(scp_strtab_get(&t, 2), bytes);   /* copied */
  assert_int_equal(scp_strtab_intern(&t, "exit"), 3);
  assert_int_equal(scp_strtab_intern(&t, "next"), 4);
  scp_strtab_free(&t);
  /* into a table not yet begun: "" stays id 0 */
  assert_true(scp_strtab_intern_block(&t, bytes, sizeof bytes, off, hash, 3, ids));
  assert_int_equal(ids[0], 1);
  assert_string_equal(scp_strtab_get(&t, 0), "");
  scp_strtab_free(&t);
}

/* The strings live in shared blocks, a long one in a block of its own:
 * every pointer stays valid and every string intact as more are added,
 * whatever the mix of sizes, and the first string may itself be long. */
static void test_strtab_blocks(void **state) {
  (void)state;
  static const size_t sizes[] = {5000, 1, 2047, 2048, 2049, 8191, 8192, 8193, 30000, 3, 70};
  char *text[200];
  const char *at[200];
  uint32_t id[200];
  scp_strtab t = {0};
  for (int i = 0; i < 200; i++) {
    size_t n = sizes[i % SCP_ARRAY_LEN(sizes)] + (size_t)i;
    text[i] = malloc(n + 1);
    assert_non_null(text[i]);
    for (size_t k = 0; k < n; k++) text[i][k] = (char)('a' + (k * 7 + (size_t)i) % 26);
    text[i][n] = 0;
    id[i] = scp_strtab_intern(&t, text[i]);
    assert_int_equal(id[i], (uint32_t)i + 1);
    at[i] = scp_strtab_get(&t, id[i]);
  }
  for (int i = 0; i < 200; i++) {
    assert_ptr_equal(scp_strtab_get(&t, id[i]), at[i]);
    assert_string_equal(at[i], text[i]);
    assert_int_equal(scp_strtab_intern(&t, text[i]), id[i]);
    free(text[i]);
  }
  assert_string_equal(scp_strtab_get(&t, 0), "");
  scp_strtab_free(&t);
}

static void test_error_table(void **state) {
  (void)state;
  for (int s = 0; s < SCP_STATUS_COUNT; s++) {
    assert_true(strlen(scp_strerror(s)) > 0);
    assert_true(s == SCP_OK ? scp_exit_status(s) == 0 : scp_exit_status(s) != 0);
  }
  assert_string_equal(scp_strerror(SCP_STATUS_COUNT), "unknown status");
  assert_int_equal(scp_exit_status(SCP_ERR_TRAP), 10);
  assert_int_equal(scp_exit_status(SCP_ERR_BUDGET), 11);
  scp_error e;
  assert_int_equal(scp_fail(&e, SCP_ERR_ARG, "two\nlines %d", 2), SCP_ERR_ARG);
  assert_string_equal(e.msg, "two lines 2");
  scp_error_prefix(&e, "file.wasm");
  assert_string_equal(e.msg, "file.wasm: two lines 2");
}

static void test_buf(void **state) {
  (void)state;
  scp_buf b = {0};
  scp_buf_put_grouped(&b, 0);
  scp_buf_putc(&b, ' ');
  scp_buf_put_grouped(&b, 999);
  scp_buf_putc(&b, ' ');
  scp_buf_put_grouped(&b, 1000);
  scp_buf_putc(&b, ' ');
  scp_buf_put_grouped(&b, 18446744073709551615ULL);
  scp_buf_putc(&b, ' ');
  scp_buf_put_xml(&b, "<a & 'b'>");
  assert_string_equal(b.data, "0 999 1,000 18,446,744,073,709,551,615 &lt;a &amp; &apos;b&apos;&gt;");
  char big[600];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = 0;
  scp_buf_printf(&b, "%s", big);   /* longer than the printf fast path */
  assert_int_equal(b.len, strlen("0 999 1,000 18,446,744,073,709,551,615 &lt;a &amp; &apos;b&apos;&gt;") + 599);
  scp_buf_free(&b);
}

/* Reads back the whole of f (a tmpfile). */
static char *slurp(FILE *f, size_t *len) {
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  char *data = malloc((size_t)n + 1);
  assert_non_null(data);
  assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
  data[n] = 0;
  *len = (size_t)n;
  return data;
}

/* With a sink, appends reach the file in order and the buffer never holds
 * or allocates more than a chunk, whatever the sizes of the appends;
 * without one, the same appends all stay in memory as before. */
static void test_buf_sink(void **state) {
  (void)state;
  enum { BIG = 3 * (1 << 20) + 12345 };
  char *big = malloc(BIG);
  assert_non_null(big);
  for (size_t i = 0; i < BIG; i++) big[i] = (char)('a' + i % 26);
  FILE *f = tmpfile();
  assert_non_null(f);
  scp_buf b = {.sink = f}, mem = {0};
  for (int round = 0; round < 2; round++) {
    scp_buf *t[2] = {&b, &mem};
    for (int k = 0; k < 2; k++) {
      for (unsigned i = 0; i < 200000; i++) scp_buf_printf(t[k], "line %u;", i);
      assert_true(b.len < SCP_BUF_CHUNK);
      scp_buf_put(t[k], big, round ? SCP_BUF_CHUNK - 1 : BIG);  /* straight through */
      assert_true(b.len < SCP_BUF_CHUNK);
      scp_buf_putc(t[k], '\n');
    }
  }
  assert_true(b.cap <= SCP_BUF_CHUNK);
  assert_string_equal(b.data + b.len - 1, "\n");    /* still NUL-terminated */
  assert_true(mem.len > 4 * SCP_BUF_CHUNK);          /* no sink: all held */
  assert_int_equal(scp_buf_flush(&b), SCP_OK);
  assert_int_equal(b.len, 0);
  assert_int_equal(scp_buf_flush(&mem), SCP_OK);     /* no sink: nothing to do */
  size_t len;
  char *got = slurp(f, &len);
  assert_int_equal(len, mem.len);
  assert_memory_equal(got, mem.data, len);
  free(got);
  fclose(f);
  scp_buf_free(&b);
  scp_buf_free(&mem);
  free(big);
}

/* A failed write to the sink is sticky: later appends are dropped, and
 * whoever ends the buffer gets SCP_ERR_IO with the write's errno. */
static void test_buf_sink_error(void **state) {
  (void)state;
  FILE *f = fopen("/dev/full", "w");
  if (!f) {
    /* the system's, not the repository's: a counted skip, never a pass */
    print_message("SKIP no /dev/full: sink errors not checked\n");
    skip();
  }
  scp_buf b = {.sink = f};
  for (unsigned i = 0; i < 300000 && !b.io_err; i++) scp_buf_printf(&b, "line %u\n", i);
  assert_true(b.io_err);
  assert_int_equal(b.sink_errno, ENOSPC);
  assert_false(b.oom);
  size_t held = b.len;
  scp_buf_puts(&b, "dropped");
  assert_int_equal(b.len, held);
  assert_int_equal(scp_buf_write(&b, stdout), SCP_ERR_IO);
  assert_int_equal(scp_buf_flush(&b), SCP_ERR_IO);
  scp_buf_free(&b);
  /* a short tail fails only when flushed at the end */
  scp_buf t = {.sink = f};
  scp_buf_puts(&t, "tail");
  assert_false(t.io_err);
  assert_int_equal(scp_buf_flush(&t), SCP_ERR_IO);
  assert_int_equal(t.sink_errno, ENOSPC);
  scp_buf_free(&t);
  fclose(f);
}

/* Byte-string maps: any bytes (NULs, the empty key) are keys, the first
 * put adds, later ones find; 200,000 keys stay findable through rehashes. */
static void test_bmap(void **state) {
  (void)state;
  scp_bmap m = {0};
  bool added;
  assert_null(scp_bmap_get(&m, "a", 1));
  size_t *v = scp_bmap_put(&m, "a\0b", 3, &added);
  assert_true(v && added);
  *v = 7;
  assert_null(scp_bmap_get(&m, "a", 1));
  assert_null(scp_bmap_get(&m, "a\0c", 3));
  v = scp_bmap_put(&m, "a\0b", 3, &added);
  assert_true(v && !added && *v == 7);
  v = scp_bmap_put(&m, "", 0, &added);
  assert_true(v && added && *v == 0);
  *v = 9;
  assert_int_equal(*scp_bmap_get(&m, "", 0), 9);
  char k[32];
  for (size_t i = 0; i < 200000; i++) {
    int n = snprintf(k, sizeof k, "k%zu", i);
    v = scp_bmap_put(&m, k, (size_t)n, &added);
    assert_true(v && added);
    *v = i;
  }
  for (size_t i = 0; i < 200000; i += 997) {
    int n = snprintf(k, sizeof k, "k%zu", i);
    v = scp_bmap_get(&m, k, (size_t)n);
    assert_true(v && *v == i);
  }
  assert_int_equal(*scp_bmap_get(&m, "a\0b", 3), 7);
  assert_null(scp_bmap_get(&m, "k200000", 7));
  scp_bmap_free(&m);
  assert_null(scp_bmap_get(&m, "a\0b", 3));
}

/* A small file costs a small buffer (a scenario keeps thousands of
 * modules read whole), and a file of exactly the first buffer's size is
 * read to its end. */
static void test_read_file_small(void **state) {
  (void)state;
  char path[] = "/tmp/scp_read_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "\0asm\1\0\0\0", 8), 8);
  close(fd);
  uint8_t *data = NULL;
  size_t len = 0;
  scp_error err = {0};
  assert_int_equal(scp_read_file(path, &data, &len, &err), SCP_OK);
  assert_int_equal(len, 8);
  assert_memory_equal(data, "\0asm\1\0\0\0", 8);
  assert_true(malloc_usable_size(data) < 4096);
  free(data);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  for (int i = 0; i < 70000; i++) fputc(i & 0xff, f);
  fclose(f);
  assert_int_equal(scp_read_file(path, &data, &len, &err), SCP_OK);
  assert_int_equal(len, 70000);
  assert_int_equal(data[69999], 69999 & 0xff);
  free(data);
  unlink(path);
}

/* The fixed-width word readers and writers every layer uses (ELF, DWARF,
 * Solana's input region and instructions, XDR). */
static void test_words(void **state) {
  (void)state;
  static const uint8_t b[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
  assert_int_equal(scp_le16(b), 0x2301);
  assert_int_equal(scp_le32(b), 0x67452301u);
  assert_true(scp_le64(b) == 0xefcdab8967452301ull);
  assert_int_equal(scp_be32(b), 0x01234567u);
  assert_true(scp_be64(b) == 0x0123456789abcdefull);
  uint8_t o[8];
  scp_put_le64(o, 0xefcdab8967452301ull);
  assert_memory_equal(o, b, 8);
  scp_put_be64(o, 0x0123456789abcdefull);
  assert_memory_equal(o, b, 8);
  memset(o, 0, sizeof o);
  scp_put_le16(o, 0x2301);
  scp_put_le32(o + 2, 0xab896745u);
  assert_memory_equal(o, b, 6);
  scp_put_be32(o, 0x01234567u);
  assert_memory_equal(o, b, 4);
  static const uint8_t top[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  assert_true(scp_le64(top) == UINT64_MAX && scp_be64(top) == UINT64_MAX);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_leb_u32),
    cmocka_unit_test(test_leb_signed),
    cmocka_unit_test(test_strtab),
    cmocka_unit_test(test_strtab_blocks),
    cmocka_unit_test(test_strtab_hashed_reserve),
    cmocka_unit_test(test_strtab_block),
    cmocka_unit_test(test_error_table),
    cmocka_unit_test(test_buf),
    cmocka_unit_test(test_words),
    cmocka_unit_test(test_buf_sink),
    cmocka_unit_test(test_buf_sink_error),
    cmocka_unit_test(test_bmap),
    cmocka_unit_test(test_read_file_small),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
