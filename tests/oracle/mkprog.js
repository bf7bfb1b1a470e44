#!/usr/bin/env node
// Writes small hand-assembled sBPF v3 programs (the strict ELF layout: one
// PT_LOAD of code at 0x1_0000_0000, static syscalls by murmur3 key) for the
// oracle cases: every syscall scprof implements, called once with its cost
// and log line visible; the ways a run fails (a VM fault, a syscall error,
// r0 codes); and the runtime's write-back checks.
//   mkprog.js DIR   writes DIR/NAME_v3.so for each program below
'use strict';
const fs = require('fs');
const path = require('path');

// murmur3 keys (../shared/spec/sbpf/syscall-hashes.txt)
const SYS = {
  abort: 0xb6fc1a11, sol_panic_: 0x686093bb, sol_log_: 0x207559bd, sol_log_64_: 0x5c2a3178,
  sol_log_pubkey: 0x7ef088ca, sol_log_compute_units_: 0x52ba5096, sol_log_data: 0x7317b434,
  sol_create_program_address: 0x9377323c, sol_try_find_program_address: 0x48504a38,
  sol_sha256: 0x11f49d86, sol_keccak256: 0xd7793abb, sol_secp256k1_recover: 0x17e40350,
  sol_get_clock_sysvar: 0xd56b5fe9, sol_get_epoch_schedule_sysvar: 0x23a29a61,
  sol_get_rent_sysvar: 0xbf7188f6, sol_get_sysvar: 0x13c1b505, sol_memcpy_: 0x717cc4a3,
  sol_memmove_: 0x434371f8, sol_memset_: 0x3770fb22, sol_memcmp_: 0x5fdcde31,
  sol_get_stack_height: 0x85532d94, sol_set_return_data: 0xa226d3eb,
  sol_get_return_data: 0x5d2245e4, sol_alloc_free_: 0x83f00e8f,
  sol_get_epoch_rewards_sysvar: 0xfdba2b3b, sol_get_last_restart_slot: 0x188a0031,
  sol_get_processed_sibling_instruction: 0xadb8efc8,
  // not registered with litesvm 1.5.0's features
  sol_remaining_compute_units: 0xedef5aee, sol_blake3: 0x174c5122,
  sol_get_epoch_stake: 0x5be92f4a, sol_big_mod_exp: 0x780e4c15,
  sol_curve_validate_point: 0xaa2607ca, sol_curve_group_op: 0xdd1c41a6,
  sol_curve_decompress: 0x080c98b0, sol_curve_pairing_map: 0xf111a47e,
};
// SysvarRent111111111111111111111111111111111 as four little-endian u64
const RENT_ID = [0x515c2c1917d5a706n, 0x7ff14a3d4cc98c21n, 0x44fda19b08eeda58n, 0x000000008ad9dbe3n];

function ins(op, dst = 0, src = 0, off = 0, imm = 0) {
  const b = Buffer.alloc(8);
  b[0] = op; b[1] = (src << 4) | dst; b.writeInt16LE(off, 2); b.writeInt32LE(imm | 0, 4);
  return b;
}
const A = {
  mov: (d, imm) => ins(0xb7, d, 0, 0, imm), movr: (d, s) => ins(0xbf, d, s),
  add: (d, imm) => ins(0x07, d, 0, 0, imm), sub: (d, imm) => ins(0x17, d, 0, 0, imm),
  div: (d, s) => ins(0x3f, d, s),
  ldxdw: (d, s, off) => ins(0x79, d, s, off), ldxw: (d, s, off) => ins(0x61, d, s, off),
  ldxb: (d, s, off) => ins(0x71, d, s, off), stxdw: (d, off, s) => ins(0x7b, d, s, off),
  stb: (d, off, imm) => ins(0x72, d, 0, off, imm),
  lddw: (d, v) => { const lo = Number(BigInt(v) & 0xffffffffn), hi = Number(BigInt(v) >> 32n);
                    return Buffer.concat([ins(0x18, d, 0, 0, lo), ins(0x00, 0, 0, 0, hi)]); },
  call: (name) => { if (!(name in SYS)) throw new Error(name); return ins(0x85, 0, 0, 0, SYS[name]); },
  exit: () => ins(0x95),
};
const HEAP = 0x300000000n;

