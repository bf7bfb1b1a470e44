/*
 * scp_util.h — small shared helpers: error filling, growable arrays and
 * byte buffers, LEB128 readers, hashing, string interning, byte-string
 * maps.
 * Internal to libscprof (not installed).
 */
#ifndef SCP_UTIL_H
#define SCP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "scprof.h"

#define SCP_HIDDEN __attribute__((visibility("hidden")))
#define SCP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define SCP_LIKELY(x) __builtin_expect(!!(x), 1)
#define SCP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SCP_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Fill err (when non-NULL) with code and a formatted one-line message.
 * Returns code, so callers can `return scp_fail(err, SCP_ERR_X, ...)`. */
int scp_fail(scp_error *err, int code, const char *fmt, ...) SCP_PRINTF(3, 4);

/* Prefix err->msg with "prefix: " (used to add the file name at the edge). */
void scp_error_prefix(scp_error *err, const char *prefix);

/* ---- growable arrays -------------------------------------------------
 * scp_grow(&ptr, &cap, need, elem_size): make room for `need` elements.
 * Returns false on overflow/OOM (ptr and cap unchanged). */
bool scp_grow(void *pptr, size_t *cap, size_t need, size_t elem);

/* ---- byte buffer (output writers) ------------------------------------
 * A string builder, or, with a sink, a writer's window onto its file: once
 * appends would fill a chunk (SCP_BUF_CHUNK bytes), what the buffer holds
 * goes to the sink first, and an append of a chunk or more goes straight
 * through, so the buffer never holds (nor allocates) more than a chunk
 * and an output of any size costs no more memory than that.  A writer
 * given a buffer with a sink must therefore only append: what it put
 * earlier may already be in the file.  Without a sink, everything stays
 * in data (NUL-terminated after len), as a string builder needs. */
#define SCP_BUF_CHUNK ((size_t)1 << 20)

typedef struct scp_buf {
  char *data;
  size_t len, cap;
  bool oom;      /* sticky: set on the first failed append */
  bool io_err;   /* sticky: a write to the sink failed (errno in sink_errno);
                    later appends are dropped */
  int sink_errno;
  FILE *sink;    /* NULL: a string builder.  Set before the first append. */
} scp_buf;

/* Appending in place, for a writer that builds many short pieces (a row
 * of numbers) and would otherwise build each in a local array and copy
 * it: scp_buf_room(b, max) returns where up to max bytes may be written
 * at the end of b (with a sink, max under SCP_BUF_CHUNK), or NULL once b
 * has failed (nothing may be written then); scp_buf_commit(b, end) keeps
 * what was written there up to end.  No other append may come between
 * the two. */
char *scp_buf_room_slow(scp_buf *b, size_t max);
static inline char *scp_buf_room(scp_buf *b, size_t max) {
  if (SCP_LIKELY(max < b->cap - b->len && (!b->sink || b->len + max < SCP_BUF_CHUNK) && !b->oom &&
                 !b->io_err))
    return b->data + b->len;
  return scp_buf_room_slow(b, max);
}
static inline void scp_buf_commit(scp_buf *b, char *end) {
  b->len = (size_t)(end - b->data);
  b->data[b->len] = 0;
}
/* Inline, so that a string literal's length is known where it is
 * appended (most appends are literals: its copy is a move or two) and a
 * short append costs no call; scp_buf_put_slow when it does not fit. */
void scp_buf_put_slow(scp_buf *b, const void *p, size_t n);
static inline void scp_buf_put(scp_buf *b, const void *p, size_t n) {
  if (SCP_LIKELY(n < b->cap - b->len && (!b->sink || b->len + n < SCP_BUF_CHUNK) && !b->oom &&
                 !b->io_err)) {
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
    return;
  }
  scp_buf_put_slow(b, p, n);
}
static inline void scp_buf_puts(scp_buf *b, const char *s) { scp_buf_put(b, s, strlen(s)); }
static inline void scp_buf_putc(scp_buf *b, char c) {
  char *o = scp_buf_room(b, 1);
  if (SCP_UNLIKELY(!o)) return;
  *o++ = c;
  scp_buf_commit(b, o);
}
void scp_buf_printf(scp_buf *b, const char *fmt, ...) SCP_PRINTF(2, 3);
/* scp_buf_printf's own formatting of a format whose conversions are all
 * in its subset (scp_fmt.c: no precision, '-', '+', '#') into at most 256
 * bytes, as printf formats them; false, nothing appended and ap
 * untouched, otherwise. */
