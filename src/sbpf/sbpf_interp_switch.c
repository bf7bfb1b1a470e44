/*
 * sbpf_interp_switch.c — the same interpreter with portable switch dispatch
 * (no computed goto), for compilers without it and so tests can check both
 * dispatch modes give identical results.
 */
#define SBPF_SWITCH 1
#include "sbpf_interp.c"
