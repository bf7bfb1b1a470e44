/*
 * replay_testcontract.h — test_replay.c's driver for the frames of native
 * test contracts: the `push TEST:<id>:<fn>(...)` / `pop TEST:...` steps
 * of the reference's tests that register a ContractFunctionSet
 * (rs-soroban-env v28.0.2, soroban-env-host/src/test/frame.rs has_frame,
 * try_with_test_contract_frame_*; host/lifecycle.rs
 * register_test_contract_with_constructor; host/frame.rs
 * with_test_contract_frame, try_with_test_contract_frame, with_frame,
 * push_context, pop_context).
 *
 * What the test does untraced, and how the replay stands in for it:
 *  - register_test_contract stores a stub code entry (the bytes
 *    "test_contract_for_contract_id_" + the contract's strkey, under their
 *    SHA-256) and the contract's instance (executable Wasm(that hash), no
 *    storage), then calls the constructor: the setup item "tc:HEX"
 *    (test_replay.c seed_entry) puts both entries in the storage map, as
 *    the trace's store/foot counts show them appear;
 *  - a frame push is redone with the host's own push
 *    (scp_host_charge_push_context: the auth manager's frame and its
 *    ScAddress object, the enforcing mode's snapshot -- the reference
 *    Host's default auth mode --, the rollback point, the Context), which
 *    makes the objects the trace shows.  A with_test_contract_frame push
 *    first reads the instance (create_test_contract_frame,
 *    scp_host_test_frame_instance) and is checked against the push line;
 *    so is a push through call / try_call (below).  Only the
 *    constructor's push, which the untraced registration makes after its
 *    own untraced work, has its cpu/mem taken over like a call line's;
 *  - the host functions the closure calls are replayed and checked as at
 *    top level (inside the frame: its contract id, instance and PRNG);
 *  - a pop runs the frame's end (persist_instance_storage on Ok) and
 *    pop_context, rolling the storage map and the events back when the
 *    frame's result is an Err (with_frame's rollback point), and the state
 *    after it is checked against the pop line.
 * Frames entered through the `call` / `try_call` host functions (the prng,
 * event and invocation tests) run through the host's own call path up to
 * the native dispatch (host_private.h test_contract: instance read, args,
 * the Frame's id clone, the rollback point), where tc_call pushes the
 * frame as tc_push does, replays the frame's steps (run_steps up to its
 * pop line) and returns the pop line's result.
 */
#ifndef SCP_TEST_REPLAY_TESTCONTRACT_H
#define SCP_TEST_REPLAY_TESTCONTRACT_H

#include <openssl/sha.h>

#include "soroban/core/host_instance.h"
#include "soroban/core/host_lifecycle.h"

/* lifecycle.rs TEST_CONTRACT_WASM_FOR_CONTRACT_ID_PREFIX */
#define TC_WASM_PREFIX "test_contract_for_contract_id_"

/* The "tc:HEX" setup item: register_native_contract_as_wasm_internal's
 * stub code entry and store_contract_instance's instance for the contract
 * id HEX, both already in the storage map (written during the
 * registration).  Their live_until is the test ledger's minimum
 * persistent one (no traced call here reads it). */
static bool tc_seed(replay *r, const char *hex) {
  uint8_t id[32];
  for (int i = 0; i < 32; i++) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return false;
    id[i] = (uint8_t)v;
  }
  char strkey[57];
  scp_host_contract_strkey(id, strkey);
  char wasm[sizeof TC_WASM_PREFIX + 56];
  int wlen = snprintf(wasm, sizeof wasm, "%s%s", TC_WASM_PREFIX, strkey);
  scp_executable e = { .kind = SCP_EXEC_WASM };
  SHA256((const uint8_t *)wasm, (size_t)wlen, e.hash);
  scp_lkey ck;
  scp_lc_code_key(e.hash, &ck);
  if (scp_storage_seed(r->host, &ck, (const uint8_t *)wasm, (uint32_t)wlen, 4095, true) != SCP_OK)
    return false;
  scp_lkey ik;
  uint8_t kb[4];
  scp_lc_instance_key(id, &ik, kb);
  uint8_t *img;
  uint32_t len;
  if (scp_lc_instance_image(&e, &img, &len) != SCP_OK) return false;
  int rc = scp_storage_seed(r->host, &ik, img, len, 4095, true);
  free(img);
  return rc == SCP_OK;
}

static enum outcome run_steps(replay *r, size_t from, size_t *pop_at);