bool scp_fmt_fast(scp_buf *b, const char *fmt, va_list ap);
/* x with prec (0 to 6) decimals into out (SCP_FMT_FIXED_MAX bytes, no
 * NUL), as printf's "%.*f" writes it; returns the length, or 0 when x is
 * not finite, too large (about 2^64 / 10^prec or more) or prec out of
 * range, which printf is left to write (scp_fmt.c). */
#define SCP_FMT_FIXED_MAX 32
size_t scp_fmt_fixed(char *out, double x, int prec);
/* Decimal with thousands separators: 1234567 -> "1,234,567" (scp_fmt.c). */
void scp_buf_put_grouped(scp_buf *b, uint64_t v);
/* XML/HTML-escape s into b. */
void scp_buf_put_xml(scp_buf *b, const char *s);
void scp_buf_free(scp_buf *b);
/* Write the buffer to f; SCP_ERR_NOMEM if b->oom, SCP_ERR_IO on write error
 * (or on an earlier one to b's sink). */
int scp_buf_write(const scp_buf *b, FILE *f);
/* Writes n bytes of p to file descriptor fd, again after a short write
 * or EINTR; false with errno set (EIO when the system gave none) when a
 * write fails. */
bool scp_write_all(int fd, const void *p, size_t n);
/* Ends a buffer with a sink: writes what it still holds to the sink and
 * flushes the stream.  SCP_ERR_NOMEM if b->oom, SCP_ERR_IO on a write
 * error now or before (errno in b->sink_errno); SCP_OK otherwise, and
 * SCP_OK with nothing done when b has no sink. */
int scp_buf_flush(scp_buf *b);

/* ---- LEB128 ----------------------------------------------------------
 * Each reader decodes at *p (bounded by end), advances *p and returns true,
 * or returns false on truncation, overlong encoding or unused-bit overflow
 * (the WebAssembly rules: at most ceil(N/7) bytes, spare bits must be a
 * sign/zero extension). */
bool scp_leb_u32(const uint8_t **p, const uint8_t *end, uint32_t *out);
bool scp_leb_u64(const uint8_t **p, const uint8_t *end, uint64_t *out);
bool scp_leb_s32(const uint8_t **p, const uint8_t *end, int32_t *out);
bool scp_leb_s64(const uint8_t **p, const uint8_t *end, int64_t *out);
bool scp_leb_s33(const uint8_t **p, const uint8_t *end, int64_t *out);

/* ---- byte order ------------------------------------------------------ */
/* Big-endian 32-bit words, as XDR writes them. */
static inline uint32_t scp_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void scp_put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}
/* One big-endian 32-bit word appended to b. */
static inline void scp_buf_put_be32(scp_buf *b, uint32_t v) {
  uint8_t t[4];
  scp_put_be32(t, v);
  scp_buf_put(b, t, 4);
}
/* Big-endian 64-bit words (XDR hyper). */
static inline uint64_t scp_be64(const uint8_t *p) {
  return (uint64_t)scp_be32(p) << 32 | scp_be32(p + 4);
}
static inline void scp_put_be64(uint8_t *p, uint64_t v) {
  scp_put_be32(p, (uint32_t)(v >> 32));
  scp_put_be32(p + 4, (uint32_t)v);
}

/* v in decimal, written backwards to end at end (20 bytes before it are
 * enough); returns where the digits start.  The outputs write many numbers:
 * a constant divisor, which the compiler turns into a multiply, instead of
 * a printf per number. */
