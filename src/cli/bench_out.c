/*
 * bench_out.c — a bench's verdicts and what it writes: the markdown table
 * (the form Mollusk's bencher made usual for CU, read in review) and
 * bench.json, which is also the baseline a later run compares with.
 */
#include "bench.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *no_failure = "expected a failure, the run succeeded";
static const char *other_error = "failed, but not with the expected error";
static const char *unexpected = "failed";
static const char *regression = "regression";

static double limit_of(const bench *b, const bench_case *c, bool *has) {
  *has = c->has_max || b->has_max;
  return c->has_max ? c->max_increase : b->max_increase;
}

int bench_judge(bench *b) {
  int fail = 0, missing = 0, over = 0;
  /* a case expecting failure passes when one of its rows failed as told */
  for (size_t k = 0; k < b->ncases; k++) {
    const bench_case *c = &b->cases[k];
    for (size_t col = 0; col < b->ncolumns; col++) {
      bool any = false;
      for (size_t r = 0; r < b->nrows; r++) {
        bench_cell *x = &b->rows[r].cell[col];
        if (b->rows[r].kase != k || !x->present) continue;
        x->verdict = NULL;
        if (x->status == SCP_OK) continue;
        any = true;
        bool as_told = !c->expect_error || strstr(x->error, c->expect_error);
        if (!c->expect_fail || !as_told) {
          x->verdict = c->expect_fail ? other_error : unexpected;
          x->verdict_status = x->status;
          if (!fail) fail = x->status;
        }
      }
      for (size_t r = 0; r < b->nrows && c->expect_fail && !any; r++) {
        bench_cell *x = &b->rows[r].cell[col];
        if (b->rows[r].kase != k || !x->present) continue;
        x->verdict = no_failure;
        x->verdict_status = SCP_ERR_NOTFOUND;
        missing = 1;
      }
    }
  }
  for (size_t r = 0; r < b->nrows; r++)
    for (size_t col = 0; col < b->ncolumns; col++) {
      bench_cell *x = &b->rows[r].cell[col];
      bool has;
      double pct = limit_of(b, &b->cases[b->rows[r].kase], &has);
      if (!x->present || x->verdict || !x->has_base || !has || x->cost <= x->base) continue;
      /* integer costs: the increase over pct percent of the base */
      if ((double)(x->cost - x->base) * 100.0 > pct * (double)x->base) {
        x->verdict = regression;
        x->verdict_status = SCP_ERR_BUDGET;
        over = 1;
      }
    }
  return fail ? fail : missing ? SCP_ERR_NOTFOUND : over ? SCP_ERR_BUDGET : SCP_OK;
}

/* "+1,234" / "-5" / "0" */
static void put_delta(scp_buf *o, uint64_t now, uint64_t base) {
  if (now == base) {
    scp_buf_putc(o, '0');
    return;
  }
  scp_buf_putc(o, now > base ? '+' : '-');
  scp_buf_put_grouped(o, now > base ? now - base : base - now);
}

/* two decimals, rounded half away from zero, from integers only */
static void put_pct(scp_buf *o, uint64_t now, uint64_t base) {
  if (!base) {
    scp_buf_puts(o, now ? "new" : "0.00%");
    return;
  }
  uint64_t d = now > base ? now - base : base - now;
  unsigned __int128 hund = ((unsigned __int128)d * 20000 / base + 1) / 2;
  scp_buf_printf(o, "%s%llu.%02llu%%", now == base ? "" : now > base ? "+" : "-",
                 (unsigned long long)(hund / 100), (unsigned long long)(hund % 100));
}

static void put_cell_cost(scp_buf *o, const bench_cell *x) {
  if (!x->present) {
    scp_buf_puts(o, " |");
    return;
  }
  scp_buf_putc(o, ' ');
  scp_buf_put_grouped(o, x->cost);
  scp_buf_printf(o, " %s |", x->metric);
}

