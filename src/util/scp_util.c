/*
 * scp_util.c — error filling, growable storage, buffers, LEB128, interning.
 */
#include "util/scp_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct { const char *text; int exit_status; } status_table[] = {
#define X(code, status, message) {.text = message, .exit_status = status},
#include "scprof_err.def"
#undef X
};
_Static_assert(SCP_ARRAY_LEN(status_table) == SCP_STATUS_COUNT,
               "one text per status");

const char *scp_strerror(int status) {
  if (status < 0 || status >= SCP_STATUS_COUNT) return "unknown status";
  return status_table[status].text;
}

int scp_exit_status(int status) {
  if (status < 0 || status >= SCP_STATUS_COUNT) return 1;
  return status_table[status].exit_status;
}

/* Copy len bytes of src into dst (cap bytes, NUL included); when they do
 * not fit, the middle goes, marked "...": the start (the file's name) and
 * the end (the reason) both survive a long path.  Cuts fall on UTF-8
 * character boundaries. */
static void fit_middle(char *dst, size_t cap, const char *src, size_t len) {
  if (len < cap) {
    memcpy(dst, src, len);
    dst[len] = 0;
    return;
  }
  size_t head = (cap - 4) / 3, tail = cap - 4 - head;
  while (head && ((unsigned char)src[head] & 0xc0) == 0x80) head--;
  size_t from = len - tail;
  while (from < len && ((unsigned char)src[from] & 0xc0) == 0x80) from++;
  memcpy(dst, src, head);
  memcpy(dst + head, "...", 3);
  memcpy(dst + head + 3, src + from, len - from);
  dst[head + 3 + len - from] = 0;
}

int scp_fail(scp_error *err, int code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    char *full = NULL;
    int n = vasprintf(&full, fmt, ap);
    va_end(ap);
    if (n >= 0) fit_middle(err->msg, sizeof err->msg, full, (size_t)n);
    else snprintf(err->msg, sizeof err->msg, "%s", fmt);
    free(full);
    for (char *c = err->msg; *c; c++)  /* one line, always */
      if (*c == '\n' || *c == '\r') *c = ' ';
  }
  return code;
}

void scp_error_prefix(scp_error *err, const char *prefix) {
  if (!err || !prefix) return;
  char *full = NULL;
  int n = asprintf(&full, "%s: %s", prefix, err->msg);
  if (n < 0) return;
  fit_middle(err->msg, sizeof err->msg, full, (size_t)n);
  free(full);
}

bool scp_grow(void *pptr, size_t *cap, size_t need, size_t elem) {
  void **pp = (void **)pptr;
  if (need <= *cap) return true;
  size_t ncap = *cap ? *cap : 8;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2) return false;
    ncap *= 2;
  }
  if (elem && ncap > SIZE_MAX / elem) return false;
  void *np = realloc(*pp, ncap * elem);
  if (!np) return false;
  *pp = np;
  *cap = ncap;
  return true;
}

/* ---- buffer ---------------------------------------------------------- */

bool scp_write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    errno = 0;
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (!errno) errno = EIO;   /* a write that took nothing and said nothing */
      return false;
    }
    c += w;
    n -= (size_t)w;
  }
  return true;
}

/* Writes n bytes to the sink; false (and io_err set) when it fails.  A
 * stream on a file descriptor gets them in one write(2) (after what stdio
 * already holds of it): through fwrite, an output over stdio's block
 * (4 KiB) costs two, its whole blocks and then the rest.  A stream
 * without one (fmemopen, fopencookie) goes through fwrite. */
static bool sink_write(scp_buf *b, const void *p, size_t n) {
  errno = 0;
  if (!n) return true;
  int fd = fileno(b->sink);
  if (fd < 0) {
    if (fwrite(p, 1, n, b->sink) == n) return true;
  } else if (fflush(b->sink) == 0 && scp_write_all(fd, p, n)) {
    return true;
  }
  b->io_err = true;
  b->sink_errno = errno ? errno : EIO;
  return false;
}

