/*
 * sor_entries.c — every ledger entry a run read or wrote, as a profile
 * table: what the fee is made of, entry by entry.
 *
 * The rows come from the fee (scp_fee_tx.entries: the footprint in its
 * order, each entry's share of the disk-read, write, rent and TTL-write
 * components, split the way the nodes' shares are), so each fee column
 * sums to its row of the fee table; the table ties each column to that
 * row (scp_prof_table_col_part) and the profile checks the sums.  Keys are
 * named through the owning contract's spec (spec_key.c).
 *
 * Without a network the rows come from the same footprint
 * (scp_fee_tx_entries): the entries, their keys, sizes, TTLs and nodes
 * alike, and no fee columns (they need the network's rates: a footnote
 * says how to get them).
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/run/sor_entries.h"
#include "soroban/core/host_private.h"
#include "soroban/run/scp_spec.h"
#include "soroban/sac/sac_label.h"
#include "xdr/scp_xdr.h"

/* The columns: four of the entry, the rent's ledgers, then its part of
 * each fee component (SCP_FEE_ENTRY_*), named as the fee table's rows. */
enum { COL_FEES = 5, NCOLS = COL_FEES + SCP_FEE_ENTRY_NPARTS };
static const char *const cols[NCOLS] = {
  "size before", "size after", "live until before", "live until after", "rent ledgers",
  "disk read entries", "disk read bytes", "write entries", "write bytes", "rent", "TTL writes",
};

typedef struct entries_ctx {
  sor_vm *vm;
  scp_spec **spec;             /* by module, parsed on first use */
  bool *spec_tried;
  scp_buf name, note;
} entries_ctx;

static int module_of(const sor_vm *vm, const uint8_t id[32], bool code) {
  for (size_t i = 0; i < vm->nmods; i++)
    if (!memcmp(code ? vm->mods[i].code_hash : vm->mods[i].id, id, 32)) return (int)i;
  return -1;
}

static const scp_spec *spec_of(entries_ctx *c, int mi) {
  if (mi < 0) return NULL;
  if (!c->spec_tried[mi]) {
    c->spec_tried[mi] = true;
    const uint8_t *data = NULL;
    size_t len = 0;
    /* a spec that does not decode names nothing: the keys print raw */
    if (scp_wasm_custom_section(c->vm->mods[mi].mod, "contractspecv0", &data, &len))
      (void)scp_spec_parse(data, len, 0, "contractspecv0", &c->spec[mi], NULL);
  }
  return c->spec[mi];
}

/* The contract as the report names it: its file, its asset, its strkey. */
static void put_owner(entries_ctx *c, const uint8_t id[32], bool code, scp_buf *b) {
  int mi = module_of(c->vm, id, code);
  const char *label = mi >= 0 && c->vm->mods[mi].label ? c->vm->mods[mi].label : NULL;
  char sk[57], asset[96];
  if (label && !strncmp(label, "contract:", 9)) {
    scp_buf_puts(b, label + 9);
  } else if (!code && scp_sac_label(c->vm->host, id, asset, sizeof asset)) {
    scp_buf_printf(b, "SAC(%s)", asset);
  } else if (code) {
    for (int i = 0; i < 4; i++) scp_buf_printf(b, "%02x", id[i]);
    scp_buf_puts(b, "\xe2\x80\xa6");
  } else {
    scp_xdr_strkey(SCP_STRKEY_CONTRACT, id, sk);
    scp_buf_puts(b, sk);
  }
}

/* name: the key; note: what kind of entry, whose, and how it was used. */
static void describe(entries_ctx *c, const scp_fee_entry *e) {
  const scp_lkey *k = e->k;
  scp_buf *n = &c->name, *t = &c->note;
  n->len = t->len = 0;
  if (n->data) n->data[0] = 0;
  char sk[57];
  switch (k->type) {
  case SCP_LK_CONTRACT_DATA: {
    const scp_spec *s = k->account ? NULL : spec_of(c, module_of(c->vm, k->id, false));
    if (scp_spec_key_format(s, k->key, k->keylen, n) == SCP_ERR_MALFORMED)
      scp_buf_puts(n, "(a key the XDR codec does not read)");
    bool inst = n->data && !strcmp(n->data, "instance");
    scp_buf_puts(t, inst ? "instance of " : k->dur == SCP_DUR_TEMPORARY ? "temporary data of "
                                                                      : "persistent data of ");
    if (k->account) {
      scp_xdr_strkey(SCP_STRKEY_ACCOUNT, k->id, sk);
      scp_buf_puts(t, sk);
    } else {
      put_owner(c, k->id, false, t);
    }
    break;
  }
  case SCP_LK_CONTRACT_CODE:
    scp_buf_puts(n, "code");
    scp_buf_puts(t, "code of ");
    put_owner(c, k->id, true, t);
    break;
  default:
    scp_xdr_strkey(SCP_STRKEY_ACCOUNT, k->id, sk);
    scp_buf_puts(n, sk);
    scp_buf_puts(t, k->keylen ? "trustline" : "account");
    break;
  }
  scp_buf_puts(t, e->rw ? ", read-write" : ", read-only");
  if (e->restored) scp_buf_puts(t, ", restored");
  else if (e->disk_read) scp_buf_puts(t, ", disk read");
}

