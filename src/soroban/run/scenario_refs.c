/*
 * scenario_refs.c — "@NAME" in a scenario's arguments: the code hash of
 * one of its contracts (an upload-only one, typically), what a factory's
 * create_contract or an upgrade's update_current_contract_wasm takes, so
 * that nobody deploys a dummy instance to run sha256sum on its file.
 */
#include <openssl/sha.h>
#include <sodium.h>
#include <string.h>

#include "soroban/run/scp_scenario.h"

bool scp_scenario_code_ref(const scp_scenario *s, size_t n, const char *text, char hex[65],
                           size_t *index) {
  if (text[0] != '@' || !text[1]) return false;
  /* references are few: a scan, not a map */
  for (size_t i = 0; i < n && i < s->ncontracts; i++) {
    const scp_scenario_contract *c = &s->contracts[i];
    if (!c->name || strcmp(c->name, text + 1) || !c->wasm) continue;
    uint8_t h[32];
    SHA256(c->wasm, c->len, h);
    sodium_bin2hex(hex, 65, h, sizeof h);
    *index = i;
    return true;
  }
  return false;
}
