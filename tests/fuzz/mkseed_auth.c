/*
 * mkseed_auth.c — seeds for fuzz_auth: fuzz_host inputs with signed
 * entries on (byte 1 bit 6; random otherwise, from a fixed xorshift
 * sequence), each rewritten as a fuzz_auth input: the same two option
 * bytes, the entries fh_entries built (their raw XDR, some corrupted, as
 * it corrupts them), then the rest of the input as host-call steps.
 *   clang -Iinclude -Isrc -Itests/fuzz -o build/mkseed_auth tests/fuzz/mkseed_auth.c \
 *     build/lib/libscprof.a $(pkg-config --libs libdw libelf jansson libcrypto libsodium \
 *     libsecp256k1 zlib gmp) -liberty -lm
 *   build/mkseed_auth OUT N
 */
#include "fuzz_host.h"

static FILE *out;
static const uint8_t *cur;

static void hook(fh_state *s, const uint8_t *const *p, const size_t *l, size_t n) {
  if (!n) return;
  uint8_t hdr[3] = { cur[0], (uint8_t)(cur[1] & ~0x40), (uint8_t)(n - 1) };
  fwrite(hdr, 1, 3, out);
  for (size_t i = 0; i < n; i++) {
    uint8_t len[2] = { (uint8_t)(l[i] >> 8), (uint8_t)l[i] };
    fwrite(len, 1, 2, out);
    fwrite(p[i], 1, l[i], out);
  }
  fwrite(s->in.p + s->in.at, 1, s->in.n - s->in.at, out);
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  unsigned n = (unsigned)atoi(argv[2]);
  uint64_t x = 88172645463325252ull;
  fh_entries_hook = hook;
  for (unsigned k = 0; k < n; k++) {
    uint8_t in[600];
    for (size_t i = 0; i < sizeof in; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      in[i] = (uint8_t)x;
    }
    in[0] = (uint8_t)(0x38 | (in[0] & 0x07));   /* enough budget for a signature check */
    in[1] = (uint8_t)(0x40 | (in[1] & 0xa0) | (k & 1 ? 0x20 : 0));
    in[2] = (uint8_t)(1 + k % 3);   /* entries */
    char path[1024];
    snprintf(path, sizeof path, "%s/seed-%04u", argv[1], k);
    if (!(out = fopen(path, "wb"))) return 1;
    cur = in;
    fuzz_host_one(in, sizeof in);
    long len = ftell(out);
    fclose(out);
    if (len <= 0) remove(path);
  }
  return 0;
}
