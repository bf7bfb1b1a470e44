/*
 * bench.h — what cmd_bench.c (the bench file, running its cases) and
 * bench_out.c (the table, bench.json, the baseline) share.
 *
 * A bench is cases × columns: a case is a scenario file (or, under
 * --matrix, one per column); each profile its run writes is a row, each
 * column a cell of that row.  Without --matrix there is one column, "".
 */
#ifndef SCP_CLI_BENCH_H
#define SCP_CLI_BENCH_H

#include "cli.h"

#define BENCH_MAX_COLUMNS 8

typedef struct bench_case {
  char *label;
  char *scenario[BENCH_MAX_COLUMNS];   /* per column, as written in the file */
  bool expect_fail;
  char *expect_error;                  /* NULL: any failure */
  bool has_max;
  double max_increase;                 /* percent */
} bench_case;

typedef struct bench_cell {
  bool present;                        /* the column's run wrote this row */
  char metric[16];                     /* "CPU" or "CU" */
  uint64_t cost, mem, fee;
  bool has_mem, has_fee;
  int status;                          /* the profile's: SCP_OK or how it failed */
  const char *status_text;             /* that, in its chain's words (static) */
  char *error;                         /* its status line ("" when ok) */
  bool has_base;
  uint64_t base;                       /* the baseline's cost */
  const char *verdict;                 /* NULL: fine; else what went wrong */
  int verdict_status;                  /* its scp_status */
} bench_cell;

typedef struct bench_row {
  char *label;                         /* the case's, or "case/NAME" */
  size_t kase;
  bench_cell cell[BENCH_MAX_COLUMNS];
} bench_row;

typedef struct bench {
  char *columns[BENCH_MAX_COLUMNS];    /* "" without --matrix */
  size_t ncolumns;
  bench_case *cases;
  size_t ncases;
  bench_row *rows;
  size_t nrows;
  bool has_max;
  double max_increase;                 /* --max-increase, else the file's */
} bench;

/* The markdown table and bench.json of a finished bench. */
void bench_table(const bench *b, bool baseline, scp_buf *out);
void bench_json(const bench *b, scp_buf *out);

/* Reads a bench.json written before into the rows' base costs (matched by
 * row label and column).  Exit status: 0 or that of the one line printed. */
int bench_baseline(bench *b, const char *path);

/* Judges each cell (expected failure, regression) and returns the bench's
 * scp_status: the first unexpected failure's, else SCP_ERR_NOTFOUND for
 * an expected failure that did not happen, else SCP_ERR_BUDGET for a
 * regression, else SCP_OK. */
int bench_judge(bench *b);

#endif