// heap pointer in r6; h(n) = r(n) <- heap + off
const h = (r, off) => [A.movr(r, 6), A.add(r, off)];
const log64 = (...regs) => [...regs.map((s, i) => A.movr(i + 1, s)), A.call('sol_log_64_')];

const PROGRAMS = {
  // every implemented syscall once; the instruction data is empty, so the
  // program id follows it at r2
  syscalls: [
    A.movr(9, 2), A.lddw(6, HEAP),
    A.mov(1, 1), A.mov(2, 2), A.mov(3, 3), A.mov(4, 4), A.mov(5, -1), A.call('sol_log_64_'),
    A.call('sol_log_compute_units_'),
    A.movr(1, 6), A.mov(2, 0x41), A.mov(3, 64), A.call('sol_memset_'),
    A.movr(1, 6), A.mov(2, 64), A.call('sol_log_'),
    A.stxdw(6, 64, 6), A.mov(7, 64), A.stxdw(6, 72, 7),
    ...h(1, 64), A.mov(2, 1), ...h(3, 128), A.call('sol_sha256'),
    ...h(1, 64), A.mov(2, 1), ...h(3, 160), A.call('sol_keccak256'),
    ...h(1, 64), A.mov(2, 1), A.call('sol_log_data'),
    ...h(1, 128), A.mov(2, 64), A.call('sol_set_return_data'),
    ...h(1, 256), A.call('sol_get_clock_sysvar'),
    A.ldxdw(7, 6, 256), A.ldxdw(8, 6, 288), ...log64(7, 8, 0, 0, 0),
    ...h(1, 320), A.call('sol_get_rent_sysvar'),
    A.ldxdw(7, 6, 320), A.ldxdw(8, 6, 328), A.ldxb(3, 6, 336), A.movr(1, 7), A.movr(2, 8),
    A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    ...h(1, 1104), A.call('sol_get_epoch_schedule_sysvar'),
    A.ldxdw(1, 6, 1104), A.ldxdw(2, 6, 1112), A.ldxb(3, 6, 1120), A.ldxdw(4, 6, 1128),
    A.ldxdw(5, 6, 1136), A.call('sol_log_64_'),
    A.call('sol_get_stack_height'), A.movr(1, 0), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0),
    A.mov(5, 0), A.call('sol_log_64_'),
    A.stxdw(6, 400, 6), A.mov(7, 5), A.stxdw(6, 408, 7),
    ...h(1, 400), A.mov(2, 1), A.movr(3, 9), ...h(4, 440), ...h(5, 480),
    A.call('sol_try_find_program_address'), A.movr(7, 0),
    ...h(1, 440), A.call('sol_log_pubkey'),
    A.ldxb(1, 6, 480), A.movr(2, 7), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    A.stb(6, 481, 3), A.stxdw(6, 416, 6), A.add(7, 0), A.lddw(8, HEAP + 481n), A.stxdw(6, 416, 8),
    A.mov(7, 1), A.stxdw(6, 424, 7),
    ...h(1, 400), A.mov(2, 2), A.movr(3, 9), ...h(4, 520), A.call('sol_create_program_address'),
    A.movr(1, 0), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    A.movr(1, 6), ...h(2, 128), A.mov(3, 32), ...h(4, 504), A.call('sol_memcmp_'),
    A.ldxw(1, 6, 504), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    ...h(1, 600), A.movr(2, 6), A.mov(3, 300), A.call('sol_memcpy_'),
    ...h(1, 601), ...h(2, 600), A.mov(3, 300), A.call('sol_memmove_'),
    ...h(1, 800), A.mov(2, 10), ...h(3, 900), A.call('sol_get_return_data'),
    A.movr(1, 0), A.ldxb(2, 6, 800), A.ldxb(3, 6, 900), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    A.movr(1, 6), A.mov(2, 0), A.movr(3, 6), ...h(4, 1000), A.call('sol_secp256k1_recover'),
    A.movr(1, 0), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    A.mov(0, 0), A.exit(),
  ],
  // sysvars through sol_get_sysvar and the typed getters not in `syscalls`,
  // sibling instructions, the bump allocator, log_data with three fields
  sysvars: [
    A.lddw(6, HEAP),
    ...RENT_ID.flatMap((w, i) => [A.lddw(7, w), A.stxdw(6, 8 * i, 7)]),
    A.movr(1, 6), ...h(2, 64), A.mov(3, 0), A.mov(4, 17), A.call('sol_get_sysvar'), A.movr(7, 0),
    A.ldxdw(1, 6, 64), A.ldxdw(2, 6, 72), A.ldxb(3, 6, 80), A.movr(4, 7), A.mov(5, 0),
    A.call('sol_log_64_'),
    A.movr(1, 6), ...h(2, 64), A.mov(3, 10), A.mov(4, 10), A.call('sol_get_sysvar'),
    A.movr(1, 0), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    ...h(1, 64), ...h(2, 128), A.mov(3, 0), A.mov(4, 1), A.call('sol_get_sysvar'),
    A.movr(1, 0), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    ...h(1, 256), A.call('sol_get_epoch_rewards_sysvar'),
    A.ldxdw(1, 6, 256), A.ldxdw(2, 6, 304), A.ldxb(3, 6, 336), A.mov(4, 0), A.mov(5, 0),
    A.call('sol_log_64_'),
    ...h(1, 384), A.call('sol_get_last_restart_slot'),
    A.ldxdw(1, 6, 384), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    A.mov(1, 0), ...h(2, 400), ...h(3, 500), ...h(4, 600), ...h(5, 700),
    A.call('sol_get_processed_sibling_instruction'),
    A.movr(1, 0), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    A.mov(1, 100), A.mov(2, 0), A.call('sol_alloc_free_'), A.movr(7, 0),
    A.mov(1, 3), A.mov(2, 0), A.call('sol_alloc_free_'), A.movr(8, 0),
    A.mov(1, 40000), A.mov(2, 0), A.call('sol_alloc_free_'),
    A.movr(3, 0), A.movr(1, 7), A.movr(2, 8), A.mov(4, 0), A.mov(5, 0), A.call('sol_log_64_'),
    A.stxdw(6, 800, 6), A.mov(7, 3), A.stxdw(6, 808, 7),
    A.movr(7, 6), A.add(7, 8), A.stxdw(6, 816, 7), A.mov(7, 0), A.stxdw(6, 824, 7),
    A.movr(7, 6), A.add(7, 64), A.stxdw(6, 832, 7), A.mov(7, 17), A.stxdw(6, 840, 7),
    ...h(1, 800), A.mov(2, 3), A.call('sol_log_data'),
    A.mov(0, 0), A.exit(),
  ],
  // 200 log lines of 77 bytes: the collector's 10,000-byte limit
  spam: [A.lddw(6, HEAP), A.movr(1, 6), A.mov(2, 0x41), A.mov(3, 64), A.call('sol_memset_'),
         A.mov(7, 200),
         A.movr(1, 6), A.mov(2, 64), A.call('sol_log_'), A.sub(7, 1), ins(0x55, 7, 0, -5, 0),
         A.mov(0, 0), A.exit()],
  // the total stake (no address) and a vote account's (the program id's)
  epochstake: [A.movr(9, 2), A.mov(1, 0), A.call('sol_get_epoch_stake'), A.movr(7, 0),
               A.movr(1, 9), A.call('sol_get_epoch_stake'),
               A.movr(2, 0), A.movr(1, 7), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0),
               A.call('sol_log_64_'), A.mov(0, 0), A.exit()],
  // curve syscalls with a curve id no curve has: InvalidAttribute, nothing charged
  ...Object.fromEntries(['sol_curve_validate_point', 'sol_curve_group_op', 'sol_curve_decompress',
                         'sol_curve_pairing_map'].map((n) => [`badcurve_${n.slice(10)}`,
    [A.mov(1, 99), A.mov(2, 0), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0), A.call(n), A.exit()]])),
  badop_group_op: [A.mov(1, 0), A.mov(2, 7), A.mov(3, 0), A.mov(4, 0), A.mov(5, 0),
                   A.call('sol_curve_group_op'), A.exit()],
  bigmodexp: [A.mov(1, 0), A.mov(2, 0), A.call('sol_big_mod_exp'), A.exit()],
  // syscalls litesvm does not register: the call is an unsupported
  // instruction when reached
  remaining: [A.mov(1, 1), A.call('sol_remaining_compute_units'), A.exit()],
  blake3: [A.mov(1, 0), A.mov(2, 0), A.call('sol_blake3'), A.exit()],
  // a load from an unmapped address: a VM fault depletes the meter
  fault: [A.mov(1, 0), A.mov(2, 7), A.ldxdw(0, 1, 0), A.exit()],
  divzero: [A.mov(1, 5), A.mov(2, 0), A.div(1, 2), A.mov(0, 0), A.exit()],
  // syscall errors do not deplete
  panic: [A.lddw(6, HEAP), A.movr(1, 6), A.mov(2, 0x62), A.mov(3, 4), A.call('sol_memset_'),
          A.movr(1, 6), A.mov(2, 4), A.mov(3, 12), A.mov(4, 5), A.call('sol_panic_'), A.exit()],
  abort: [A.mov(1, 1), A.call('abort'), A.exit()],
  overlap: [A.lddw(6, HEAP), A.movr(1, 6), A.add(1, 1), A.movr(2, 6), A.mov(3, 8),
            A.call('sol_memcpy_'), A.mov(0, 0), A.exit()],
  // r0 = the first 8 instruction bytes
  ret: [A.ldxdw(0, 2, 0), A.exit()],
  // ret with one more syscall: the changed program of tests/e2e/bench.sh
  retlog: [A.call('sol_log_compute_units_'), A.ldxdw(0, 2, 0), A.exit()],
  // write account 0's first data byte (the input's byte 96)
  write: [A.stb(1, 96, 0x5a), A.mov(0, 0), A.exit()],
  // move one lamport from account 0 to account 1 (account 0 holds 8 data bytes)
  move: [A.ldxdw(2, 1, 80), A.sub(2, 1), A.stxdw(1, 80, 2),
         A.ldxdw(3, 1, 8 + 10344 + 72), A.add(3, 1), A.stxdw(1, 8 + 10344 + 72, 3),
         A.mov(0, 0), A.exit()],
  // take one lamport from account 0 without giving it to anyone
  burn: [A.ldxdw(2, 1, 80), A.sub(2, 1), A.stxdw(1, 80, 2), A.mov(0, 0), A.exit()],
  // set account 0's data length to the first instruction u64
  resize: [A.ldxdw(3, 2, 0), A.stxdw(1, 88, 3), A.mov(0, 0), A.exit()],
  // set account 0's owner to [7; 32]
  assign: [A.lddw(3, 0x0707070707070707n), A.stxdw(1, 48, 3), A.stxdw(1, 56, 3),
           A.stxdw(1, 64, 3), A.stxdw(1, 72, 3), A.mov(0, 0), A.exit()],
};

