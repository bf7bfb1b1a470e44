/*
 * fee_tx.c — one invocation's transaction resources, fee and per-node
 * attribution.
 *
 * Resources follow soroban-simulation v28 (e2e_invoke.rs
 * invoke_host_function_in_recording_mode, get_ledger_changes,
 * extract_rent_changes; resources.rs compute_adjusted_transaction_resources)
 * with no adjustment factors: the fee the network charges for exactly the
 * resources used, for the smallest envelope carrying the call
 * (TX_FIXED_BYTES).
 *
 * Attribution: each fee component is split over the nodes that caused its
 * resource in proportion to their share (rounded down), and the stroops
 * left by rounding go one each to the largest remainders, ties to the
 * earlier cell, so the shares sum to the component exactly and the result
 * depends only on the run.
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fee/scp_fee_tx.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/core/host_private.h"
#include "wasm/scp_wasm.h"

/* ---- the tracker ----------------------------------------------------------- */

static bool key_same(const scp_lkey *a, const scp_lkey *b) {
  return a->type == b->type && a->account == b->account && a->dur == b->dur &&
         !memcmp(a->id, b->id, 32) && a->keylen == b->keylen &&
         (!a->keylen || !memcmp(a->key, b->key, a->keylen));
}

static scp_fee_key *find_key(scp_fee_track *t, const scp_lkey *k) {
  for (size_t i = 0; i < t->nkeys; i++)
    if (key_same(t->keys[i].k, k)) return &t->keys[i];
  return NULL;
}

static scp_fee_key *add_key(scp_fee_track *t, const scp_lkey *k) {
  scp_fee_key *e = find_key(t, k);
  if (e) return e;
  if (!scp_grow(&t->keys, &t->capkeys, t->nkeys + 1, sizeof *t->keys)) return NULL;
  scp_lkey *c = malloc(sizeof *c);
  uint8_t *kb = k->keylen ? malloc(k->keylen) : NULL;
  if (!c || (k->keylen && !kb)) {
    free(c);
    free(kb);
    return NULL;
  }
  *c = *k;
  if (kb) memcpy(kb, k->key, k->keylen);
  c->key = kb;
  e = &t->keys[t->nkeys++];
  *e = (scp_fee_key){.k = c, .first = SCP_NODE_NONE, .write = SCP_NODE_NONE,
                      .extend = SCP_NODE_NONE};
  return e;
}

void scp_fee_track_note(scp_fee_track *t, int what, const scp_lkey *k, size_t index,
                        uint32_t node) {
  if (t->oom) return;
  if (what == SCP_FEE_HOOK_EVENT) {
    if (!scp_grow(&t->event_node, &t->capevents, index + 1, sizeof *t->event_node)) {
      t->oom = true;
      return;
    }
    if (index >= t->nevents) t->nevents = index + 1;
    t->event_node[index] = node;
    return;
  }
  scp_fee_key *e = add_key(t, k);
  if (!e) {
    t->oom = true;
    return;
  }
  if (e->first == SCP_NODE_NONE) e->first = node;
  /* the last write and the last extension are what the final entry shows */
  if (what == SCP_FEE_HOOK_WRITE) e->write = node;
  if (what == SCP_FEE_HOOK_EXTEND) e->extend = node;
}

void scp_fee_track_remap(scp_fee_track *t, uint32_t from, uint32_t to) {
  for (size_t i = 0; i < t->nkeys; i++) {
    scp_fee_key *e = &t->keys[i];
    if (e->first == from) e->first = to;
    if (e->write == from) e->write = to;
    if (e->extend == from) e->extend = to;
  }
  for (size_t i = 0; i < t->nevents; i++)
    if (t->event_node[i] == from) t->event_node[i] = to;
}

void scp_fee_track_free(scp_fee_track *t) {
  for (size_t i = 0; i < t->nkeys; i++) {
    free(t->keys[i].k->key);
    free(t->keys[i].k);
  }
  free(t->keys);
  free(t->event_node);
  memset(t, 0, sizeof *t);
}

/* ---- XDR sizes ------------------------------------------------------------- */

static uint32_t pad4(uint32_t n) { return (n + 3) & ~3u; }

/* ScAddress: Contract(Hash) or Account(PublicKey) */
static uint32_t address_size(const scp_lkey *k) { return k->account ? 40 : 36; }

