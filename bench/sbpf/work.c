/* work.c — an sBPF benchmark program: n rounds (the first 4 instruction
 * bytes, little-endian) of mixing through a call that is not inlined and
 * a small loop, no syscalls, so every CU is a guest instruction and the
 * interpreter alone is measured. */
#include "sol.h"

static u64 __attribute__((noinline)) mix(u64 s, u64 i) {
  for (u64 k = 0; k < 4; k++) s = (s ^ (i * 0x9e3779b97f4a7c15ull)) + (s >> 7) + k;
  return s;
}

u64 entrypoint(const u8 *input) {
  const u8 *ix, *program_id;
  u64 ix_len;
  sol_account acc[1];
  sol_deserialize(input, acc, 1, &ix, &ix_len, &program_id);
  u64 n = ix_len >= 4 ? (u64)ix[0] | (u64)ix[1] << 8 | (u64)ix[2] << 16 | (u64)ix[3] << 24 : 1000;
  u64 s = 0;
  for (u64 i = 0; i < n; i++) s = mix(s, i);
  return s == 1 ? 1 : 0;
}
