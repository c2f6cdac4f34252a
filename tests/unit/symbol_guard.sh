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
echo "symbol_guard: checked $checked engine objects"
if [ "$status" -eq 0 ]; then
    echo "1 passed, 0 failed"
else
    echo "0 passed, 1 failed"
fi
exit $status