char *scp_buf_room_slow(scp_buf *b, size_t max) {
  if (b->oom || b->io_err) return NULL;
  if (b->sink && max >= SCP_BUF_CHUNK) {   /* more than a window can hold */
    b->oom = true;
    return NULL;
  }
  /* len + max + 1 (the NUL) stays within a chunk, so cap never passes it */
  if (b->sink && b->len + max >= SCP_BUF_CHUNK) {
    if (!sink_write(b, b->data, b->len)) return NULL;
    b->len = 0;
    if (b->data) b->data[0] = 0;
  }
  /* a file's window is a whole chunk from the start, allocated once: no
   * copy of what it holds as it grows, and a file under a chunk goes out
   * in one write at the end (pages the file does not reach are never
   * touched) */
  size_t need = b->len + max + 1;
  if (b->sink && need < SCP_BUF_CHUNK) need = SCP_BUF_CHUNK;
  /* a string builder starts at 256 bytes rather than doubling up to them
   * from 8: the writers' scratch buffers (a cell, a nested message) are
   * made by the thousand */
  if (!b->sink && need < 256) need = 256;
  if (need <= b->len || !scp_grow(&b->data, &b->cap, need, 1)) {
    b->oom = true;
    return NULL;
  }
  return b->data + b->len;
}

/* A chunk or more goes straight to the sink, after what b holds. */
static void put_through(scp_buf *b, const void *p, size_t n) {
  if (b->oom || b->io_err || !sink_write(b, b->data, b->len)) return;
  b->len = 0;
  if (b->data) b->data[0] = 0;
  sink_write(b, p, n);
}

void scp_buf_put_slow(scp_buf *b, const void *p, size_t n) {
  if (SCP_UNLIKELY(b->sink && n >= SCP_BUF_CHUNK)) {
    put_through(b, p, n);
    return;
  }
  char *o = scp_buf_room(b, n);
  if (SCP_UNLIKELY(!o)) return;
  if (n) memcpy(o, p, n);   /* p may be NULL when n is 0 */
  scp_buf_commit(b, o + n);
}

void scp_buf_printf(scp_buf *b, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  bool done = scp_fmt_fast(b, fmt, ap);
  va_end(ap);
  if (done) return;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) { b->oom = true; return; }
  if ((size_t)n < sizeof small) { scp_buf_put(b, small, (size_t)n); return; }
  char *big = malloc((size_t)n + 1);
  if (!big) { b->oom = true; return; }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  scp_buf_put(b, big, (size_t)n);
  free(big);
}

void scp_buf_put_xml(scp_buf *b, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': scp_buf_puts(b, "&lt;"); break;
    case '>': scp_buf_puts(b, "&gt;"); break;
    case '&': scp_buf_puts(b, "&amp;"); break;
    case '"': scp_buf_puts(b, "&quot;"); break;
    case '\'': scp_buf_puts(b, "&apos;"); break;
    default: scp_buf_putc(b, *s);
    }
  }
}

