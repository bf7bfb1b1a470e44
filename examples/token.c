/*
 * token.c — a fungible token in C, as the soroban-sdk token example
 * (soroban-examples/token) writes it in Rust: the same storage layout, TTL
 * extensions and events, so its costs are those of the usual Soroban token.
 *
 * __constructor(admin: Address, decimal: u32, name: String, symbol: String)
 *   instance storage: DataKey::Admin (the ScVal Vec [Symbol "Admin"]) =
 *   admin, and "METADATA" = {decimal, name, symbol} (soroban-token-sdk's
 *   TokenMetadata); decimal above 18 traps.
 * mint(to, amount)                  admin.require_auth()
 * transfer(from, to, amount)        from.require_auth(); traps when short
 * balance(id) -> i128
 * approve(from, spender, amount, expiration_ledger)   from.require_auth()
 * allowance(from, spender) -> i128
 * decimals() -> u32, name() -> String, symbol() -> String
 *
 * Balances are persistent entries keyed DataKey::Balance(addr) (Vec
 * [Symbol "Balance", addr]), extended to 30 days whenever read or written
 * with under 29 days left; allowances are temporary entries keyed
 * DataKey::Allowance({from, spender}) holding {amount, expiration_ledger},
 * living until the expiration ledger.  Every call but the metadata getters
 * extends the instance (and code) to 7 days when under 6 are left.  Events
 * as soroban-token-sdk publishes them (CAP-67): ["mint", to] amount,
 * ["transfer", from, to] amount, ["approve", from, spender] [amount,
 * expiration_ledger].  Negative amounts trap.
 *
 * i128 values arrive as I128Small when they fit in 56 bits, else as an
 * object; both are read, and results are made the same way (the SDK's
 * conversion).  __int128 addition and comparison compile to plain i64 code
 * (no compiler-rt call, which would become an import).
 *
 *   scprof profile --scenario examples/token.json
 */
#include "soroban.h"
#include "contract_meta.h"

#define TEMPORARY ((Val)0)
#define PERSISTENT ((Val)1)
#define INSTANCE ((Val)2)

/* storage_types.rs of the SDK example */
#define DAY_IN_LEDGERS 17280u
#define INSTANCE_BUMP_AMOUNT (7 * DAY_IN_LEDGERS)
#define INSTANCE_LIFETIME_THRESHOLD (INSTANCE_BUMP_AMOUNT - DAY_IN_LEDGERS)
#define BALANCE_BUMP_AMOUNT (30 * DAY_IN_LEDGERS)
#define BALANCE_LIFETIME_THRESHOLD (BALANCE_BUMP_AMOUNT - DAY_IN_LEDGERS)

