/*
 * demo.c — the example contract `make demo` profiles.
 *
 * run(n: u32) -> u64 mixes the shapes a cost profile must tell apart:
 *   - a hot loop whose body is an always_inline helper (mix),
 *   - a noinline helper doing a second, smaller loop (checksum),
 *   - host calls: building a Vec, hashing linear memory with SHA-256,
 *     reading the ledger sequence, emitting a contract event,
 *   - a trap path: n > 10000 makes the contract fail with an error,
 *     and n == 9999 divides by zero.
 */
#include "soroban.h"

static uint8_t buffer[256];

static inline __attribute__((always_inline)) uint32_t mix(uint32_t h, uint32_t x) {
  h ^= x * 0x9e3779b9u;              /* the hot line: inlined into run's loop */
  h = (h << 5) | (h >> 27);
  return h * 33u + 7u;
}

__attribute__((noinline)) static uint32_t checksum(const uint8_t *p, uint32_t n) {
  uint32_t s = 0;
  for (uint32_t i = 0; i < n; i++)
    s += p[i] * (i + 1);
  return s;
}

__attribute__((noinline)) static Val collect(uint32_t count) {
  Val v = vec_new();
  for (uint32_t i = 0; i < count; i++)
    v = vec_push_back(v, val_from_u32(i * i));
  return v;
}

__attribute__((export_name("run"))) Val run(Val n_val) {
  uint32_t n = val_to_u32(n_val);
  if (n > 10000)
    fail_with_error(val_from_contract_error(1));
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < n * 16; i++)
    h = mix(h, i);
  for (uint32_t i = 0; i < sizeof buffer; i++)
    buffer[i] = (uint8_t)(h >> (i % 4 * 8));
  uint32_t c = checksum(buffer, sizeof buffer);
  if (n == 9999) {
    volatile uint32_t divisor = n - 9999;  /* volatile: keep the division */
    c /= divisor;                          /* the division-by-zero trap path */
  }
  Val items = collect(n / 20 + 1);
  Val bytes = bytes_new_from_linear_memory(val_ptr(buffer), val_from_u32(sizeof buffer));
  Val digest = compute_hash_sha256(bytes);
  Val topics = vec_push_back(vec_new(), val_symbol_small("run"));
  contract_event(topics, digest);
  uint32_t seq = val_to_u32(get_ledger_sequence());
  uint32_t len = val_to_u32(vec_len(items));
  return val_from_small_u64((uint64_t)h + c + seq + len);
}
