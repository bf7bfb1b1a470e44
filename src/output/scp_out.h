/*
 * scp_out.h — stage 4, the formatters.  Each writer reads only a finished
 * profile (profile/scp_prof.h) and its options, and appends to a buffer.
 * Output is byte-deterministic: no timestamps, no pointers, stable orders,
 * colours hashed from names.
 *
 * Unless its comment says otherwise, a writer returns SCP_OK, SCP_ERR_ARG
 * (a metric out of range, or a profile without a root where one is needed;
 * nothing written), SCP_ERR_NOMEM (b->oom set or an allocation failed; b
 * may then hold a partial output, which the caller discards) or
 * SCP_ERR_IO (b has a sink and writing to it failed).  Writers only append
 * to b, never read back or change what they put there: with a sink
 * (scp_buf), that is already in the file.  p is never modified.
 */
#ifndef SCP_OUT_H
#define SCP_OUT_H

#include "profile/scp_prof.h"

/* Folded stacks, one "root;..;leaf COUNT" line per stack with a non-zero
 * self cost of `metric`.  Frame text is the frame label (see
 * scp_out_label) with ';' turned into ',' and control characters into ' '.
 * Every line starts with the root's label; the root's own cost, if any, is
 * a line with the root label alone.  Equal stacks merge (sibling nodes of
 * one label are one stack, and so are their children of one label).
 * Lines are sorted by their sequence of frame labels, each compared
 * bytewise, a stack's own line before its callees' (the head comment of
 * folded.c says how that differs from sorting whole lines).  Written as
 * the tree is walked: memory does not grow with the output. */
int scp_out_folded(const scp_profile *p, unsigned metric, scp_buf *b);

typedef struct scp_svg_opts {
  unsigned metric;       /* which metric the widths show */
  unsigned width;        /* pixels; 0 = 1200 */
  double min_width_pct;  /* prune frames narrower than this % of the total
                            (their width still counts); 0 = 0.01%,
                            negative = keep every frame */
  bool icicle;           /* root at the top */
} scp_svg_opts;

/* Interactive flamegraph (hover details, click to zoom, regex search with
 * matched %, URL state), laid out like flamegraph.pl: children by label
 * from the parent's left edge, 16 px rows, colours by frame kind with the
 * shade hashed from the name.  o may be NULL (defaults). */
int scp_out_svg(const scp_profile *p, const scp_svg_opts *o, scp_buf *b);

typedef struct scp_report_opts {
  unsigned top;          /* rows per table; 0 = 20 */
  unsigned metric;       /* metric the tables are sorted by (0 = CPU) */
} scp_report_opts;

/* Plain-text report in the words of the profile's chain (p->chain).
 * Soroban: header (title, metadata lines, status), Budget table
 * (consumed / limit / %), top functions by self and by total (per frame
 * over the whole tree; a recursive frame's total counted once per path),
 * hottest source lines (file:line with the function spending most there),
 * contracts (when more than one), host functions (calls and self costs).
 * Solana: the same header with the runtime's words for how the run ended
 * ("success"; "failed: " and the text of the failing program's log line,
 * then an "error" row), a Compute units table, the top functions, the
 * hottest source lines (or, without any, the hottest functions and a hint
 * about --symbols), the programs by total CU, the syscalls.
 * Numbers have thousands separators; columns are aligned.  o may be NULL. */
int scp_out_report(const scp_profile *p, const scp_report_opts *o, scp_buf *b);

/* How the run ended, in its chain's words: Soroban's are the error table's
 * ("contract trapped", "budget exceeded"); Solana's the runtime's
 * ("success", "failed", "out of compute units").  A static string. */
const char *scp_out_status_text(const scp_profile *p);

/* The frame's display text: its name, plus " (file:line)" for guest and
 * inlined frames whose declaration file and line are known.  Names of
 * other kinds already carry their prefix ("host:vec_push_back",
 * "contract:C...", "vm:instantiate"): the resolver names them so.
 * Guest names not from DWARF are marked " [name section]", " [symtab]" or
 * " [no symbols]" (func[N], 0xADDR), in every output. */
