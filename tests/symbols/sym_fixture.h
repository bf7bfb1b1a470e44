/*
 * sym_fixture.h — what the source-mapper tests (test_sym.c,
 * test_sym_units.c) share: modules as byte blobs, built with clang into
 * SCP_BUILD/tests/symbols or read from the Makefile's fixtures, opened as
 * WASM or ELF, and their custom sections found.  Header-only (static
 * inline functions); include after <cmocka.h>, "symbols/scp_sym.h" and
 * "build_dir.h".
 */
#ifndef SCP_TEST_SYM_FIXTURE_H
#define SCP_TEST_SYM_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/scp_util.h"

typedef struct blob {
  uint8_t *data;
  size_t len;
} blob;

/* $name when set and not empty, else dflt: the compilers (CLANG, CLANGXX)
 * and the source tree (SCP_SRCDIR) the builds here use */
static inline const char *sym_env(const char *name, const char *dflt) {
  const char *v = getenv(name);
  return v && *v ? v : dflt;
}

static inline blob sym_read(const char *path) {
  blob b = {0};
  scp_error err = {0};
  if (scp_read_file(path, &b.data, &b.len, &err) != SCP_OK) fail_msg("%s", err.msg);
  return b;
}

/* Runs the shell command fmt (a build that makes out), then reads out. */
__attribute__((format(printf, 2, 3)))
static inline blob sym_build(const char *out, const char *fmt, ...) {
  char cmd[4096];
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  if (len < 0 || (size_t)len >= sizeof cmd) fail_msg("paths too long");
  if (system(cmd) != 0) fail_msg("cannot build: %s", cmd);
  return sym_read(out);
}

static inline scp_sym *open_blob(const blob *b, const scp_sym_opts *opts) {
  scp_sym *s = NULL;
  scp_error err = {0};
  int rc = scp_sym_open_wasm(b->data, b->len, opts, &s, &err);
  if (rc != SCP_OK) fail_msg("open failed: %d %s", rc, err.msg);
  return s;
}

static inline scp_sym *open_elf_blob(const blob *b, const scp_sym_opts *opts) {
  scp_sym *s = NULL;
  scp_error err = {0};
  int rc = scp_sym_open_elf(b->data, b->len, opts, &s, &err);
  if (rc != SCP_OK) fail_msg("open_elf failed: %d %s", rc, err.msg);
  return s;
}

static inline const char *base(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Find a custom section's payload (after its name) in a module. */
static inline uint8_t *find_custom(blob *b, const char *want, size_t *size) {
  *size = 0;   /* inlined, the compiler cannot tell fail_msg does not return */
  const uint8_t *end = b->data + b->len;
  const uint8_t *p = b->data + 8;
  while (p < end) {
    uint8_t id = *p++;
    uint32_t len;
    assert_true(scp_leb_u32(&p, end, &len));
    const uint8_t *q = p, *sec_end = p + len;
    p = sec_end;
    if (id != 0) continue;
    uint32_t nlen;
    assert_true(scp_leb_u32(&q, sec_end, &nlen));
    if (nlen == strlen(want) && memcmp(q, want, nlen) == 0) {
      *size = (size_t)(sec_end - q - nlen);
      return (uint8_t *)q + nlen;
    }
  }
  fail_msg("no custom section %s", want);
  return NULL;
}

#endif
