/*
 * test_ref_contracts.c — whole contract invocations of the reference's own
 * test contract (tests/data/ref-wasms/example_contract_data.wasm), run by
 * scprof's VM glue (sor_vm.c: the real invoker, guest code and host calls),
 * against the reference host's trace of the same calls:
 * test__storage__test_persistent_storage.json (rs-soroban-env v28.0.2,
 * soroban-env-host/src/test/storage.rs test_storage(.., "persistent")).
 *
 * The test makes the calls of storage.rs in its order, on the state the
 * trace has at step 18 (the contract's code and instance entries in the
 * storage map and footprint, as in test_contract.c), and compares each
 * whole invocation -- from the `call` host function to its `ret call`,
 * the callee's VM frame with its instantiation, guest fuel, host calls and
 * pop -- with the trace: CPU and memory, to the unit.  Memory is as
 * charged (the Budget's net count plus the linear memory sor_vm.c refunds
 * at the pop): the reference refunds a VM's linear memory only to a frame
 * that was on its context stack when the VM was instantiated
 * (frame.rs charge_current_frame_linear_mem, a no-op with no frame), and
 * these test calls come with an empty stack; in scprof's runs the
 * HostFunction frame is always there.  The expected numbers
 * are read from the trace file itself, frame by frame (nothing is copied
 * out of it by hand), so every VM frame the trace records is one
 * comparison; the count is printed for tests/run.sh's evidence line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "ref_wasm.h"

#include "soroban/core/host_private.h"
#include "soroban/run/sor_vm.h"
#include "host_fixture.h"

#define TRACE "tests/data/observations/test__storage__test_persistent_storage.json"
#define MAX_FRAMES 32

/* One `call` of the trace: CPU and memory it added, from the state before
 * the `call call(...)` step to its `ret call` step. */
typedef struct frame_cost {
  uint64_t cpu, mem;
} frame_cost;

/* the value's "cpu:N" / "mem:N", when the step changed it */
static void carry(const char *v, const char *what, uint64_t *x) {
  const char *p = strstr(v, what);
  if (p && (p == v || p[-1] == ' ')) *x = strtoull(p + strlen(what), NULL, 10);
}

/* The trace's top-level `call` invocations, in order; their count. */
static size_t trace_frames(frame_cost *out, size_t max) {
  json_error_t je;
  json_t *root = json_load_file(TRACE, JSON_PRESERVE_ORDER, &je);
  if (!root) {
    print_message("%s: %s\n", TRACE, je.text);
    return 0;
  }
  uint64_t cpu = 0, mem = 0, cpu0 = 0, mem0 = 0;
  size_t n = 0;
  int depth = 0;
  const char *key;
  json_t *val;
  json_object_foreach(root, key, val) {
    const char *v = json_string_value(val);
    const char *ev = key + strspn(key, " 0123456789");
    bool is_call = !strncmp(ev, "call call(", 10), is_ret = !strncmp(ev, "ret call ", 9);
    if (is_call && depth++ == 0) {
      cpu0 = cpu;
      mem0 = mem;
    }
    if (v) {
      carry(v, "cpu:", &cpu);
      carry(v, "mem:", &mem);
    }
    if (is_ret && --depth == 0 && n < max) out[n++] = (frame_cost){cpu - cpu0, mem - mem0};
  }
  json_decref(root);
  return n;
}

/* The calls storage.rs makes, in its order: function, key (1: key_1, 2:
 * this_is_key_2 as a new Symbol object), and the u64 / TTL arguments. */
typedef struct ref_call {
  const char *fn;
  int key;
  int kind;                    /* 0: key only, 1: key + u64, 2: key + two u32 */
  uint64_t a, b;
  int has;                     /* has_*: 1 found, 0 not (the trace's pop VM result) */
} ref_call;

static const ref_call CALLS[] = {
  {"has_persistent", 1, 0, 0, 0, 0},
  {"put_persistent", 1, 1, 1234, 0, -1},
  {"has_persistent", 1, 0, 0, 0, 1},
  {"extend_persistent", 1, 2, 1, 6311999, -1},
  {"extend_persistent", 1, 2, 1, 6312000, -1},
  {"put_persistent", 2, 1, UINT64_MAX, 0, -1},
  {"has_persistent", 2, 0, 0, 0, 1},
  {"get_persistent", 1, 0, 0, 0, -1},
  {"get_persistent", 2, 0, 0, 0, -1},
  {"put_persistent", 2, 1, 4321, 0, -1},
  {"get_persistent", 2, 0, 0, 0, -1},
  {"del_persistent", 1, 0, 0, 0, -1},
  {"del_persistent", 1, 0, 0, 0, -1},
  {"has_persistent", 1, 0, 0, 0, 0},
  {"has_persistent", 2, 0, 0, 0, 1},
};
#define NCALLS (sizeof CALLS / sizeof CALLS[0])

