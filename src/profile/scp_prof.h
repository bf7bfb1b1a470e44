/*
 * scp_prof.h — the final, symbolized profile that formatters read.
 *
 * Built once from a raw tree (scp_tree.h) by scp_prof_build(), which asks a
 * resolver (stage 2, the source mapper, through a chain-neutral callback)
 * for frame names and inline chains.  After that the profile is immutable
 * and self-contained: formatters need nothing else.
 *
 * Determinism: children are kept sorted by (frame name, file, kind) and line
 * lists by (file, line), so every walk is stable.
 */
#ifndef SCP_PROF_H
#define SCP_PROF_H

#include "profile/scp_tree.h"

typedef enum scp_source {
  SCP_SRC_DWARF,     /* name and lines from DWARF */
  SCP_SRC_NAMESEC,   /* WASM name section (no lines) */
  SCP_SRC_SYMTAB,    /* ELF .symtab (no lines) */
  SCP_SRC_RAW,       /* func[N] / 0xADDR */
  SCP_SRC_HOST,      /* host-side frame: named by the engine */
  SCP_SRC_EXPORT     /* WASM export name (no name section entry, no lines) */
} scp_source;

/* One resolved frame.  name/file are borrowed from the resolver and copied
 * by the builder.  `line` is the line executing in this frame at the pc
 * asked about (for an outer frame of an inline chain: the call-site line).
 * `decl_line` is where the function is declared (0 when unknown). */
typedef struct scp_frame_info {
  const char *name;
  const char *file;      /* "" when unknown */
  uint32_t line;
  uint32_t decl_line;
  const char *decl_file; /* may be NULL: same as file */
  uint8_t inlined;       /* 1 when this frame was inlined into the next */
  uint8_t source;        /* scp_source */
  /* What the function's code is, apart from where it sits (a hash of a
   * WASM function body, hex), so that two builds can be matched function
   * by function; NULL or "" when the resolver has none.  Frames of one
   * name with different bodies are different frames. */
  const char *body;
} scp_frame_info;

typedef struct scp_resolver {
  void *ctx;
  /* Describe the frame of raw node n (its callee).  For guest nodes this is
   * the function (name, decl file/line).  Must fill out->name. */
  int (*node_frame)(void *ctx, const scp_tree_node *n, scp_frame_info *out);
  /* Inline chain at pc in module: innermost first, the last entry being the
   * (non-inlined) function containing pc.  Returns the count (0 = unknown)
   * and sets *chain to resolver-owned storage valid until the resolver is
   * destroyed. */
  size_t (*pc_chain)(void *ctx, uint32_t module, uint64_t pc,
                     const scp_frame_info **chain);
  /* Optional (NULL: none): the instruction at pc as text into buf (size
   * bytes), its length returned.  With it, the self cost of every pc
   * without a source line is kept per instruction (scp_profile.pcs). */
  size_t (*pc_text)(void *ctx, uint32_t module, uint64_t pc, char *buf, size_t size);
  /* Optional (NULL: pc_text alone): the text pc_text would write for pc,
   * as the resolver keeps it (valid while memo lives), and its key in
   * memo: equal texts have equal keys, and a pc keeps its key.  NULL: no
   * kept text (the builder asks pc_text).  With it, a profile interns
   * each distinct text once, not once per row, and asks once per pc for
   * as long as the memo lives. */
  const char *(*pc_text_key)(void *ctx, uint32_t module, uint64_t pc, uint32_t *key);
  struct scp_prof_memo *memo;
  /* Optional (NULL: ask pc_chain): true when pc_chain answers every pc of
   * module with no chain, or with one frame without a file at line 0 (a
   * module without source lines): the builder then books each pc on its
   * node, without a line, and does not ask. */
  bool (*no_lines)(void *ctx, uint32_t module);
  /* Optional (NULL: none): the strings the new profile's table begins
   * with, in their order and with their ids, so that the profile they
   * come from can take the new one's table whole when it takes in the
   * new profile (sol_txprof), instead of interning each string again. */
  const scp_strtab *seed;
} scp_resolver;

/* What a resolver's kept texts (pc_text_key) are in the profile being
 * built, so that a row costs a lookup, not a call and a hash of its text.
 * Per key, kept while the memo lives: the text (the resolver's storage,
 * which must stay valid as long), its length and string hash, whether the
 * text rule changes it; and its string id in the build of generation
 * stamp.  Each build moves gen on, so nothing is cleared between builds.
 * Per (module, pc), its key: a memo serves one resolver's program, whose
 * pc_text_key answers a pc with the same key while the memo lives.  And
 * every text a build has interned, as the profile keeps it, back to back
 * (the mirror): each new build takes them all at its start in one copy
 * (scp_strtab_intern_block), so a program's next profile interns only
 * the texts no profile before it showed.
 * Start zeroed; scp_prof_memo_free frees it. */
