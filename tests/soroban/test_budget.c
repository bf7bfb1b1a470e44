/*
 * test_budget.c — the Budget model (numbers worked out by hand from
 * cost_types.def), the host's dispatch order and charges, and argument
 * parsing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/core/host_private.h"
#include "host_fixture.h"

/* ---- budget model ------------------------------------------------------- */

static void test_defaults(void **state) {
  (void)state;
  scp_budget b;
  scp_budget_init(&b, 0, 0);
  assert_int_equal(b.cpu_limit, 100000000);
  assert_int_equal(b.mem_limit, 41943040);
  assert_int_equal(b.cpu, 0);
  assert_string_equal(scp_cost_type_name(SCP_COST_VisitObject), "VisitObject");
  assert_string_equal(scp_cost_type_name(SCP_COST_Bn254G1Msm), "Bn254G1Msm");
}

static void test_model_arithmetic(void **state) {
  (void)state;
  scp_budget b;
  scp_budget_init(&b, 0, 0);
  /* MemAlloc(64): cpu 434 + (16*64)>>7 = 434 + 8; mem 16 + (128*64)>>7 = 80 */
  assert_int_equal(scp_budget_cpu_cost(&b, SCP_COST_MemAlloc, 1, 64), 442);
  assert_int_equal(scp_budget_mem_cost(&b, SCP_COST_MemAlloc, 1, 64), 80);
  /* MemAlloc(7): (16*7)>>7 = 112>>7 = 0 -> 434; mem 16 + 896>>7 = 23 */
  assert_int_equal(scp_budget_cpu_cost(&b, SCP_COST_MemAlloc, 1, 7), 434);
  assert_int_equal(scp_budget_mem_cost(&b, SCP_COST_MemAlloc, 1, 7), 23);
  /* ValDeser(100): 331 + 436900>>7 = 331 + 3413 = 3744; mem 38400>>7 = 300 */
  assert_int_equal(scp_budget_cpu_cost(&b, SCP_COST_ValDeser, 1, 100), 3744);
  assert_int_equal(scp_budget_mem_cost(&b, SCP_COST_ValDeser, 1, 100), 300);
  /* iterations scale the linear term before the shift:
   * 5 x MemCpy(20): 210 + (16*20*5)>>7 = 210 + 1600>>7 = 210 + 12 = 222,
   * whereas 5 x (42 + 320>>7) would be 5 x 44 = 220 */
  assert_int_equal(scp_budget_cpu_cost(&b, SCP_COST_MemCpy, 5, 20), 222);
  /* constant types ignore the input */
  assert_int_equal(scp_budget_cpu_cost(&b, SCP_COST_WasmInsnExec, 1000, -1), 4000);
  assert_int_equal(scp_budget_mem_cost(&b, SCP_COST_InvokeVmFunction, 1, -1), 14);
  /* ComputeSha256Hash(1000000): 3636 + 7013000000>>7 = 3636 + 54789062 */
  assert_int_equal(scp_budget_cpu_cost(&b, SCP_COST_ComputeSha256Hash, 1, 1000000), 54792698);
  /* saturation */
  assert_true(scp_budget_cpu_cost(&b, SCP_COST_VmInstantiation, UINT64_MAX, 1) == UINT64_MAX);
  assert_true(scp_budget_cpu_cost(&b, SCP_COST_Bls12381Pairing, 1, INT64_MAX) ==
              (UINT64_MAX >> 7) + 10558948);
}