static void put_result(scp_buf *o, const bench_row *r, const bench *b) {
  scp_buf_putc(o, ' ');
  bool first = true, all_ok = true;
  for (size_t col = 0; col < b->ncolumns; col++)
    all_ok &= !r->cell[col].present || (!r->cell[col].verdict && r->cell[col].status == SCP_OK);
  if (all_ok) {
    scp_buf_puts(o, "ok |\n");
    return;
  }
  for (size_t col = 0; col < b->ncolumns; col++) {
    const bench_cell *x = &r->cell[col];
    if (!x->present) continue;
    if (!first) scp_buf_puts(o, "; ");
    first = false;
    if (b->ncolumns > 1) scp_buf_printf(o, "%s: ", b->columns[col]);
    if (x->verdict) scp_buf_printf(o, "**%s**", x->verdict);
    if (x->verdict && x->status != SCP_OK) scp_buf_puts(o, ": ");
    if (x->status != SCP_OK) {
      for (const char *p = x->error; *p; p++) scp_buf_puts(o, *p == '|' ? "\\|" : (char[2]){*p, 0});
    } else if (!x->verdict) {
      scp_buf_puts(o, "ok");
    }
    if (x->status != SCP_OK && !x->verdict) scp_buf_puts(o, " (expected)");
  }
  scp_buf_puts(o, " |\n");
}

void bench_table(const bench *b, bool baseline, scp_buf *o) {
  bool mem = false, fee = false;
  for (size_t r = 0; r < b->nrows; r++)
    for (size_t col = 0; col < b->ncolumns; col++) {
      mem |= b->rows[r].cell[col].has_mem;
      fee |= b->rows[r].cell[col].has_fee;
    }
  scp_buf_puts(o, "| case |");
  for (size_t col = 0; col < b->ncolumns; col++) {
    const char *name = b->ncolumns > 1 ? b->columns[col] : "cost";
    scp_buf_printf(o, " %s |", name);
    if (mem) scp_buf_printf(o, " %s%smemory |", b->ncolumns > 1 ? name : "", b->ncolumns > 1 ? " " : "");
    if (fee) scp_buf_printf(o, " %s%sfee |", b->ncolumns > 1 ? name : "", b->ncolumns > 1 ? " " : "");
    if (baseline) scp_buf_puts(o, " Δ | % |");
  }
  scp_buf_puts(o, " result |\n|:--|");
  for (size_t col = 0; col < b->ncolumns; col++) {
    scp_buf_puts(o, "--:|");
    if (mem) scp_buf_puts(o, "--:|");
    if (fee) scp_buf_puts(o, "--:|");
    if (baseline) scp_buf_puts(o, "--:|--:|");
  }
  scp_buf_puts(o, ":--|\n");
  for (size_t r = 0; r < b->nrows; r++) {
    const bench_row *row = &b->rows[r];
    scp_buf_printf(o, "| %s |", row->label);
    for (size_t col = 0; col < b->ncolumns; col++) {
      const bench_cell *x = &row->cell[col];
      put_cell_cost(o, x);
      if (mem) {
        scp_buf_putc(o, ' ');
        if (x->present && x->has_mem) scp_buf_put_grouped(o, x->mem);
        scp_buf_puts(o, " |");
      }
      if (fee) {
        scp_buf_putc(o, ' ');
        if (x->present && x->has_fee) scp_buf_put_grouped(o, x->fee);
        scp_buf_puts(o, " |");
      }
      if (!baseline) continue;
      scp_buf_putc(o, ' ');
      if (x->present && x->has_base) put_delta(o, x->cost, x->base);
      else if (x->present) scp_buf_puts(o, "new");
      scp_buf_puts(o, " | ");
      if (x->present && x->has_base) put_pct(o, x->cost, x->base);
      scp_buf_puts(o, " |");
    }
    put_result(o, row, b);
  }
}

static void put_str(scp_buf *o, const char *s) {
  json_t *j = json_string(s);
  char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
  if (t) scp_buf_puts(o, t);
  else o->oom = true;
  free(t);
  json_decref(j);
}

