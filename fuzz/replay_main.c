/*
 * A main() for the fuzz targets without libFuzzer: each fuzz/fuzz_*.c is
 * also built by the normal build (any compiler) as fuzz_replay_<target>,
 * which runs the target's LLVMFuzzerTestOneInput once on every file it is
 * given, directories read in name order. ctest replays the seed corpus and
 * the regression inputs of tests/regress/<target>/ (the inputs of crashes
 * the fuzzer found) this way on every `make test`, so a fixed crash stays
 * fixed without clang. An invariant the target checks aborts the run.
 *
 * Usage: fuzz_replay_<target> FILE|DIR...   (a missing one is skipped;
 * the run fails when no input at all was replayed)
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional: targets that build state once define it. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path, size_t *count) {
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    size_t len = 0, cap = 0;
    if (f == NULL) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (;;) {
        if (len == cap) {
            size_t ncap = cap == 0 ? 4096 : cap * 2;
            uint8_t *n = realloc(data, ncap);
            if (n == NULL) {
                free(data);
                fclose(f);
                return -1;
            }
            data = n;
            cap = ncap;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    /* An exact-size copy, so reading past the input is caught by ASan. */
    uint8_t *exact = malloc(len > 0 ? len : 1);
    if (exact == NULL) {
        free(data);
        return -1;
    }
    memcpy(exact, data, len);
    free(data);
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    (*count)++;
    return 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *path, size_t *count) {
    DIR *d = opendir(path);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    if (d == NULL)
        return errno == ENOENT ? 0 : -1;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ., .. and hidden files such as .gitkeep */
        if (n == cap) {
            cap = cap == 0 ? 32 : cap * 2;
            char **nn = realloc(names, cap * sizeof *names);
            if (nn == NULL) {
                rc = -1;
                break;
            }
            names = nn;
        }
        size_t l = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (names[n] == NULL) {
            rc = -1;
            break;
        }
        snprintf(names[n], l, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && replay_file(names[i], count) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv) {
    size_t count = 0;
    if (LLVMFuzzerInitialize != NULL)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int rc;
        if (stat(argv[i], &st) != 0) {
            if (errno == ENOENT)
                continue; /* no regression inputs for this target yet */
            rc = -1;
        } else if (S_ISDIR(st.st_mode))
            rc = replay_dir(argv[i], &count);
        else
            rc = replay_file(argv[i], &count);
        if (rc != 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 2;
        }
    }
    printf("replayed %zu inputs\n", count);
    return count > 0 ? 0 : 1;
}
