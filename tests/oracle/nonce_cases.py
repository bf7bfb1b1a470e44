#!/usr/bin/env python3
# Writes tests/oracle/nonce_cases.json: python3 tests/oracle/nonce_cases.py tests/oracle/nonce_cases.json
# (the System program's nonce, TransferWithSeed and CreateAccountAllowPrefund
# transactions of tests/e2e/sol_tx.sh; keys are 32 equal bytes as in cases.sh).
import json, hashlib, struct, sys
A='123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
def b58(b):
    n=int.from_bytes(b,'big'); s=''
    while n: n,r=divmod(n,58); s=A[r]+s
    for x in b:
        if x: break
        s='1'+s
    return s
def unb58(s):
    n=0
    for c in s: n=n*58+A.index(c)
    b=n.to_bytes(32,'big'); return b
def key(n): return b58(bytes([n])*32)
SYS='11111111111111111111111111111111'
RBH='SysvarRecentB1ockHashes11111111111111111111'
RENT='SysvarRent111111111111111111111111111111111'
P='ScprofProgram111111111111111111111111111111'
AUTH=key(3); NONCE=key(1); OTHER=key(5); PLAIN=key(2); DEST=key(4)
LEGACY=key(6); FOREIGN=key(7); SMALL=key(8); POOR=key(9)
def u32(v): return struct.pack('<I',v).hex()
def u64(v): return struct.pack('<Q',v).hex()
def s(x): x=x.encode() if isinstance(x,str) else x; return u64(len(x))+x.hex()
def pk(k): return unb58(k).hex()
def seeded(base,seed,owner):
    seed=seed.encode() if isinstance(seed,str) else seed
    return b58(hashlib.sha256(unb58(base)+seed+unb58(owner)).digest())
NONCE_RENT=(80+128)*6960
def acc(k,signer=False,writable=False):
    d={"pubkey":k}
    if signer: d["signer"]=True
    if writable: d["writable"]=True
    return d
def ix(data,*accts,program="system"): return {"program":program,"data":data,"accounts":list(accts)}
def tx(label,*ixs): return {"label":label,"instructions":list(ixs)}
adv=lambda n=NONCE,a=AUTH,w=True,sv=RBH: ix(u32(4),acc(n,writable=w),acc(sv),acc(a,signer=True))
def wd(lam,n=NONCE,to=DEST,a=AUTH,signer=True,sv=(RBH,RENT)):
    return ix(u32(5)+u64(lam),acc(n,writable=True),acc(to,writable=True),acc(sv[0]),acc(sv[1]),acc(a,signer=signer))
init=lambda auth=AUTH,n=NONCE,w=True,sv=(RBH,RENT): ix(u32(6)+pk(auth),acc(n,writable=w),acc(sv[0]),acc(sv[1]))
authz=lambda new,a=AUTH,n=NONCE,w=True: ix(u32(7)+pk(new),acc(n,writable=w),acc(a,signer=True))
upg=lambda n,w=True: ix(u32(12),acc(n,writable=w))
def tws(lam,seed,owner,frm,base=AUTH,to=DEST,bsign=True):
    return ix(u32(11)+u64(lam)+s(seed)+pk(owner),acc(frm,writable=True),acc(base,signer=bsign),acc(to,writable=True))