__asm__(
  SPEC_SECTION
  /* fn __constructor(admin: address, decimal: u32, name: string, symbol: string) */
  XW(SPEC_FN) XSTR(53, "Sets the admin and the metadata (decimal at most 18).", XP3) XSTR(13, "__constructor", XP3) XW(4)
    XEMPTY XSTR(5, "admin", XP3) XW(SPEC_ADDRESS)
    XEMPTY XSTR(7, "decimal", XP1) XW(SPEC_U32)
    XEMPTY XSTR(4, "name", XP0) XW(SPEC_STRING)
    XEMPTY XSTR(6, "symbol", XP2) XW(SPEC_STRING)
    XW(0)
  /* fn mint(to: address, amount: i128) */
  XW(SPEC_FN) XSTR(52, "Mints amount to to; needs the admin's authorization.", XP0) XSTR(4, "mint", XP0) XW(2)
    XEMPTY XSTR(2, "to", XP2) XW(SPEC_ADDRESS)
    XEMPTY XSTR(6, "amount", XP2) XW(SPEC_I128)
    XW(0)
  /* fn transfer(from: address, to: address, amount: i128) */
  XW(SPEC_FN) XSTR(57, "Moves amount from from to to; needs from's authorization.", XP3) XSTR(8, "transfer", XP0) XW(3)
    XEMPTY XSTR(4, "from", XP0) XW(SPEC_ADDRESS)
    XEMPTY XSTR(2, "to", XP2) XW(SPEC_ADDRESS)
    XEMPTY XSTR(6, "amount", XP2) XW(SPEC_I128)
    XW(0)
  /* fn balance(id: address) -> i128 */
  XW(SPEC_FN) XSTR(39, "The balance of id (0 when it has none).", XP1) XSTR(7, "balance", XP1) XW(1)
    XEMPTY XSTR(2, "id", XP2) XW(SPEC_ADDRESS)
    XW(1) XW(SPEC_I128)
  /* fn approve(from: address, spender: address, amount: i128, expiration_ledger: u32) */
  XW(SPEC_FN) XSTR(60, "Lets spender spend amount of from's until expiration_ledger.", XP0) XSTR(7, "approve", XP1) XW(4)
    XEMPTY XSTR(4, "from", XP0) XW(SPEC_ADDRESS)
    XEMPTY XSTR(7, "spender", XP1) XW(SPEC_ADDRESS)
    XEMPTY XSTR(6, "amount", XP2) XW(SPEC_I128)
    XEMPTY XSTR(17, "expiration_ledger", XP3) XW(SPEC_U32)
    XW(0)
  /* fn allowance(from: address, spender: address) -> i128 */
  XW(SPEC_FN) XSTR(39, "What spender may still spend of from's.", XP1) XSTR(9, "allowance", XP3) XW(2)
    XEMPTY XSTR(4, "from", XP0) XW(SPEC_ADDRESS)
    XEMPTY XSTR(7, "spender", XP1) XW(SPEC_ADDRESS)
    XW(1) XW(SPEC_I128)
  /* fn decimals() -> u32 */
  XW(SPEC_FN) XEMPTY XSTR(8, "decimals", XP0) XW(0)
    XW(1) XW(SPEC_U32)
  /* fn name() -> string */
  XW(SPEC_FN) XEMPTY XSTR(4, "name", XP0) XW(0)
    XW(1) XW(SPEC_STRING)
  /* fn symbol() -> string */
  XW(SPEC_FN) XEMPTY XSTR(6, "symbol", XP2) XW(0)
    XW(1) XW(SPEC_STRING)
  ENV_META_SECTION
);

typedef __int128 i128;

/* The symbols the contract uses, packed as SymbolSmall at compile time
 * (what the SDK's symbol_short! does): val_symbol_small loops over the
 * text at run time, which costs guest fuel on every call. */
#define SYM_ADMIN ((Val)0xca72bb30eull)               /* "Admin" */
#define SYM_BALANCE ((Val)0xd9b19b3a2a0eull)          /* "Balance" */
#define SYM_ALLOWANCE ((Val)0xcc71d3c9b3a2a0eull)     /* "Allowance" */
#define SYM_METADATA ((Val)0x6107cc3cc7cc0eull)       /* "METADATA" */
#define SYM_MINT ((Val)0xcaecf90eull)                 /* "mint" */
#define SYM_TRANSFER ((Val)0xe779b3e2bab70eull)       /* "transfer" */
#define SYM_APPROVE ((Val)0x26d75df4eea0eull)         /* "approve" */

/* A symbol's name in linear memory, as map_*_linear_memory take keys. */
typedef struct slice {
  uint32_t ptr, len;
} slice;
#define SLICE(s) {(uint32_t)(uintptr_t)(s), sizeof(s) - 1}

static void panic(void) { __builtin_trap(); }

static i128 i128_of(Val v) {
  if (val_has_tag(v, SOROBAN_TAG_I128_SMALL)) return (int64_t)v >> 8;
  if (!val_has_tag(v, SOROBAN_TAG_I128_OBJECT)) panic();
  return (i128)obj_to_i128_hi64(v) << 64 | (i128)obj_to_i128_lo64(v);
}