/* "push TEST:   0:fn(...)", "push TEST:1010101:...": the frame of the
 * contract whose id's first 4 bytes the number gives in hex; the tests
 * use [n; 32] ids. */
/* check: compare the state after the push with the push line (else take
 * the line's values over, unless the push is with_test_contract_frame's). */
static enum outcome tc_push(replay *r, const char *key, const char *ev, const char *val,
                            bool check) {
  const char *p = ev + strlen("push TEST:");
  while (*p == ' ') p++;
  char *end;
  unsigned long v = strtoul(p, &end, 16), n = v & 0xff;
  if (*end != ':' || v != n * 0x01010101ul)
    return verdict(r, R_UNIMPL, "step %s: test contract id", key);
  if (r->tc_depth == SCP_ARRAY_LEN(r->tc_snap))
    return verdict(r, R_UNIMPL, "step %s: test frames nest too deep", key);
  uint8_t id[32];
  memset(id, (int)n, sizeof id);
  take_state(r, val);
  /* with_test_contract_frame (a name that is no "sym#N" object: not the
   * constructor, whose call the registration makes): nothing of the
   * test's runs between the previous step and this push, which reads
   * the instance first (create_test_contract_frame) */
  const char *fnname = end + 1;
  while (*fnname == ' ') fnname++;
  if (!check && strncmp(fnname, "sym#", 4)) {
    check = true;
    if (scp_host_test_frame_instance(r->host, id) != SCP_OK)
      return verdict(r, R_MISMATCH, "step %s: no instance for the frame", key);
  }
  unsigned d = r->tc_depth;
  r->tc_nevents[d] = r->host->nevents;
  if (scp_storage_snapshot(r->host, &r->tc_snap[d], &r->tc_nsnap[d]) != SCP_OK)
    return verdict(r, R_MISMATCH, "step %s: storage snapshot failed", key);
  r->tc_depth++;
  int rc = scp_host_charge_push_context(r->host, id);
  if (rc == SCP_OK) rc = scp_host_push_contract_frame(r->host, id);
  if (rc != SCP_OK) return verdict(r, R_MISMATCH, "step %s: frame push failed (%d)", key, rc);
  r->tc_pushed++;
  if (scp_host_object_count(r->host) != r->exp_objs)
    return verdict(r, R_MISMATCH, "step %s: objs %zu at the push, trace %zu", key,
                   scp_host_object_count(r->host), r->exp_objs);
  if (check && !state_ok(r))
    return verdict(r, R_MISMATCH, "step %s: cpu %llu mem %llu peak %llu, trace %llu %llu %llu",
                   key, (unsigned long long)r->budget.cpu, (unsigned long long)r->budget.mem,
                   (unsigned long long)r->budget.mem_peak, (unsigned long long)r->exp_cpu,
                   (unsigned long long)r->exp_mem, (unsigned long long)r->exp_peak);
  /* the work before the push is the test's: take it over */
  r->budget.cpu = r->exp_cpu;
  r->budget.mem = r->exp_mem;
  r->budget.mem_peak = r->exp_peak;
  return R_EXACT;
}

/* "pop TEST:   0:fn -> Ok(...)" / "-> Err(...)". */
static enum outcome tc_pop(replay *r, const char *key, const char *ev, const char *val) {
  if (!r->tc_depth) return verdict(r, R_MISMATCH, "step %s: pop without push", key);
  unsigned d = --r->tc_depth;
  bool ok = strstr(ev, " -> Ok(") != NULL;
  int rc = ok ? scp_inst_frame_end(r->host) : SCP_OK;   /* persist_instance_storage */
  scp_host_pop_frame(r->host);
  r->tc_pushed--;
  if (!ok) {
    scp_storage_rollback(r->host, r->tc_snap[d], r->tc_nsnap[d]);
    if (r->host->nevents > r->tc_nevents[d]) r->host->nevents = r->tc_nevents[d];
  } else {
    scp_storage_snapshot_free(r->tc_snap[d], r->tc_nsnap[d]);
  }
  r->tc_snap[d] = NULL;
  if (rc != SCP_OK) return verdict(r, R_MISMATCH, "step %s: frame end failed (%d)", key, rc);
  take_state(r, val);
  if (!state_ok(r))
    return verdict(r, R_MISMATCH,
                   "step %s: cpu %llu mem %llu peak %llu objs %zu, trace %llu %llu %llu %zu",
                   key, (unsigned long long)r->budget.cpu, (unsigned long long)r->budget.mem,
                   (unsigned long long)r->budget.mem_peak, scp_host_object_count(r->host),
                   (unsigned long long)r->exp_cpu, (unsigned long long)r->exp_mem,
                   (unsigned long long)r->exp_peak, r->exp_objs);
  return R_EXACT;
}

