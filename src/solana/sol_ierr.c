/* sol_ierr.c — agave's InstructionError: names, texts, and what a
 * program's r0 means. */
#include <stdio.h>
#include "solana/scp_sol.h"
#include "util/scp_util.h"

static const struct { const char *name, *text; uint32_t code; } IERR[] = {
  {.name = "", .text = "", .code = 0},
#define X(id, nm, cd, txt) {.name = nm, .text = txt, .code = cd},
#include "solana/sol_ierr.def"
#undef X
};
_Static_assert(SCP_ARRAY_LEN(IERR) == SCP_SOL_IERR_COUNT, "one row per error");

scp_sol_ierr scp_sol_ierr_from_u64(uint64_t r0) {
  scp_sol_ierr e = {.kind = SCP_SOL_IERR_NONE, .custom = 0};
  if (r0 == 0) return e;
  if (r0 >> 32 == 0) {
    e.kind = SCP_SOL_IERR_CUSTOM;
    e.custom = (uint32_t)r0;
    return e;
  }
  if ((r0 & 0xffffffffu) == 0)
    for (int k = 1; k < SCP_SOL_IERR_COUNT; k++)
      if (IERR[k].code && IERR[k].code == r0 >> 32) {
        e.kind = (scp_sol_ierr_kind)k;   /* Custom(0) is code 1 */
        return e;
      }
  e.kind = SCP_SOL_IERR_INVALID_ERROR;
  return e;
}

void scp_sol_ierr_name(scp_sol_ierr e, char *buf, size_t cap) {
  if (e.kind == SCP_SOL_IERR_CUSTOM) snprintf(buf, cap, "Custom(%u)", e.custom);
  else snprintf(buf, cap, "%s", (unsigned)e.kind < SCP_SOL_IERR_COUNT ? IERR[e.kind].name : "?");
}

void scp_sol_ierr_text(scp_sol_ierr e, char *buf, size_t cap) {
  if (e.kind == SCP_SOL_IERR_CUSTOM) snprintf(buf, cap, "custom program error: 0x%x", e.custom);
  else snprintf(buf, cap, "%s", (unsigned)e.kind < SCP_SOL_IERR_COUNT ? IERR[e.kind].text : "?");
}
