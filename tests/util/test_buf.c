/*
 * test_buf.c — the buffer's in-place appends (scp_buf_room /
 * scp_buf_commit), its window onto a file (allocated once, one write(2)
 * per file under a chunk), scp_dec_u64 against snprintf, and
 * scp_write_all on a write(2) that takes less than it is given.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/scp_util.h"

/* The calls of write(2) the library makes, per descriptor: this
 * definition stands in for libc's (stdio's own writes do not come here,
 * they call libc's internal one). */
static unsigned writes_to[64];
/* What the next writes do instead of writing everything, for
 * scp_write_all: fail with EINTR (that many times), take at most
 * take_at_most bytes, or (take_nothing) return 0 as a device may. */
static unsigned interrupt_next;
static size_t take_at_most;
static bool take_nothing;
ssize_t write(int fd, const void *p, size_t n) {
  if (fd >= 0 && fd < 64) writes_to[fd]++;
  if (interrupt_next) {
    interrupt_next--;
    errno = EINTR;
    return -1;
  }
  if (take_nothing) return 0;
  if (take_at_most && n > take_at_most) n = take_at_most;
  return syscall(SYS_write, fd, p, n);
}

/* The file under f holds exactly the len bytes at want (read through
 * its descriptor: the bytes on disk, not stdio's view). */
static void assert_file_holds(FILE *f, const char *want, size_t len) {
  struct stat st;
  assert_int_equal(fstat(fileno(f), &st), 0);
  assert_int_equal((size_t)st.st_size, len);
  char *got = malloc(len + 1);
  assert_non_null(got);
  assert_int_equal(pread(fileno(f), got, len, 0), (ssize_t)len);
  assert_memory_equal(got, want, len);
  free(got);
}

/* A temporary file, and in *fd its descriptor, whose writes writes_to
 * counts. */
static FILE *counted_tmpfile(int *fd) {
  FILE *f = tmpfile();
  assert_non_null(f);
  *fd = fileno(f);
  assert_true(*fd >= 0 && *fd < 64);
  return f;
}

/* What room/commit append is what scp_buf_put appends: in memory, and
 * through a sink across several chunks (room flushes what the buffer
 * holds when max would not fit the chunk). */
static void test_room_commit(void **state) {
  (void)state;
  FILE *f = tmpfile();
  assert_non_null(f);
  scp_buf mem = {0}, put = {0}, sink = {.sink = f};
  scp_buf *t[2] = {&mem, &sink};
  for (unsigned i = 0; i < 150000; i++) {
    char row[32];
    int n = snprintf(row, sizeof row, "row %u;", i);
    for (int k = 0; k < 2; k++) {
      char *o = scp_buf_room(t[k], 1000);   /* more than the row */
      assert_non_null(o);
      memcpy(o, row, (size_t)n);
      scp_buf_commit(t[k], o + n);
      assert_int_equal(t[k]->data[t[k]->len], 0);
    }
    scp_buf_put(&put, row, (size_t)n);
    assert_true(sink.cap <= SCP_BUF_CHUNK);
  }
  assert_int_equal(mem.len, put.len);
  assert_memory_equal(mem.data, put.data, put.len);
  assert_true(put.len > SCP_BUF_CHUNK);   /* the sink's window filled */
  assert_int_equal(scp_buf_flush(&sink), SCP_OK);
  assert_file_holds(f, put.data, put.len);
  fclose(f);
  /* a room of nothing written commits nothing */
  char *o = scp_buf_room(&mem, 10);
  scp_buf_commit(&mem, o);
  assert_int_equal(mem.len, put.len);
  scp_buf_free(&mem);
  scp_buf_free(&put);
  scp_buf_free(&sink);
}

/* A failed buffer gives no room; with a sink, a room of a chunk or more
 * is refused (the window never holds that much) and marks the buffer. */
static void test_room_failed(void **state) {
  (void)state;
  scp_buf b = {0};
  scp_buf_puts(&b, "kept");
  b.oom = true;
  assert_null(scp_buf_room(&b, 1));
  assert_string_equal(b.data, "kept");
  scp_buf_free(&b);
  FILE *f = tmpfile();
  assert_non_null(f);
  scp_buf s = {.sink = f};
  assert_non_null(scp_buf_room(&s, SCP_BUF_CHUNK - 1));
  assert_null(scp_buf_room(&s, SCP_BUF_CHUNK));
  assert_true(s.oom);
  assert_int_equal(scp_buf_flush(&s), SCP_ERR_NOMEM);
  scp_buf_free(&s);
  fclose(f);
}

/* A file's window is a chunk from the first append (never grown, so
 * never copied), and a file under a chunk reaches its descriptor in one
 * write, after what stdio already held of it; a larger one in a write
 * per chunk.  A stream without a descriptor goes through fwrite. */