void scp_out_label(const scp_profile *p, uint32_t frame, scp_buf *b);

/* ---- more formats ------------------------------------------------------- */

/* speedscope JSON (https://www.speedscope.app/file-format-schema.json): one
 * "sampled" profile per metric, one sample per node with self cost (stack
 * root first, pre-order), weights = self cost.  Units: "bytes" for byte
 * metrics, else "none" with the unit in the profile name ("CPU
 * (instructions)").  activeProfileIndex = `metric`. */
int scp_out_speedscope(const scp_profile *p, unsigned metric, scp_buf *b);

/* callgrind format ("positions: line", one event per metric, "summary:" =
 * the run totals).  One fn= per non-inlined function with its self cost per
 * source line; code inlined into it is reported under it with fi=/fe= file
 * switches; calls as cfl=/cfn=/calls= with the inclusive cost at the call
 * line.  Names are compressed ("fn=(3) name" once, then "fn=(3)"). */
int scp_out_callgrind(const scp_profile *p, scp_buf *b);

/* pprof profile.proto, gzip-compressed as `go tool pprof` expects.  One
 * sample type per metric (default_sample_type = `metric`), one sample per
 * (node, source line) with self cost; a location holds an inline chain as
 * several lines, innermost first.  Also SCP_ERR_INTERNAL should zlib fail. */
int scp_out_pprof(const scp_profile *p, unsigned metric, scp_buf *b);
/* The deflate level of profile.pb.gz (windowBits 15, memLevel 8, default
 * strategy).  1, not zlib's default 6: on the Solana benches' profiles
 * and Soroban ones, deflate's instructions fall 3% (small files: its
 * set-up dominates) to 46% (a 200 KB message) for files 0 to 3% larger
 * (bench/README.md). */
#define SCP_OUT_PPROF_GZIP_LEVEL 1

/* JSON report, schema "scprof-report" version 2 (SCP_OUT_JSON_VERSION):
 *   {"schema":"scprof-report","version":2,"title","status":{code,text,
 *    message},"meta":[{key,value}],"metrics":[{name,unit,limit,total,
 *    enforced (only when the profile has one: scp_profile.enforced)}],
 *    "breakdown":{title,metric,parts:[{name,amount,cost}]} (when the run
 *    has one: the fee by component; version 2),
 *    "tables":[{title,item,columns:[{name,metric}],rows:[{name,values:[]}]}]
 *    (when the chain adds any: Soroban's Budget by cost type; a column's
 *    metric is the one its rows sum to, -1 for none),
 *    "frames":[{id,name,label,kind,file,decl_line,source}],
 *    "nodes":[{id,parent,depth,frame,calls,self:[],total:[],
 *              call_site:{file,line}|null,lines:[{file,line,cost:[]}],
 *              pcs:[{pc,insn,cost:[],runs}] (code without source lines; runs
 *              when the engine counts them, on every row or none)}]}
 * nodes in pre-order (children by label), parent -1 for the root.  Any
 * change to existing fields bumps the version; adding fields does not. */
#define SCP_OUT_JSON_VERSION 2
int scp_out_json(const scp_profile *p, scp_buf *b);

/* Reads a JSON report (any version up to SCP_OUT_JSON_VERSION) back into a
 * profile, so saved runs can be compared (scp_out_diff_*) or re-rendered
 * in any format; writing it again as JSON gives the same bytes.  `name`
 * prefixes error messages (a file name).  On SCP_OK *out is a new profile
 * (scp_profile_destroy); on SCP_ERR_MALFORMED (not JSON, wrong schema or
 * version, inconsistent ids) or SCP_ERR_NOMEM, *out is NULL and err says
 * what is wrong. */
