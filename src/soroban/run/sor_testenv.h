/*
 * sor_testenv.h — private to src/soroban/run: what a soroban-sdk test Env's
 * e.register(WASM, args) calls leave in its storage map when a contract
 * has a constructor (sor_testenv.c), for sor_run.c's sdk-test context.
 */
#ifndef SCP_SOR_TESTENV_H
#define SCP_SOR_TESTENV_H

#include "soroban/core/host_private.h"
#include "soroban/run/scp_scenario.h"

/* The test Env's storage map after every e.register of o's contracts (the
 * scenario's in its order, else the one file), when one of them exports
 * __constructor: each register's four entries (scp_host_deploy_test_env)
 * and what its constructor wrote or read, the constructors run in order on
 * a set-up host of options ho (recording auth, as the SDK registers) with
 * o's limits, outside every profile.  *map NULL and *n 0 when no contract
 * has a constructor.  Errors are one line naming the contract:
 * SCP_ERR_ARG (arguments not of the constructor's arity, or not
 * convertible), SCP_ERR_UNSUPPORTED (a constructor that requires
 * authorization or draws from the PRNG: what that leaves in the Env is
 * not modelled), the constructor's failure (SCP_ERR_INVALID), the
 * module's load error, SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_sor_testenv_constructed(const scp_soroban_opts *o, const scp_host_opts *ho,
                                           scp_sentry **map, size_t *n, scp_error *err);

#endif