void scp_buf_free(scp_buf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

int scp_buf_write(const scp_buf *b, FILE *f) {
  if (b->oom) return SCP_ERR_NOMEM;
  if (b->io_err) return SCP_ERR_IO;
  if (b->len && fwrite(b->data, 1, b->len, f) != b->len) return SCP_ERR_IO;
  return fflush(f) == 0 ? SCP_OK : SCP_ERR_IO;
}

int scp_buf_flush(scp_buf *b) {
  if (b->oom) return SCP_ERR_NOMEM;
  if (!b->sink) return b->io_err ? SCP_ERR_IO : SCP_OK;
  if (!b->io_err && sink_write(b, b->data, b->len)) {
    b->len = 0;
    if (b->data) b->data[0] = 0;
    errno = 0;
    if (fflush(b->sink) != 0) {
      b->io_err = true;
      b->sink_errno = errno ? errno : EIO;
    }
  }
  return b->io_err ? SCP_ERR_IO : SCP_OK;
}

/* ---- LEB128 ---------------------------------------------------------- */

static bool leb_unsigned(const uint8_t **pp, const uint8_t *end, unsigned bits,
                         uint64_t *out) {
  const uint8_t *p = *pp;
  uint64_t r = 0;
  unsigned shift = 0;
  for (;;) {
    if (p >= end) return false;
    uint8_t byte = *p++;
    if (shift + 7 >= bits) {          /* last permitted byte */
      if (byte & 0x80) return false;  /* too long */
      unsigned used = bits - shift;   /* bits this byte may carry */
      if (used < 7 && (byte >> used) != 0) return false;
      r |= (uint64_t)byte << shift;
      break;
    }
    r |= (uint64_t)(byte & 0x7f) << shift;
    shift += 7;
    if (!(byte & 0x80)) break;
  }
  *pp = p;
  *out = r;
  return true;
}

static bool leb_signed(const uint8_t **pp, const uint8_t *end, unsigned bits,
                       int64_t *out) {
  const uint8_t *p = *pp;
  uint64_t r = 0;
  unsigned shift = 0;
  uint8_t byte;
  for (;;) {
    if (p >= end) return false;
    byte = *p++;
    if (shift + 7 >= bits) {
      if (byte & 0x80) return false;
      unsigned used = bits - shift;   /* 1..7 significant bits here */
      if (used < 7) {
        /* the spare high bits must all equal the sign bit */
        uint8_t spare = (uint8_t)(byte >> (used - 1)) & 0x7f;
        uint8_t ones = (uint8_t)(0x7f >> (used - 1));
        if (spare != 0 && spare != ones) return false;
      }
      r |= (uint64_t)(byte & 0x7f) << shift;
      shift += 7;
      break;
    }
    r |= (uint64_t)(byte & 0x7f) << shift;
    shift += 7;
    if (!(byte & 0x80)) break;
  }
  if (shift < 64 && (byte & 0x40)) r |= ~0ULL << shift;
  *pp = p;
  *out = (int64_t)r;
  return true;
}

bool scp_leb_u32(const uint8_t **p, const uint8_t *end, uint32_t *out) {
  uint64_t v;
  if (!leb_unsigned(p, end, 32, &v)) return false;
  *out = (uint32_t)v;
  return true;
}
bool scp_leb_u64(const uint8_t **p, const uint8_t *end, uint64_t *out) {
  return leb_unsigned(p, end, 64, out);
}
bool scp_leb_s32(const uint8_t **p, const uint8_t *end, int32_t *out) {
  int64_t v;
  if (!leb_signed(p, end, 32, &v)) return false;
  *out = (int32_t)v;
  return true;
}
bool scp_leb_s64(const uint8_t **p, const uint8_t *end, int64_t *out) {
  return leb_signed(p, end, 64, out);
}
bool scp_leb_s33(const uint8_t **p, const uint8_t *end, int64_t *out) {
  return leb_signed(p, end, 33, out);
}

/* ---- hashing & interning --------------------------------------------- */

uint64_t scp_hash_bytes(const void *p, size_t n) {
  const uint8_t *s = p;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) { h ^= s[i]; h *= 0x100000001b3ULL; }
  return h;
}

static bool strtab_rehash(scp_strtab *t, size_t nslots) {
  uint32_t *slots = calloc(nslots, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < t->n; i++) {
    size_t h = t->hash[i] & (nslots - 1);
    while (slots[h]) h = (h + 1) & (nslots - 1);
    slots[h] = (uint32_t)i + 1;
  }
  free(t->slots);
  t->slots = slots;
  t->nslots = nslots;
  return true;
}

/* Room for n bytes in the table's blocks (a malloc per string was most of
 * interning a profile's instruction texts).  A block starts with the
 * address of the one before; a long string gets a block of its own. */
static char *strtab_alloc(scp_strtab *t, size_t n) {
  enum { BLOCK = 8192 };
  if (n <= t->left) {
    char *at = t->block + (BLOCK - t->left);
    t->left -= n;
    return at;
  }
  size_t size = n > BLOCK / 4 ? n : BLOCK;
  char *b = malloc(sizeof(char *) + size);
  if (!b) return NULL;
  char **link = (char **)(void *)b;
  char *data = b + sizeof(char *);
  if (size == BLOCK) {   /* the new current block */
    *link = t->block ? t->block - sizeof(char *) : NULL;
    t->block = data;
    t->left = BLOCK - n;
  } else {               /* behind the current one in the chain */
    char **cur = t->block ? (char **)(void *)(t->block - sizeof(char *)) : NULL;
    if (cur) {
      *link = *cur;
      *cur = b;
    } else {
      *link = NULL;
      t->block = data;   /* a chain of one block that is full */
      t->left = 0;
      /* its size is not BLOCK: nothing is ever placed after it */
    }
  }
  return data;
}

