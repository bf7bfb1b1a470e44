/* sol_input.c — the input region: serialize an instruction for the VM and
 * read the program's changes back with the runtime's checks (the layouts
 * are in scp_sol_input.h). */
#include <stdlib.h>
#include <string.h>
#include "solana/scp_sol_input.h"
#include "util/scp_util.h"

#define NON_DUP 0xff
#define ALIGN_PAD(n) ((8 - (n) % 8) % 8)

/* The instruction account index of the first occurrence of ix account i's
 * transaction account (i itself when it is the first). */
static size_t first_of(const scp_sol_ix *ix, size_t i) {
  for (size_t j = 0; j < i; j++)
    if (ix->accts[j].index == ix->accts[i].index) return j;
  return i;
}

static size_t account_size(const scp_sol_account *a, bool aligned) {
  if (aligned)
    return 1 + 1 + 1 + 1 + 4 + 32 + 32 + 8 + 8 + a->len + SCP_SOL_MAX_PERMITTED_DATA_INCREASE +
           ALIGN_PAD(a->len) + 8;
  return 1 + 1 + 1 + 32 + 8 + 8 + a->len + 32 + 1 + 8;
}

static uint8_t *put_account(uint8_t *p, const scp_sol_account *a, const scp_sol_ixacct *x,
                            bool aligned) {
  *p++ = NON_DUP;
  *p++ = x->signer;
  *p++ = x->writable;
  if (aligned) {
    *p++ = a->executable;
    memset(p, 0, 4), p += 4;
    memcpy(p, a->key, 32), p += 32;
    memcpy(p, a->owner, 32), p += 32;
    scp_put_le64(p, a->lamports), p += 8;
    scp_put_le64(p, a->len), p += 8;
    if (a->len) memcpy(p, a->data, a->len);
    p += a->len;
    size_t pad = SCP_SOL_MAX_PERMITTED_DATA_INCREASE + ALIGN_PAD(a->len);
    memset(p, 0, pad), p += pad;
  } else {
    memcpy(p, a->key, 32), p += 32;
    scp_put_le64(p, a->lamports), p += 8;
    scp_put_le64(p, a->len), p += 8;
    if (a->len) memcpy(p, a->data, a->len);
    p += a->len;
    memcpy(p, a->owner, 32), p += 32;
    *p++ = a->executable;
  }
  scp_put_le64(p, UINT64_MAX);   /* mask_out_rent_epoch_in_vm_serialization */
  return p + 8;
}

int scp_sol_input_serialize(const scp_sol_account *accts, size_t ntx, const scp_sol_ix *ix,
                            scp_sol_input *in, scp_sol_ierr *ierr, scp_error *err) {
  memset(in, 0, sizeof *in);
  bool aligned = ix->loader != SCP_SOL_LOADER_V1;
  if (ix->naccts > SCP_SOL_MAX_IX_ACCOUNTS) {
    ierr->kind = SCP_SOL_IERR_MAX_ACCOUNTS_EXCEEDED;
    return scp_fail(err, SCP_ERR_LIMIT, "%zu instruction accounts (at most %u)", ix->naccts,
                    SCP_SOL_MAX_IX_ACCOUNTS);
  }
  size_t size = 8 + 8 + ix->len + 32;
  for (size_t i = 0; i < ix->naccts; i++) {
    if (ix->accts[i].index >= ntx)
      return scp_fail(err, SCP_ERR_ARG, "instruction account %zu: no transaction account %u", i,
                      ix->accts[i].index);
    size += first_of(ix, i) != i ? (aligned ? 8 : 1) : account_size(&accts[ix->accts[i].index], aligned);
  }
  in->buf = malloc(size);
  in->pre_len = calloc(ix->naccts ? ix->naccts : 1, sizeof *in->pre_len);
  if (!in->buf || !in->pre_len) {
    scp_sol_input_free(in);
    return scp_fail(err, SCP_ERR_NOMEM, "input region of %zu bytes", size);
  }
  uint8_t *p = in->buf;
  scp_put_le64(p, ix->naccts), p += 8;
  for (size_t i = 0; i < ix->naccts; i++) {
    const scp_sol_account *a = &accts[ix->accts[i].index];
    in->pre_len[i] = a->len;
    size_t f = first_of(ix, i);
    if (f != i) {
      *p++ = (uint8_t)f;
      if (aligned) memset(p, 0, 7), p += 7;
      continue;
    }
    p = put_account(p, a, &ix->accts[i], aligned);
  }
  scp_put_le64(p, ix->len), p += 8;
  in->ixdata_off = (size_t)(p - in->buf);
  if (ix->len) memcpy(p, ix->data, ix->len);
  p += ix->len;
  memcpy(p, ix->program_id, 32), p += 32;
  in->len = size;
  in->n = ix->naccts;
  in->aligned = aligned;
  return SCP_OK;
}

