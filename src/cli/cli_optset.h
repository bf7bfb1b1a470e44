/*
 * cli_optset.h — the options a command line gave, remembered as they are
 * parsed, so that a mode which cannot honour one (--list runs nothing, a
 * scenario takes its limits from its file) refuses it by name instead of
 * ignoring it.  An option's value is never taken for an option: the
 * parser notes only the arguments it reads as options.
 */
#ifndef SCP_CLI_OPTSET_H
#define SCP_CLI_OPTSET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cli_optset {
  const char **v;   /* the options in the order given (borrowed from argv) */
  size_t n, cap;
} cli_optset;

/* Room for argc options; false when out of memory. */
bool cli_optset_init(cli_optset *s, int argc);
void cli_optset_free(cli_optset *s);

/* Notes argument a when it is an option ("-x", "--name", "--name=value"). */
void cli_optset_note(cli_optset *s, const char *a);

/* The first option given that is one of names (a NULL-terminated list;
 * "--name=value" counts as "--name"), as it was written; NULL: none. */
const char *cli_optset_any(const cli_optset *s, const char *const *names);

/* The first option given that is none of names; NULL: none. */
const char *cli_optset_other(const cli_optset *s, const char *const *names);

/* The options that shape one output refused when it is not made: --icicle
 * and --min-width without flamegraphs (svg false), --top without a report
 * written or printed (report false).  0, or the usage exit status after
 * the one-line error. */
int cli_optset_outputs(const cli_optset *s, bool svg, bool report);

#endif