typedef struct scp_prof_memo_key {
  const char *text;        /* NULL: not yet asked */
  uint32_t len, hash;      /* strlen(text), scp_murmur3_32(text, len) */
  uint32_t stamp, id;
  uint8_t safe;            /* 1 the text passes the rule as it is, 2 the rule changes it */
  uint8_t mirrored;        /* its profile text is in the mirror */
} scp_prof_memo_key;

typedef struct scp_prof_memo_pc {
  uint64_t pc;
  uint32_t module;
  uint32_t key1;           /* key + 1; 0: an empty slot */
} scp_prof_memo_pc;

typedef struct scp_prof_memo {
  scp_prof_memo_key *keys;
  size_t cap;
  uint32_t gen;
  scp_prof_memo_pc *pcs;   /* open addressing, at most half full */
  size_t npcs, nslots;
  /* the mirror: text i at bytes + off[i], its string hash, its key;
   * ids is room for the ids a build gives them */
  char *bytes;
  size_t nbytes, capbytes;
  uint32_t *off, *hash, *key, *ids;
  size_t ntexts, captexts;
} scp_prof_memo;
void scp_prof_memo_free(scp_prof_memo *m);

/* A resolver's answer for a frame it names itself: the name printed into
 * buf (size bytes, cut to fit), out->name = buf, out->source = source.
 * Returns SCP_OK. */
int scp_prof_frame_printf(scp_frame_info *out, char *buf, size_t size, uint8_t source,
                          const char *fmt, ...) SCP_PRINTF(5, 6);

typedef struct scp_prof_frame {
  uint32_t name, file;     /* string ids */
  uint32_t decl_line;
  uint8_t kind;            /* scp_kind */
  uint8_t source;          /* scp_source */
  /* Whose code it is, for chains that run several programs in one
   * profile: the program's display name and its id as text (string ids,
   * 0 = "" = none).  Frames of two programs are two frames even when
   * their names are equal, so tables list them apart; a comparison
   * matches program frames by owner_id, which does not depend on how the
   * input named the program. */
  uint32_t owner, owner_id;
  /* string id: what a program frame ran (its instruction's name, which
   * its name ends with: "program:token Transfer"); "" none */
  uint32_t detail;
  uint32_t body;           /* string id of scp_frame_info.body, 0 ("") = none */
} scp_prof_frame;

typedef struct scp_prof_line {
  uint32_t file, line;     /* file string id; line 0 = compiler-generated */
  uint64_t cost[SCP_MAX_METRICS];
  uint64_t ahead;          /* of cost[0]: charged for code that did not run */
} scp_prof_line;

/* The self cost of one instruction of code without source lines, for
 * annotate to list; a node's rows are sorted by pc. */
typedef struct scp_prof_pc {
  uint64_t pc;             /* as the resolver's pc_chain takes it */
  uint32_t node;           /* the node whose self cost it is */
  uint32_t text;           /* string id: the instruction, as pc_text wrote it */
  uint64_t cost[SCP_MAX_METRICS];
  uint64_t runs;           /* times it ran, when the profile's pc_runs is set */
} scp_prof_pc;

typedef struct scp_prof_node {
  uint32_t frame;
  uint32_t parent, first_child, next_sibling;   /* SCP_NODE_NONE-terminated */
  uint32_t depth;
  uint64_t calls;
  uint64_t self[SCP_MAX_METRICS];
  uint64_t total[SCP_MAX_METRICS];
  uint32_t lines_first, nlines;  /* self cost by source line, sorted */
  uint32_t call_file, call_line; /* where the parent called/inlined this */
  uint64_t ahead;                /* of self[0]: charged ahead (Σ its lines') */
  uint32_t pcs_first, npcs;      /* its rows in scp_profile.pcs */
} scp_prof_node;

typedef struct scp_metric {
  const char *name;    /* "CPU", "Memory" (static strings) */
  const char *unit;    /* "instructions", "bytes" */
  uint64_t limit;      /* network/budget limit, 0 = none */
} scp_metric;

/* Whose words the formatters use (a Solana report says program, syscall,
 * compute units; a Soroban one contract, host function, Budget).  Nothing
 * else in the profile depends on it. */
typedef enum scp_chain {
  SCP_CHAIN_SOROBAN,   /* the default: every profile scprof made before */
  SCP_CHAIN_SOLANA
} scp_chain;

typedef struct scp_meta {
  uint32_t key, value;  /* string ids */
} scp_meta;

/* One row of a metric's breakdown by component (the report's "Fees"
 * section): what was counted, how much of it (text), and its cost in the
 * metric's unit.  The rows of a breakdown sum to the metric's total. */