static Val val_of_i128(i128 x) {
  if (x >= -((i128)1 << 55) && x < ((i128)1 << 55))
    return ((uint64_t)(int64_t)x << 8) | SOROBAN_TAG_I128_SMALL;
  return obj_from_i128_pieces((int64_t)(x >> 64), (uint64_t)x);
}

/* A contracttype enum's case with no value, or one value: the ScVal Vec
 * [Symbol case] or [Symbol case, x]. */
static Val enum_key(Val name, Val x, uint32_t n) {
  Val v[2] = {name, x};
  return vec_new_from_linear_memory(val_ptr(v), val_from_u32(n));
}

static void bump_instance(void) {
  extend_current_contract_instance_and_code_ttl(val_from_u32(INSTANCE_LIFETIME_THRESHOLD),
                                                val_from_u32(INSTANCE_BUMP_AMOUNT));
}

static void check_nonnegative(i128 amount) {
  if (amount < 0) panic();
}

/* ---- admin.rs, metadata.rs ---- */

static Val admin_key(void) { return enum_key(SYM_ADMIN, SOROBAN_VOID, 1); }

/* storage().instance().get(&key).unwrap(): has, then get, of the key
 * converted once */
static Val instance_get(Val key) {
  if (!val_is_true(has_contract_data(key, INSTANCE))) panic();
  return get_contract_data(key, INSTANCE);
}

static Val read_metadata(Val out[3]) {
  static const char k0[] = "decimal", k1[] = "name", k2[] = "symbol";
  static const slice keys[3] = {SLICE(k0), SLICE(k1), SLICE(k2)};
  return map_unpack_to_linear_memory(instance_get(SYM_METADATA), val_ptr(keys), val_ptr(out),
                                     val_from_u32(3));
}

/* ---- balance.rs ---- */

static Val balance_key(Val addr) { return enum_key(SYM_BALANCE, addr, 2); }

/* The SDK converts a DataKey to a Val at each storage call (get: once for
 * its has and get; extend_ttl and set: once each), so the key's Vec is
 * built that many times, as here. */
static i128 read_balance(Val addr) {
  Val key = balance_key(addr);
  if (!val_is_true(has_contract_data(key, PERSISTENT))) return 0;
  i128 b = i128_of(get_contract_data(key, PERSISTENT));
  extend_contract_data_ttl(balance_key(addr), PERSISTENT, val_from_u32(BALANCE_LIFETIME_THRESHOLD),
                           val_from_u32(BALANCE_BUMP_AMOUNT));
  return b;
}

static void write_balance(Val addr, i128 amount) {
  put_contract_data(balance_key(addr), val_of_i128(amount), PERSISTENT);
  extend_contract_data_ttl(balance_key(addr), PERSISTENT, val_from_u32(BALANCE_LIFETIME_THRESHOLD),
                           val_from_u32(BALANCE_BUMP_AMOUNT));
}

static void receive_balance(Val addr, i128 amount) {
  i128 sum;
  if (__builtin_add_overflow(read_balance(addr), amount, &sum)) panic();
  write_balance(addr, sum);
}

static void spend_balance(Val addr, i128 amount) {
  i128 b = read_balance(addr);
  if (b < amount) panic();   /* "insufficient balance" */
  write_balance(addr, b - amount);
}

/* ---- allowance.rs ---- */

static const char k_amount[] = "amount", k_expiration[] = "expiration_ledger";
static const slice allowance_fields[2] = {SLICE(k_amount), SLICE(k_expiration)};

static Val allowance_key(Val from, Val spender) {
  static const char k0[] = "from", k1[] = "spender";
  static const slice keys[2] = {SLICE(k0), SLICE(k1)};
  Val v[2] = {from, spender};
  Val m = map_new_from_linear_memory(val_ptr(keys), val_ptr(v), val_from_u32(2));
  return enum_key(SYM_ALLOWANCE, m, 2);
}

