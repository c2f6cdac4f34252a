/*
 * The engine's byte hash for its in-memory tables (the field memo and the
 * normalizer's memo): eight bytes per step, so hashing a long field costs
 * little beside the checks. It is not a keyed or cryptographic hash: an
 * attacker who reads this file can build colliding texts, so every table
 * that uses it must compare the bytes before it trusts a match.
 */
#ifndef MCPVET_ENGINE_HASH_H
#define MCPVET_ENGINE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One eight-byte step (exposed so tests can build collisions on purpose). */
static inline uint64_t mv_hash_step(uint64_t h, uint64_t word) {
    h = (h ^ word) * 0xFF51AFD7ED558CCDu;
    return h ^ (h >> 32);
}

/* Hash of s[0, len) from the state `h`; callers mix the length and their
 * own salt into `h` first. */
static inline uint64_t mv_hash_bytes(uint64_t h, const char *s, size_t len) {
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = mv_hash_step(h, w);
    }
    if (i < len) {
        uint64_t t = 0;
        memcpy(&t, s + i, len - i);
        h = (h ^ t) * 0xC4CEB9FE1A85EC53u;
    }
    return h ^ (h >> 29);
}

#endif