static inline char *scp_dec_u64(char *end, uint64_t v) {
  /* two digits a division: "00" "01" .. "99" */
  static const char pairs[201] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  while (v > UINT32_MAX) {
    unsigned r = (unsigned)(v % 100);
    v /= 100;
    end -= 2;
    memcpy(end, pairs + 2 * r, 2);
  }
  /* the rest in 32 bits, whose division by 100 is the cheaper multiply */
  uint32_t w = (uint32_t)v;
  while (w >= 100) {
    unsigned r = w % 100;
    w /= 100;
    end -= 2;
    memcpy(end, pairs + 2 * r, 2);
  }
  if (w >= 10) {
    end -= 2;
    memcpy(end, pairs + 2 * w, 2);
  } else {
    *--end = (char)('0' + w);
  }
  return end;
}

/* Little-endian words, as ELF (sBPF), Wasm and Solana write them. */
static inline uint16_t scp_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t scp_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t scp_le64(const uint8_t *p) {
  return scp_le32(p) | (uint64_t)scp_le32(p + 4) << 32;
}
static inline void scp_put_le16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void scp_put_le32(uint8_t *p, uint32_t v) {
  scp_put_le16(p, (uint16_t)v);
  scp_put_le16(p + 2, (uint16_t)(v >> 16));
}
static inline void scp_put_le64(uint8_t *p, uint64_t v) {
  scp_put_le32(p, (uint32_t)v);
  scp_put_le32(p + 4, (uint32_t)(v >> 32));
}

/* ---- hashing --------------------------------------------------------- */
static inline uint64_t scp_hash64(uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33; return x;
}
uint64_t scp_hash_bytes(const void *p, size_t n);  /* FNV-1a 64 */
/* MurmurHash3 x86_32, seed 0: sBPF's syscall and function keys.  Inline so
 * that the fixture linker (tools/sbpf-link.c), which links no library,
 * computes the same keys as the loader. */
static inline uint32_t scp_murmur3_32(const void *data, size_t len) {
  const uint8_t *p = data;
  uint32_t h = 0, k;
  size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    k = scp_le32(p + i) * 0xcc9e2d51u;
    k = (k << 15 | k >> 17) * 0x1b873593u;
    h ^= k;
    h = (h << 13 | h >> 19) * 5 + 0xe6546b64u;
  }
  k = 0;
  switch (len & 3) {
  case 3: k ^= (uint32_t)p[i + 2] << 16; /* fall through */
  case 2: k ^= (uint32_t)p[i + 1] << 8;  /* fall through */
  case 1: k ^= p[i]; k *= 0xcc9e2d51u; k = (k << 15 | k >> 17) * 0x1b873593u; h ^= k;
  }
  h ^= (uint32_t)len;
  h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
  return h;
}

/* ---- string interning -------------------------------------------------
 * Stable ids: the n-th distinct string gets id n (0 is reserved for "").
 * Strings are copied; pointers stay valid until scp_strtab_free. */
typedef struct scp_strtab {
  char **strs;
  size_t n, cap;
  uint32_t *slots;   /* open addressing, id+1 (0 = empty) */
  size_t nslots;
  uint32_t *hash;    /* each string's hash (rehashing reads, not recomputes) */
  char *block;       /* the strings live in blocks, each linked to the one before */
  size_t left;       /* bytes free at the end of block */
} scp_strtab;

/* Returns the id, or UINT32_MAX on OOM. */
uint32_t scp_strtab_intern(scp_strtab *t, const char *s);
uint32_t scp_strtab_intern_n(scp_strtab *t, const char *s, size_t len);
/* The same for s of exactly len bytes (no NUL among them) whose hash,
 * scp_murmur3_32(s, len), the caller kept: the table hashes nothing. */
uint32_t scp_strtab_intern_h(scp_strtab *t, const char *s, size_t len, uint32_t hash);
/* Room for n strings in all (the table begun, "" in it) without growing
 * again; false on OOM (the table stays as it was, and valid). */
