#!/usr/bin/env bash
# The offline guarantee, checked on the compiled engine: no object in the
# engine library may reference an I/O, process, network, environment, clock,
# randomness or locale symbol. Arguments: the engine object files.
set -u
if [ "$#" -eq 0 ]; then
    echo "symbol_guard: no engine objects given" >&2
    exit 2
fi
forbidden='^(open|open64|openat|openat64|creat|fopen|fopen64|freopen|fdopen|popen|pclose|fclose|'\
'read|write|pread|pwrite|readv|writev|fread|fwrite|fgets|fputs|fputc|fgetc|getc|putc|getchar|putchar|'\
'puts|printf|fprintf|vprintf|vfprintf|dprintf|scanf|fscanf|sscanf|perror|'\
'socket|connect|bind|listen|accept|accept4|send|sendto|sendmsg|recv|recvfrom|recvmsg|'\
'getaddrinfo|gethostbyname|'\
'execl|execle|execlp|execv|execve|execvp|execvpe|fexecve|system|fork|vfork|posix_spawn|posix_spawnp|'\
'getenv|secure_getenv|setenv|putenv|unsetenv|'\
'time|clock|clock_gettime|gettimeofday|ftime|localtime|localtime_r|gmtime|gmtime_r|mktime|'\
'rand|rand_r|random|srand|srandom|drand48|lrand48|getrandom|arc4random|'\
'setlocale|newlocale|uselocale|localeconv|nl_langinfo|'\
'mmap|mmap64|opendir|readdir|stat|fstat|lstat|unlink|mkdir|dlopen|ioctl|fcntl|'\
'stdin|stdout|stderr|__isoc99_sscanf|__isoc99_fscanf|__printf_chk|__fprintf_chk|__read_chk|'\
'__open_2|__open64_2|__openat_2|__getrandom_chk)$'
# zlib: the engine inflates gzip/zlib data found inside encoded blobs, which
# is pure computation. Only these entry points are allowed; any other
# symbol zlib exports (gzopen, gzread and the other file functions, ...) is
# forbidden in the engine.
zlib_allowed='^(inflateInit2_|inflate|inflateEnd)$'
zlib_lib=""
for dir in "$(pkg-config --variable=libdir zlib 2>/dev/null)" /usr/lib/x86_64-linux-gnu \
    /lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
    if [ -n "$dir" ] && [ -e "$dir/libz.so" ]; then
        zlib_lib="$dir/libz.so"
        break
    fi
done
if [ -z "$zlib_lib" ]; then
    echo "symbol_guard: libz.so not found (needed to tell zlib symbols apart)" >&2
    exit 2
fi
zlib_exports=$(nm -D --defined-only "$zlib_lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
if ! grep -qx 'gzopen' <<<"$zlib_exports" || ! grep -qx 'inflate' <<<"$zlib_exports"; then
    echo "symbol_guard: could not read the exports of $zlib_lib" >&2
    exit 2
fi
# Undefined symbols of an object that zlib exports but the engine may not use.
zlib_forbidden() {
    nm -u "$1" | awk '{print $NF}' | sed 's/@.*//' | sort -u |
        comm -12 - <(echo "$zlib_exports") | grep -vE "$zlib_allowed" || true
}
status=0
checked=0
for obj in "$@"; do
    if [ ! -f "$obj" ]; then
        echo "symbol_guard: missing object $obj" >&2
        status=1
        continue
    fi
    checked=$((checked + 1))
    # Strip symbol versions (read@GLIBC_2.2.5) before matching.
    bad=$(nm -u "$obj" | awk '{print $NF}' | sed 's/@.*//' | grep -E "$forbidden" || true)
    bad="$bad $(zlib_forbidden "$obj")"
    bad=$(echo $bad)
    if [ -n "$bad" ]; then
        echo "FORBIDDEN symbol(s) in $(basename "$obj"): $(echo $bad)"
        status=1
    fi
done
# The guard itself must be able to fail: a probe object that calls fopen.
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
printf '#include <stdio.h>\nvoid *probe(void);\nvoid *probe(void) { return fopen("x", "r"); }\n' >"$probe_dir/p.c"
cc -c -o "$probe_dir/p.o" "$probe_dir/p.c"
if ! nm -u "$probe_dir/p.o" | awk '{print $NF}' | sed 's/@.*//' | grep -qE "$forbidden"; then
    echo "symbol_guard: self-test failed: the probe calling fopen was not caught" >&2
    status=1
fi
# ... and the zlib rule must accept inflate and catch gzopen.
printf '#include <zlib.h>\nint probe(z_stream *z);\nint probe(z_stream *z) { return inflateInit2(z, 47) + inflate(z, 0) + inflateEnd(z); }\n' >"$probe_dir/z1.c"
printf '#include <zlib.h>\nvoid *probe(void);\nvoid *probe(void) { return gzopen("x", "r"); }\n' >"$probe_dir/z2.c"
cc -c -o "$probe_dir/z1.o" "$probe_dir/z1.c" && cc -c -o "$probe_dir/z2.o" "$probe_dir/z2.c"
if [ -n "$(zlib_forbidden "$probe_dir/z1.o")" ]; then
    echo "symbol_guard: self-test failed: inflate was rejected" >&2
    status=1
fi
if [ "$(zlib_forbidden "$probe_dir/z2.o")" != "gzopen" ]; then
    echo "symbol_guard: self-test failed: the probe calling gzopen was not caught" >&2
    status=1
fi
echo "symbol_guard: checked $checked engine objects"
if [ "$status" -eq 0 ]; then
    echo "1 passed, 0 failed"
else
    echo "0 passed, 1 failed"
fi
exit $status
