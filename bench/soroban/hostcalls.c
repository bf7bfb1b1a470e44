/* hostcalls.c — the host-call path alone: run(n) makes n calls of a cheap
 * host function (get_ledger_sequence) from a loop, so the profiler's
 * per-boundary work (fuel flush, node entry, booking) dominates. */
#include "soroban.h"

SOROBAN_EXPORT("run") Val run(Val n_val) {
  uint32_t n = val_to_u32(n_val);
  uint64_t s = 0;
  for (uint32_t i = 0; i < n; i++) s += get_ledger_sequence();
  return val_from_small_u64(s & 0xffff);
}