int scp_out_json_load(const char *text, size_t len, const char *name,
                      scp_profile **out, scp_error *err);

/* Differential flamegraph: the layout (widths) of `now`, each frame
 * coloured by how its inclusive cost changed from `before` (nodes matched
 * by their frames' path from the root, functions by name, else by body
 * hash, the rest by label -- see out_private.h scp_out_match; a path
 * missing in `before` counts as 0 there): red grew, blue shrank, near-white unchanged; the stronger the
 * colour, the closer the change is to the largest one drawn.  Titles add
 * "change +12, +3.40%" (or "new", "unchanged"), the subtitle the totals. */
int scp_out_diff_svg(const scp_profile *before, const scp_profile *now,
                     const scp_svg_opts *o, scp_buf *b);

/* Text diff: a warning when the two ran different Wasm files (their
 * "wasm sha256" metadata) and how many functions were matched, totals per
 * metric (before, now, change, %), then the largest changes (by absolute
 * value of the chosen metric) by function (self and total, matched by
 * name, else by body hash; one only one side has is "new" or "gone") and
 * by source line (file:line). */
int scp_out_diff_report(const scp_profile *before, const scp_profile *now,
                        const scp_report_opts *o, scp_buf *b);

/* Annotated source, like `perf annotate` / callgrind_annotate: each source
 * file with a cost column per metric (and % of the run for the chosen
 * metric) in front of every line; "." where a line has no cost.
 *   only == NULL      every file that has cost, busiest first;
 *   only names a file (exact, or a suffix after '/': "lib.rs") that file;
 *   else only names a function: the lines its own nodes spent (code
 *   inlined into it included), shown with 3 lines of context.
 * load(ctx, file, &len) supplies a file's text (the caller reads it; the
 * text must stay valid until the writer returns) or NULL when it is not
 * available: then only the lines with cost are listed.  load may be NULL.
 * SCP_ERR_NOTFOUND when `only` matches no file and no function;
 * SCP_ERR_DWARF when there is nothing to show for want of source lines:
 * `only` names a function of the profile whose code has none, or the
 * whole profile has none (code without DWARF). */
typedef struct scp_annotate_opts {
  unsigned metric;
  bool calls;      /* a host function's own cost on the line that called it */
  const char *only;
  const char *(*load)(void *ctx, const char *file, size_t *len);
  void *ctx;
} scp_annotate_opts;

int scp_out_annotate(const scp_profile *p, const scp_annotate_opts *o, scp_buf *b);

/* Budget gate (`scprof check`): one line per limit, "ok" or "OVER":
 *   "ok    CPU 1,410 <= 2,000 (70.50%)"
 *   "OVER  CPU of main 2,345 > 2,000 (+17.25%)"
 * A limit names a function (frame name or label) or NULL for the whole
 * run; a function's cost is its inclusive cost counted once per path (as
 * in the report), summed over frames of that name.  A run that failed
 * (p->status: trapped, budget or compute units exhausted, host error) has
 * a line "FAIL  run ended: ..." and fails the check with its own status,
 * before any limit, unless allow_failure (then the line starts "note").
 * Otherwise returns SCP_OK when every limit holds, SCP_ERR_BUDGET when
 * one does not, SCP_ERR_NOTFOUND when a named function is absent (its
 * line says so); SCP_ERR_ARG for a bad metric;
 * b holds the lines in every case but SCP_ERR_ARG / SCP_ERR_NOMEM. */
typedef struct scp_check_limit {
  const char *function;  /* NULL: the whole run */
  unsigned metric;
  uint64_t max;
} scp_check_limit;

typedef struct scp_check_opts {
  const scp_check_limit *limits;
  size_t nlimits;
  /* a run that failed (trapped, ran out of budget or compute units, a
   * host error) passes on its limits alone instead of failing */
  bool allow_failure;
} scp_check_opts;

int scp_out_check(const scp_profile *p, const scp_check_opts *o, scp_buf *b);

