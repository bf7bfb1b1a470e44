/*
 * fee_run.c — one profiled run's fee: the network from the options, the
 * computation after the run, and what the profile shows of it (the
 * breakdown rows, the metadata lines, the limits a call is over).
 */
#include <string.h>

#include "soroban/fee/scp_fee_tx.h"
#include "soroban/core/scp_host.h"
#include "profile/scp_prof.h"

int scp_fee_network_from_opts(const scp_soroban_opts *o, scp_fee_network *net, bool *on,
                              scp_error *err) {
  *on = false;
  if (!o->network && !o->network_config) return SCP_OK;
  const char *name = o->network ? o->network : "mainnet";
  int rc = scp_fee_network_find(name, net, err);
  if (rc) return rc;
  if (o->network_config) {
    rc = scp_fee_network_load(o->network_config, net, err);
    if (rc) return rc;
  }
  if (o->soroban_state_size) net->soroban_state_size = o->soroban_state_size;
  *on = true;
  return SCP_OK;
}

void scp_fee_budget_limits(const scp_soroban_opts *o, uint64_t *cpu, uint64_t *mem) {
  *cpu = o->limits.cpu;
  *mem = o->limits.mem;
  scp_fee_network net;
  bool on;
  if (scp_fee_network_from_opts(o, &net, &on, NULL) != SCP_OK || !on) return;
  if (!*cpu) *cpu = net.limit[SCP_FEE_LIM_INSTRUCTIONS];
  if (!*mem) *mem = net.limit[SCP_FEE_LIM_MEMORY];
}

void scp_fee_network_ttls(const scp_fee_network *net, scp_host_opts *ho) {
  ho->min_persistent_entry_ttl = net->min_persistent_ttl;
  ho->min_temp_entry_ttl = net->min_temporary_ttl;
  ho->max_entry_ttl = net->max_entry_ttl;
}

int scp_fee_run_init(scp_fee_run *r, const scp_soroban_opts *o, scp_host_opts *ho,
                     scp_error *err) {
  memset(r, 0, sizeof *r);
  int rc = scp_fee_network_from_opts(o, &r->net, &r->on, err);
  if (rc == SCP_OK && r->on) scp_fee_network_ttls(&r->net, ho);
  return rc;
}

void scp_fee_run_free(scp_fee_run *r) {
  scp_fee_track_free(&r->track);
  scp_fee_tx_free(&r->tx);
}

int scp_fee_run_finish(scp_fee_run *r, scp_host *h, scp_fee_call *c, scp_tree *tree,
                       scp_error *err) {
  c->net = &r->net;
  int rc = scp_fee_tx_finish(&r->track, h, c, tree, &r->tx, err);
  /* every stroop sits on exactly one node */
  if (rc == SCP_OK && scp_tree_total(tree, c->fee_metric) != (uint64_t)r->tx.total)
    rc = scp_fail(err, SCP_ERR_INTERNAL, "internal error: the nodes' fees (%llu) differ from the fee (%lld)",
                  (unsigned long long)scp_tree_total(tree, c->fee_metric), (long long)r->tx.total);
  r->done = rc == SCP_OK;
  return rc;
}

static void grouped(scp_buf *b, uint64_t v, const char *unit) {
  scp_buf_put_grouped(b, v);
  if (unit) scp_buf_printf(b, " %s", unit);
}

static int part(scp_profile *p, unsigned m, const char *title, const char *name, scp_buf *amount,
                int64_t cost) {
  int rc = amount->oom ? SCP_ERR_NOMEM
                       : scp_prof_part_add(p, m, title, name, amount->data ? amount->data : "",
                                       (uint64_t)cost);
  amount->len = 0;
  if (amount->data) amount->data[0] = 0;
  return rc;
}

/* "tx_max_write_bytes 140,000 over the limit 132,096 by 7,904; ..." */
static void excess_text(const scp_fee_tx *t, scp_buf *a) {
  for (size_t i = 0; i < t->nexcess; i++) {
    const scp_fee_excess *e = &t->excess[i];
    scp_buf_printf(a, "%s%s ", i ? "; " : "", scp_fee_limit_name(e->id));
    scp_buf_put_grouped(a, e->value);
    scp_buf_puts(a, " over the limit ");
    scp_buf_put_grouped(a, e->limit);
    scp_buf_puts(a, " by ");
    scp_buf_put_grouped(a, e->value - e->limit);
  }
}