/* LedgerKey */
static uint32_t key_size(const scp_lkey *k) {
  switch (k->type) {
  case SCP_LK_CONTRACT_DATA: return 4 + address_size(k) + k->keylen + 4;
  case SCP_LK_CONTRACT_CODE: return 4 + 32;
  case SCP_LK_ACCOUNT: return 4 + 36;
  default: return 4 + 36 + k->keylen;   /* trustline: account, TrustLineAsset */
  }
}

/* entry_size_for_rent: a code entry also pays for the memory its module
 * takes once parsed (wasm_module_memory_cost: the ParseWasm* memory costs
 * of its cost inputs, in the ledger's budget model; VmInstantiation's of
 * its length for code stored without them); other entries pay for their
 * XDR size. */
static uint32_t rent_size(scp_host *h, const scp_lkey *k, const uint8_t *wasm, uint32_t len,
                          uint32_t xdr) {
  if (k->type != SCP_LK_CONTRACT_CODE) return xdr;
  if (scp_host_code_v0(h, k->id)) {
    uint64_t v0 = xdr + scp_budget_mem_cost(h->budget, SCP_COST_VmInstantiation, 1, len);
    return v0 > UINT32_MAX ? UINT32_MAX : (uint32_t)v0;
  }
  return scp_fee_code_rent_size(h->budget, wasm, len, xdr);
}

uint32_t scp_fee_code_rent_size(const scp_budget *b, const uint8_t *wasm, uint32_t len,
                                uint32_t xdr) {
  scp_wasm_module *m = NULL;
  scp_error e;
  /* code on the ledger passed these checks at upload */
  if (scp_wasm_load(wasm, len, &m, &e) != SCP_OK) return xdr;
  scp_wasm_cost_inputs ci;
  scp_wasm_cost_inputs_get(m, &ci);
  scp_wasm_module_free(m);
  scp_cost_input in[SCP_PARSE_WASM_NCOSTS];
  scp_budget_parse_wasm_costs(&ci, in);
  uint64_t mem = xdr;
  for (size_t i = 0; i < SCP_ARRAY_LEN(in); i++)
    mem += scp_budget_mem_cost(b, in[i].t, 1, in[i].n);
  return mem > UINT32_MAX ? UINT32_MAX : (uint32_t)mem;
}

static bool is_soroban(const scp_lkey *k) {
  return k->type == SCP_LK_CONTRACT_DATA || k->type == SCP_LK_CONTRACT_CODE;
}

static bool is_persistent(const scp_lkey *k) {
  return k->type == SCP_LK_CONTRACT_CODE || k->dur == SCP_DUR_PERSISTENT;
}

static const scp_sentry *in_list(const scp_sentry *s, size_t n, const scp_lkey *k) {
  for (size_t i = 0; i < n; i++)
    if (key_same(&s[i].k, k)) return &s[i];
  return NULL;
}

static int val_size(scp_host *h, uint64_t v, uint64_t *out) {
  uint8_t *img = NULL;
  size_t len = 0;
  int rc = scp_host_val_to_xdr_raw(h, v, &img, &len);
  free(img);
  *out = len;
  return rc;
}

static uint32_t sat32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

/* ---- attribution ----------------------------------------------------------- */

typedef struct cell {
  uint32_t node;
  int32_t pc;          /* index into the node's pcs, or -1 */
} cell;

typedef struct cells {
  cell *v;
  uint64_t *w, *share;
  size_t n, capv, capw, caps;
  bool oom;
} cells;

static void cell_add(cells *c, uint32_t node, int32_t pc, uint64_t w) {
  if (c->oom || !w) return;
  if (!scp_grow(&c->v, &c->capv, c->n + 1, sizeof *c->v) ||
      !scp_grow(&c->w, &c->capw, c->n + 1, sizeof *c->w) ||
      !scp_grow(&c->share, &c->caps, c->n + 1, sizeof *c->share)) {
    c->oom = true;
    return;
  }
  c->v[c->n] = (cell){.node = node, .pc = pc};
  c->w[c->n++] = w;
}

static void cells_free(cells *c) {
  free(c->v);
  free(c->w);
  free(c->share);
}

/* Split amount over the cells by weight (scp_fee_split) and book it; with
 * no cell it goes to the root.  Returns false on OOM. */