/* four bytes a step: the ids follow insertion order, not the hash */
static uint32_t strtab_hash(const char *s, size_t len) { return scp_murmur3_32(s, len); }

/* Room for n strings (n > cap).  The hashes grow first and strs' cap is
 * theirs too, so a failure on either leaves cap what both arrays hold: a
 * table that ran out of memory once stays valid. */
static bool strtab_grow(scp_strtab *t, size_t n) {
  if (n > SIZE_MAX / sizeof *t->strs) return false;
  uint32_t *hash = realloc(t->hash, n * sizeof *hash);
  if (!hash) return false;
  t->hash = hash;
  char **strs = realloc(t->strs, n * sizeof *strs);
  if (!strs) return false;
  t->strs = strs;
  t->cap = n;
  return true;
}

uint32_t scp_strtab_intern_n(scp_strtab *t, const char *s, size_t len) {
  /* Entries are C strings: a name with a NUL in it (a hostile name
   * section can hold one) is the part before it, so that its hash, its
   * stored copy and the comparison below all see the same bytes. */
  len = strnlen(s, len);
  if (t->n == 0) {  /* id 0 is always "" */
    if (!t->cap && !strtab_grow(t, 8)) return UINT32_MAX;
    if (!(t->strs[0] = strtab_alloc(t, 1))) return UINT32_MAX;
    t->strs[0][0] = 0;
    t->hash[0] = strtab_hash("", 0);
    t->n = 1;
    if (!strtab_rehash(t, 64)) return UINT32_MAX;
  }
  if (len == 0) return 0;
  return scp_strtab_intern_h(t, s, len, strtab_hash(s, len));
}

uint32_t scp_strtab_intern_h(scp_strtab *t, const char *s, size_t len, uint32_t hv) {
  if (t->n == 0 || len == 0) return scp_strtab_intern_n(t, s, len);
  size_t mask = t->nslots - 1;
  size_t h = hv & mask;
  for (; t->slots[h]; h = (h + 1) & mask) {
    uint32_t id = t->slots[h] - 1;
    const char *c = t->strs[id];
    if (t->hash[id] == hv && strncmp(c, s, len) == 0 && c[len] == 0) return id;
  }
  if (t->n >= UINT32_MAX - 1) return UINT32_MAX;
  if (t->n == t->cap && !strtab_grow(t, t->cap ? t->cap * 2 : 8)) return UINT32_MAX;
  char *copy = strtab_alloc(t, len + 1);
  if (!copy) return UINT32_MAX;
  memcpy(copy, s, len);
  copy[len] = 0;
  uint32_t id = (uint32_t)t->n++;
  t->strs[id] = copy;
  t->hash[id] = hv;
  t->slots[h] = id + 1;
  if (t->n * 2 > t->nslots && !strtab_rehash(t, t->nslots * 2)) {
    /* table stays valid at the old size; only lookups slow down */
  }
  return id;
}

bool scp_strtab_reserve(scp_strtab *t, size_t n) {
  if (scp_strtab_intern_n(t, "", 0) == UINT32_MAX) return false;
  if (n > t->cap && !strtab_grow(t, n)) return false;
  size_t slots = t->nslots;
  while (n * 2 > slots) slots *= 2;
  return slots == t->nslots || strtab_rehash(t, slots);
}

uint32_t scp_strtab_intern(scp_strtab *t, const char *s) {
  return scp_strtab_intern_n(t, s, strlen(s));
}

bool scp_strtab_intern_block(scp_strtab *t, const char *bytes, size_t nbytes, const uint32_t *off,
                             const uint32_t *hash, size_t n, uint32_t *ids) {
  if (!n) return true;
  if (t->n > SIZE_MAX - n || !scp_strtab_reserve(t, t->n + n)) return false;
  char *block = strtab_alloc(t, nbytes);
  if (!block) return false;
  memcpy(block, bytes, nbytes);
  size_t mask = t->nslots - 1;
  for (size_t i = 0; i < n; i++) {
    const char *s = block + off[i];
    uint32_t hv = hash[i];
    size_t h = hv & mask;
    ids[i] = UINT32_MAX;
    for (; t->slots[h]; h = (h + 1) & mask) {
      uint32_t id = t->slots[h] - 1;
      if (t->hash[id] == hv && !strcmp(t->strs[id], s)) {
        ids[i] = id;
        break;
      }
    }
    if (ids[i] != UINT32_MAX) continue;
    if (t->n >= UINT32_MAX - 1) return false;
    /* room reserved: no growing, no rehashing below half full */
    ids[i] = (uint32_t)t->n++;
    t->strs[ids[i]] = (char *)s;
    t->hash[ids[i]] = hv;
    t->slots[h] = ids[i] + 1;
  }
  return true;
}

