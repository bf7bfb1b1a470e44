#!/usr/bin/env python3
"""Writes the Solana transaction scenarios of bench/sol_litesvm.sh: N
transactions of one kind on the programs litesvm ships (ORACLE: token.so,
token2022.so, ata.so), in the JSON `scprof profile --scenario` reads (and
bench/sol/litesvm_tx.js, bench_soltx).
  transfer   p-token Transfer of 1 token
  checked    Token-2022 TransferChecked of 1 token (6 decimals)
  ata        ATA Create (4 CPIs into System and token), then token
             CloseAccount, which frees the address for the next create
             (N pairs: 2N transactions)
usage: scenario.py KIND N ORACLE OUT.json [noprofile]"""
import json
import sys

TK = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
T22 = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"
ATA_ID = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"
MINT = "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi"     # 32 bytes of 01
SRC = "8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR"
DST = "GgBaCs3NCBuZN12kCJgAW63ydqohFkHEdfdEXBPzLHq"
WAL = "CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8"      # 32 bytes of 03
ATA = "4iVXddBZKmBBRndg5o9PCs4pG4kP59at3r7oD4kdM62i"     # WAL's ATA of MINT (token)
A3 = "03" * 32
# a mint: authority A3, supply 10^8, 6 decimals, initialized
MINTD = "01000000" + A3 + "00e1f50500000000" + "06" + "01" + "00" * 36


def acct(amount_le):
    """A token account of mint MINT, owner A3, holding amount, initialized."""
    return "01" * 32 + A3 + amount_le + "00" * 36 + "01" + "00" * 56


def meta(k, signer=False, writable=False):
    return {"pubkey": k, "signer": signer, "writable": writable}


def main():
    kind, n, oracle, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    noprofile = len(sys.argv) > 5 and sys.argv[5] == "noprofile"
    wallet = {"pubkey": WAL, "lamports": 1000000000}
    if kind in ("transfer", "checked"):
        prog = T22 if kind == "checked" else TK
        name = "token2022" if kind == "checked" else "token"
        programs = [{"name": name, "elf": f"{oracle}/{name}.so", "id": prog}]
        accounts = [wallet,
                    {"pubkey": SRC, "lamports": 2039280, "owner": prog, "data": acct("00e1f50500000000")},
                    {"pubkey": DST, "lamports": 2039280, "owner": prog, "data": acct("0000000000000000")}]
        if kind == "checked":
            accounts.append({"pubkey": MINT, "lamports": 1461600, "owner": prog, "data": MINTD})
            ix = {"program": name, "data": "0c010000000000000006",
                  "accounts": [meta(SRC, writable=True), meta(MINT), meta(DST, writable=True), meta(WAL, signer=True)]}
        else:
            ix = {"program": name, "data": "030100000000000000",
                  "accounts": [meta(SRC, writable=True), meta(DST, writable=True), meta(WAL, signer=True)]}
        txs = [{"label": f"t{i + 1}", "instructions": [ix]} for i in range(n)]
    elif kind == "ata":
        programs = [{"name": "ata", "elf": f"{oracle}/ata.so", "id": ATA_ID, "loader": "v2"},
                    {"name": "token", "elf": f"{oracle}/token.so", "id": TK}]
        accounts = [wallet, {"pubkey": MINT, "lamports": 1461600, "owner": TK, "data": MINTD}]
        create = {"program": "ata", "data": "",
                  "accounts": [meta(WAL, True, True), meta(ATA, writable=True), meta(WAL), meta(MINT),
                               meta("11111111111111111111111111111111"), meta(TK)]}
        close = {"program": "token", "data": "09",
                 "accounts": [meta(ATA, writable=True), meta(WAL, writable=True), meta(WAL, signer=True)]}
        txs = []
        for i in range(n):
            txs.append({"label": f"create{i + 1}", "instructions": [create]})
            txs.append({"label": f"close{i + 1}", "instructions": [close]})
    else:
        sys.exit(f"scenario.py: unknown kind {kind}")
    if noprofile:
        for t in txs:
            t["profile"] = False
    with open(out, "w") as f:
        json.dump({"programs": programs, "accounts": accounts, "transactions": txs}, f)


main()
