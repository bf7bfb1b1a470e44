/*
 * size_solana.c — what deploying a Solana program's bytes costs through
 * the upgradeable loader (loader-v3), from the rules, at the default Rent
 * and fee (what litesvm and a test validator start with):
 *
 *   rent-exempt minimum of an account of n data bytes
 *       (128 + n) * 3,480 lamports per byte-year * 2 years = (128 + n) * 6,960
 *       (solana-rent: ACCOUNT_STORAGE_OVERHEAD 128, DEFAULT_LAMPORTS_PER_
 *       BYTE_YEAR 3,480, DEFAULT_EXEMPTION_THRESHOLD 2.0, minimum_balance)
 *   accounts (solana-loader-v3-interface UpgradeableLoaderState):
 *       program      36 bytes (size_of_program)
 *       programdata  45 + program length (size_of_programdata_metadata,
 *                    max length = the program's, the CLI's default)
 *       buffer       37 + program length (size_of_buffer_metadata), held
 *                    while the program is written, given back by deploy
 *   write transactions: the CLI splits the program into chunks of
 *       PACKET_DATA_SIZE 1,232 - (size of a write transaction carrying no
 *       bytes) - 1 (calculate_max_chunk_size); a write transaction is
 *       signed by the payer, who is also the buffer's authority, and holds
 *       a compute-unit-limit instruction and the Write: 259 bytes, so 972
 *       bytes a chunk
 *   fees: 5,000 lamports per signature (no priority fee); deploy = create
 *       the buffer (payer, buffer: 2) + the writes (1 each) + create the
 *       program account and DeployWithMaxDataLen (payer, program: 2);
 *       redeploy = create a buffer (2) + the writes + Upgrade (1).
 */
#include "size/scp_size.h"

#include <stdio.h>

#define STORAGE_OVERHEAD 128u
#define LAMPORTS_PER_BYTE 6960u   /* 3,480 per byte-year x 2 years */
#define PROGRAM_BYTES 36u
#define PROGRAMDATA_META 45u
#define BUFFER_META 37u
#define CHUNK 972u
#define LAMPORTS_PER_SIGNATURE 5000u

static uint64_t rent_exempt(uint64_t data_len) {
  return (STORAGE_OVERHEAD + data_len) * LAMPORTS_PER_BYTE;
}

void scp_size_solana_deploy(uint64_t program_len, scp_size_deploy *out) {
  out->program_rent = rent_exempt(PROGRAM_BYTES);
  out->programdata_rent = rent_exempt(PROGRAMDATA_META + program_len);
  out->buffer_rent = rent_exempt(BUFFER_META + program_len);
  out->chunk = CHUNK;
  out->writes = (program_len + CHUNK - 1) / CHUNK;
  out->deploy_fee = (2 + out->writes + 2) * LAMPORTS_PER_SIGNATURE;
  out->redeploy_fee = (2 + out->writes + 1) * LAMPORTS_PER_SIGNATURE;
}

int scp_size_solana_meta(scp_profile *p, const scp_size_deploy *d) {
  char a[200], b[200], c[200];
  snprintf(a, sizeof a, "%llu lamports (program %llu, programdata %llu)",
           (unsigned long long)(d->program_rent + d->programdata_rent),
           (unsigned long long)d->program_rent, (unsigned long long)d->programdata_rent);
  snprintf(b, sizeof b, "%llu write transactions of %llu bytes; fees %llu lamports; "
           "buffer deposit %llu lamports, returned",
           (unsigned long long)d->writes, (unsigned long long)d->chunk,
           (unsigned long long)d->deploy_fee, (unsigned long long)d->buffer_rent);
  snprintf(c, sizeof c, "fees %llu lamports (same length: no extension)",
           (unsigned long long)d->redeploy_fee);
  return scp_prof_meta(p, "rent-exempt", a) || scp_prof_meta(p, "deploy", b) ||
         scp_prof_meta(p, "redeploy", c) ? SCP_ERR_NOMEM : SCP_OK;
}