void scp_sol_input_free(scp_sol_input *in) {
  free(in->buf);
  free(in->pre_len);
  memset(in, 0, sizeof *in);
}

/* ---- write-back: BorrowedInstructionAccount's setters ---------------- */

typedef struct acct_ref {
  scp_sol_account *a;
  const scp_sol_ixacct *x;
  const uint8_t *program_id;
} acct_ref;

static bool owned(const acct_ref *r) { return memcmp(r->a->owner, r->program_id, 32) == 0; }

static int fail(scp_sol_ierr *ierr, scp_sol_ierr_kind k) {
  ierr->kind = k;
  ierr->custom = 0;
  return SCP_ERR_TRAP;
}

static int set_lamports(acct_ref *r, uint64_t lamports, scp_sol_ierr *ierr) {
  if (!owned(r) && lamports < r->a->lamports) return fail(ierr, SCP_SOL_IERR_EXTERNAL_ACCOUNT_LAMPORT_SPEND);
  if (!r->x->writable) return fail(ierr, SCP_SOL_IERR_READONLY_LAMPORT_CHANGE);
  r->a->lamports = lamports;
  return SCP_OK;
}

static int can_data_be_changed(const acct_ref *r, scp_sol_ierr *ierr) {
  if (!r->x->writable) return fail(ierr, SCP_SOL_IERR_READONLY_DATA_MODIFIED);
  if (!owned(r)) return fail(ierr, SCP_SOL_IERR_EXTERNAL_ACCOUNT_DATA_MODIFIED);
  return SCP_OK;
}

/* litesvm 1.5.0 (agave 4.3) answers "may the data change" before "may its
 * length change": a non-owner's resize is ExternalAccountDataModified. */
static int can_data_be_resized(const acct_ref *r, size_t len, scp_sol_ierr *ierr) {
  int rc = can_data_be_changed(r, ierr);
  if (rc) return rc;
  if (len != r->a->len && !owned(r)) return fail(ierr, SCP_SOL_IERR_ACCOUNT_DATA_SIZE_CHANGED);
  if (len > SCP_SOL_MAX_PERMITTED_DATA_LENGTH) return fail(ierr, SCP_SOL_IERR_INVALID_REALLOC);
  return SCP_OK;
}

/* The program's view of the data replaces the account's when the account
 * may take it; an account that may not is fine as long as it is unchanged. */
static int set_data(acct_ref *r, const uint8_t *data, size_t len, scp_sol_ierr *ierr) {
  scp_sol_ierr why;
  if (can_data_be_resized(r, len, &why)) {
    if (len == r->a->len && (len == 0 || memcmp(r->a->data, data, len) == 0)) return SCP_OK;
    *ierr = why;
    return SCP_ERR_TRAP;
  }
  if (len != r->a->len) {
    uint8_t *d = realloc(r->a->data, len ? len : 1);
    if (!d) return SCP_ERR_NOMEM;
    r->a->data = d;
    r->a->len = len;
  }
  if (len) memcpy(r->a->data, data, len);
  return SCP_OK;
}