static size_t part_named(const scp_profile *p, const char *name) {
  for (size_t i = 0; i < p->nparts; i++)
    if (!strcmp(scp_prof_str(p, p->parts[i].name), name)) return i;
  return SIZE_MAX;
}

static int add_rows(entries_ctx *c, scp_profile *p) {
  const scp_fee_tx *tx = &c->vm->fee.tx;
  static const int no_metric[NCOLS] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  bool fees = c->vm->fee.done;
  int rc = scp_prof_table_begin(p, "Ledger entries", "ledger entry", fees ? NCOLS : COL_FEES, cols,
                                no_metric);
  if (!rc) rc = scp_prof_table_note_title(p, "entry");
  if (!rc && !fees) rc = scp_prof_table_footnote(p, "fees: give --network NAME");
  for (unsigned f = 0; !rc && fees && f < SCP_FEE_ENTRY_NPARTS; f++) {
    size_t part = part_named(p, cols[COL_FEES + f]);
    rc = part == SIZE_MAX ? SCP_ERR_INTERNAL : scp_prof_table_col_part(p, COL_FEES + f, part);
  }
  for (size_t i = 0; !rc && i < tx->nentries; i++) {
    const scp_fee_entry *e = &tx->entries[i];
    describe(c, e);
    uint64_t v[NCOLS] = {e->old_size, e->new_size, e->old_live_until, e->new_live_until,
                         e->rent_ledgers};
    for (unsigned f = 0; f < SCP_FEE_ENTRY_NPARTS; f++) v[COL_FEES + f] = e->fee[f];
    if (c->name.oom || c->note.oom) return SCP_ERR_NOMEM;
    const scp_prof_row_in in = {.name = c->name.data ? c->name.data : "", .note = c->note.data,
                                .node = scp_prof_node_of_raw(p, e->node), .v = v};
    rc = scp_prof_table_row_ex(p, &in);
  }
  return rc;
}

/* One line for the three counts a user compares. */
static int counts_line(entries_ctx *c, scp_profile *p) {
  const scp_fee_tx *tx = &c->vm->fee.tx;
  unsigned inst = 0, code = 0, disk = 0, written = 0;
  for (size_t i = 0; i < tx->nentries; i++) {
    const scp_fee_entry *e = &tx->entries[i];
    code += e->k->type == SCP_LK_CONTRACT_CODE;
    inst += e->k->type == SCP_LK_CONTRACT_DATA && e->k->keylen == 4 &&
            !memcmp(e->k->key, "\0\0\0\x14", 4);
    disk += e->disk_read;
    written += e->rw;
  }
  scp_buf *t = &c->note;
  t->len = 0;
  scp_buf_printf(t, "%zu in the footprint (%u read-only, %u read-write; with %u instance, %u code), "
                 "%u read from disk, %u written, %u TTLs extended (the %s counts; the storage "
                 "line counts host calls)",
                 tx->nentries, tx->footprint_ro, tx->footprint_rw, inst, code, disk, written,
                 (unsigned)tx->rent.extended, c->vm->fee.done ? "fee's" : "footprint's");
  return t->oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "ledger entries", t->data);
}

int scp_sor_entries_collect(sor_vm *vm, scp_error *err) {
  int rc = scp_fee_tx_entries(&vm->fee.track, vm->host, &vm->fee.tx, err);
  vm->fee.entries_only = rc == SCP_OK;
  return rc;
}

int scp_sor_entries_table(sor_vm *vm, scp_profile *p, scp_error *err) {
  if (!vm->fee.done && !vm->fee.entries_only) return SCP_OK;
  entries_ctx c = {.vm = vm, .spec = calloc(vm->nmods + 1, sizeof *c.spec),
                   .spec_tried = calloc(vm->nmods + 1, sizeof *c.spec_tried)};
  int rc = !c.spec || !c.spec_tried ? SCP_ERR_NOMEM : add_rows(&c, p);
  if (!rc) rc = counts_line(&c, p);
  if (!rc && !scp_prof_tables_check(p)) rc = SCP_ERR_INTERNAL;
  for (size_t i = 0; c.spec && i < vm->nmods; i++) scp_spec_free(c.spec[i]);
  free(c.spec);
  free(c.spec_tried);
  scp_buf_free(&c.name);
  scp_buf_free(&c.note);
  if (rc == SCP_ERR_NOMEM) return scp_fail(err, rc, "out of memory");
  if (rc) return scp_fail(err, SCP_ERR_INTERNAL, "internal error: the ledger entries' fees differ from the fee table");
  return SCP_OK;
}
