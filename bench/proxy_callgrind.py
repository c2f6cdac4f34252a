#!/usr/bin/env python3
"""Instructions of the proxy's work per operation, counted by callgrind in
the `mcpvet proxy` process alone (the client and the server are not traced).
Instruction counts do not depend on the load of the machine, wall times do.

Usage:
  proxy_callgrind.py MCPVET list OUT      first tools/list of 100 tools in a
                                          fresh session and store (scan, store
                                          check, pins on first use)
  proxy_callgrind.py MCPVET steady OUT    the same list in a new session of a
                                          store that holds every tool already
  proxy_callgrind.py MCPVET call OUT SIZE N [KIND...]
                                          N tools/call round trips of SIZE
                                          bytes; prints (total with N - total
                                          with 0) / N, per text kind (prose by
                                          default; prose json code log base64 y,
                                          see proxy_bench.result_text; or
                                          BENCH_PROXY_KINDS)
Not part of `make bench` (valgrind is slow); docs/performance.md ("Proxy").
"""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import proxy_bench  # noqa: E402


def argv(mcpvet, cg, extra, tools, tmp=None):
    tmp = tmp or tempfile.mkdtemp()
    # One output per thread (OUT-01 the relay, OUT-02 the result scanner
    # when it ran): the relay's count is what delays the next message.
    vg = ["valgrind", "--tool=callgrind", "--separate-threads=yes",
          "--callgrind-out-file=" + cg] if cg else []
    return (vg + extra +
            [mcpvet, "proxy", "--store", os.path.join(tmp, "store.db"), "--log",
             os.path.join(tmp, "log"), "--name", "bench", "--", sys.executable,
             os.path.join(HERE, "proxy_bench.py"), "--serve", str(tools)])


def summary(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise SystemExit("no summary in " + path)


def threads(path):
    """{thread number: instructions} of a run with --separate-threads."""
    d = os.path.dirname(path) or "."
    base = os.path.basename(path)
    out = {}
    for name in os.listdir(d):
        if name.startswith(base + "-") and name[len(base) + 1:].isdigit():
            out[int(name[len(base) + 1:])] = summary(os.path.join(d, name))
    if not out:
        out[1] = summary(path)
    return out


def total(path):
    return sum(threads(path).values())


def relay(path):
    return threads(path)[1]


def one_list(mcpvet, cg, extra, tmp):
    c = proxy_bench.Client(argv(mcpvet, cg, extra, 100, tmp))
    c.init()
    r, _t = c.req("tools/list")
    if len(r["result"]["tools"]) != 100:
        raise SystemExit("bench: the proxy passed %d of 100 tools" % len(r["result"]["tools"]))
    c.close()


def first_list(mcpvet, out, steady):
    tmp = tempfile.mkdtemp()
    if steady:
        one_list(mcpvet, None, [], tmp)
    # One dump per handling of a server reply: part 4 is the tools/list
    # reply (1: start-up, 2: the initialize reply, 3: in between).
    one_list(mcpvet, out, ["--dump-before=handle_reply", "--dump-after=handle_reply"], tmp)
    print("%s tools/list of 100 tools: %d instructions (%s.4)" %
          ("steady-state" if steady else "first", total(out + ".4"), out))


def calls(mcpvet, out, size, n, kind="prose"):
    text = proxy_bench.result_text(kind, size)
    res, rel = {}, {}
    for k in (0, n):
        cg = "%s.%s.%d" % (out, kind, k)
        c = proxy_bench.Client(argv(mcpvet, cg, [], 1))
        c.init()
        c.req("tools/list")
        for _ in range(k):
            c.req("tools/call", {"name": "echo", "arguments": {"text": text}})
        c.close()
        res[k] = total(cg)
        rel[k] = relay(cg)
    print("tools/call of %d bytes (%s): %d instructions per round trip, %d of them on the "
          "relay's thread" % (size, kind, (res[n] - res[0]) // n, (rel[n] - rel[0]) // n))


def main():
    mcpvet, what, out = sys.argv[1], sys.argv[2], sys.argv[3]
    if what in ("list", "steady"):
        first_list(mcpvet, out, what == "steady")
    elif what == "call":
        kinds = sys.argv[6:] or os.environ.get("BENCH_PROXY_KINDS", "prose").split()
        for kind in kinds:
            calls(mcpvet, out, int(sys.argv[4]), int(sys.argv[5]), kind)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
