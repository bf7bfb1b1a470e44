/*
 * contract_meta.h — write a contract's `contractspecv0` and
 * `contractenvmetav0` custom sections from C (used by vault.c, teller.c, token.c).
 *
 * soroban-sdk contracts carry both: the spec (XDR SCSpecEntry values) lets
 * tools such as `scprof profile --list` and named arguments know the
 * functions, the env meta (XDR SCEnvMetaEntry) names the protocol the
 * contract was built for.  clang 14 + wasm-ld turn a C array placed in a
 * section into a *data* segment, so the entries are written in assembly:
 * a `.custom_section.NAME` section of the object becomes the custom section
 * NAME of the linked module.  XDR: big-endian 4-byte words, strings padded
 * to 4 bytes with zeros.
 */
#ifndef CONTRACT_META_H
#define CONTRACT_META_H

/* One byte, and one big-endian XDR word (assembler expressions; XW
 * expands its argument first). */
#define XB_(e) ".int8 " e "\n"
#define XW_(x) XB_("((" #x ")>>24)&255") XB_("((" #x ")>>16)&255") \
               XB_("((" #x ")>>8)&255") XB_("(" #x ")&255")
#define XW(x) XW_(x)
/* XDR string of n bytes s, then its padding (XP0..XP3 zero bytes). */
#define XP0 ""
#define XP1 XB_("0")
#define XP2 XB_("0") XB_("0")
#define XP3 XB_("0") XB_("0") XB_("0")
#define XSTR(n, s, pad) XW(n) ".ascii \"" s "\"\n" pad
#define XEMPTY XW(0)

/* SCSpecEntryKind FUNCTION_V0 and the SCSpecType values used. */
#define SPEC_FN 0
#define SPEC_U32 4
#define SPEC_I128 11
#define SPEC_STRING 16
#define SPEC_ADDRESS 19

#define SPEC_SECTION ".section .custom_section.contractspecv0,\"\",@\n"

/* SCEnvMetaEntry SC_ENV_META_KIND_INTERFACE_VERSION { protocol,
 * pre_release }: built for protocol 23, not a pre-release. */
#define ENV_META_SECTION \
  ".section .custom_section.contractenvmetav0,\"\",@\n" XW(0) XW(23) XW(0)

#endif