static bool book(cells *c, uint64_t amount, scp_tree *tree, unsigned metric) {
  if (c->oom) return false;
  size_t n = c->n;
  c->n = 0;
  if (!amount) return true;
  if (!n) {
    scp_tree_add(tree, 0, metric, amount);
    return true;
  }
  if (scp_fee_split(c->w, n, amount, c->share) != SCP_OK) return false;
  for (size_t i = 0; i < n; i++) {
    const cell *e = &c->v[i];
    scp_tree_add(tree, e->node, metric, c->share[i]);
    /* without room for the pc's share it stays in the node's self */
    if (e->pc >= 0) scp_tree_pc_add(tree, e->node, (uint32_t)e->pc, metric, c->share[i]);
  }
  return true;
}

/* The compute fee follows the CPU: per pc inside guest nodes, so the
 * source lines get their part. */
static void cpu_cells(cells *c, const scp_tree *tree, unsigned cpu) {
  for (uint32_t id = 0; id < tree->n; id++) {
    const scp_tree_node *n = &tree->nodes[id];
    uint64_t at_pcs = 0;
    for (uint32_t i = 0; i < n->npcs; i++) {
      uint64_t v = scp_tree_pc_cost(tree, &n->pcs[i], cpu);
      cell_add(c, id, (int32_t)i, v);
      at_pcs += v;
    }
    cell_add(c, id, -1, n->self[cpu] - at_pcs);
  }
}

static uint32_t pick(uint32_t a, uint32_t b, uint32_t c) {
  return a != SCP_NODE_NONE ? a : b != SCP_NODE_NONE ? b : c != SCP_NODE_NONE ? c : 0;
}

/* ---- resources --------------------------------------------------------------- */

typedef struct entry_info {
  const scp_fentry *f;
  const scp_sentry *old, *now;
  const scp_fee_key *who;
  bool disk_read, restored;
  uint32_t old_size, new_size;
  bool has_rent;
  scp_fee_rent_change rent;
} entry_info;

static void classify(scp_host *h, const scp_fee_track *t, const scp_fentry *f, entry_info *e) {
  uint32_t seq = h->opts.ledger_sequence;
  memset(e, 0, sizeof *e);
  e->f = f;
  e->old = in_list(h->snap, h->nsnap, &f->k);
  e->now = in_list(h->store, h->nstore, &f->k);
  for (size_t i = 0; i < t->nkeys; i++)
    if (key_same(t->keys[i].k, &f->k)) e->who = &t->keys[i];
  if (e->old && e->old->present) e->old_size = scp_storage_entry_xdr_len(h, &f->k, e->old->vallen);
  else e->old = NULL;
  bool present = e->now && e->now->present;
  if (present) e->new_size = scp_storage_entry_xdr_len(h, &f->k, e->now->vallen);
  if (!is_soroban(&f->k)) {
    e->disk_read = true;
    return;
  }
  /* an archived persistent entry the call reads is restored: a disk read,
   * and rent as if new */
  e->restored = e->old && e->old->live_until < seq && is_persistent(&f->k) && f->rw;
  e->disk_read = e->restored;
  if (!e->now) return;   /* only in the footprint (a rolled-back access) */
  scp_fee_rent_change *r = &e->rent;
  r->is_persistent = is_persistent(&f->k);
  r->is_code_entry = f->k.type == SCP_LK_CONTRACT_CODE;
  if (e->old && e->old->live_until >= seq) {
    r->old_size_bytes = rent_size(h, &f->k, e->old->val, e->old->vallen, e->old_size);
    r->old_live_until_ledger = e->old->live_until;
  }
  if (present) {
    r->new_live_until_ledger = e->now->live_until > r->old_live_until_ledger
                                   ? e->now->live_until : r->old_live_until_ledger;
  }
  r->new_size_bytes = f->rw && present ? rent_size(h, &f->k, e->now->val, e->now->vallen, e->new_size)
                                       : r->old_size_bytes;
  if (e->restored && present) {
    uint32_t ttl = h->opts.min_persistent_entry_ttl;
    uint32_t min_lu = seq + (ttl ? ttl - 1 : 0);
    r->old_size_bytes = 0;
    r->old_live_until_ledger = 0;
    if (r->new_live_until_ledger < min_lu) r->new_live_until_ledger = min_lu;
  }
  e->has_rent = !(r->old_live_until_ledger >= r->new_live_until_ledger &&
                  r->old_size_bytes >= r->new_size_bytes);
}