typedef struct scp_prof_part {
  uint32_t name, amount;  /* string ids */
  uint64_t cost;
} scp_prof_part;

/* A table of counts by item that a chain attaches to the run (Soroban's
 * Budget by cost type): one named row per item and up to
 * SCP_PROF_TABLE_COLS integer columns.  A column may break a metric down:
 * then its rows sum to that metric's total (scp_prof_tables_check), and
 * the report prints that sum. */
#define SCP_PROF_TABLE_COLS 12
typedef struct scp_prof_table {
  uint32_t title, item;                    /* string ids: "Budget by cost type", "cost type" */
  unsigned ncols;
  uint32_t col[SCP_PROF_TABLE_COLS];       /* column names (string ids) */
  int col_metric[SCP_PROF_TABLE_COLS];     /* the metric the column sums to; -1: none */
  size_t first, nrows;                     /* its rows in scp_profile.trows */
  /* Bit c of part_cols: column c sums to the cost of breakdown row
   * col_part[c] (scp_prof_part: the ledger entries' fee columns to the
   * fee table's rows).  Set with scp_prof_table_col_part. */
  uint32_t part_cols;
  uint32_t col_part[SCP_PROF_TABLE_COLS];
  /* The columns that break a metric down do so per node: the rows linked
   * to a node sum to that node's self cost, and every row is linked (a
   * node's Budget by cost type).  Not printed in the text report. */
  bool per_node;
  uint32_t note_title;                     /* string id: the rows' note column, "" none */
  uint32_t footnote;                       /* string id: one line under the table, "" none */
} scp_prof_table;

typedef struct scp_prof_trow {
  uint32_t name;                           /* string id */
  uint64_t v[SCP_PROF_TABLE_COLS];
  uint32_t note;                           /* string id, "" none: text the row carries */
  uint32_t node;                           /* the node the row belongs to, when has_node */
  bool has_node;
} scp_prof_trow;

struct scp_profile {
  scp_strtab strs;
  unsigned nmetrics;
  scp_metric metrics[SCP_MAX_METRICS];
  scp_prof_frame *frames;  size_t nframes, capframes;
  scp_prof_node *nodes;    size_t nnodes, capnodes;   /* node 0 = root */
  scp_prof_line *lines;    size_t nlines, caplines;
  scp_meta *meta;          size_t nmeta, capmeta;     /* ordered key/values */
  uint32_t title;          /* string id, e.g. "scprof: demo.wasm run" */
  uint64_t ahead;          /* Σ charged ahead: 0 when the engine keeps none */
  int status;              /* SCP_OK or how the run ended (trap, budget) */
  uint32_t status_msg;     /* string id, "" when SCP_OK */
  scp_prof_part *parts;    size_t nparts, capparts;
  uint32_t parts_title;    /* string id ("Fees (mainnet)"); parts break down */
  unsigned parts_metric;   /* this metric */
  scp_prof_table *tables;  size_t ntables, captables;  /* in the order added */
  scp_prof_trow *trows;    size_t ntrows, captrows;
  uint8_t chain;           /* scp_chain */
  /* per-instruction self costs where there are no source lines (only with
   * a resolver's pc_text), laid out per node (pcs_first, npcs) */
  scp_prof_pc *pcs;        size_t npcs, cappcs;
  bool pc_runs;            /* the rows' runs are counted (the tree's pc_runs) */
  /* The value a metric's limit is checked against, for a metric whose
   * limit is not checked against the tree's total (Soroban memory: the
   * Budget's running count after refunds, at its peak, while the tree
   * books every byte charged); bit m of enforced_set says enforced[m]
   * holds.  Set with scp_prof_enforced, read with scp_prof_checked. */
  uint64_t enforced[SCP_MAX_METRICS];
  uint32_t enforced_set;
  /* The profile node each raw tree node was booked to (SCP_NODE_NONE
   * when none), for a chain that links its own records (ledger entries)
   * to raw nodes; empty in a profile read back from JSON. */
  uint32_t *raw_node;
  size_t nraw;
  /* The same for the raw nodes' per-pc costs, which go to the inlined
   * frame at the pc: (raw node, pc) -> profile node, in build order, for
   * the pcs that went elsewhere than their raw node's own node. */
  struct scp_prof_rawpc *raw_pcs;
  size_t nraw_pcs, capraw_pcs;
};

typedef struct scp_prof_rawpc {
  uint32_t raw, node;
  uint64_t pc;
} scp_prof_rawpc;

/* Build the profile of raw tree t.  metrics[0..t->nmetrics) describe the
 * metrics.  On success *out is a new profile (destroy with
 * scp_profile_destroy); on failure *out is NULL. */
int scp_prof_build(const scp_tree *t, const scp_metric *metrics,
                   const scp_resolver *r, scp_profile **out, scp_error *err);