static void put_opt(scp_buf *o, const char *key, bool has, uint64_t v) {
  scp_buf_printf(o, ", \"%s\": ", key);
  if (has) scp_buf_printf(o, "%llu", (unsigned long long)v);
  else scp_buf_puts(o, "null");
}

/* One row per line, so a baseline diffs well in review. */
void bench_json(const bench *b, scp_buf *o) {
  scp_buf_puts(o, "{\"scprof_bench\": 1,\n \"rows\": [");
  bool first = true;
  for (size_t r = 0; r < b->nrows; r++)
    for (size_t col = 0; col < b->ncolumns; col++) {
      const bench_cell *x = &b->rows[r].cell[col];
      if (!x->present) continue;
      scp_buf_puts(o, first ? "\n  {\"case\": " : ",\n  {\"case\": ");
      first = false;
      put_str(o, b->rows[r].label);
      if (b->ncolumns > 1) {
        scp_buf_puts(o, ", \"column\": ");
        put_str(o, b->columns[col]);
      }
      scp_buf_printf(o, ", \"metric\": \"%s\", \"cost\": %llu", x->metric, (unsigned long long)x->cost);
      put_opt(o, "memory", x->has_mem, x->mem);
      put_opt(o, "fee", x->has_fee, x->fee);
      scp_buf_printf(o, ", \"status\": \"%s\", \"error\": ", x->status == SCP_OK ? "ok" : x->status_text);
      put_str(o, x->error);
      put_opt(o, "baseline", x->has_base, x->base);
      scp_buf_puts(o, ", \"verdict\": ");
      put_str(o, x->verdict ? x->verdict : "ok");
      scp_buf_putc(o, '}');
    }
  scp_buf_puts(o, "\n ]}\n");
}

static int base_row(bench *b, const char *path, size_t i, json_t *row) {
  const char *label = json_string_value(json_object_get(row, "case"));
  const char *column = json_string_value(json_object_get(row, "column"));
  const char *metric = json_string_value(json_object_get(row, "metric"));
  json_t *cost = json_object_get(row, "cost");
  if (!label || !metric || !json_is_integer(cost) || json_integer_value(cost) < 0)
    return cli_die(SCP_ERR_MALFORMED, "%s: rows[%zu]: needs \"case\", \"metric\" and a \"cost\" >= 0", path, i);
  for (size_t r = 0; r < b->nrows; r++) {
    if (strcmp(b->rows[r].label, label)) continue;
    for (size_t col = 0; col < b->ncolumns; col++) {
      bench_cell *x = &b->rows[r].cell[col];
      if (!x->present || strcmp(column ? column : "", b->ncolumns > 1 ? b->columns[col] : "")) continue;
      if (strcmp(x->metric, metric))
        return cli_die(SCP_ERR_ARG, "%s: rows[%zu]: case %s was measured in %s, now in %s", path, i, label,
                       metric, x->metric);
      x->has_base = true;
      x->base = (uint64_t)json_integer_value(cost);
    }
  }
  return 0;
}

int bench_baseline(bench *b, const char *path) {
  uint8_t *text = NULL;
  size_t len = 0;
  scp_error err = {0};
  if (scp_read_file_max(path, SCP_MAX_PROFILE_BYTES, "a bench baseline", &text, &len, &err))
    return cli_die(err.code, "%s", err.msg);
  json_error_t je;
  json_t *root = json_loadb((const char *)text, len, 0, &je);
  free(text);
  if (!root) return cli_die(SCP_ERR_MALFORMED, "%s:%d: %s", path, je.line, je.text);
  json_t *rows = json_object_get(root, "rows");
  int st = 0;
  if (!json_is_integer(json_object_get(root, "scprof_bench")) || !json_is_array(rows))
    st = cli_die(SCP_ERR_MALFORMED, "%s: not a bench.json (no \"scprof_bench\" and \"rows\")", path);
  for (size_t i = 0; !st && i < json_array_size(rows); i++) st = base_row(b, path, i, json_array_get(rows, i));
  json_decref(root);
  return st;
}