/* Coverage as an lcov tracefile (geninfo(1), read by genhtml and CI
 * services): per source file (sorted by name) "TN:", "SF:file", one
 * FN:decl_line,name and FNDA:calls,name per guest function declared in it
 * (merged by name), FNF/FNH, then DA:line,count per source line with
 * cost, LF/LH, "end_of_record".  A line's count is its metric-0 cost that
 * ran (cost less the part charged ahead for code that did not run: CPU
 * instructions on Soroban, CU on Solana), summed over the tree; a line
 * only charged ahead is DA:line,0.  Lines without cost are not in a
 * profile, so they are absent here. */
int scp_out_lcov(const scp_profile *p, scp_buf *b);

/* The same over several profiles (the calls of a scenario): counts of
 * one (file, line) and one (file, function) summed across them.  new:
 * SCP_OK or SCP_ERR_NOMEM (*out NULL).  add copies what it needs from p
 * (p may be destroyed after): SCP_OK or SCP_ERR_NOMEM (c then holds part
 * of p; free it).  write sorts and merges c's rows, then appends the
 * tracefile to b, returning as a writer does.  free accepts NULL. */
typedef struct scp_lcov scp_lcov;
int scp_lcov_new(scp_lcov **out);
int scp_lcov_add(scp_lcov *c, const scp_profile *p);
int scp_lcov_write(scp_lcov *c, scp_buf *b);
void scp_lcov_free(scp_lcov *c);

/* Format names for command lines and conventional output file names:
 *   folded  profile.folded          svg        flamegraph.svg
 *   report  report.txt              speedscope profile.speedscope.json
 *   callgrind callgrind.out.scprof (KCachegrind finds "callgrind.out.*")
 *   pprof   profile.pb.gz           json       report.json
 *   lcov    lcov.info (opt-in: not among the defaults)
 * Both return NULL for a value out of range.  scp_out_format_parse returns
 * the format named `name`, or SCP_FMT_COUNT when there is none. */
const char *scp_out_format_name(scp_format f);
const char *scp_out_format_file(scp_format f);
scp_format scp_out_format_parse(const char *name);

/* ---- the format table (out.c): one writer signature for every format ---- */

/* What every writer works out of a profile alike (its frames' labels and
 * each node's children in display order), made once for all the files of
 * one profile rather than once per file.  Never changed once made, and
 * only for the profile it was made of: given with another, a writer
 * makes its own.  scp_out_shared_new returns SCP_OK or SCP_ERR_NOMEM
 * (then *out is NULL). */
typedef struct scp_out_shared scp_out_shared;
int scp_out_shared_new(const scp_profile *p, scp_out_shared **out);
void scp_out_shared_free(scp_out_shared *s);

/* Options of every writer; each reads the fields it needs. */
typedef struct scp_out_opts {
  unsigned metric;       /* the metric of single-metric formats (0 = CPU) */
  unsigned top;          /* report: rows per table; 0 = 20 */
  scp_svg_opts svg;      /* svg: width, pruning, icicle (its metric is `metric`) */
  const scp_out_shared *shared;   /* NULL, or made of the profile written */
} scp_out_opts;

/* A writer: appends format output of p to b; returns as the writer it
 * wraps (see above).  o is never NULL. */
typedef int (*scp_out_write_fn)(const scp_profile *p, const scp_out_opts *o, scp_buf *b);

typedef struct scp_out_format {
  const char *name;      /* on command lines: "svg" */
  const char *file;      /* conventional file name: "flamegraph.svg" */
  scp_out_write_fn write;
  bool per_metric;       /* worth one file per metric (the CLI writes one
                            flamegraph per metric) */
  bool opt_in;           /* written only when asked for (--format lcov or
                            all), not by default */
} scp_out_format;

/* The entry of format f, or NULL when f is out of range.  Static storage. */
const scp_out_format *scp_out_format_get(scp_format f);

#endif
