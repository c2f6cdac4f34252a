#!/usr/bin/env python3
"""Instructions per unchanged tools/list in one `mcpvet proxy` session.

Usage: proxy_list_callgrind.py MCPVET N OUT
Runs one unprofiled session (the store then holds every tool), then two
sessions under callgrind with 1 and with N lists of 100 tools
(OUT.1, OUT.N); (total of N - total of 1) / (N - 1) is one unchanged list
in a session. Not part of `make bench` (valgrind is slow).
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import proxy_bench  # noqa: E402


def session(mcpvet, store, log, cg, count):
    argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg] if cg else []
    argv += [mcpvet, "proxy", "--store", store, "--log", log, "--name", "bench", "--",
             sys.executable, os.path.join(HERE, "proxy_bench.py"), "--serve", "100"]
    c = proxy_bench.Client(argv)
    c.init()
    for _ in range(count):
        r, _t = c.req("tools/list")
        if len(r["result"]["tools"]) != 100:
            raise SystemExit("bench: the proxy passed %d of 100 tools" % len(r["result"]["tools"]))
    c.close()


def total(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise SystemExit("no summary in " + path)


def main():
    mcpvet, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    tmp = tempfile.mkdtemp()
    store, log = os.path.join(tmp, "store.db"), os.path.join(tmp, "log")
    session(mcpvet, store, log, None, 1)
    session(mcpvet, store, log, out + ".1", 1)
    session(mcpvet, store, log, "%s.%d" % (out, n), n)
    one, many = total(out + ".1"), total("%s.%d" % (out, n))
    print("session with 1 list: %d\nsession with %d lists: %d\nper unchanged list: %d" %
          (one, n, many, (many - one) // (n - 1)))


if __name__ == "__main__":
    main()