static void excess(scp_fee_tx *out, scp_fee_limit_id id, uint64_t value, const scp_fee_network *net) {
  uint64_t lim = net->limit[id];
  if (value <= lim) return;
  for (size_t i = 0; i < out->nexcess; i++)
    if (out->excess[i].id == id) {
      if (value > out->excess[i].value) out->excess[i].value = value;
      return;
    }
  out->excess[out->nexcess++] = (scp_fee_excess){.id = id, .value = value, .limit = lim};
}

/* The envelope a wallet submits: TransactionEnvelope ENVELOPE_TYPE_TX
 * with an ed25519 source, no preconditions, no memo, one operation with
 * no source of its own, Soroban data (ext v0) and one signature: every
 * byte but the operation body and the footprint keys.  (Simulation's own
 * estimate, an upper bound for setting the fee, assumes 20 signatures,
 * muxed accounts, preconditions and a memo: 1,720 bytes more.)  Restored
 * entries switch the Soroban data to ext v1 with their indices. */
#define TX_FIXED_BYTES 184u

static int tx_size(scp_host *h, const scp_fee_call *c, uint64_t keys, uint32_t restored,
                   uint64_t *out) {
  uint64_t n = TX_FIXED_BYTES + keys + (restored ? 4 + 4ull * restored : 0);
  /* InvokeHostFunctionOp: HostFunction::InvokeContract {address,
   * function name, args}, then the auth entries */
  n += 4 + 36 + 4 + pad4((uint32_t)strlen(c->function)) + 4;
  for (size_t i = 0; i < c->nargs; i++) {
    uint64_t s;
    int rc = val_size(h, c->args[i], &s);
    if (rc) return rc;
    n += s;
  }
  n += 4 + c->auth_bytes;
  *out = n;
  return SCP_OK;
}

/* ContractEvent {ext, contractId (Some), type, body v0 {topics, data}}:
 * the topics ScVec without the ScVal's tag and option words. */
static int event_size(scp_host *h, const scp_event *ev, uint64_t *out) {
  uint64_t ts = 8, ds = 0;
  int rc = val_size(h, ev->topics, &ts);
  if (!rc) rc = val_size(h, ev->data, &ds);
  *out = 4 + 36 + 4 + 4 + (ts - 8) + ds;
  return rc;
}

/* What the counting passes gather for the attribution pass. */
typedef struct tx_work {
  entry_info *ei;              /* by footprint entry */
  scp_fee_rent_change *rents;
  uint32_t nrent;
  uint64_t *ev_size;           /* by event */
  uint64_t keys, rbytes, wbytes, rentries, wentries, evbytes, txbytes;
} tx_work;

/* The footprint: disk reads, writes, rent changes, the per-entry limits. */
static void count_footprint(scp_host *h, const scp_fee_track *t, const scp_fee_network *net,
                            tx_work *w, scp_fee_tx *out) {
  for (size_t i = 0; i < h->nfoot; i++) {
    entry_info *e = &w->ei[i];
    classify(h, t, &h->foot[i], e);
    w->keys += key_size(&e->f->k);
    if (e->f->rw) out->footprint_rw++;
    else out->footprint_ro++;
    if (e->disk_read) {
      w->rentries++;
      if (e->old) w->rbytes += e->old_size;
    }
    out->restored += e->restored;
    if (e->f->rw) {
      w->wentries++;
      if (e->now && e->now->present) {
        w->wbytes += e->new_size;
        if (e->f->k.type == SCP_LK_CONTRACT_DATA)
          excess(out, SCP_FEE_LIM_DATA_ENTRY_SIZE, e->new_size, net);
        if (e->f->k.type == SCP_LK_CONTRACT_CODE)
          excess(out, SCP_FEE_LIM_CODE_SIZE, e->now->vallen, net);
      }
    }
    if (e->f->k.type == SCP_LK_CONTRACT_DATA)
      excess(out, SCP_FEE_LIM_DATA_KEY_SIZE, key_size(&e->f->k), net);
    if (e->has_rent) w->rents[w->nrent++] = e->rent;
  }
  out->rent_changes = w->nrent;
}

/* Events, the return value and the transaction's size; then the
 * resources and the transaction-wide limits. */
