#!/usr/bin/env python3
"""Verdict diff between two mcpvet binaries over every corpus file and the
real registries.

    scripts/verdict_diff.py OLD_BIN NEW_BIN [SOURCE_DIR] [-v] [--ids]

Each file of corpus/ is evaluated per entry by both binaries. Files under
holdout/ and those listed in corpus/held_out.txt measure whether rules
generalize: for them only counts per file are printed, never ids or text,
so a rule writer's gate cannot steer a rule toward them (--ids, for the
lead, prints their ids too); the real registries are evaluated
as one registry each (npm, its tools/prompts/resources snapshot, and the
docker registry from $MCPVET_SHARED, or a shared/ folder beside the
checkout or one level further up, as for a worktree; it says when none is
found). Prints a WORSE line
for every honest entry or real tool that became more flagged and every
attack that became less flagged, then the counts; -v also prints the
improvements. Exit status 0 whatever it finds: it is a report, not a gate.
"""
import glob
import json
import os
import subprocess
import sys

RANK = {'clean': 0, 'review': 1, 'quarantine': 2}


def verdicts(binary, path, whole):
    """{entry id: (verdict, label)} of one file under one binary."""
    if path.endswith('.snapshot.json'):
        out = subprocess.run([binary, 'scan', '--tools', path, '--format', 'json', '--jobs', '2',
                              '--no-store'], capture_output=True, check=False).stdout
        return {'%s/%s/%s#%s' % (t['server'], t['kind'], t['name'], t['index']):
                (t['verdict'], 'benign') for t in json.loads(out)['tools']}
    cmd = [binary, 'eval', '--per-entry', '--format', 'json', '--jobs', '2', '--corpus', path]
    if whole:
        cmd.append('--whole-registry')
    out = subprocess.run(cmd, capture_output=True, check=False).stdout
    return {e['id']: (e['verdict'], e.get('label', 'benign')) for e in json.loads(out)['entries']}


def held_out(src):
    """Paths (relative to src) whose entries are reported as counts only."""
    listed = set()
    try:
        with open(os.path.join(src, 'corpus', 'held_out.txt'), encoding='utf-8') as f:
            for line in f:
                line = line.split('#', 1)[0].strip()
                if line:
                    listed.add(line)
    except OSError:
        pass
    return lambda name: name.startswith('corpus/holdout/') or name in listed


def main():
    args = [a for a in sys.argv[1:] if a not in ('-v', '--ids')]
    if len(args) < 2:
        sys.exit(__doc__)
    old, new = args[0], args[1]
    src = os.path.abspath(args[2] if len(args) > 2 else os.getcwd())
    files = [(f, False) for f in sorted(glob.glob(os.path.join(src, 'corpus', '**', '*.json'),
                                                  recursive=True))
             if '/real/' not in f]
    reals = [os.path.join(src, 'corpus/real/npm_servers.json'),
             os.path.join(src, 'corpus/real/npm_servers.snapshot.json')]
    # A worktree under /work/wt has no shared/ beside it: look further up
    # rather than silently leave the docker registry out.
    shared = [os.environ.get('MCPVET_SHARED', ''), os.path.join(src, '..', 'shared'),
              os.path.join(src, '..', '..', 'shared')]
    docker = [os.path.join(d, 'corpora/real/docker_mcp_registry.json') for d in shared if d]
    docker = [f for f in docker if os.path.exists(f)]
    if docker:
        reals.append(docker[0])
    else:
        print('note: docker registry not found (set MCPVET_SHARED to the shared folder)')
    files += [(f, True) for f in reals if os.path.exists(f)]
    hidden = held_out(src)
    show_ids = '--ids' in sys.argv
    worse = better = 0
    for path, whole in files:
        try:
            a, b = verdicts(old, path, whole), verdicts(new, path, whole)
        except (ValueError, KeyError) as ex:
            print('skip %s: %s' % (os.path.relpath(path, src), ex))
            continue
        name = os.path.relpath(path, src)
        quiet = hidden(name) and not show_ids
        file_worse = file_better = 0
        for key in sorted(a):
            if key not in b or a[key][0] == b[key][0]:
                continue
            (va, label), (vb, _) = a[key], b[key]
            if label == 'malicious':
                bad = RANK[vb] < RANK[va]
            else:
                bad = RANK[vb] > RANK[va]
            if bad:
                file_worse += 1
                if not quiet:
                    print('WORSE %s %s [%s] %s -> %s' % (name, key, label, va, vb))
            else:
                file_better += 1
                if '-v' in sys.argv and not quiet:
                    print('better %s %s [%s] %s -> %s' % (name, key, label, va, vb))
        if quiet and (file_worse or file_better):
            print('held out %s: worse %d better %d (ids hidden; --ids shows them)'
                  % (name, file_worse, file_better))
        worse += file_worse
        better += file_better
    print('worse %d better %d' % (worse, better))


if __name__ == '__main__':
    main()