static void test_sink_one_write(void **state) {
  (void)state;
  int fd;
  FILE *f = counted_tmpfile(&fd);
  fputs("head;", f);   /* held by stdio, not yet written */
  scp_buf b = {.sink = f}, mem = {0};
  scp_buf_putc(&b, 'x');
  assert_int_equal(b.cap, SCP_BUF_CHUNK);
  scp_buf_puts(&mem, "head;x");
  for (unsigned i = 0; i < 40000; i++) {   /* some 400 KB */
    scp_buf_printf(&b, "line %u\n", i);
    scp_buf_printf(&mem, "line %u\n", i);
  }
  assert_int_equal(b.cap, SCP_BUF_CHUNK);
  writes_to[fd] = 0;
  assert_int_equal(scp_buf_flush(&b), SCP_OK);
  assert_int_equal(writes_to[fd], 1);
  assert_file_holds(f, mem.data, mem.len);
  /* two and a half chunks: three writes */
  assert_int_equal(ftruncate(fd, 0), 0);
  rewind(f);
  writes_to[fd] = 0;
  scp_buf big = {0};
  for (unsigned i = 0; i < 5 * SCP_BUF_CHUNK / 2 / 8; i++) {
    scp_buf_put(&b, "12345678", 8);
    scp_buf_put(&big, "12345678", 8);
  }
  assert_int_equal(scp_buf_flush(&b), SCP_OK);
  assert_int_equal(writes_to[fd], 3);
  assert_file_holds(f, big.data, big.len);
  scp_buf_free(&big);
  fclose(f);
  scp_buf_free(&b);
  /* no descriptor: fmemopen's stream */
  char space[64] = {0};
  FILE *m = fmemopen(space, sizeof space, "w");
  assert_non_null(m);
  scp_buf c = {.sink = m};
  scp_buf_puts(&c, "through fwrite");
  assert_int_equal(scp_buf_flush(&c), SCP_OK);
  fclose(m);
  assert_string_equal(space, "through fwrite");
  scp_buf_free(&c);
  scp_buf_free(&mem);
}

/* scp_write_all writes everything: again after a short write and after
 * EINTR (10,000 bytes, 3,000 a call after two interruptions: six calls,
 * the bytes in order); it fails with the system's errno (a closed
 * descriptor: EBADF), and with EIO when a write takes nothing and says
 * nothing, rather than looping. */
static void test_write_all(void **state) {
  (void)state;
  int fd;
  FILE *f = counted_tmpfile(&fd);
  char text[10000];
  for (size_t i = 0; i < sizeof text; i++) text[i] = (char)('a' + i * 7 % 26);
  writes_to[fd] = 0;
  interrupt_next = 2;
  take_at_most = 3000;
  assert_true(scp_write_all(fd, text, sizeof text));
  assert_int_equal(writes_to[fd], 2 + 4);
  assert_int_equal(interrupt_next, 0);
  assert_file_holds(f, text, sizeof text);
  take_at_most = 0;
  assert_true(scp_write_all(fd, text, 0));   /* nothing: no call */
  assert_int_equal(writes_to[fd], 6);
  take_nothing = true;
  errno = 0;
  assert_false(scp_write_all(fd, "x", 1));
  assert_int_equal(errno, EIO);
  take_nothing = false;
  fclose(f);
  errno = 0;
  assert_false(scp_write_all(fd, "x", 1));
  assert_int_equal(errno, EBADF);
}

/* scp_dec_u64 (two digits a division) writes what "%llu" writes: every
 * power of ten and its neighbours, and a spread of values of every
 * length. */
static void check_dec(uint64_t v) {
  char want[32], room[24];
  int n = snprintf(want, sizeof want, "%llu", (unsigned long long)v);
  char *s = scp_dec_u64(room + sizeof room, v);
  assert_int_equal(room + sizeof room - s, n);
  assert_memory_equal(s, want, (size_t)n);
}

static void test_dec_u64(void **state) {
  (void)state;
  check_dec(0);
  check_dec(UINT64_MAX);
  /* where the digits move from 64-bit to 32-bit division */
  for (uint64_t v = UINT32_MAX - 1000; v < (uint64_t)UINT32_MAX + 1000; v++) check_dec(v);
  check_dec((uint64_t)UINT32_MAX * 100 + 99);
  check_dec((uint64_t)UINT32_MAX * 100 + 100);
  for (uint64_t p = 1;; p *= 10) {
    check_dec(p - 1);
    check_dec(p);
    check_dec(p + 1);
    if (p > UINT64_MAX / 10) break;
  }
  for (uint64_t v = 0; v < 100000; v++) check_dec(v);
  uint64_t seed = 12345;
  for (unsigned i = 0; i < 200000; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    check_dec(seed >> (i % 64));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_room_commit),
      cmocka_unit_test(test_room_failed),
      cmocka_unit_test(test_sink_one_write),
      cmocka_unit_test(test_dec_u64),
      cmocka_unit_test(test_write_all),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
