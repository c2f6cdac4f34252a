#!/usr/bin/env python3
"""Score corpus files that carry "expected" (quarantine|review) per entry.

Runs `mcpvet eval --per-entry --format json` over the given corpus files and
joins each entry's verdict with its "expected" label: recall at any tier,
recall at quarantine for expected=quarantine, and hard-negative false
positives (any tier, quarantine), per category or resembled class.

Usage: scripts/redteam_score.py MCPVET FILE [FILE...] [--list]
"""
import json
import subprocess
import sys
from collections import defaultdict


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show = "--list" in sys.argv
    mcpvet, files = args[0], args[1:]
    expected = {}
    for f in files:
        for e in json.load(open(f, encoding="utf-8"))["entries"]:
            expected[e["id"]] = e.get("expected")
    cmd = [mcpvet, "eval", "--per-entry", "--format", "json", "--jobs", "2"]
    for f in files:
        cmd += ["--corpus", f]
    out = json.loads(subprocess.run(cmd, capture_output=True, check=True).stdout)
    rows = defaultdict(lambda: [0, 0, 0, 0])  # n, any, nq (expected q), q
    hn = defaultdict(lambda: [0, 0, 0])  # n, fp any, fp q
    misses = []
    for e in out["entries"]:
        v = e["verdict"]
        if e["label"] == "malicious":
            r = rows[e["category"]]
            r[0] += 1
            r[1] += v != "clean"
            if expected.get(e["id"]) == "quarantine":
                r[2] += 1
                r[3] += v == "quarantine"
                if v != "quarantine":
                    misses.append((e["id"], v))
            elif v == "clean":
                misses.append((e["id"], v))
        elif e["category"] == "hard_negative":
            h = hn[e["resembles"] or "-"]
            h[0] += 1
            h[1] += v != "clean"
            h[2] += v == "quarantine"
            if v != "clean":
                misses.append((e["id"], "FP " + v))
    tot = [0, 0, 0, 0]
    print("%-22s %5s %7s %9s %9s" % ("category", "n", "any", "q-expect", "q-recall"))
    for k in sorted(rows):
        r = rows[k]
        tot = [a + b for a, b in zip(tot, r)]
        print("%-22s %5d %7.3f %9d %9s" % (k, r[0], r[1] / r[0], r[2],
                                          "%.3f" % (r[3] / r[2]) if r[2] else "-"))
    print("%-22s %5d %7.3f %9d %9.3f" % ("(all)", tot[0], tot[1] / tot[0], tot[2],
                                        tot[3] / max(tot[2], 1)))
    print("%-22s %5s %7s %9s" % ("hard negatives", "n", "fp any", "fp q"))
    ht = [0, 0, 0]
    for k in sorted(hn):
        h = hn[k]
        ht = [a + b for a, b in zip(ht, h)]
        print("%-22s %5d %7d %9d" % (k, h[0], h[1], h[2]))
    print("%-22s %5d %7d %9d" % ("(all)", ht[0], ht[1], ht[2]))
    if show:
        for m in misses:
            print("  ", *m)


if __name__ == "__main__":
    main()
