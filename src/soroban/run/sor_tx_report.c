/*
 * sor_tx_report.c — a transaction's resources side by side (scp_sortx.h):
 * what the envelope declared, what the run used, what the network charges
 * and what its meta says it charged.  One metadata line per row, so the
 * report and the JSON carry it alike; a cell nobody has is "-".
 */
#include <string.h>

#include "soroban/run/scp_sortx.h"
#include "soroban/core/host_lifecycle.h"
#include "profile/scp_prof.h"

enum { NCELLS = 3 };

typedef struct cell {
  bool has;
  int64_t v;
} cell;

typedef struct table {
  scp_buf line, diffs;
  unsigned ndiffs;
} table;

/* One row "declared D | scprof S | network N", DIFFERS when two cells
 * that are there disagree. */
static int row(table *tb, scp_profile *p, const char *name, cell d, cell s, cell n) {
  const cell cs[NCELLS] = {d, s, n};
  static const char *const who[NCELLS] = {"declared", "scprof", "network"};
  bool differs = false;
  tb->line.len = 0;
  for (int i = 0; i < NCELLS; i++) {
    scp_buf_printf(&tb->line, "%s%s ", i ? " | " : "", who[i]);
    if (!cs[i].has) {
      scp_buf_putc(&tb->line, '-');
      continue;
    }
    if (cs[i].v < 0) scp_buf_putc(&tb->line, '-');
    scp_buf_put_grouped(&tb->line, cs[i].v < 0 ? 0 - (uint64_t)cs[i].v : (uint64_t)cs[i].v);
    for (int k = 0; k < i; k++) differs |= cs[k].has && cs[k].v != cs[i].v;
  }
  if (differs) {
    scp_buf_puts(&tb->line, "  DIFFERS");
    scp_buf_printf(&tb->diffs, "%s%s", tb->ndiffs ? ", " : "", name);
    tb->ndiffs++;
  }
  char key[64];
  snprintf(key, sizeof key, "tx %s", name);
  return tb->line.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, key, tb->line.data ? tb->line.data : "");
}

static cell have(int64_t v) { return (cell){.has = true, .v = v}; }
static cell maybe(bool has, int64_t v) { return (cell){.has = has, .v = has ? v : 0}; }

void scp_sortx_charge_of(const scp_sortx *t, const scp_sortx_computed *c, scp_sortx_charge *out) {
  uint32_t classic = 0;
  for (size_t i = 0; i < t->nfoot; i++)
    classic += t->foot[i].k.type == SCP_LK_ACCOUNT || t->foot[i].k.type == SCP_LK_TRUSTLINE;
  scp_fee_resources res = {
      .instructions = t->instructions,
      .disk_read_entries = classic + (uint32_t)t->narchived,
      .write_entries = t->nrw,
      .disk_read_bytes = t->disk_read_bytes,
      .write_bytes = t->write_bytes,
      .contract_events_size_bytes = c->events_bytes,
      .transaction_size_bytes = t->bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)t->bytes,
  };
  scp_fee_breakdown f;
  scp_fee_transaction(&res, c->cfg, &f);
  out->non_refundable = f.non_refundable;
  out->rent = c->rent;
  out->refundable = f.refundable + c->rent;
  out->total = out->non_refundable + out->refundable;
}

/* The fee rows: what scprof computes the network charges, what it
 * recorded. */
static int fee_rows(table *tb, const scp_sortx *t, const scp_sortx_meta *meta, const scp_sortx_computed *c,
                    scp_profile *p) {
  const cell none = {0};
  scp_sortx_charge ch = {0};
  bool f = c->cfg != NULL, m = meta && meta->has_charges;
  if (f) scp_sortx_charge_of(t, c, &ch);
  int rc = row(tb, p, "resource fee charged", none, maybe(f, ch.total),
               maybe(m, m ? meta->non_refundable + meta->refundable : 0));
  if (!rc) rc = row(tb, p, "non-refundable fee", none, maybe(f, ch.non_refundable), maybe(m, m ? meta->non_refundable : 0));
  if (!rc) rc = row(tb, p, "refundable fee", none, maybe(f, ch.refundable), maybe(m, m ? meta->refundable : 0));
  if (!rc) rc = row(tb, p, "rent fee", none, maybe(f, ch.rent), maybe(m, m ? meta->rent : 0));
  if (!rc && f && ch.total > t->resource_fee) {
    /* the network refuses a charge over the declared resource fee */
    tb->line.len = 0;
    scp_buf_puts(&tb->line, "the charge exceeds the declared resource fee by ");
    scp_buf_put_grouped(&tb->line, (uint64_t)(ch.total - t->resource_fee));
    rc = tb->line.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "tx over", tb->line.data);
  }
  if (!rc && meta && meta->has_fee_charged) rc = row(tb, p, "fee charged", none, none, have(meta->fee_charged));
  return rc;
}

int scp_sortx_describe(const scp_sortx *t, const scp_sortx_meta *meta, const scp_sortx_computed *c,
                       scp_profile *p) {
  table tb = {0};
  const cell none = {0};
  bool f = c->cfg != NULL;
  scp_buf_printf(&tb.line, "%s, fee %lld, %zu auth entr%s, %zu bytes", t->fee_bump ? "fee bump of a v1 transaction" : "v1",
                 (long long)t->fee, t->nauth, t->nauth == 1 ? "y" : "ies", t->bytes);
  if (t->narchived) scp_buf_printf(&tb.line, ", %zu archived entr%s to restore", t->narchived, t->narchived == 1 ? "y" : "ies");
  if (meta) scp_buf_printf(&tb.line, ", meta v%u", meta->version);
  int rc = tb.line.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "tx envelope", tb.line.data);
  if (!rc) rc = row(&tb, p, "instructions", have(t->instructions), have((int64_t)c->instructions), none);
  if (!rc) rc = row(&tb, p, "read-only entries", have(t->nro), maybe(f, c->nro), none);
  if (!rc) rc = row(&tb, p, "read-write entries", have(t->nrw), maybe(f, c->nrw), none);
  if (!rc) rc = row(&tb, p, "disk read bytes", have(t->disk_read_bytes), maybe(f, (int64_t)c->disk_read_bytes), none);
  if (!rc) rc = row(&tb, p, "write bytes", have(t->write_bytes), maybe(f, (int64_t)c->write_bytes), none);
  if (!rc) rc = row(&tb, p, "resource fee", have(t->resource_fee), none, none);
  if (!rc) rc = fee_rows(&tb, t, meta, c, p);
  if (!rc) {
    tb.line.len = 0;
    if (tb.ndiffs) scp_buf_printf(&tb.line, "%u: %s", tb.ndiffs, tb.diffs.data);
    else scp_buf_puts(&tb.line, "none");
    rc = tb.line.oom || tb.diffs.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "tx differences", tb.line.data);
  }
  /* the charges are listed in host_enforce.c and host_teardown.c */
  if (!rc)
    rc = scp_prof_meta(p, "tx invocation",
                       "the network's set-up charged (tx:decode), its storage enforcing, and its teardown "
                       "(tx:encode: the events externalized, the return value, ledger changes and events "
                       "encoded)");
  scp_buf_free(&tb.line);
  scp_buf_free(&tb.diffs);
  return rc;
}