static int count_sizes(scp_host *h, const scp_fee_call *c, tx_work *w, scp_fee_tx *out) {
  int rc;
  for (size_t i = 0; i < h->nevents; i++) {
    if ((rc = event_size(h, &h->events[i], &w->ev_size[i]))) return rc;
    w->evbytes += w->ev_size[i];
  }
  if ((rc = val_size(h, c->result, &out->result_bytes))) return rc;
  w->evbytes += out->result_bytes;
  if ((rc = tx_size(h, c, w->keys, out->restored, &w->txbytes))) return rc;
  scp_fee_resources *r = &out->res;
  r->instructions = sat32(c->instructions);
  r->disk_read_entries = sat32(w->rentries);
  r->write_entries = sat32(w->wentries);
  r->disk_read_bytes = sat32(w->rbytes);
  r->write_bytes = sat32(w->wbytes);
  r->contract_events_size_bytes = sat32(w->evbytes);
  r->transaction_size_bytes = sat32(w->txbytes);
  const scp_fee_network *net = c->net;
  excess(out, SCP_FEE_LIM_INSTRUCTIONS, c->instructions, net);
  excess(out, SCP_FEE_LIM_MEMORY, c->memory, net);
  excess(out, SCP_FEE_LIM_DISK_READ_ENTRIES, w->rentries, net);
  excess(out, SCP_FEE_LIM_DISK_READ_BYTES, w->rbytes, net);
  excess(out, SCP_FEE_LIM_WRITE_ENTRIES, w->wentries, net);
  excess(out, SCP_FEE_LIM_WRITE_BYTES, w->wbytes, net);
  excess(out, SCP_FEE_LIM_FOOTPRINT_ENTRIES, h->nfoot, net);
  excess(out, SCP_FEE_LIM_EVENTS_SIZE, w->evbytes, net);
  excess(out, SCP_FEE_LIM_TX_SIZE, w->txbytes, net);
  return SCP_OK;
}

static uint32_t first_of(const scp_fee_key *k) { return k ? pick(k->first, 0, 0) : 0; }
static uint32_t writer_of(const scp_fee_key *k) { return k ? pick(k->write, k->first, 0) : 0; }
static uint32_t extender_of(const scp_fee_key *k) {
  return k ? pick(k->extend, k->write, k->first) : 0;
}

/* Each component onto the nodes that caused it.  False on OOM. */
static bool attribute(scp_host *h, const scp_fee_track *t, const scp_fee_call *c,
                      scp_tree *tree, const tx_work *w, const scp_fee_tx *out,
                      const scp_fee_rent_config *rent_cfg, cells *cl) {
  const scp_fee_breakdown *f = &out->fee;
  const entry_info *ei = w->ei;
  unsigned fm = c->fee_metric;
  cpu_cells(cl, tree, c->cpu_metric);
  if (!book(cl, (uint64_t)f->compute, tree, fm)) return false;
  for (size_t i = 0; i < h->nfoot; i++)
    if (ei[i].disk_read) cell_add(cl, first_of(ei[i].who), -1, 1);
  if (!book(cl, (uint64_t)f->disk_read_entries, tree, fm)) return false;
  for (size_t i = 0; i < h->nfoot; i++)
    if (ei[i].disk_read && ei[i].old) cell_add(cl, first_of(ei[i].who), -1, ei[i].old_size);
  if (!book(cl, (uint64_t)f->disk_read_bytes, tree, fm)) return false;
  for (size_t i = 0; i < h->nfoot; i++)
    if (ei[i].f->rw) cell_add(cl, writer_of(ei[i].who), -1, 1);
  if (!book(cl, (uint64_t)f->write_entries, tree, fm)) return false;
  for (size_t i = 0; i < h->nfoot; i++)
    if (ei[i].f->rw && ei[i].now && ei[i].now->present)
      cell_add(cl, writer_of(ei[i].who), -1, ei[i].new_size);
  if (!book(cl, (uint64_t)f->write_bytes, tree, fm)) return false;
  for (size_t i = 0; i < h->nevents; i++)
    cell_add(cl, i < t->nevents ? t->event_node[i] : 0, -1, w->ev_size[i]);
  cell_add(cl, 0, -1, out->result_bytes);
  if (!book(cl, (uint64_t)f->events, tree, fm)) return false;
  /* the transaction's size is the whole call's */
  scp_tree_add(tree, 0, fm, (uint64_t)(f->historical + f->bandwidth));
  /* rent: on the write that created or grew the entry, else on the TTL
   * extension */
  for (size_t i = 0; i < h->nfoot; i++) {
    const entry_info *e = &ei[i];
    if (!e->has_rent) continue;
    bool grew = e->rent.new_size_bytes > e->rent.old_size_bytes;
    const scp_fee_key *k = e->who;
    uint32_t node = !k ? 0 : grew ? pick(k->write, k->extend, k->first) : extender_of(k);
    int64_t fee = scp_fee_rent_entry(&e->rent, rent_cfg, h->opts.ledger_sequence);
    scp_tree_add(tree, node, fm, (uint64_t)fee);
  }
  /* the TTL entries written for extended entries */
  for (size_t i = 0; i < h->nfoot; i++) {
    const entry_info *e = &ei[i];
    if (e->has_rent && e->rent.old_live_until_ledger < e->rent.new_live_until_ledger)
      cell_add(cl, extender_of(e->who), -1, 1);
  }
  return book(cl, (uint64_t)(out->rent.ttl_entries + out->rent.ttl_bytes), tree, fm);
}

