/*
 * check.c — the budget gate: compares totals (of the run or of named
 * functions) with limits and says, one line each, what held and what went
 * over, so CI can fail a build that blows its budget.
 */
#include "output/out_private.h"

#include <stdlib.h>
#include <string.h>

static void put_metric(scp_buf *b, const scp_metric *m) {
  scp_buf_puts(b, m->name && *m->name ? m->name : "cost");
}

int scp_out_check(const scp_profile *p, const scp_check_opts *o, scp_buf *b) {
  static const scp_check_opts none = {0};
  if (!o) o = &none;
  for (size_t i = 0; i < o->nlimits; i++)
    if (o->limits[i].metric >= p->nmetrics || o->limits[i].metric >= SCP_MAX_METRICS)
      return SCP_ERR_ARG;
  scp_out_labels l = {0};
  scp_out_kids k = {0};
  scp_out_frame_agg *agg = NULL;
  int rc = SCP_ERR_NOMEM;
  if (scp_out_labels_build(p, &l) || scp_out_kids_build(p, &l, &k) ||
      !(agg = scp_out_frame_aggregate(p, &k)))
    goto fail;
  bool over = false, missing = false;
  for (size_t i = 0; i < o->nlimits; i++) {
    const scp_check_limit *lim = &o->limits[i];
    uint64_t v = 0;
    bool found = lim->function == NULL;
    if (!lim->function) {
      /* the run's own limit is checked against what the chain checks
       * it against (Soroban memory: the Budget's count after refunds) */
      v = scp_prof_checked(p, lim->metric);
    } else {
      for (uint32_t f = 0; f < p->nframes; f++) {
        if (!agg[f].seen) continue;
        if (strcmp(scp_prof_str(p, p->frames[f].name), lim->function) != 0 &&
            strcmp(scp_out_label_of(&l, f), lim->function) != 0)
          continue;
        found = true;
        v += agg[f].total[lim->metric];
      }
    }
    const scp_metric *m = &p->metrics[lim->metric];
    if (!found) {
      missing = true;
      scp_buf_puts(b, "MISSING  ");
      put_metric(b, m);
      scp_buf_printf(b, " of %s: no such function in the profile\n", lim->function);
      continue;
    }
    bool bad = v > lim->max;
    over |= bad;
    scp_buf_puts(b, bad ? "OVER  " : "ok    ");
    put_metric(b, m);
    if (lim->function) scp_buf_printf(b, " of %s", lim->function);
    scp_buf_putc(b, ' ');
    scp_buf_put_grouped(b, v);
    scp_buf_puts(b, bad ? " > " : " <= ");
    scp_buf_put_grouped(b, lim->max);
    scp_buf_puts(b, " (");
    if (bad) {
      scp_buf_putc(b, '+');
      scp_out_put_pct(b, v - lim->max, lim->max);
    } else {
      scp_out_put_pct(b, v, lim->max);
    }
    scp_buf_puts(b, ")\n");
  }
  /* A failed transaction is not within budget, whatever it cost: the
   * run's own status fails the check unless failure was allowed. */
  bool failed = p->status != SCP_OK && !o->allow_failure;
  if (p->status != SCP_OK) {
    scp_buf_printf(b, "%s  run ended: ", failed ? "FAIL" : "note");
    scp_out_put_ended(b, p);
    scp_buf_puts(b, failed ? "\n" : " (failure allowed)\n");
  }
  rc = scp_out_done(b);
  if (rc == SCP_OK)
    rc = failed ? p->status : over ? SCP_ERR_BUDGET : missing ? SCP_ERR_NOTFOUND : SCP_OK;
fail:
  free(agg);
  scp_out_kids_free(&k);
  scp_out_labels_free(&l);
  return rc;
}
