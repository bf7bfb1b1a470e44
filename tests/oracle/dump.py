#!/usr/bin/env python3
"""dump.py -- write account state in the forms users already have it, for
tests/e2e/sol_state.sh to profile the same state from a scenario's or
--account's own fields and from these files.

  dump.py FORM DIR PUBKEY:LAMPORTS:OWNER:HEX[@FILE][:x]...

The data is HEX followed by FILE's bytes when @FILE is given (a program's
ELF); x marks the account executable.

FORM is one of
  cli          `solana account ADDR --output json` (one file per account)
  compact      `--output json-compact`
  base58       as cli, data in base58 (the CLI and RPC allow it up to 128 bytes)
  zstd         as cli, data as base64+zstd (the `zstd` command compresses)
  info         getAccountInfo replies {"context", "value"}, named ADDR.json
  multi        one getMultipleAccounts JSON-RPC reply, multi.json; prints the
               ADDR1,ADDR2,...= prefix --accounts wants for it
  seashell     Seashell's cache: a gzip JSON map, scenarios/cache.json.gz
  dump.py scenario FORM IN.json OUT.json
               IN's own "accounts" written in FORM to the folder OUT.d beside
               OUT.json, which is IN with "accounts" naming those files
Integers are written as the tools write them: lamports a JSON number,
rentEpoch 18446744073709551615 (u64::MAX, as the CLI prints it) and, for
seashell, rent_epoch as a decimal string.  Output is deterministic.
"""
import base64
import gzip
import json
import os
import subprocess
import sys

ALPHA = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
U64_MAX = 18446744073709551615


def b58(data):
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = ALPHA[r] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def data_field(form, data):
    if form == "base58":
        return [b58(data), "base58"]
    if form == "zstd":
        z = subprocess.run(["zstd", "-q", "-c", "-19"], input=data, stdout=subprocess.PIPE, check=True).stdout
        return [base64.b64encode(z).decode(), "base64+zstd"]
    return [base64.b64encode(data).decode(), "base64"]


def account(form, a):
    return {"lamports": a["lamports"], "data": data_field(form, a["data"]), "owner": a["owner"],
            "executable": a["executable"], "rentEpoch": U64_MAX, "space": len(a["data"])}


def scenario(form, src, dst):
    """A scenario's own accounts (defaults: system owner, 0 lamports, no
    data) as FORM files; the copy names them instead."""
    with open(src) as fh:
        scn = json.load(fh)
    specs = []
    for a in scn.get("accounts", []):
        data = a.get("data", "")
        specs.append("%s:%d:%s:%s%s" % (a["pubkey"], int(a.get("lamports", 0)),
                                        a.get("owner", "11111111111111111111111111111111"), data,
                                        ":x" if a.get("executable") else ""))
    folder = os.path.splitext(dst)[0] + ".d"
    prefix = write(form, folder, specs, quiet=True)
    rel = os.path.basename(folder)
    scn["accounts"] = [{"multi": prefix + rel + "/multi.json",
                        "seashell": rel + "/scenarios/cache.json.gz"}.get(form, rel)]
    with open(dst, "w") as fh:
        json.dump(scn, fh, indent=1)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    if argv[1] == "scenario":
        scenario(argv[2], argv[3], argv[4])
        return
    write(argv[1], argv[2], argv[3:])


def write(form, out, specs, quiet=False):
    accts = []
    for spec in specs:
        f = spec.split(":")
        hexpart, _, path = f[3].partition("@")
        data = bytes.fromhex(hexpart)
        if path:
            with open(path, "rb") as fh:
                data += fh.read()
        accts.append({"pubkey": f[0], "lamports": int(f[1]), "owner": f[2], "data": data,
                      "executable": len(f) > 4 and f[4] == "x"})
    os.makedirs(out, exist_ok=True)
    ctx = {"apiVersion": "2.2.7", "slot": 341197053}
    if form == "multi":
        reply = {"jsonrpc": "2.0", "result": {"context": ctx, "value": [account("cli", a) for a in accts]}, "id": 1}
        with open(os.path.join(out, "multi.json"), "w") as fh:
            json.dump(reply, fh, indent=2)
        prefix = ",".join(a["pubkey"] for a in accts) + "="
        if not quiet:
            print(prefix)
        return prefix
    if form == "seashell":
        os.makedirs(os.path.join(out, "scenarios"), exist_ok=True)
        cache = {a["pubkey"]: {"lamports": a["lamports"], "data": a["data"].hex(), "owner": a["owner"],
                               "executable": a["executable"], "rent_epoch": str(U64_MAX)} for a in accts}
        with open(os.path.join(out, "scenarios", "cache.json.gz"), "wb") as fh:
            fh.write(gzip.compress(json.dumps(cache).encode(), mtime=0))
        return ""
    for i, a in enumerate(accts):
        if form == "info":
            name, doc = a["pubkey"] + ".json", {"context": ctx, "value": account("cli", a)}
        else:
            name, doc = "%02d.json" % i, {"pubkey": a["pubkey"], "account": account(form, a)}
        with open(os.path.join(out, name), "w") as fh:
            if form == "compact":
                json.dump(doc, fh, separators=(",", ":"))
            else:
                json.dump(doc, fh, indent=2)
            fh.write("\n")
    return ""


main(sys.argv)