/* ---- the entries' parts ------------------------------------------------------ */

/* Split a fee component over the entries by weight w (the same weights as
 * the nodes' split) into fee[part].  False on OOM. */
static bool split_entries(scp_fee_entry *en, size_t n, const uint64_t *w, int64_t amount,
                          unsigned part, uint64_t *share) {
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++) sum += w[i];
  if (!sum || amount <= 0) return true;
  if (scp_fee_split(w, n, (uint64_t)amount, share) != SCP_OK) return false;
  for (size_t i = 0; i < n; i++) en[i].fee[part] = share[i];
  return true;
}

/* What an entry is without the fee: its kind of access, sizes, TTLs, the
 * ledgers of TTL its rent pays for (none of them needs a rate) and its
 * node. */
static void entry_fill(const entry_info *e, uint32_t seq, scp_fee_entry *en) {
  en->k = &e->f->k;
  en->rw = e->f->rw;
  en->disk_read = e->disk_read;
  en->restored = e->restored;
  en->old_size = e->old ? e->old_size : 0;
  en->new_size = e->now && e->now->present ? e->new_size : 0;
  if (is_soroban(&e->f->k)) {
    en->old_live_until = e->old ? e->old->live_until : 0;
    en->new_live_until = e->now && e->now->present ? e->now->live_until : 0;
  }
  const scp_fee_rent_change *r = &e->rent;
  bool is_new = r->old_size_bytes == 0 && r->old_live_until_ledger == 0;
  uint32_t before = is_new ? (seq ? seq - 1 : 0) : r->old_live_until_ledger;
  if (e->has_rent && r->new_live_until_ledger > before)
    en->rent_ledgers = r->new_live_until_ledger - before;
  en->node = pick(writer_of(e->who), 0, 0);
}

/* Every footprint entry: its sizes, TTLs, the ledgers its rent paid for,
 * its share of each entry-driven fee component and its node.  False on
 * OOM. */
static bool record_entries(scp_host *h, const tx_work *w, scp_fee_tx *out,
                           const scp_fee_rent_config *rent_cfg) {
  size_t n = h->nfoot;
  uint32_t seq = h->opts.ledger_sequence;
  out->entries = calloc(n ? n : 1, sizeof *out->entries);
  uint64_t *wt = calloc(n ? n : 1, sizeof *wt), *share = calloc(n ? n : 1, sizeof *share);
  bool ok = out->entries && wt && share;
  for (size_t i = 0; ok && i < n; i++) {
    const entry_info *e = &w->ei[i];
    scp_fee_entry *en = &out->entries[i];
    entry_fill(e, seq, en);
    if (e->has_rent) en->fee[SCP_FEE_ENTRY_RENT] = (uint64_t)scp_fee_rent_entry(&e->rent, rent_cfg, seq);
  }
  out->nentries = ok ? n : 0;
  const scp_fee_breakdown *f = &out->fee;
  scp_fee_entry *en = out->entries;
  for (size_t i = 0; ok && i < n; i++) wt[i] = w->ei[i].disk_read;
  ok = ok && split_entries(en, n, wt, f->disk_read_entries, SCP_FEE_ENTRY_DISK_READ_ENTRIES, share);
  for (size_t i = 0; ok && i < n; i++) wt[i] = w->ei[i].disk_read ? en[i].old_size : 0;
  ok = ok && split_entries(en, n, wt, f->disk_read_bytes, SCP_FEE_ENTRY_DISK_READ_BYTES, share);
  for (size_t i = 0; ok && i < n; i++) wt[i] = en[i].rw;
  ok = ok && split_entries(en, n, wt, f->write_entries, SCP_FEE_ENTRY_WRITE_ENTRIES, share);
  for (size_t i = 0; ok && i < n; i++) wt[i] = en[i].rw ? en[i].new_size : 0;
  ok = ok && split_entries(en, n, wt, f->write_bytes, SCP_FEE_ENTRY_WRITE_BYTES, share);
  for (size_t i = 0; ok && i < n; i++)
    wt[i] = w->ei[i].has_rent &&
            w->ei[i].rent.old_live_until_ledger < w->ei[i].rent.new_live_until_ledger;
  ok = ok && split_entries(en, n, wt, out->rent.ttl_entries + out->rent.ttl_bytes,
                           SCP_FEE_ENTRY_TTL_WRITES, share);
  free(wt);
  free(share);
  return ok;
}

