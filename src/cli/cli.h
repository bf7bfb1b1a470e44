/*
 * cli.h — what the scprof subcommands share: one-line errors with the
 * documented exit statuses, option parsing helpers, output files, loading
 * saved JSON profiles, and progress on a terminal.
 *
 * Every subcommand has the signature of cmd_profile: it gets the arguments
 * after its own name and returns the process exit status.
 */
#ifndef SCP_CLI_H
#define SCP_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "output/scp_out.h"
#include "util/scp_util.h"

struct scp_sol_scenario_file;   /* solana/scp_sol_scenario.h */

int cmd_profile(int argc, char **argv);
/* profile of a Solana program (cmd_profile_sol.c): cmd_profile hands over
 * when the first argument that is not an option is an ELF file (or the
 * run is otherwise a Solana one: cli_is_sbpf_program) */
int cmd_profile_sol(int argc, char **argv, struct scp_sol_scenario_file *probe);
/* whether the arguments are a Solana run; *probe is NULL or, for a Solana
 * --scenario, its parsed file (scp_sol_scenario_probe), which
 * cmd_profile_sol takes and frees */
bool cli_is_sbpf_program(int argc, char **argv, struct scp_sol_scenario_file **probe);
/* --format LIST into want[]; 0 or the exit status of the error it printed */
int cli_parse_formats(const char *list, bool want[SCP_FMT_COUNT]);
int cmd_diff(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_check(int argc, char **argv);
/* scprof size FILE (cmd_size.c) */
int cmd_size(int argc, char **argv);
/* scprof snapshot ls FILE (cmd_snapshot.c) */
int cmd_snapshot(int argc, char **argv);
/* (cmd_snapshot.c) The snapshot at path with its --wasm C...=FILE
 * stand-ins (subs); 0 or the exit status of the error it printed. */
struct scp_snapshot;
struct scp_snap_contract;
int cli_snapshot_open(const char *path, const char *const *subs, size_t nsubs,
                      struct scp_snapshot **out);
/* Contract id (C...) of s: *out, and a copy of its Wasm in *wasm (the
 * caller frees it); 0 or the exit status of the error it printed (a
 * native stub: the line suggests --wasm). */
int cli_snapshot_contract(struct scp_snapshot *s, const char *id, uint8_t **wasm, size_t *len,
                          const struct scp_snap_contract **out);
/* The options of a call on s's ledger (main first): ledger info, the
 * session and its ledger (*ledger and *files the caller frees, also
 * after a failure).  False when out of memory. */
struct scp_soroban_opts;
struct scp_sor_session;
struct scp_ledger;
struct scp_contract_file;
bool cli_snapshot_session(struct scp_snapshot *s, const struct scp_snap_contract *main,
                          struct scp_soroban_opts *so, struct scp_sor_session *sess,
                          struct scp_ledger **ledger, struct scp_contract_file **files);
/* scprof bench (cmd_bench.c) */
int cmd_bench(int argc, char **argv);

/* Prints "scprof: MESSAGE" on stderr as one line and returns the exit
 * status of `status` (an scp_status), so callers can `return cli_die(...)`. */
int cli_die(int status, const char *fmt, ...) SCP_PRINTF(2, 3);

/* Prints "scprof: warning: MESSAGE" on stderr; the run goes on. */
void cli_warn(const char *fmt, ...) SCP_PRINTF(1, 2);

/* A non-negative decimal integer; ',' and '_' may group digits ("1,000")
 * so limits can be pasted from a report.  False on anything else. */
bool cli_parse_u64(const char *s, uint64_t *v);
/* Stroops: a decimal int64 from 0. */
bool cli_parse_stroops(const char *s, int64_t *out);

/* --min-width PCT: a percentage in [0, 100] into *pct for scp_svg_opts.
 * 0 means keep every frame, which the SVG writer spells as a negative
 * value (its own 0 means "the default"). */
bool cli_parse_min_width(const char *s, double *pct);

/* When the node budget merged call paths of p into [truncated] frames,
 * says so on stderr (the report's "call tree" line); shown names the run. */
void cli_warn_truncated(const scp_profile *p, const char *shown);

/* --max-nodes N (N >= 1) or --fold-recursion at argv[*i] (advancing *i
 * past a value) into *shape.  Returns 0, or the exit status of the error
 * it printed. */
int cli_shape_option(int argc, char **argv, int *i, scp_tree_opts *shape);

/* The value of option argv[*i] (advancing *i), or NULL after printing
 * "OPTION needs WHAT" when it is missing or empty (the caller returns the
 * usage status). */
const char *cli_option_value(int argc, char **argv, int *i, const char *what);

/* Index of the metric called `name` in p: its name case-insensitively
 * ("cpu", "Memory") or a prefix of it ("mem"), or a metric number.
 * Returns -1 when there is none. */
int cli_find_metric(const scp_profile *p, const char *name);

/* mkdir -p.  Returns SCP_OK or SCP_ERR_IO with a one-line error printed. */
int cli_make_dir(const char *dir);
/* The same for path, with errors naming dir (the folder path stands for). */
int cli_make_dir_as(const char *path, const char *dir);

/* Writes b to DIR/NAME (NAME alone when dir is NULL), a folder of the
 * user's: the file is written beside its target and renamed over it, so a
 * write that fails leaves no half-written file behind.  Frees nothing.
 * Returns the exit status (0, or that of the error it printed). */
int cli_write_file(const char *dir, const char *name, const scp_buf *b);

/* As cli_write_file, into dir inside a folder being staged (cli_outdir's
 * tmp), and an error names shown/NAME: the file's place once its folder
 * is renamed into place.  Nothing sees dir before then, so the file is
 * written under its own name (no rename); one that fails is removed. */
int cli_write_file_as(const char *dir, const char *shown, const char *name, const scp_buf *b);

/* Runs the writer of format `of` on p with opts straight into DIR/NAME, a
 * chunk at a time (scp_buf's sink), so the output is never held whole;
 * dir is inside a folder being staged, as for cli_write_file_as, and a
 * failure (of the writer or of the disk) is one line naming shown/NAME
 * and the reason.  Returns the exit status. */
int cli_write_format(const char *dir, const char *shown, const char *name, const scp_profile *p,
                     const scp_out_format *of, const scp_out_opts *opts);

/* An output folder written whole or not at all: files go to a temporary
 * folder beside the target (DIR.tmpPID), and cli_outdir_commit swaps it
 * in only when every one is complete.  The old folder is replaced whole
 * when it holds nothing but scprof's outputs; when it holds other files
 * too, the new files are renamed into it one by one and the rest is left
 * alone.  cli_outdir_abort removes the temporary folder and leaves the old
 * one untouched.  tmp is where to write; final is what messages name. */
typedef struct cli_outdir {
  char final[4096];
  char tmp[4200];
  bool open;
} cli_outdir;

/* Exit status: 0, or that of the one-line error printed. */
int cli_outdir_begin(cli_outdir *d, const char *dir);
int cli_outdir_commit(cli_outdir *d);
void cli_outdir_abort(cli_outdir *d);

/* The options of a command that writes an output folder (cli_outopt.c):
 * -o/--out DIR, -f/--format LIST, --top N, --min-width PCT, --icicle at
 * argv[*i] (advancing *i past a value) into o.  *handled is false, and
 * nothing is read, for any other option.  Returns 0 or the exit status
 * of the one-line error it printed. */
typedef struct cli_out_opts {
  const char *dir;
  bool want[SCP_FMT_COUNT];
  uint64_t top;
  scp_svg_opts svg;
} cli_out_opts;
int cli_output_option(int argc, char **argv, int *i, cli_out_opts *o, bool *handled);

/* A scenario's coverage summed over its profiled calls (cli_cov.c): begin
 * keeps nothing unless want[] has lcov; add sums a call's profile in; end
 * writes DIR/lcov.info (shown names it) when status is 0, frees, and
 * returns the status (that of the error it printed, or status).  Each
 * returns 0 or the exit status of the one-line error it printed. */
typedef struct cli_cov {
  scp_lcov *c;
} cli_cov;
int cli_cov_begin(cli_cov *cv, const bool want[SCP_FMT_COUNT]);
int cli_cov_add(cli_cov *cv, const scp_profile *p);
int cli_cov_end(cli_cov *cv, int status, const char *dir, const char *shown);

/* Writes b to stdout; exit status like cli_write_file. */
int cli_write_stdout(const scp_buf *b);

/* Loads a profile saved as JSON (format json, report.json).  `path` may
 * also be a folder written by `scprof profile`: its report.json is read.
 * On success returns 0 and sets *out; otherwise prints a one-line error
 * naming the file and returns its exit status. */
int cli_load_profile(const char *path, scp_profile **out);

/* The profiles `diff` and `check` take (cli_cases.c): a report.json or a
 * profile folder is one case, labelled by its path (number 0); a folder of
 * NN-LABEL/ folders with a report.json each (a scenario's or a bench's
 * output) is one case each, in number order, labelled LABEL. */
typedef struct cli_case {
  unsigned long number;
  char *label;
  char *path;       /* for cli_load_profile */
} cli_case;

typedef struct cli_cases {
  cli_case *v;
  size_t n;
  bool folder;      /* several, from NN-LABEL/ folders */
} cli_cases;

/* Exit status: 0, or that of the one-line error printed (*out is then
 * empty).  cli_cases_free empties a set (an empty one too). */
int cli_cases_load(const char *path, cli_cases *out);
void cli_cases_free(cli_cases *c);

/* pair[j] = the case of a that b's case j is compared with: the first
 * unpaired one of the same label, else the next unpaired one in order,
 * else SIZE_MAX (b's case is new).  pair holds b->n entries. */
int cli_cases_pair(const cli_cases *a, const cli_cases *b, size_t *pair);

/* Progress for long runs: one line on stderr when a run starts and one when
 * it ends (with the CPU time it took), only when stderr is a terminal, so
 * logs and pipes stay quiet.  Never touches stdout or output files. */
typedef struct cli_progress {
  bool on;
  double cpu_start;   /* process CPU seconds at start */
} cli_progress;

void cli_progress_start(cli_progress *pg, const char *fmt, ...) SCP_PRINTF(2, 3);
void cli_progress_done(cli_progress *pg, const char *fmt, ...) SCP_PRINTF(2, 3);

/* (cli_scnargs.c) so's arguments for call i of the scenario sc, typed by
 * the spec of the code its contract runs now in l; false when they are.
 * True: that spec refused them, and the call is not run: its line in sum
 * says so, the error is printed, and *first_fail takes its status when
 * it has none yet. */
struct scp_scenario;
struct scp_ledger;
bool cli_scenario_args(const struct scp_scenario *sc, size_t i, struct scp_ledger *l,
                       struct scp_soroban_opts *so, scp_buf *sum, const char *file, int *first_fail);

#endif