static i128 read_allowance(Val from, Val spender) {
  Val key = allowance_key(from, spender);
  if (!val_is_true(has_contract_data(key, TEMPORARY))) return 0;
  Val v[2];
  map_unpack_to_linear_memory(get_contract_data(key, TEMPORARY), val_ptr(allowance_fields), val_ptr(v),
                              val_from_u32(2));
  if (val_to_u32(v[1]) < val_to_u32(get_ledger_sequence())) return 0;
  return i128_of(v[0]);
}

static void write_allowance(Val from, Val spender, i128 amount, Val expiration) {
  uint32_t seq = val_to_u32(get_ledger_sequence()), exp = val_to_u32(expiration);
  if (amount > 0 && exp < seq) panic();
  Val key = allowance_key(from, spender);
  Val v[2] = {val_of_i128(amount), expiration};
  put_contract_data(key, map_new_from_linear_memory(val_ptr(allowance_fields), val_ptr(v), val_from_u32(2)),
                    TEMPORARY);
  if (amount > 0)
    extend_contract_data_ttl(allowance_key(from, spender), TEMPORARY, val_from_u32(exp - seq),
                             val_from_u32(exp - seq));
}

/* ---- events.rs (soroban-token-sdk) ---- */

static void publish(Val t0, Val t1, Val t2, uint32_t ntopics, Val data) {
  Val t[3] = {t0, t1, t2};
  contract_event(vec_new_from_linear_memory(val_ptr(t), val_from_u32(ntopics)), data);
}

/* ---- contract.rs ---- */

SOROBAN_EXPORT("__constructor") Val constructor(Val admin, Val decimal, Val name, Val symbol) {
  if (val_to_u32(decimal) > 18) panic();
  put_contract_data(admin_key(), admin, INSTANCE);
  static const char k0[] = "decimal", k1[] = "name", k2[] = "symbol";
  static const slice keys[3] = {SLICE(k0), SLICE(k1), SLICE(k2)};
  Val v[3] = {decimal, name, symbol};
  put_contract_data(SYM_METADATA,
                    map_new_from_linear_memory(val_ptr(keys), val_ptr(v), val_from_u32(3)), INSTANCE);
  return SOROBAN_VOID;
}

SOROBAN_EXPORT("mint") Val mint(Val to, Val amount) {
  i128 a = i128_of(amount);
  check_nonnegative(a);
  Val admin = instance_get(admin_key());
  require_auth(admin);
  bump_instance();
  receive_balance(to, a);
  publish(SYM_MINT, to, SOROBAN_VOID, 2, amount);
  return SOROBAN_VOID;
}

SOROBAN_EXPORT("transfer") Val transfer(Val from, Val to, Val amount) {
  require_auth(from);
  i128 a = i128_of(amount);
  check_nonnegative(a);
  bump_instance();
  spend_balance(from, a);
  receive_balance(to, a);
  publish(SYM_TRANSFER, from, to, 3, amount);
  return SOROBAN_VOID;
}

SOROBAN_EXPORT("balance") Val balance(Val id) {
  bump_instance();
  return val_of_i128(read_balance(id));
}

SOROBAN_EXPORT("approve") Val approve(Val from, Val spender, Val amount, Val expiration_ledger) {
  require_auth(from);
  i128 a = i128_of(amount);
  check_nonnegative(a);
  bump_instance();
  write_allowance(from, spender, a, expiration_ledger);
  Val d[2] = {amount, expiration_ledger};
  publish(SYM_APPROVE, from, spender, 3,
          vec_new_from_linear_memory(val_ptr(d), val_from_u32(2)));
  return SOROBAN_VOID;
}

SOROBAN_EXPORT("allowance") Val allowance(Val from, Val spender) {
  bump_instance();
  return val_of_i128(read_allowance(from, spender));
}

SOROBAN_EXPORT("decimals") Val decimals(void) {
  Val m[3];
  read_metadata(m);
  return m[0];
}

SOROBAN_EXPORT("name") Val name(void) {
  Val m[3];
  read_metadata(m);
  return m[1];
}

SOROBAN_EXPORT("symbol") Val symbol(void) {
  Val m[3];
  read_metadata(m);
  return m[2];
}
