/*
 * xdr_text.h — a value of the codec from its JSON text, for tests that
 * build hand-written XDR values (test_xdr_writes.c, test_sortx_teardown.c).
 * Include after <cmocka.h>, "util/scp_json.h" and "xdr/scp_xdr.h".
 */
#ifndef SCP_TEST_XDR_TEXT_H
#define SCP_TEST_XDR_TEXT_H

#include <string.h>

/* The binary of type's value written as JSON text into b (emptied first);
 * the test fails on bad text. */
static inline void xdr_text(const char *type, const char *text, scp_buf *b) {
  json_t *j = NULL;
  scp_error e = {0};
  if (scp_json_parse((const uint8_t *)text, strlen(text), "t", &j, &e)) fail_msg("%s", e.msg);
  b->len = 0;
  if (scp_xdr_from_json(scp_xdr_find(type), j, b, &e)) fail_msg("%s: %s", text, e.msg);
  json_decref(j);
}

#endif