bool scp_strtab_reserve(scp_strtab *t, size_t n);
/* n strings at once: bytes[0, nbytes) copied in one piece, string i the
 * NUL-ended one at off[i] with hash[i] (scp_murmur3_32 of its bytes), its
 * id in ids[i] (the id it had when the table held it already).  false on
 * OOM (ids then undefined; the table valid). */
bool scp_strtab_intern_block(scp_strtab *t, const char *bytes, size_t nbytes, const uint32_t *off,
                             const uint32_t *hash, size_t n, uint32_t *ids);
static inline const char *scp_strtab_get(const scp_strtab *t, uint32_t id) {
  return id < t->n ? t->strs[id] : "";
}
void scp_strtab_free(scp_strtab *t);

/* ---- byte-string maps (scp_bmap.c) -----------------------------------
 * Keys (copied; any bytes) to size_t values, by hash: for the loaders'
 * "is this name or key already there, and where", which a scan of
 * everything read so far would make quadratic.  A value pointer stays
 * valid until the next scp_bmap_put. */
typedef struct scp_bmap_ent {
  uint64_t hash;
  size_t off, len;         /* the key: keys[off, off + len) */
  size_t val;
} scp_bmap_ent;

typedef struct scp_bmap_slot {
  uint32_t ent;            /* entry + 1, 0 = empty */
  uint32_t tag;            /* the top half of its key's hash */
} scp_bmap_slot;

typedef struct scp_bmap {
  scp_bmap_ent *ents;
  size_t n, cap;
  uint8_t *keys;           /* every key's bytes, back to back */
  size_t nkeys, capkeys;
  scp_bmap_slot *slots;    /* open addressing */
  size_t nslots;
} scp_bmap;

/* The value of key, added with value 0 when absent (*added then true);
 * NULL when out of memory. */
size_t *scp_bmap_put(scp_bmap *m, const void *key, size_t len, bool *added);
/* The value of key, or NULL when it is absent. */
size_t *scp_bmap_get(const scp_bmap *m, const void *key, size_t len);
void scp_bmap_free(scp_bmap *m);

/* The one rule for names and text that scprof writes out: control
 * characters (below 0x20, and 0x7f) and bytes that are not part of valid
 * UTF-8 become the four characters \xNN (uppercase hex); everything else,
 * backslash included, is kept.  Deterministic: the same bytes always give
 * the same text. */
size_t scp_utf8_len(const char *s, size_t left);   /* 1..4, or 0: not valid UTF-8 */
bool scp_text_is_safe(const char *s, size_t len);
void scp_buf_put_safe(scp_buf *b, const char *s, size_t len);
/* Interns s (len bytes) under that rule.  UINT32_MAX on OOM. */
uint32_t scp_strtab_intern_safe(scp_strtab *t, const char *s, size_t len);

/* Read a whole file.  Returns SCP_OK, SCP_ERR_IO (err names the path). */
int scp_read_file(const char *path, uint8_t **data, size_t *len, scp_error *err);

/* Largest inputs read (README "Input limits"), each well above what the
 * network takes (a contract's code is at most 128 KiB, a transaction
 * 129 KiB) so that debug builds and generous scenarios still fit. */
#define SCP_MAX_WASM_BYTES (64u << 20)       /* a module, DWARF included */
#define SCP_MAX_SCENARIO_BYTES (16u << 20)   /* a scenario file */
#define SCP_MAX_ARG_BYTES (1u << 20)         /* one argument's text (JSON) */
#define SCP_MAX_PROFILE_BYTES (1u << 30)     /* a profile JSON read back */
#define SCP_MAX_ELF_BYTES (64u << 20)        /* an sBPF program, DWARF included */
#define SCP_MAX_DATA_BYTES (10u << 20)       /* instruction or account data from a file:
                                                the runtime's 10 MiB account maximum */

/* scp_read_file refusing, before reading, a file over max bytes:
 * SCP_ERR_LIMIT "PATH: N bytes, over the M-byte limit for WHAT". */
int scp_read_file_max(const char *path, size_t max, const char *what, uint8_t **data,
                      size_t *len, scp_error *err);

#endif