void scp_strtab_free(scp_strtab *t) {
  for (char *b = t->block ? t->block - sizeof(char *) : NULL; b;) {
    char *prev = *(char **)(void *)b;
    free(b);
    b = prev;
  }
  free(t->hash);
  free(t->strs);
  free(t->slots);
  memset(t, 0, sizeof *t);
}

static int read_file(const char *path, size_t max, const char *what, uint8_t **data,
                     size_t *len, scp_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return scp_fail(err, SCP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  /* the size a regular file says it has is refused before any allocation;
   * a pipe is stopped when it passes the limit */
  struct stat st;
  bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  if (regular && (uint64_t)st.st_size > max) {
    fclose(f);
    return scp_fail(err, SCP_ERR_LIMIT, "%s: %llu bytes, over the %zu-byte limit for %s", path,
                    (unsigned long long)st.st_size, max, what);
  }
  /* a regular file's own size first, so a small file costs a small
   * buffer (a scenario holds thousands of modules) */
  size_t first = regular ? (size_t)st.st_size + 1 : 65536;
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap && !scp_grow(&buf, &cap, n ? n + 65536 : first, 1)) {
      fclose(f);
      free(buf);
      return scp_fail(err, SCP_ERR_NOMEM, "%s: out of memory reading file", path);
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
    if (n > max) {
      fclose(f);
      free(buf);
      return scp_fail(err, SCP_ERR_LIMIT, "%s: over the %zu-byte limit for %s", path, max, what);
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return scp_fail(err, SCP_ERR_IO, "%s: read error", path);
  }
  *data = buf;
  *len = n;
  return SCP_OK;
}

size_t scp_utf8_len(const char *str, size_t left) {
  const unsigned char *s = (const unsigned char *)str;
  if (!left) return 0;
  if (s[0] < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (s[0] >= 0xc2 && s[0] <= 0xdf) n = 2, cp = s[0] & 0x1f;
  else if (s[0] >= 0xe0 && s[0] <= 0xef) n = 3, cp = s[0] & 0x0f;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4) n = 4, cp = s[0] & 0x07;
  else return 0;
  if (left < n) return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  /* overlong forms, UTF-16 surrogates, past U+10FFFF */
  if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || (cp >= 0xd800 && cp <= 0xdfff) ||
      cp > 0x10ffff)
    return 0;
  return n;
}

static bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

bool scp_text_is_safe(const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f) {   /* printable ASCII, most of any text */
      i++;
      continue;
    }
    size_t n = scp_utf8_len(s + i, len - i);
    if (!n || (n == 1 && is_control((unsigned char)s[i]))) return false;
    i += n;
  }
  return true;
}

void scp_buf_put_safe(scp_buf *b, const char *s, size_t len) {
  static const char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < len;) {
    size_t n = scp_utf8_len(s + i, len - i);
    if (n && !(n == 1 && is_control((unsigned char)s[i]))) {
      scp_buf_put(b, s + i, n);
      i += n;
      continue;
    }
    unsigned char c = (unsigned char)s[i++];
    char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    scp_buf_put(b, esc, 4);
  }
}

uint32_t scp_strtab_intern_safe(scp_strtab *t, const char *s, size_t len) {
  if (scp_text_is_safe(s, len)) return scp_strtab_intern_n(t, s, len);
  scp_buf b = {0};
  scp_buf_put_safe(&b, s, len);
  uint32_t id = b.oom ? UINT32_MAX : scp_strtab_intern_n(t, b.data, b.len);
  scp_buf_free(&b);
  return id;
}

int scp_read_file(const char *path, uint8_t **data, size_t *len, scp_error *err) {
  return read_file(path, SIZE_MAX, "a file", data, len, err);
}

int scp_read_file_max(const char *path, size_t max, const char *what, uint8_t **data,
                      size_t *len, scp_error *err) {
  return read_file(path, max, what, data, len, err);
}