/* Append a metadata line shown by the report ("contract", "demo.wasm"). */
int scp_prof_meta(scp_profile *p, const char *key, const char *value);

/* Append a row to the breakdown of metric `metric` titled title (the
 * first row sets both; later rows must name the same metric).  Returns
 * SCP_OK, SCP_ERR_ARG (another metric) or SCP_ERR_NOMEM. */
int scp_prof_part_add(scp_profile *p, unsigned metric, const char *title, const char *name,
                      const char *amount, uint64_t cost);

/* Start a table (scp_prof_table): ncols columns named cols, col_metric[i]
 * the metric column i sums to or -1.  Rows then go to it with
 * scp_prof_table_row.  SCP_OK, SCP_ERR_ARG (ncols 0 or over
 * SCP_PROF_TABLE_COLS, a metric out of range), SCP_ERR_NOMEM. */
int scp_prof_table_begin(scp_profile *p, const char *title, const char *item, unsigned ncols,
                         const char *const *cols, const int *col_metric);
/* A row of the last table begun: its name and ncols values.  SCP_OK,
 * SCP_ERR_ARG (no table), SCP_ERR_NOMEM. */
int scp_prof_table_row(scp_profile *p, const char *name, const uint64_t *v);
/* A row with text and a node link: note (NULL: none) shown in the
 * table's note column, node the profile node it belongs to (SCP_NODE_NONE:
 * none).  SCP_OK, SCP_ERR_ARG (no table, a node out of range),
 * SCP_ERR_NOMEM. */
typedef struct scp_prof_row_in {
  const char *name, *note;
  uint32_t node;
  const uint64_t *v;
} scp_prof_row_in;
int scp_prof_table_row_ex(scp_profile *p, const scp_prof_row_in *in);
/* The last table begun: its notes column is titled title; column col sums
 * to breakdown row part; its metric columns sum per node.  SCP_OK or
 * SCP_ERR_ARG (no table, col or part out of range), SCP_ERR_NOMEM. */
int scp_prof_table_note_title(scp_profile *p, const char *title);
int scp_prof_table_col_part(scp_profile *p, unsigned col, size_t part);
/* The last table's footnote: one line printed under it (what it leaves
 * out, and how to get it).  SCP_OK, SCP_ERR_ARG (no table), SCP_ERR_NOMEM. */
int scp_prof_table_footnote(scp_profile *p, const char *text);
int scp_prof_table_per_node(scp_profile *p);
/* The profile node raw tree node raw went to; SCP_NODE_NONE when unknown. */
uint32_t scp_prof_node_of_raw(const scp_profile *p, uint32_t raw);
/* The profile node raw's costs at pc went to (its inlined frame there);
 * raw's own node when pc has none. */
uint32_t scp_prof_node_of_raw_pc(const scp_profile *p, uint32_t raw, uint64_t pc);
/* The sum of column col of table t (saturating). */
uint64_t scp_prof_table_sum(const scp_profile *p, const scp_prof_table *t, unsigned col);
/* Every column that breaks a metric down sums to that metric's total (a
 * per-node table's: per node, to the node's self cost), every column tied
 * to a breakdown row to its cost, and every row's node exists. */
bool scp_prof_tables_check(const scp_profile *p);

/* Metric m's limit is checked against v, not the tree's total (see
 * scp_profile.enforced).  Returns SCP_OK or SCP_ERR_ARG (no such metric). */
int scp_prof_enforced(scp_profile *p, unsigned m, uint64_t v);
/* The value metric m's limit is checked against: the enforced value when
 * one was set, else the tree's total. */
uint64_t scp_prof_checked(const scp_profile *p, unsigned m);

static inline const char *scp_prof_str(const scp_profile *p, uint32_t id) {
  return scp_strtab_get(&p->strs, id);
}

/* Renumber p's nodes in depth-first preorder and relink them, siblings in
 * the order cmp sorts their ids (qsort_r, ctx p; NULL keeps the order they
 * are linked in).  Nodes the root does not reach are dropped.  With newid,
 * *newid maps every old id to its new one (SCP_NODE_NONE: dropped); the
 * caller frees it.  Returns SCP_OK or SCP_ERR_NOMEM (p unchanged). */
int scp_prof_preorder(scp_profile *p, int (*cmp)(const void *, const void *, void *),
                      uint32_t **newid);

/* Inclusive totals (self plus the children's totals, every metric) and
 * depths, from the self costs of nodes in preorder. */
void scp_prof_totals(scp_profile *p);

/* Checks inclusive(n) == self(n) + sum(inclusive(children)) for every node
 * and every metric.  Returns true when it holds. */
bool scp_prof_check(const scp_profile *p);

#endif