static void test_charge_then_check(void **state) {
  (void)state;
  scp_budget b;
  scp_budget_init(&b, 1000, 200);
  assert_int_equal(scp_budget_charge(&b, SCP_COST_MemAlloc, 1, 64), SCP_OK);
  assert_int_equal(scp_budget_charge(&b, SCP_COST_MemAlloc, 1, 64), SCP_OK);
  assert_int_equal(b.cpu, 884);
  assert_int_equal(b.mem, 160);
  /* crosses the CPU limit: CPU is counted, memory is not charged at all */
  assert_int_equal(scp_budget_charge(&b, SCP_COST_MemAlloc, 1, 64), SCP_ERR_BUDGET);
  assert_int_equal(b.cpu, 1326);
  assert_int_equal(b.mem, 160);
  assert_true(b.exceeded);
  assert_int_equal(b.tracker[SCP_COST_MemAlloc].iterations, 3);
  assert_int_equal(b.tracker[SCP_COST_MemAlloc].inputs, 192);
  assert_int_equal(b.tracker[SCP_COST_MemAlloc].cpu, 1326);
  assert_int_equal(b.tracker[SCP_COST_MemAlloc].mem, 160);

  /* reaching the limit exactly is fine; one more is not */
  scp_budget_init(&b, 295, 0);
  assert_int_equal(scp_budget_charge(&b, SCP_COST_DispatchHostFunction, 1, -1), SCP_OK);
  assert_int_equal(scp_budget_cpu_remaining(&b), 0);
  assert_int_equal(scp_budget_charge(&b, SCP_COST_WasmInsnExec, 0, -1), SCP_OK);
  assert_int_equal(scp_budget_charge(&b, SCP_COST_WasmInsnExec, 1, -1), SCP_ERR_BUDGET);

  /* memory limit: cpu and mem both counted */
  scp_budget_init(&b, 0, 100);
  assert_int_equal(scp_budget_charge(&b, SCP_COST_MemAlloc, 1, 85), SCP_ERR_BUDGET);
  assert_int_equal(b.cpu, 434 + 10);
  assert_int_equal(b.mem, 101);

  /* a mismatched input is a host bug, nothing charged */
  scp_budget_init(&b, 0, 0);
  assert_int_equal(scp_budget_charge(&b, SCP_COST_VisitObject, 1, 5), SCP_ERR_INTERNAL);
  assert_int_equal(scp_budget_charge(&b, SCP_COST_MemCpy, 1, -1), SCP_ERR_INTERNAL);
  assert_int_equal(b.cpu, 0);
}

static void test_refund_keeps_peak(void **state) {
  (void)state;
  scp_budget b;
  scp_budget_init(&b, 0, 0);
  /* a 16-page linear memory: MemAlloc(1 MiB) = cpu 434 + 131072, mem 16 + 1048576 */
  assert_int_equal(scp_budget_charge(&b, SCP_COST_MemAlloc, 1, 1048576), SCP_OK);
  assert_int_equal(b.cpu, 131506);
  assert_int_equal(b.mem, 1048592);
  scp_budget_refund_mem(&b, 1048592);
  assert_int_equal(b.mem, 0);
  assert_int_equal(b.mem_peak, 1048592);
  scp_budget_refund_mem(&b, 5);
  assert_int_equal(b.mem, 0);
}

/* ---- host ---------------------------------------------------------------- */

static int setup(void **state) {
  scp_host_opts o = { .ledger_sequence = 1234 };
  return fixture_open(state, 0, 0, &o, 256);
}

static void test_table(void **state) {
  (void)state;
  assert_int_equal(scp_hostfn_count(), 199);
  int id = scp_hostfn_find("v", "6");
  assert_int_equal(id, fn("vec_push_back"));
  const scp_hostfn *d = scp_hostfn_get((unsigned)id);
  assert_string_equal(d->name, "vec_push_back");
  assert_int_equal(d->argc, 2);
  assert_int_equal(scp_hostfn_find("x", "_"), 0);
  assert_string_equal(scp_hostfn_get(198)->name, "prng_vec_shuffle");
  assert_int_equal(scp_hostfn_get(fn("u256_checked_add"))->min_proto, 26);
  assert_int_equal(scp_hostfn_get(fn("protocol_gated_dummy"))->max_proto, 19);
  assert_int_equal(scp_hostfn_find("v", "zz"), -1);
  assert_null(scp_hostfn_get(199));
}

/* From a VM: DispatchHostFunction 295, then the function, the result check
 * (VisitObject 60 for an object) and absolute->relative (MemAlloc(8):
 * cpu 435, mem 24). */