function elf(code) {
  const text = Buffer.concat(code);
  const hdr = Buffer.alloc(64), ph = Buffer.alloc(56);
  hdr.write('\x7fELF', 0, 'latin1');
  hdr[4] = 2; hdr[5] = 1; hdr[6] = 1;
  hdr.writeUInt16LE(3, 16);            // ET_DYN
  hdr.writeUInt16LE(247, 18);          // EM_BPF
  hdr.writeUInt32LE(1, 20);
  hdr.writeBigUInt64LE(0x100000000n, 24);  // entry: the first instruction
  hdr.writeBigUInt64LE(64n, 32);       // phoff
  hdr.writeUInt32LE(3, 48);            // e_flags: sBPF v3
  hdr.writeUInt16LE(64, 52); hdr.writeUInt16LE(56, 54); hdr.writeUInt16LE(1, 56);
  hdr.writeUInt16LE(64, 58);
  ph.writeUInt32LE(1, 0); ph.writeUInt32LE(1, 4);  // PT_LOAD, PF_X
  ph.writeBigUInt64LE(120n, 8);
  ph.writeBigUInt64LE(0x100000000n, 16); ph.writeBigUInt64LE(0x100000000n, 24);
  ph.writeBigUInt64LE(BigInt(text.length), 32); ph.writeBigUInt64LE(BigInt(text.length), 40);
  ph.writeBigUInt64LE(8n, 48);
  return Buffer.concat([hdr, ph, text]);
}

const dir = process.argv[2];
if (!dir) { process.stderr.write('usage: mkprog.js DIR\n'); process.exit(2); }
fs.mkdirSync(dir, { recursive: true });
for (const [name, code] of Object.entries(PROGRAMS)) fs.writeFileSync(path.join(dir, `${name}_v3.so`), elf(code));