void scp_fee_tx_free(scp_fee_tx *t) {
  free(t->entries);
  t->entries = NULL;
  t->nentries = 0;
}

int scp_fee_tx_finish(scp_fee_track *t, scp_host *h, const scp_fee_call *c, scp_tree *tree,
                      scp_fee_tx *out, scp_error *err) {
  scp_fee_tx_free(out);
  memset(out, 0, sizeof *out);
  const scp_fee_network *net = c->net;
  tx_work w = {0};
  w.ei = calloc(h->nfoot ? h->nfoot : 1, sizeof *w.ei);
  w.rents = calloc(h->nfoot ? h->nfoot : 1, sizeof *w.rents);
  w.ev_size = calloc(h->nevents ? h->nevents : 1, sizeof *w.ev_size);
  cells cl = {0};
  int rc = SCP_OK;
  if (t->oom || !w.ei || !w.rents || !w.ev_size) goto oom;
  count_footprint(h, t, net, &w, out);
  if ((rc = count_sizes(h, c, &w, out))) {
    if (rc == SCP_ERR_NOMEM) goto oom;
    rc = scp_fail(err, SCP_ERR_INTERNAL, "a value of the call has no XDR form (fee: %s)",
                  scp_strerror(rc));
    goto done;
  }
  scp_fee_transaction(&out->res, &net->fee, &out->fee);
  scp_fee_rent_config rent_cfg;
  scp_fee_network_rent(net, &rent_cfg);
  out->rent_fee_per_1kb = rent_cfg.fee_per_rent_1kb;
  scp_fee_rent(w.rents, w.nrent, &rent_cfg, h->opts.ledger_sequence, &out->rent);
  if (out->fee.non_refundable < 0 || out->fee.refundable < 0 || out->rent.total < 0 ||
      __builtin_add_overflow(out->fee.non_refundable, out->fee.refundable, &out->total) ||
      __builtin_add_overflow(out->total, out->rent.total, &out->total)) {
    rc = scp_fail(err, SCP_ERR_INTERNAL, "the fee does not fit in 63 bits");
    goto done;
  }
  if (attribute(h, t, c, tree, &w, out, &rent_cfg, &cl) && record_entries(h, &w, out, &rent_cfg))
    goto done;
oom:
  rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
done:
  cells_free(&cl);
  free(w.ei);
  free(w.rents);
  free(w.ev_size);
  return rc;
}

int scp_fee_tx_entries(scp_fee_track *t, scp_host *h, scp_fee_tx *out, scp_error *err) {
  scp_fee_tx_free(out);
  memset(out, 0, sizeof *out);
  size_t n = h->nfoot;
  entry_info *ei = calloc(n ? n : 1, sizeof *ei);
  out->entries = calloc(n ? n : 1, sizeof *out->entries);
  if (t->oom || !ei || !out->entries) {
    free(ei);
    scp_fee_tx_free(out);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    classify(h, t, &h->foot[i], &ei[i]);
    entry_fill(&ei[i], h->opts.ledger_sequence, &out->entries[i]);
    if (ei[i].f->rw) out->footprint_rw++;
    else out->footprint_ro++;
    out->restored += ei[i].restored;
    /* the TTL entries a fee would write (scp_fee_rent's count) */
    out->rent.extended += ei[i].has_rent &&
                          ei[i].rent.old_live_until_ledger < ei[i].rent.new_live_until_ledger;
  }
  out->nentries = n;
  free(ei);
  return SCP_OK;
}

/* ---- soroban-sdk's InvocationResources ------------------------------------------ */

