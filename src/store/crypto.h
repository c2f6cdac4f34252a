/*
 * SHA-256 for pins and API keys, and a constant-time comparison, with
 * libcrypto loaded on first use. Most runs of mcpvet never hash (a scan
 * without a store, eval), yet linking libcrypto made every start map it
 * and resolve about 3,400 of its symbols, two thirds of the dynamic
 * loader's work. The library is opened with dlopen("libcrypto.so.3") the
 * first time a digest is asked for (thread-safe, once); when it cannot be
 * loaded the digest fails with an error instead of crashing, and callers
 * treat that as "no match" or "cannot pin".
 */
#ifndef MV_STORE_CRYPTO_H
#define MV_STORE_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>

/* The SHA-256 of data into out. MV_OK; MV_EUNSUPPORTED when libcrypto
 * cannot be loaded, MV_ENOMEM when it fails (out is then zeroed). */
int mv_crypto_sha256(unsigned char out[32], const void *data, size_t len);

/* Whether a and b (n bytes each) are equal, in time that depends only on
 * n: for comparing secrets. */
bool mv_crypto_equal(const void *a, const void *b, size_t n);

/* Overwrites n bytes at p with zeros in a way the compiler cannot drop as
 * a dead store: for secrets about to go out of scope. */
void mv_crypto_wipe(void *p, size_t n);

#endif
