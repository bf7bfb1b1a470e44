/* cli_solsyms.c — symbol files for the programs of a Solana run (cli_solsyms.h). */
#include "cli_solsyms.h"
#include "solana/scp_sol_state.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A split debug file of a large Rust program is several times its ELF. */
#define SYM_FILE_MAX (512u << 20)

/* A program of the run: what a symbol file is matched with. */
typedef struct known_prog {
  const uint8_t *id;
  const char *name;
  const uint8_t *elf;
  size_t len;
  char idtext[SCP_SOL_B58_KEY_MAX];
} known_prog;

typedef struct known_set {
  known_prog *p;
  size_t n;
} known_set;

static int collect(const scp_sol_tx_prog *progs, size_t nprogs, const scp_sol_account *accts, size_t naccts,
                   known_set *k) {
  if (!(k->p = calloc(nprogs + naccts + 1, sizeof *k->p))) return cli_die(SCP_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < nprogs; i++) {
    known_prog *p = &k->p[k->n++];
    *p = (known_prog){.id = progs[i].id, .name = progs[i].name, .elf = progs[i].elf, .len = progs[i].len};
    scp_sol_key_str(p->id, p->idtext);
  }
  for (size_t i = 0; i < naccts; i++) {
    known_prog q = {.id = accts[i].key};
    scp_sol_loader loader;
    bool given = false;
    for (size_t j = 0; j < nprogs && !given; j++) given = !memcmp(progs[j].id, q.id, 32);
    if (given || !scp_sol_program_in(accts, naccts, q.id, &q.elf, &q.len, &loader)) continue;
    scp_sol_key_str(q.id, q.idtext);
    k->p[k->n] = q;
    k->p[k->n].name = k->p[k->n].idtext;
    k->n++;
  }
  return 0;
}

/* Register bytes for k after checking they belong to it. */
static int attach(const known_prog *k, const char *file, const uint8_t *bytes, size_t len, scp_sol_progs *cache) {
  scp_error err = {0};
  int rc = scp_sym_elf_matches(k->elf, k->len, bytes, len, &err);
  if (rc) return cli_die(rc, "%s: not the symbols of program %s: %s", file, k->name, err.msg);
  if (scp_sol_progs_add_symbols(cache, bytes, len, &err)) return cli_die(err.code, "%s", err.msg);
  return 0;
}

static int read_sym(const char *file, uint8_t **bytes, size_t *len) {
  scp_error err = {0};
  if (scp_read_file_max(file, SYM_FILE_MAX, "a symbol file", bytes, len, &err))
    return cli_die(err.code, "%s", err.msg);
  return 0;
}

/* --symbols [ID=]FILE */
static int one_spec(const char *spec, const known_set *k, scp_sol_progs *cache) {
  uint8_t id[32];
  const char *eq = strchr(spec, '='), *file = spec;
  bool by_id = eq && scp_sol_key_parse(spec, (size_t)(eq - spec), id);
  const known_prog *target = NULL;
  if (by_id) {
    file = eq + 1;
    for (size_t i = 0; i < k->n && !target; i++)
      if (!memcmp(k->p[i].id, id, 32)) target = &k->p[i];
    if (!target)
      return cli_die(SCP_ERR_USAGE, "--symbols %s: no program of the run has id %.*s", spec, (int)(eq - spec), spec);
  }
  uint8_t *bytes = NULL;
  size_t len = 0;
  int st = read_sym(file, &bytes, &len);
  if (st) return st;
  if (!target) {
    /* without an id: the run's program it belongs to */
    scp_error err = {0};
    for (size_t i = 0; i < k->n && !target; i++)
      if (!scp_sym_elf_matches(k->p[i].elf, k->p[i].len, bytes, len, &err)) target = &k->p[i];
    if (!target && k->n != 1) {
      free(bytes);
      return cli_die(SCP_ERR_ARG, "%s: not the symbols of any of the run's %zu programs", file, k->n);
    }
    if (!target) target = &k->p[0];
  }
  st = attach(target, file, bytes, len, cache);
  free(bytes);
  return st;
}

static bool is_type(const char *path, mode_t type) {
  struct stat sb;
  return stat(path, &sb) == 0 && (sb.st_mode & S_IFMT) == type;
}

/* --symbols-dir: DIR/ID.so, ID.debug, NAME.so, NAME.debug */
static int from_dir(const char *dir, const known_prog *k, scp_sol_progs *cache) {
  const char *name = k->name ? k->name : k->idtext;
  if (!strncmp(name, "program:", 8)) name += 8;
  const char *stems[2] = {k->idtext, name}, *exts[2] = {".so", ".debug"};
  char path[4400];
  for (size_t i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/%s%s", dir, stems[i / 2], exts[i % 2]);
    if (!is_type(path, S_IFREG)) continue;
    uint8_t *bytes = NULL;
    size_t len = 0;
    int st = read_sym(path, &bytes, &len);
    if (!st) st = attach(k, path, bytes, len, cache);
    free(bytes);
    return st;
  }
  return 0;
}

int cli_sol_syms_load(const cli_sol_syms *o, const scp_sol_tx_prog *progs, size_t nprogs,
                      const scp_sol_account *accts, size_t naccts, scp_sol_progs *cache) {
  if (!o->nspecs && !o->dir) return 0;
  known_set k = {0};
  int st = collect(progs, nprogs, accts, naccts, &k);
  for (size_t i = 0; !st && i < o->nspecs; i++) st = one_spec(o->specs[i], &k, cache);
  if (!st && o->dir && !is_type(o->dir, S_IFDIR)) st = cli_die(SCP_ERR_USAGE, "--symbols-dir %s: not a folder", o->dir);
  for (size_t i = 0; !st && o->dir && i < k.n; i++) st = from_dir(o->dir, &k.p[i], cache);
  free(k.p);
  return st;
}

int cli_sol_refuse_debug(const char *path, const uint8_t *elf, size_t len) {
  if (!scp_sym_elf_debug_only(elf, len)) return 0;
  return cli_die(SCP_ERR_USAGE, "%s: a split debug file (its code sections have no bytes): profile the program "
                 "and give this file with --symbols", path);
}
