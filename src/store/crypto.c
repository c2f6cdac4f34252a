/*
 * SHA-256 through libcrypto loaded on first use, and a constant-time
 * comparison (see crypto.h for why the library is not linked).
 */
#include "store/crypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

#include <openssl/evp.h>

#include "mcpvet/common.h"
#include "platform/dl.h"

static struct {
    __typeof__(EVP_MD_fetch) *md_fetch;
    __typeof__(EVP_Digest) *digest;
    EVP_MD *sha256; /* fetched once: an implicit fetch per call costs more
                     * than hashing a typical definition */
} lib;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void load(void) {
    /* RTLD_LOCAL: nothing else in the process sees its symbols. The
     * handle is kept for the life of the process, like a linked library. */
    void *h = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (h == NULL)
        return;
    if (mv_dl_sym(h, "EVP_MD_fetch", &lib.md_fetch, sizeof lib.md_fetch) != 0 ||
        mv_dl_sym(h, "EVP_Digest", &lib.digest, sizeof lib.digest) != 0)
        return;
    lib.sha256 = lib.md_fetch(NULL, "SHA256", NULL);
}

int mv_crypto_sha256(unsigned char out[32], const void *data, size_t len) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    pthread_once(&lib_once, load);
    if (lib.sha256 == NULL) {
        memset(out, 0, 32);
        return MV_EUNSUPPORTED;
    }
    if (lib.digest(data, len, md, &n, lib.sha256, NULL) != 1 || n != 32) {
        memset(out, 0, 32);
        return MV_ENOMEM;
    }
    memcpy(out, md, 32);
    return MV_OK;
}

bool mv_crypto_equal(const void *a, const void *b, size_t n) {
    /* volatile keeps the compiler from ending the loop at the first
     * difference. */
    const volatile unsigned char *x = a, *y = b;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(x[i] ^ y[i]);
    return diff == 0;
}

void mv_crypto_wipe(void *p, size_t n) {
    volatile unsigned char *x = p;
    for (size_t i = 0; i < n; i++)
        x[i] = 0;
}