/* invocation_metering.rs try_snapshot_storage_and_event_resources: every
 * footprint key compared between the map at Host::call's start (init) and
 * now.  Contract data and code are memory reads unless an expired
 * persistent entry is restored; rent is counted from the current ledger
 * (not sequence - 1 as the network does); events are the contract
 * events only, the return value left out. */
int scp_fee_sdk_measure(scp_host *h, const scp_sentry *init, size_t ninit, scp_fee_sdk_resources *r) {
  uint32_t seq = h->opts.ledger_sequence;
  for (size_t i = 0; i < h->nfoot; i++) {
    const scp_lkey *k = &h->foot[i].k;
    const scp_sentry *was = in_list(init, ninit, k), *now = in_list(h->store, h->nstore, k);
    uint32_t init_lu = seq, init_rent = 0, new_rent = 0, size = 0;
    bool disk = !is_soroban(k);
    if (was && was->present) {
      if (is_soroban(k) && was->live_until >= seq) init_lu = was->live_until;
      else if (is_soroban(k)) disk = is_persistent(k);
      uint32_t xdr = scp_storage_entry_xdr_len(h, k, was->vallen);
      if (disk) r->disk_read_bytes += xdr;
      init_rent = rent_size(h, k, was->val, was->vallen, xdr);
    }
    if (now && now->present) {
      size = scp_storage_entry_xdr_len(h, k, now->vallen);
      new_rent = rent_size(h, k, now->val, now->vallen, size);
    }
    if (disk) r->disk_read_entries++;
    else r->memory_read_entries++;
    if (h->foot[i].rw) {
      r->write_entries++;
      r->write_bytes += size;
    }
    if (!now || !now->present || !is_soroban(k)) continue;
    int64_t grow = new_rent > init_rent ? (int64_t)(new_rent - init_rent) : 0;
    int64_t bytes = (int64_t)(init_lu - seq) * grow + ((int64_t)now->live_until - init_lu) * new_rent;
    if (bytes <= 0) continue;
    if (is_persistent(k)) {
      r->persistent_rent_ledger_bytes += bytes;
      r->persistent_entry_rent_bumps++;
    } else {
      r->temporary_rent_ledger_bytes += bytes;
      r->temporary_entry_rent_bumps++;
    }
  }
  for (size_t i = 0; i < h->nevents; i++) {
    uint64_t n;
    int rc = event_size(h, &h->events[i], &n);
    if (rc) return rc;
    r->contract_events_size_bytes = sat32(r->contract_events_size_bytes + n);
  }
  return SCP_OK;
}

/* ---- an UploadContractWasm transaction ---------------------------------------- */

void scp_fee_upload(const scp_fee_network *net, const uint8_t *wasm, uint32_t len,
                    uint64_t instructions, scp_fee_upload_tx *out) {
  memset(out, 0, sizeof *out);
  out->entry_size = scp_storage_code_xdr_len(len, false);
  scp_budget b;
  scp_budget_init(&b, 0, 0);
  out->rent_size = scp_fee_code_rent_size(&b, wasm, len, out->entry_size);
  /* the envelope: the footprint's one read-write key (the code's), then
   * InvokeHostFunctionOp {HostFunction::UploadContractWasm(bytes), no auth} */
  scp_lkey ck = {.type = SCP_LK_CONTRACT_CODE};
  out->tx_size = TX_FIXED_BYTES + key_size(&ck) + 4 + 4 + pad4(len) + 4;
  /* the return value: ScVal::Bytes of the 32-byte hash */
  out->result_size = 4 + 4 + 32;
  scp_fee_resources *r = &out->res;
  r->instructions = sat32(instructions);
  r->write_entries = 1;
  r->write_bytes = out->entry_size;
  r->contract_events_size_bytes = out->result_size;
  r->transaction_size_bytes = out->tx_size;
  scp_fee_transaction(r, &net->fee, &out->fee);
  scp_fee_rent_config rc;
  scp_fee_network_rent(net, &rc);
  out->rent_fee_per_1kb = rc.fee_per_rent_1kb;
  out->ttl = net->min_persistent_ttl;
  /* written at ledger 1, the entry lives until 1 + ttl - 1: ttl ledgers */
  scp_fee_rent_change ch = {.is_persistent = true, .is_code_entry = true,
                            .new_size_bytes = out->rent_size,
                            .new_live_until_ledger = out->ttl};
  scp_fee_rent(&ch, 1, &rc, 1, &out->rent);
  out->total = out->fee.non_refundable + out->fee.refundable + out->rent.total;
}
