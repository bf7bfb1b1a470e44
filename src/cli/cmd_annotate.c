/*
 * cmd_annotate.c — `scprof annotate PROFILE.json [FILE|FUNCTION]`: source
 * files with a cost column per metric in front of every line, like
 * `perf annotate`.  The source is read from disk: a file name recorded in
 * DWARF is tried as it is (an absolute name, or relative to the current
 * folder), then through each --source-dir in order: a relative name under
 * DIR, an absolute name through OLD=NEW (the prefix OLD replaced by NEW,
 * for sources moved since the build).  An absolute name is never cut down
 * to a relative one: two crates' src/lib.rs must not be mistaken for each
 * other.  A file that cannot be read is still shown, as its lines with
 * cost (the writer says so in its header).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#define NO_DWARF "its code has no DWARF"
#define RECIPE "profile a build with debug info, or the stripped one with --symbols and its unstripped build " \
               "(docs/symbols.md)"

typedef struct source_cache {
  const char **dirs;        /* --source-dir values, in order */
  size_t ndirs;
  uint8_t **texts;          /* every file read, freed at the end */
  size_t ntexts, cap;
} source_cache;

static const char *read_source(source_cache *c, const char *path, size_t *len) {
  uint8_t *text = NULL;
  if (scp_read_file(path, &text, len, NULL) != SCP_OK) return NULL;
  if (!scp_grow(&c->texts, &c->cap, c->ntexts + 1, sizeof *c->texts)) {
    free(text);
    return NULL;
  }
  c->texts[c->ntexts++] = text;
  /* An empty file reads as NULL data; the writer wants text, not NULL. */
  return text ? (const char *)text : "";
}

static const char *load_source(void *ctx, const char *file, size_t *len) {
  source_cache *c = ctx;
  if (!*file) return NULL;
  const char *text = read_source(c, file, len);
  for (size_t i = 0; i < c->ndirs && !text; i++) {
    char path[4096];
    const char *d = c->dirs[i], *eq = strchr(d, '=');
    int n = -1;
    if (file[0] != '/' && !eq) {
      n = snprintf(path, sizeof path, "%s/%s", d, file);
    } else if (file[0] == '/' && eq) {
      size_t ol = (size_t)(eq - d);
      while (ol > 1 && d[ol - 1] == '/') ol--;
      if (ol && !strncmp(file, d, ol) && (file[ol] == '/' || d[ol - 1] == '/'))
        n = snprintf(path, sizeof path, "%s%s%s", eq + 1, file[ol] == '/' ? "" : "/", file + ol);
    }
    if (n >= 0 && n < (int)sizeof path) text = read_source(c, path, len);
  }
  return text;
}

int cmd_annotate(int argc, char **argv) {
  const int usage = scp_exit_status(SCP_ERR_USAGE);
  const char *profile_path = NULL, *only = NULL, *metric_name = "0", *val;
  char *trimmed = NULL;
  bool calls = false;
  source_cache cache = {0};
  cache.dirs = calloc((size_t)argc + 1, sizeof *cache.dirs);
  if (!cache.dirs) return cli_die(SCP_ERR_NOMEM, "out of memory");
  int status = 0;
  for (int i = 0; i < argc && !status; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-S") || !strcmp(a, "--source-dir")) {
      if (!(val = cli_option_value(argc, argv, &i, "a folder"))) status = usage;
      else cache.dirs[cache.ndirs++] = val;
    } else if (!strcmp(a, "--metric")) {
      if (!(val = cli_option_value(argc, argv, &i, "a metric (cpu, mem, fee, cu)"))) status = usage;
      else metric_name = val;
    } else if (!strcmp(a, "--calls")) {
      calls = true;
    } else if (a[0] == '-' && a[1] != 0) {
      status = cli_die(SCP_ERR_USAGE, "unknown option %s (see scprof --help)", a);
    } else if (!profile_path) {
      profile_path = a;
    } else if (!only) {
      only = a;
      /* a frame's label as the profile prints it: "deposit [export]" */
      const char *tag = strrchr(a, '[');
      size_t n = tag ? (size_t)(tag - a) : 0;
      if (n > 1 && a[n - 1] == ' ' && a[strlen(a) - 1] == ']' && (trimmed = strndup(a, n - 1))) only = trimmed;
    } else {
      status = cli_die(SCP_ERR_USAGE, "annotate takes one FILE or FUNCTION, not '%s' too", a);
    }
  }
  if (!status && !profile_path)
    status = cli_die(SCP_ERR_USAGE, "annotate needs PROFILE.json (see scprof --help)");
  scp_profile *p = NULL;
  if (!status) status = cli_load_profile(profile_path, &p);
  if (!status) {
    int m = cli_find_metric(p, metric_name);
    scp_buf b = {0};
    int rc = SCP_ERR_USAGE;
    if (m >= 0) {
      scp_annotate_opts ao = {.metric = (unsigned)m, .calls = calls, .only = only,
                              .load = load_source, .ctx = &cache};
      rc = scp_out_annotate(p, &ao, &b);
    }
    if (m < 0)
      status = cli_die(SCP_ERR_USAGE, "%s: no metric '%s' in this profile", profile_path, metric_name);
    else if (rc == SCP_ERR_NOTFOUND)
      status = cli_die(rc, "%s: no source file or function '%s' in this profile", profile_path, only);
    else if (rc == SCP_ERR_DWARF && only)
      status = cli_die(rc, "%s: function '%s' has no source lines (%s): %s", profile_path, only, NO_DWARF, RECIPE);
    else if (rc == SCP_ERR_DWARF)
      status = cli_die(rc, "%s: no source lines to annotate (%s): %s%s", profile_path, NO_DWARF, RECIPE,
                       p->npcs ? "; or name a function to list its instructions" : "");
    else if (rc != SCP_OK)
      status = cli_die(rc, "%s: %s", profile_path, scp_strerror(rc));
    else
      status = cli_write_stdout(&b);
    scp_buf_free(&b);
  }
  scp_profile_destroy(p);
  for (size_t i = 0; i < cache.ntexts; i++) free(cache.texts[i]);
  free(cache.texts);
  free(cache.dirs);
  free(trimmed);
  return status;
}