static void test_dispatch_vec(void **state) {
  fixture *f = *state;
  uint64_t ret, args[2];
  scp_error err;
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_new"), NULL, &f->mem, &ret, &err), SCP_OK);
  /* 295 + 442 (HostObject) + 60 + 435 */
  assert_int_equal(f->b.cpu, 1232);
  assert_int_equal(f->b.mem, 80 + 24);
  assert_int_equal(ret, scp_val_object(SCP_TAG_VEC_OBJ, 0));   /* relative #0 */

  args[0] = ret;
  args[1] = scp_val_u32(7);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_push_back"), args, &f->mem, &ret, &err),
                   SCP_OK);
  /* 295 + 60 (arg check) + 60 (visit) + MemCpy(24) 45 + MemAlloc(8) 435 +
   * MemCpy(8) 43 + HostObject 442 + 60 (result) + 435 (relative) */
  assert_int_equal(f->b.cpu, 1232 + 1875);
  assert_int_equal(f->b.mem, 104 + 24 + 80 + 24);
  assert_int_equal(ret, scp_val_object(SCP_TAG_VEC_OBJ, 2));   /* relative #1 */

  args[0] = ret;
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_len"), args, &f->mem, &ret, &err), SCP_OK);
  assert_int_equal(ret, scp_val_u32(1));
  args[1] = scp_val_u32(0);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_get"), args, &f->mem, &ret, &err), SCP_OK);
  assert_int_equal(ret, scp_val_u32(7));

  /* out of range: Error(Object, IndexBounds) */
  args[1] = scp_val_u32(1);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_get"), args, &f->mem, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_OBJECT, SCP_EC_INDEX_BOUNDS));

  /* unknown relative handle: Error(Value, InvalidInput), after the 295 */
  uint64_t before = f->b.cpu;
  args[0] = scp_val_object(SCP_TAG_VEC_OBJ, 40);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_len"), args, &f->mem, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));
  assert_int_equal(f->b.cpu, before + 295);

  /* an absolute handle from a guest is rejected too */
  args[0] = scp_val_object(SCP_TAG_VEC_OBJ, 1);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_len"), args, &f->mem, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));

  /* wrong tag for the argument type */
  args[0] = scp_val_u32(3);
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_len"), args, &f->mem, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));
  /* right tag, object of another kind behind the relative handle */
  args[0] = scp_val_object(SCP_TAG_BYTES_OBJ, 0);
  assert_int_equal(scp_host_dispatch(f->h, fn("bytes_len"), args, &f->mem, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));
  scp_host_pop_frame(f->h);
}

static void test_dispatch_misc(void **state) {
  fixture *f = *state;
  uint64_t ret, args[4];
  scp_error err;
  assert_int_equal(scp_host_push_frame(f->h), SCP_OK);
  assert_int_equal(scp_host_dispatch(f->h, fn("get_ledger_sequence"), NULL, &f->mem, &ret, &err),
                   SCP_OK);
  assert_int_equal(ret, scp_val_u32(1234));
  assert_int_equal(f->b.cpu, 295);

  /* fail_with_error: a contract error is raised as itself */
  args[0] = scp_val_error(SCP_ET_CONTRACT, 42);
  assert_int_equal(scp_host_dispatch(f->h, fn("fail_with_error"), args, &f->mem, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, args[0]);
  args[0] = scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE);
  assert_int_equal(scp_host_dispatch(f->h, fn("fail_with_error"), args, &f->mem, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTEXT, SCP_EC_UNEXPECTED_TYPE));

  /* obj_from_u64 / obj_to_u64 round trip; u64 args are raw words */
  args[0] = UINT64_MAX;
  assert_int_equal(scp_host_dispatch(f->h, fn("obj_from_u64"), args, &f->mem, &ret, &err),
                   SCP_OK);
  args[0] = ret;
  uint64_t before = f->b.cpu;
  assert_int_equal(scp_host_dispatch(f->h, fn("obj_to_u64"), args, &f->mem, &ret, &err), SCP_OK);
  assert_true(ret == UINT64_MAX);
  /* 295 + 60 + 60 + MemCpy(8) 43; no result check for a raw u64 */
  assert_int_equal(f->b.cpu - before, 458);

  /* bytes from linear memory, then its sha256 */
  memcpy(f->memory + 10, "abc", 3);
  args[0] = scp_val_u32(10);
  args[1] = scp_val_u32(3);
  before = f->b.cpu;
  assert_int_equal(scp_host_dispatch(f->h, fn("bytes_new_from_linear_memory"), args, &f->mem,
                                     &ret, &err), SCP_OK);
  /* 295 + MemAlloc(3) 434 + MemCpy(3) 42 + HostObject 442 + 60 + 435 */
  assert_int_equal(f->b.cpu - before, 1708);
  args[0] = ret;
  assert_int_equal(scp_host_dispatch(f->h, fn("compute_hash_sha256"), args, &f->mem, &ret, &err),
                   SCP_OK);
  const scp_hobj *o = NULL;
  uint64_t abs;
  assert_int_equal(scp_host_to_absolute(f->h, ret, &abs), SCP_OK);
  o = scp_host_obj(f->h, abs);
  assert_non_null(o);
  assert_int_equal(o->len, 32);
  assert_int_equal(o->u.bytes[0], 0xba);   /* sha256("abc") = ba7816bf... */
  assert_int_equal(o->u.bytes[31], 0xad);

  /* out of bounds: MemAlloc and MemCpy are charged, then WasmVm/IndexBounds */
  args[0] = scp_val_u32(250);
  args[1] = scp_val_u32(10);
  before = f->b.cpu;
  assert_int_equal(scp_host_dispatch(f->h, fn("bytes_new_from_linear_memory"), args, &f->mem,
                                     &ret, &err), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_WASM_VM, SCP_EC_INDEX_BOUNDS));
  assert_int_equal(f->b.cpu - before, 295 + 435 + 43);

  /* symbols: valid characters only */
  memcpy(f->memory, "hello_World", 11);
  args[0] = scp_val_u32(0);
  args[1] = scp_val_u32(11);
  assert_int_equal(scp_host_dispatch(f->h, fn("symbol_new_from_linear_memory"), args, &f->mem,
                                     &ret, &err), SCP_OK);
  assert_int_equal(scp_val_tag_of(ret), SCP_TAG_SYMBOL_OBJ);
  f->memory[3] = '-';
  assert_int_equal(scp_host_dispatch(f->h, fn("symbol_new_from_linear_memory"), args, &f->mem,
                                     &ret, &err), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));

  /* an event: push of one (InternalEvent, EventError) slot of 49 bytes,
   * plus the contract id as a Bytes object in a contract frame */
  assert_int_equal(scp_host_dispatch(f->h, fn("vec_new"), NULL, &f->mem, &ret, &err), SCP_OK);
  args[0] = ret;
  args[1] = scp_val_u32(5);
  before = f->b.cpu;
  assert_int_equal(scp_host_dispatch(f->h, fn("contract_event"), args, &f->mem, &ret, &err),
                   SCP_OK);
  assert_int_equal(ret, SCP_VAL_VOID);
  assert_int_equal(scp_host_event_count(f->h), 1);
  /* 295 + 60 (topics check) + MemCpy(32) 46 + [45 + MemAlloc(32) 438 +
   * MemCpy(32) 46 + 442] + [45 + MemAlloc(49) 440 + MemCpy(49) 48] */
  assert_int_equal(f->b.cpu - before, 295 + 60 + 46 + 45 + 438 + 46 + 442 + 45 + 440 + 48);
  scp_host_pop_frame(f->h);
}