create=ix(u32(0)+u64(NONCE_RENT)+u64(80)+pk(SYS),acc(AUTH,True,True),acc(NONCE,True,True))
SEEDED=seeded(AUTH,"nonce-seed",SYS)
SEEDED_P=seeded(AUTH,"owned",P)
legacy_data=u32(0)+u32(1)+pk(AUTH)+('ab'*32)+u64(5000)
txs=[
 tx("init_unfunded", ix(u32(6)+pk(AUTH),acc(POOR,writable=True),acc(RBH),acc(RENT))),
 tx("create_and_init", create, init()),
 tx("init_again", init()),
 tx("advance", adv()),
 tx("advance_twice", adv(), adv()),
 tx("advance_wrong_authority", adv(a=OTHER)),
 tx("advance_readonly", adv(w=False)),
 tx("advance_wrong_sysvar", adv(sv=RENT)),
 tx("advance_no_sysvar", ix(u32(4),acc(NONCE,writable=True))),
 tx("advance_uninitialized", adv(n=PLAIN,a=PLAIN)),
 tx("advance_no_data", adv(n=DEST,a=DEST)),
 tx("authorize", authz(OTHER)),
 tx("authorize_old_authority", authz(AUTH)),
 tx("authorize_back", authz(AUTH,a=OTHER)),
 tx("withdraw_below_rent", wd(1000)),
 tx("fund_nonce", ix(u32(2)+u64(10000),acc(AUTH,True,True),acc(NONCE,writable=True))),
 tx("withdraw_part", wd(5000)),
 tx("withdraw_unsigned", wd(1000,a=AUTH,signer=False)),
 tx("withdraw_wrong_rent", wd(1000,sv=(RBH,RBH))),
 tx("withdraw_all_same_slot", adv(), wd(NONCE_RENT+5000)),
 tx("withdraw_all", wd(NONCE_RENT+5000)),
 tx("advance_after_close", adv()),
 tx("withdraw_uninit_too_much", wd(10**12,n=PLAIN,a=PLAIN)),
 tx("withdraw_uninit", wd(1000,n=PLAIN,a=PLAIN)),
 tx("init_small", init(n=SMALL)),
 tx("init_foreign", init(n=FOREIGN)),
 tx("init_readonly", init(w=False)),
 tx("upgrade_legacy", upg(LEGACY)),
 tx("upgrade_current", upg(LEGACY)),
 tx("upgrade_readonly", upg(PLAIN,w=False)),
 tx("upgrade_foreign", upg(FOREIGN)),
 tx("upgrade_uninitialized", upg(PLAIN)),
 tx("transfer_with_seed", tws(100000,"nonce-seed",SYS,SEEDED)),
 tx("transfer_with_seed_unsigned", tws(1,"nonce-seed",SYS,SEEDED,bsign=False)),
 tx("transfer_with_seed_mismatch", tws(1,"other-seed",SYS,SEEDED)),
 tx("transfer_with_seed_insufficient", tws(10**15,"nonce-seed",SYS,SEEDED)),
 tx("transfer_with_seed_long_seed", tws(1,"x"*33,SYS,SEEDED)),
 tx("transfer_with_seed_not_utf8", tws(1,b"\xff\xfe",SYS,SEEDED)),
 tx("transfer_with_seed_pda_owner", tws(1,"s",b58(bytes(11)+b"ProgramDerivedAddress"),SEEDED)),
 tx("transfer_with_seed_foreign", tws(1,"owned",P,SEEDED_P)),
 tx("transfer_with_seed_two_accounts", ix(u32(11)+u64(1)+s("nonce-seed")+pk(SYS),acc(SEEDED,writable=True),acc(AUTH,signer=True))),
 tx("create_with_seed_long_seed", ix(u32(3)+pk(AUTH)+s("y"*33)+u64(1)+u64(0)+pk(SYS),acc(AUTH,True,True),acc(DEST,writable=True))),
 tx("assign_with_seed_pda_owner", ix(u32(10)+pk(AUTH)+s("s")+pk(b58(bytes(11)+b"ProgramDerivedAddress")),acc(DEST,writable=True),acc(AUTH,signer=True))),
 tx("prefund_one_account", ix(u32(13)+u64(5000)+u64(10)+pk(P),acc(OTHER,True,True))),
 tx("prefund_in_use", ix(u32(13)+u64(0)+u64(10)+pk(P),acc(PLAIN,True,True))),
 tx("prefund_unsigned", ix(u32(13)+u64(0)+u64(10)+pk(P),acc(OTHER,writable=True))),
 tx("prefund_create", ix(u32(13)+u64(0)+u64(0)+pk(SYS),acc(DEST,True,True))),
 tx("prefund_with_lamports", ix(u32(13)+u64(5000)+u64(10)+pk(P),acc(DEST,True,True),acc(AUTH,True,True))),
 tx("tag_14", ix(u32(14),acc(AUTH,True,True))),
 tx("advance_short_data", ix("040000",acc(NONCE,writable=True),acc(RBH),acc(AUTH,signer=True))),
]
scn={"programs":[],"accounts":[
 {"pubkey":AUTH,"lamports":10**9},
 {"pubkey":OTHER,"lamports":10**9},
 {"pubkey":PLAIN,"lamports":2*NONCE_RENT,"data":"00"*80},
 {"pubkey":DEST,"lamports":10**6},
 {"pubkey":POOR,"lamports":NONCE_RENT-1,"data":"00"*80},
 {"pubkey":LEGACY,"lamports":NONCE_RENT,"data":legacy_data},
 {"pubkey":FOREIGN,"lamports":NONCE_RENT,"owner":P,"data":"00"*80},
 {"pubkey":SMALL,"lamports":NONCE_RENT,"data":"00"*8},
 {"pubkey":SEEDED,"lamports":10**7},
 {"pubkey":SEEDED_P,"lamports":10**7,"owner":P},
],"transactions":txs}
json.dump(scn,open(sys.argv[1],'w'),indent=1)
