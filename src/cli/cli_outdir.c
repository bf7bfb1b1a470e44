/*
 * cli_outdir.c — an output folder that is whole or absent (cli.h): a run
 * that fails half-way through writing (a full disk) must not leave its own
 * files beside the previous run's.  Everything is written into DIR.tmpPID
 * beside DIR and swapped in at the end; the old folder is deleted only
 * when scprof could have written every entry of it, so `-o .` or a folder
 * of the user's own files is never removed.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Names scprof writes into an output folder (profile, scenario, diff, bench) and
 * the temporary files of an interrupted write. */
static bool our_name(const char *name) {
  static const char *const pats[] = {
    "report.txt", "report.json", "profile.folded", "profile.speedscope.json",
    "callgrind.out.scprof", "profile.pb.gz", "flamegraph*.svg", "scenario.txt",
    "diff.svg", "diff.txt", "result.txt", "size.svg", "size-never-run.svg", "lcov.info", "bench.md", "bench.json", "*.tmp[0-9]*", NULL};
  for (size_t i = 0; pats[i]; i++)
    if (!fnmatch(pats[i], name, 0)) return true;
  return false;
}

/* Every entry of dir is ours: our files, and scenario call folders
 * ("01-run") holding only ours, two levels deep at most (a bench's case
 * that ran a scenario: "03-transfer/01-run"). */
static bool only_ours(const char *dir, int depth) {
  DIR *d = opendir(dir);
  if (!d) return false;
  bool ok = true;
  struct dirent *e;
  while (ok && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) != 0) ok = false;
    else if (S_ISDIR(st.st_mode))
      ok = depth < 2 && !fnmatch("[0-9][0-9]*-*", e->d_name, 0) && only_ours(path, depth + 1);
    else
      ok = S_ISREG(st.st_mode) && our_name(e->d_name);
  }
  closedir(d);
  return ok;
}

/* rm -r of a folder scprof made or checked with only_ours. */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char path[4400];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      struct stat st;
      if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(path);
      else unlink(path);
    }
    closedir(d);
  }
  rmdir(dir);
}

int cli_outdir_begin(cli_outdir *d, const char *dir) {
  memset(d, 0, sizeof *d);
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') n--;   /* "out/" is "out" */
  if (n >= sizeof d->final) return cli_die(SCP_ERR_IO, "%s: folder name too long", dir);
  memcpy(d->final, dir, n);
  struct stat st;
  if (stat(d->final, &st) == 0 && !S_ISDIR(st.st_mode))
    return cli_die(SCP_ERR_IO, "%s: cannot create folder: a file of that name exists", d->final);
  snprintf(d->tmp, sizeof d->tmp, "%s.tmp%ld", d->final, (long)getpid());
  remove_tree(d->tmp);   /* a leftover of a killed run with our pid */
  int status = cli_make_dir_as(d->tmp, d->final);
  if (status) return status;
  d->open = true;
  return 0;
}

void cli_outdir_abort(cli_outdir *d) {
  if (d->open) remove_tree(d->tmp);
  d->open = false;
}

/* The old folder has files that are not ours: each new file replaces its
 * namesake by rename, one at a time; the folders of a scenario go in whole
 * when the old folder has none of that name. */
static int merge_into(const char *from, const char *to) {
  DIR *d = opendir(from);
  if (!d) return cli_die(SCP_ERR_IO, "%s: cannot read folder: %s", from, strerror(errno));
  int status = 0;
  struct dirent *e;
  while (!status && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char src[4400], dst[4400];
    snprintf(src, sizeof src, "%s/%s", from, e->d_name);
    snprintf(dst, sizeof dst, "%s/%s", to, e->d_name);
    struct stat st;
    if (lstat(src, &st) == 0 && S_ISDIR(st.st_mode) && lstat(dst, &st) == 0) {
      if (!S_ISDIR(st.st_mode)) status = cli_die(SCP_ERR_IO, "%s: not a folder", dst);
      else status = merge_into(src, dst);
    } else if (rename(src, dst) != 0) {
      status = cli_die(SCP_ERR_IO, "%s: cannot move into place: %s", dst, strerror(errno));
    }
  }
  closedir(d);
  return status;
}

int cli_outdir_commit(cli_outdir *d) {
  if (!d->open) return 0;
  struct stat st;
  int status = 0;
  if (stat(d->final, &st) != 0) {
    if (rename(d->tmp, d->final) != 0)
      status = cli_die(SCP_ERR_IO, "%s: cannot move into place: %s", d->final, strerror(errno));
  } else if (!S_ISDIR(st.st_mode)) {
    status = cli_die(SCP_ERR_IO, "%s: cannot create folder: a file of that name exists", d->final);
  } else if (only_ours(d->final, 0)) {
    /* old aside, new in, old gone: the folder is never half of each */
    char old[4300];
    snprintf(old, sizeof old, "%s.old%ld", d->final, (long)getpid());
    remove_tree(old);
    if (rename(d->final, old) != 0)
      status = cli_die(SCP_ERR_IO, "%s: cannot replace: %s", d->final, strerror(errno));
    else if (rename(d->tmp, d->final) != 0) {
      status = cli_die(SCP_ERR_IO, "%s: cannot move into place: %s", d->final, strerror(errno));
      rename(old, d->final);
    } else {
      remove_tree(old);
    }
  } else {
    status = merge_into(d->tmp, d->final);
  }
  cli_outdir_abort(d);
  return status;
}