static void test_format(void **state) {
  fixture *f = *state;
  uint64_t ret, args[2];
  scp_error err;
  scp_buf b = { 0 };
  scp_host_val_format(f->h, scp_val_u32(7), &b);
  scp_buf_putc(&b, ' ');
  scp_host_val_format(f->h, scp_val_small_i(-5, SCP_TAG_I64_SMALL), &b);
  scp_buf_putc(&b, ' ');
  uint64_t sym = 0;
  assert_true(scp_val_symbol_small((const uint8_t *)"hello", 5, &sym));
  scp_host_val_format(f->h, sym, &b);
  scp_buf_putc(&b, ' ');
  assert_int_equal(scp_host_call(f->h, fn("vec_new"), NULL, NULL, &ret, &err), SCP_OK);
  args[0] = ret;
  args[1] = scp_val_u32(1);
  assert_int_equal(scp_host_call(f->h, fn("vec_push_back"), args, NULL, &ret, &err), SCP_OK);
  args[0] = ret;
  args[1] = SCP_VAL_TRUE;
  assert_int_equal(scp_host_call(f->h, fn("vec_push_back"), args, NULL, &ret, &err), SCP_OK);
  scp_host_val_format(f->h, ret, &b);
  scp_buf_putc(&b, 0);
  assert_string_equal(b.data, "u32:7 i64:-5 sym:hello Vec[u32:1, bool:true]");
  scp_buf_free(&b);
}

/* ---- arguments ------------------------------------------------------------- */