static uint64_t obj(scp_host *h, uint32_t tag, const char *s) {
  uint64_t o;
  assert_int_equal(scp_host_memobj_new_from_slice(h, tag, (const uint8_t *)s, (uint32_t)strlen(s), &o),
                   SCP_OK);
  return o;
}

static void test_storage_contract_frames(void **state) {
  (void)state;
  frame_cost want[MAX_FRAMES];
  size_t nwant = trace_frames(want, MAX_FRAMES);
  assert_int_equal(nwant, NCALLS);

  uint8_t *w;
  size_t n;
  assert_true(ref_wasm("example_contract_data.wasm", "fc644715", &w, &n));
  scp_host_opts o = {.ledger_sequence = 123, .max_entry_ttl = 6312000, .auth_enforcing = true};
  sor_vm vm;
  scp_error err = {0};
  assert_int_equal(scp_sor_vm_open(&vm, UINT64_MAX, UINT64_MAX, &o, &err), SCP_OK);
  scp_host *h = vm.host;
  static const uint8_t id[32] = {7};
  uint64_t addr;
  ref_deployed(h, w, n, id, &addr);
  uint64_t key1 = 0;
  assert_true(scp_val_symbol_small((const uint8_t *)"key_1", 5, &key1));
  uint64_t key2 = obj(h, SCP_TAG_SYMBOL_OBJ, "this_is_key_2");
  int id_call = scp_hostfn_find_name("call");
  assert_true(id_call >= 0);

  size_t matched = 0;
  for (size_t i = 0; i < NCALLS; i++) {
    const ref_call *c = &CALLS[i];
    uint64_t args[3], vec, ret;
    uint32_t nargs = 1;
    /* has(key_2) takes a fresh Symbol object (compared by value) */
    args[0] = c->key == 1 ? key1 : (!strcmp(c->fn, "has_persistent") ? obj(h, SCP_TAG_SYMBOL_OBJ, "this_is_key_2")
                                                                      : key2);
    if (c->kind == 1 && scp_val_u64_fits_small(c->a)) {
      args[nargs++] = scp_val_small_u(c->a, SCP_TAG_U64_SMALL);
    } else if (c->kind == 1) {
      uint64_t raw = c->a;
      assert_int_equal(scp_host_call(h, fn("obj_from_u64"), &raw, NULL, &args[nargs++], &err), SCP_OK);
    } else if (c->kind == 2) {
      args[nargs++] = scp_val_u32((uint32_t)c->a);
      args[nargs++] = scp_val_u32((uint32_t)c->b);
    }
    uint64_t fsym = obj(h, SCP_TAG_SYMBOL_OBJ, c->fn);
    assert_int_equal(scp_host_vec_new_from_slice(h, args, nargs, &vec), SCP_OK);
    uint64_t cpu = vm.budget.cpu, mem = vm.budget.mem + vm.refunded, cargs[3] = {addr, fsym, vec};
    int rc = scp_host_call(h, (unsigned)id_call, cargs, NULL, &ret, &err);
    uint64_t dcpu = vm.budget.cpu - cpu, dmem = vm.budget.mem + vm.refunded - mem;
    bool same = rc == SCP_OK && dcpu == want[i].cpu && dmem == want[i].mem &&
                (c->has < 0 || ret == (c->has ? SCP_VAL_TRUE : SCP_VAL_FALSE));
    if (!same)
      print_message("frame %zu %s: cpu %llu mem %llu (rc %d %s), the trace %llu / %llu\n", i + 1, c->fn,
                    (unsigned long long)dcpu, (unsigned long long)dmem, rc, err.msg,
                    (unsigned long long)want[i].cpu, (unsigned long long)want[i].mem);
    matched += same;
  }
  print_message("NOTE [trace] %zu of %zu whole VM frames of example_contract_data.wasm equal the "
                "reference's trace (CPU and memory)\n", matched, (size_t)NCALLS);
  scp_sor_vm_close(&vm);
  free(w);
  assert_int_equal(matched, NCALLS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_storage_contract_frames),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