static bool zeroed(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i]) return false;
  return true;
}

static int set_owner(acct_ref *r, const uint8_t owner[32], scp_sol_ierr *ierr) {
  if (!owned(r) || !r->x->writable || !zeroed(r->a->data, r->a->len))
    return fail(ierr, SCP_SOL_IERR_MODIFIED_PROGRAM_ID);
  memcpy(r->a->owner, owner, 32);
  return SCP_OK;
}

/* The readers start just after an account's marker byte and leave *at
 * just after its rent_epoch. */
static int read_aligned(const scp_sol_input *in, size_t *at, acct_ref *r, size_t pre,
                        scp_sol_ierr *ierr) {
  const uint8_t *b = in->buf;
  size_t s = *at + 1 + 1 + 1 + 4 + 32;
  const uint8_t *owner = b + s;
  s += 32;
  uint64_t lamports = scp_le64(b + s);
  s += 8;
  int rc;
  if (lamports != r->a->lamports && (rc = set_lamports(r, lamports, ierr))) return rc;
  uint64_t post = scp_le64(b + s);
  s += 8;
  if ((post > pre && post - pre > SCP_SOL_MAX_PERMITTED_DATA_INCREASE) ||
      post > SCP_SOL_MAX_PERMITTED_DATA_LENGTH)
    return fail(ierr, SCP_SOL_IERR_INVALID_REALLOC);
  if ((rc = set_data(r, b + s, (size_t)post, ierr))) return rc;
  s += pre + SCP_SOL_MAX_PERMITTED_DATA_INCREASE + ALIGN_PAD(pre) + 8;
  if (memcmp(r->a->owner, owner, 32) && (rc = set_owner(r, owner, ierr))) return rc;
  *at = s;
  return SCP_OK;
}

static int read_unaligned(const scp_sol_input *in, size_t *at, acct_ref *r, size_t pre,
                          scp_sol_ierr *ierr) {
  const uint8_t *b = in->buf;
  size_t s = *at + 1 + 1 + 32;
  uint64_t lamports = scp_le64(b + s);
  s += 8 + 8;
  int rc;
  if (lamports != r->a->lamports && (rc = set_lamports(r, lamports, ierr))) return rc;
  if ((rc = set_data(r, b + s, pre, ierr))) return rc;
  *at = s + pre + 32 + 1 + 8;   /* the owner is not read back */
  return SCP_OK;
}

/* The sum of the lamports of the instruction's accounts, each once. */
static unsigned __int128 lamport_sum(const scp_sol_account *accts, const scp_sol_ix *ix) {
  unsigned __int128 sum = 0;
  for (size_t i = 0; i < ix->naccts; i++)
    if (first_of(ix, i) == i) sum += accts[ix->accts[i].index].lamports;
  return sum;
}

bool scp_sol_input_balanced(const scp_sol_account *before, const scp_sol_account *after,
                            const scp_sol_ix *ix) {
  return lamport_sum(before, ix) == lamport_sum(after, ix);
}

int scp_sol_input_deserialize(const scp_sol_input *in, scp_sol_account *accts,
                              const scp_sol_ix *ix, scp_sol_ierr *ierr) {
  size_t at = 8;
  for (size_t i = 0; i < ix->naccts; i++) {
    at += 1;
    if (first_of(ix, i) != i) {
      if (in->aligned) at += 7;
      continue;
    }
    acct_ref r = {.a = &accts[ix->accts[i].index], .x = &ix->accts[i], .program_id = ix->program_id};
    int rc = in->aligned ? read_aligned(in, &at, &r, in->pre_len[i], ierr)
                         : read_unaligned(in, &at, &r, in->pre_len[i], ierr);
    if (rc) return rc;
  }
  return SCP_OK;
}