static void test_arg_parse(void **state) {
  (void)state;
  scp_arg a;
  scp_error err;
  assert_int_equal(scp_arg_parse("u32:7", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_U32);
  assert_int_equal(a.lo, 7);
  assert_int_equal(scp_arg_parse("i32:-1", &a, &err), SCP_OK);
  assert_int_equal((int32_t)a.lo, -1);
  assert_int_equal(scp_arg_parse("u128:340282366920938463463374607431768211455", &a, &err), SCP_OK);
  assert_true(a.hi == UINT64_MAX && a.lo == UINT64_MAX);
  assert_int_equal(scp_arg_parse("i128:-170141183460469231731687303715884105728", &a, &err),
                   SCP_OK);
  assert_true(a.hi == 0x8000000000000000ULL && a.lo == 0);
  assert_int_equal(scp_arg_parse("bool:true", &a, &err), SCP_OK);
  assert_int_equal(a.lo, 1);
  assert_int_equal(scp_arg_parse("sym:transfer", &a, &err), SCP_OK);
  assert_int_equal(a.len, 8);
  assert_int_equal(scp_arg_parse("void", &a, &err), SCP_OK);
  assert_int_equal(a.kind, SCP_ARG_VOID);
  assert_int_equal(scp_arg_parse("bytes:00ff", &a, &err), SCP_OK);
  assert_int_equal(scp_arg_parse("str:hi there", &a, &err), SCP_OK);
  assert_int_equal(a.len, 8);

  assert_int_equal(scp_arg_parse("u32:4294967296", &a, &err), SCP_ERR_ARG);
  assert_non_null(strstr(err.msg, "u32:4294967296"));
  assert_int_equal(scp_arg_parse("i64:9223372036854775808", &a, &err), SCP_ERR_ARG);
  assert_int_equal(scp_arg_parse("u128:340282366920938463463374607431768211456", &a, &err),
                   SCP_ERR_ARG);
  assert_int_equal(scp_arg_parse("bool:yes", &a, &err), SCP_ERR_ARG);
  assert_int_equal(scp_arg_parse("sym:no-dash", &a, &err), SCP_ERR_ARG);
  assert_int_equal(scp_arg_parse("bytes:abc", &a, &err), SCP_ERR_ARG);
  assert_int_equal(scp_arg_parse("float:1.0", &a, &err), SCP_ERR_ARG);
  assert_int_equal(scp_arg_parse("42", &a, &err), SCP_ERR_ARG);
  assert_null(strchr(err.msg, '\n'));
}

static void test_arg_to_val(void **state) {
  fixture *f = *state;
  scp_arg a;
  scp_error err;
  uint64_t v;
  assert_int_equal(scp_arg_parse("u64:5", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(f->h, &a, &v, &err), SCP_OK);
  assert_int_equal(v, scp_val_small_u(5, SCP_TAG_U64_SMALL));
  assert_int_equal(f->b.cpu, 0);   /* small values are free */
  assert_int_equal(scp_arg_parse("sym:abc", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(f->h, &a, &v, &err), SCP_OK);
  assert_int_equal(scp_val_tag_of(v), SCP_TAG_SYMBOL_SMALL);
  assert_int_equal(scp_arg_parse("i128:-1", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(f->h, &a, &v, &err), SCP_OK);
  assert_int_equal(v, scp_val_small_i(-1, SCP_TAG_I128_SMALL));
  assert_int_equal(f->b.cpu, 0);
  /* u64 past 56 bits: MemCpy(8) 43 + HostObject 442 */
  assert_int_equal(scp_arg_parse("u64:18446744073709551615", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(f->h, &a, &v, &err), SCP_OK);
  assert_int_equal(scp_val_tag_of(v), SCP_TAG_U64_OBJ);
  assert_int_equal(f->b.cpu, 485);
  /* bytes: MemCpy(24) 45 + MemAlloc(2) 434 + MemCpy(2) 42 + 442 */
  assert_int_equal(scp_arg_parse("bytes:00ff", &a, &err), SCP_OK);
  assert_int_equal(scp_host_arg_to_val(f->h, &a, &v, &err), SCP_OK);
  assert_int_equal(f->b.cpu, 485 + 963);
  const scp_hobj *o = scp_host_obj(f->h, v);
  assert_int_equal(o->len, 2);
  assert_int_equal(o->u.bytes[1], 0xff);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_defaults),
    cmocka_unit_test(test_model_arithmetic),
    cmocka_unit_test(test_charge_then_check),
    cmocka_unit_test(test_refund_keeps_peak),
    cmocka_unit_test(test_table),
    cmocka_unit_test_setup_teardown(test_dispatch_vec, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_dispatch_misc, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_format, setup, fixture_close),
    cmocka_unit_test(test_arg_parse),
    cmocka_unit_test_setup_teardown(test_arg_to_val, setup, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