int scp_fee_run_over(const scp_fee_run *r, scp_error *err) {
  if (!r->done || !r->tx.nexcess) return SCP_OK;
  scp_buf a = {0};
  excess_text(&r->tx, &a);
  int rc = a.oom ? SCP_ERR_NOMEM
                 : scp_fail(err, SCP_ERR_LIMIT, "the network would refuse this call: %s", a.data);
  scp_buf_free(&a);
  return rc;
}

int scp_fee_network_describe(const scp_fee_network *net, scp_profile *p) {
  scp_buf a = {0};
  if (net->base[0])
    scp_buf_printf(&a, "%s (a settings file applied on %s of %s)", net->name, net->base, net->date);
  else
    scp_buf_printf(&a, "%s, settings of %s", net->name, net->date);
  int rc = a.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "network", a.data);
  if (!rc && !net->base[0]) rc = scp_prof_meta(p, "network source", net->source);
  scp_buf_free(&a);
  return rc;
}

int scp_fee_run_describe(const scp_fee_run *r, scp_profile *p, unsigned m) {
  const scp_fee_tx *t = &r->tx;
  const scp_fee_resources *res = &t->res;
  const scp_fee_breakdown *f = &t->fee;
  scp_buf title = {0}, a = {0};
  int rc = SCP_OK;
  scp_buf_printf(&title, "Fees (%s)", r->net.name);
  if (title.oom) return SCP_ERR_NOMEM;
  const char *tt = title.data;
  grouped(&a, res->instructions, "instructions");
  if (!rc) rc = part(p, m, tt, "instructions", &a, f->compute);
  grouped(&a, res->disk_read_entries, "entries");
  if (!rc) rc = part(p, m, tt, "disk read entries", &a, f->disk_read_entries);
  grouped(&a, res->disk_read_bytes, "bytes");
  if (!rc) rc = part(p, m, tt, "disk read bytes", &a, f->disk_read_bytes);
  grouped(&a, res->write_entries, "entries");
  if (!rc) rc = part(p, m, tt, "write entries", &a, f->write_entries);
  grouped(&a, res->write_bytes, "bytes");
  if (!rc) rc = part(p, m, tt, "write bytes", &a, f->write_bytes);
  grouped(&a, res->contract_events_size_bytes, "bytes");
  scp_buf_puts(&a, " (refundable)");
  if (!rc) rc = part(p, m, tt, "events and return value", &a, f->events);
  grouped(&a, res->transaction_size_bytes, NULL);
  scp_buf_printf(&a, " + %u bytes of result", SCP_FEE_TX_BASE_RESULT_SIZE);
  if (!rc) rc = part(p, m, tt, "history (transaction size)", &a, f->historical);
  grouped(&a, res->transaction_size_bytes, "bytes");
  if (!rc) rc = part(p, m, tt, "bandwidth (transaction size)", &a, f->bandwidth);
  grouped(&a, t->rent_changes, t->rent_changes == 1 ? "entry" : "entries");
  scp_buf_puts(&a, " at ");
  grouped(&a, (uint64_t)t->rent_fee_per_1kb, "per KB (refundable)");
  if (!rc) rc = part(p, m, tt, "rent", &a, t->rent.entries);
  grouped(&a, t->rent.extended, "TTL entries (refundable)");
  if (!rc) rc = part(p, m, tt, "TTL writes", &a, t->rent.ttl_entries + t->rent.ttl_bytes);

  a.len = 0;
  grouped(&a, (uint64_t)t->total, "stroops: ");
  grouped(&a, (uint64_t)f->non_refundable, "non-refundable, ");
  grouped(&a, (uint64_t)(f->refundable + t->rent.total), "refundable");
  if (!rc) rc = a.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "fee", a.data);
  a.len = 0;
  scp_buf_printf(&a, "%u read-only, %u read-write (%u restored)", t->footprint_ro,
                 t->footprint_rw, t->restored);
  if (!rc) rc = a.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "footprint", a.data);
  if (!rc) rc = scp_fee_network_describe(&r->net, p);
  if (!rc && t->nexcess) {
    a.len = 0;
    excess_text(t, &a);
    rc = a.oom ? SCP_ERR_NOMEM : scp_prof_meta(p, "over network limits", a.data);
  }
  scp_buf_free(&title);
  scp_buf_free(&a);
  return rc;
}