/* A frame's verdict, kept for run_steps past the call's own. */
static int tc_fail(replay *r, enum outcome o) {
  r->hook_out = o;
  memcpy(r->hook_why, r->why, sizeof r->hook_why);
  return SCP_ERR_INTERNAL;
}

/* host_private.h test_contract: call_test_contract_fn for the frame whose
 * push line is the next after the running call's line (r->pos). */
static int tc_call(void *ctx, scp_host *h, const uint8_t id[32], const char *fn,
                   const uint64_t *args, uint32_t n, uint64_t *ret) {
  replay *r = ctx;
  size_t p = r->pos + 1;
  while (p < r->nsteps && !strstr(r->steps[p], " push TEST:")) p++;
  if (p == r->nsteps) {
    return tc_fail(r, verdict(r, R_MISMATCH, "step %s: no test contract frame traced",
                              r->steps[r->pos]));
  }
  const char *key = r->steps[p];
  const char *ev = strstr(key, "push TEST:");
  const char *val = json_string_value(json_object_get(r->root, key));
  unsigned depth = r->tc_depth;
  enum outcome o = tc_push(r, key, ev, val ? val : "", true);
  if (o == R_EXACT && memcmp(h->frames[h->nframes - 1].contract_id, id, 32))
    o = verdict(r, R_MISMATCH, "step %s: another contract's frame", key);
  /* the frame's storage snapshot is the host's (call_contract) */
  if (r->tc_depth > depth) {
    r->tc_depth--;
    scp_storage_snapshot_free(r->tc_snap[r->tc_depth], r->tc_nsnap[r->tc_depth]);
    r->tc_snap[r->tc_depth] = NULL;
  }
  if (o == R_EXACT) {
    scp_host_set_frame_fn(h, fn);
    if (scp_host_set_frame_args(h, args, n) != SCP_OK) o = verdict(r, R_MISMATCH, "no memory");
  }
  size_t pop = 0;
  if (o == R_EXACT) o = run_steps(r, p + 1, &pop);
  if (o != R_EXACT) return tc_fail(r, o);
  key = r->steps[pop];
  r->resume = pop + 1;
  const char *arrow = strstr(key, " -> ");
  char res[256];
  snprintf(res, sizeof res, "%s", arrow ? arrow + 4 : "");
  bool ok = !strncmp(res, "Ok(", 3);
  size_t len = strlen(res);
  uint64_t v = 0;
  if (len < 5 || res[len - 1] != ')') return tc_fail(r, verdict(r, R_UNIMPL, "step %s: result", key));
  res[len - 1] = 0;
  if (!parse_val(res + (ok ? 3 : 4), &v))
    return tc_fail(r, verdict(r, R_UNIMPL, "step %s: result %s", key, res));
  int rc = ok ? scp_inst_frame_end(h) : SCP_OK;   /* persist_instance_storage */
  scp_host_pop_frame(h);
  r->tc_pushed--;
  val = json_string_value(json_object_get(r->root, key));
  take_state(r, val ? val : "");
  if (rc == SCP_OK && !state_ok(r)) {
    return tc_fail(r, verdict(
        r, R_MISMATCH, "step %s: cpu %llu mem %llu peak %llu objs %zu, trace %llu %llu %llu %zu",
        key, (unsigned long long)r->budget.cpu, (unsigned long long)r->budget.mem,
        (unsigned long long)r->budget.mem_peak, scp_host_object_count(h),
        (unsigned long long)r->exp_cpu, (unsigned long long)r->exp_mem,
        (unsigned long long)r->exp_peak, r->exp_objs));
  }
  if (rc != SCP_OK) return rc;
  if (ok) {
    *ret = v;
    return SCP_OK;
  }
  h->errval = v;   /* the function's Err, as with_frame propagates it */
  snprintf(h->errmsg, sizeof h->errmsg, "test contract %s failed", fn);
  return SCP_ERR_HOST;
}

/* Frames a failed replay left: pop them and free their snapshots. */
static void tc_cleanup(replay *r) {
  while (r->tc_pushed) {
    scp_host_pop_frame(r->host);
    r->tc_pushed--;
  }
  while (r->tc_depth) {
    unsigned d = --r->tc_depth;
    scp_storage_snapshot_free(r->tc_snap[d], r->tc_nsnap[d]);
    r->tc_snap[d] = NULL;
  }
}

#endif
