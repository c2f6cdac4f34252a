#!/usr/bin/env python3
"""Train the learned wording check (wording.learned) and write its table.

The check scores windows of 16 words of each field's normalized view with a
logistic model of unigrams and bigrams. This script re-creates the model
from the project's own labeled corpus, deterministically (fixed seeds, fixed
order, no clock), and writes src/engine/checks/wording_table.inc.

  scripts/train_wording.py BUILD_DIR [--out FILE]
  scripts/train_wording.py BUILD_DIR --verify CORPUS.json...
  scripts/train_wording.py BUILD_DIR --out FILE [--exclude GLOB]... [--features +cls,...]
      [--eval CORPUS.json]...   (experiments: authors left out, features switched)

Training data (see docs/detection.md, "The learned wording check"):
  - attacks: every malicious entry of corpus/*.json and corpus/*/*.json,
    except corpus/holdout/ (kept as never-seen measurement sets);
  - honest: every benign entry of the same files, plus the npm-harvested
    real tools (corpus/real/npm_servers.json) of the servers whose name
    hashes to the training half; the other half calibrates the threshold.
../shared/corpora is never read: it measures false positives only.

The features come from BUILD_DIR/mcpvet_wording_dump, which prints each
field's normalized view exactly as the engine hands it to the checks, and
the split into words below is the one the check implements in C.
"""
import argparse
import fnmatch
import glob
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata
import zlib

WINDOW = 16          # words per window
STRIDE = 4           # a new window every four words
MAX_WORD = 40        # longer words (blobs, hashes) are skipped
SCALE = 1000         # weights are stored as int16 thousandths
L2 = 1e-4
EPOCHS = 5
RATE = 0.2
MIN_WEIGHT = 0.02    # smaller weights are dropped from the table
MIN_TOOLS = 3        # a feature seen in fewer training tools is not learned
CALIBRATE_Q = 0.999  # threshold: this quantile of the calibration half
# Round 21 experiment (tail): the quantile read off an exponential tail
# fitted to the top CALIBRATE_TAIL of the calibration tools (about 57 of
# 3,771) instead of off the one tool at that rank.
CALIBRATE_TAIL = 0.015
# Round 21 experiment (average): the weights are the mean of the snapshots
# after each epoch from this one on (0-based).
AVERAGE_FROM = 2
SEEDS = (1, 2, 3)  # bag: the data orders whose weights are averaged
TABLE_BITS = 17
CLASS_BITS = 10     # the word-class table (round 18)

# Scripts written without spaces: runs of them are split into overlapping
# pairs of characters (the check's nospace(), the same ranges).
NOSPACE = ((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x3040, 0x30FF),
           (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
           (0x20000, 0x2FFFF))


def nospace(cp):
    return any(lo <= cp <= hi for lo, hi in NOSPACE)


def is_word(ch):
    cp = ord(ch)
    if cp < 0x80:
        return ch.isalnum()
    return unicodedata.category(ch)[0] in 'LMN'


def words(text):
    """The check's split of a normalized field into words."""
    out, cur, run = [], [], []

    def end_word():
        if cur:
            w = ''.join(cur)
            if len(w.encode()) <= MAX_WORD:
                out.append(w)
            cur.clear()

    def end_run():
        if len(run) == 1:
            out.append(run[0])
        for a, b in zip(run, run[1:]):
            out.append(a + b)
        run.clear()

    for ch in text:
        if nospace(ord(ch)):
            end_word()
            run.append(ch)
        elif is_word(ch):
            end_run()
            cur.append(ch)
        else:
            end_word()
            end_run()
    end_word()
    end_run()
    return out


def fnv64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


MASK64 = 0xFFFFFFFFFFFFFFFF
FNV_PRIME = 0x100000001b3


def word_hash(w):
    return fnv64(b'w:' + w.encode())


def pair_hash(ha, hb):
    """A bigram's feature: the two words' hashes mixed (as the check does)."""
    h = ((ha ^ 0x62) * FNV_PRIME) & MASK64
    h = ((h ^ (hb & 0xFFFFFFFF)) * FNV_PRIME) & MASK64
    return ((h ^ (hb >> 32)) * FNV_PRIME) & MASK64


# Round 18 experiment switches, all off in the shipped model (the C check
# implements the defaults only; docs/detection.md "Round 18: learn18" has
# what each measured): cls, word classes of scripts/wording_classes.txt
# (each class present in a window, and each pair of them); wc, a word next
# to a class; skip, pairs of words two apart; server_calib, the threshold
# counted over calibration servers instead of tools.
# Round 21 (docs/detection.md "Round 21: learn21"): bag, the weights
# averaged over SEEDS data orders, is on since session 19 (a retrain that
# adds data moves about 60% fewer verdicts); the experiments tail (the
# threshold from a fitted tail) and average (the weights averaged over the
# last epochs) are off.
FEATURES = {'cls': False, 'wc': False, 'skip': False, 'server_calib': False,
            'tail': False, 'average': False, 'bag': True}
# word hash -> class number (1..), from scripts/wording_classes.txt
CLASSES = {}
CLASS_NAMES = []


def class_hash(c):
    """A class's feature: FNV-1a of "c:" and the class number's byte."""
    return fnv64(b'c:' + bytes([c]))


def window_features(hs):
    """The features of a window of word hashes: every word and every pair
    of neighbours, each counted once however often it repeats (counting
    repeats lets long lists of names add up like an order). Round 18: each
    word class present in the window, and each pair of classes present."""
    f = set(hs) | set(pair_hash(a, b) for a, b in zip(hs, hs[1:]))
    if FEATURES['skip']:
        f |= set(pair_hash(b, a) for a, b in zip(hs, hs[2:]))
    if FEATURES['cls'] or FEATURES['wc']:
        cl = [CLASSES.get(h, 0) for h in hs]
        if FEATURES['cls']:
            present = sorted(set(c for c in cl if c))
            f |= set(class_hash(c) for c in present)
            f |= set(pair_hash(class_hash(a), class_hash(b))
                     for i, a in enumerate(present) for b in present[i + 1:])
        if FEATURES['wc']:
            for i in range(len(hs) - 1):
                if cl[i]:
                    f.add(pair_hash(class_hash(cl[i]) ^ 1, hs[i + 1]))
                if cl[i + 1]:
                    f.add(pair_hash(hs[i], class_hash(cl[i + 1]) ^ 1))
    return f


def has_letter(text):
    """A field of numbers only carries no wording (the C check skips it)."""
    return any(ord(ch) >= 0x80 or 'a' <= ch.lower() <= 'z' for ch in text)


def windows(fields):
    """Feature sets of every window of every field of one tool."""
    out = []
    for _kind, text in fields:
        if not has_letter(text):
            continue
        hs = [word_hash(w) for w in words(text)]
        if not hs:
            continue
        for start in range(0, max(1, len(hs) - WINDOW + STRIDE), STRIDE):
            out.append(window_features(hs[start:start + WINDOW]))
    return out or [set()]


def dump(build, files):
    tool = os.path.join(build, 'mcpvet_wording_dump')
    res = subprocess.run([tool] + files, capture_output=True, check=True)
    return [json.loads(line) for line in res.stdout.decode().splitlines()]


def train(samples, seed=1):
    w, g2 = {}, {}
    b, gb = 0.0, 1e-8
    npos = sum(y for _, y in samples)
    nneg = len(samples) - npos
    wpos, wneg = len(samples) / (2 * npos), len(samples) / (2 * nneg)
    order = list(range(len(samples)))
    rng = random.Random(seed)
    acc, accb, nacc = {}, 0.0, 0
    for epoch in range(EPOCHS):
        rng.shuffle(order)
        for i in order:
            feats, y = samples[i]
            z = b + sum(w.get(k, 0.0) for k in feats)
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            g = (p - y) * (wpos if y else wneg)
            for k in feats:
                wk = w.get(k, 0.0)
                gk = g + L2 * wk
                g2[k] = g2.get(k, 0.0) + gk * gk
                w[k] = wk - RATE * gk / math.sqrt(g2[k])
            gb += g * g
            b -= RATE * g / math.sqrt(gb)
        if FEATURES['average'] and epoch >= AVERAGE_FROM:
            for k, v in w.items():
                acc[k] = acc.get(k, 0.0) + v
            accb += b
            nacc += 1
    if nacc:
        return {k: v / nacc for k, v in acc.items()}, accb / nacc
    return w, b


def quantized(model):
    w, b = model
    table = {k: max(-32767, min(32767, round(v * SCALE))) for k, v in w.items()
             if abs(v) >= MIN_WEIGHT}
    return table, round(b * SCALE)


def tool_score(qmodel, wins):
    table, bias = qmodel
    return max(bias + sum(table.get(k, 0) for k in f) for f in wins)


def fit(entries):
    """Two rounds: all windows, then only each attack's two most
    attack-like windows (the honest sentences around an attack would
    otherwise teach the model that plain documentation is an attack)."""
    docs = [(windows(e['fields']), 1 if e['label'] == 'malicious' else 0) for e in entries]
    seen = {}
    for wins, _ in docs:
        for k in set().union(*wins):
            seen[k] = seen.get(k, 0) + 1
    docs = [([frozenset(k for k in f if seen[k] >= MIN_TOOLS) for f in wins], y)
            for wins, y in docs]
    models = []
    for seed in SEEDS if FEATURES['bag'] else (1,):
        model = train([(f, y) for wins, y in docs for f in wins], seed)
        samples = []
        for wins, y in docs:
            if y:
                w, b = model
                wins = sorted(wins, key=lambda f: -sum(w.get(k, 0.0) for k in f))[:2]
            samples += [(f, y) for f in wins]
        models.append(train(samples, seed))
    if len(models) == 1:
        return quantized(models[0])
    # bag: the weights averaged over data orders (less variance, so a
    # retrain moves fewer verdicts).
    keys = set().union(*(w for w, _ in models))
    return quantized(({k: sum(w.get(k, 0.0) for w, _ in models) / len(models) for k in keys},
                      sum(b for _, b in models) / len(models)))


def load_classes(build, root):
    """Read scripts/wording_classes.txt and normalize each word with the
    engine (a word the normalizer splits in two is skipped)."""
    names, words_of = [], []
    for line in open(os.path.join(root, 'scripts/wording_classes.txt'), encoding='utf-8'):
        line = line.split('#', 1)[0].strip()
        m = re.match(r'\[class (\w+)\]$', line)
        if m:
            names.append(m.group(1))
            words_of.append([])
        elif line:
            words_of[-1] += line.split()
    corpus = {'description': 'wording classes', 'entries': [
        {'id': '%d-%d' % (c, i), 'label': 'benign', 'category': 'benign', 'server': 'classes',
         'tool': {'name': 'w', 'description': w}}
        for c, ws in enumerate(words_of) for i, w in enumerate(ws)]}
    fd, tmp = tempfile.mkstemp(suffix='.json')
    with os.fdopen(fd, 'w', encoding='utf-8') as f:
        json.dump(corpus, f, ensure_ascii=False)
    table = {}
    for e in dump(build, [tmp]):
        c = int(e['id'].split('-')[0]) + 1
        for kind, text in e['fields']:
            ws = words(text) if kind == 'description' else []
            if len(ws) == 1:
                table.setdefault(word_hash(ws[0]), c)  # first class wins
    os.remove(tmp)
    CLASSES.clear()
    CLASSES.update(table)
    CLASS_NAMES[:] = names


def npm_half(entry):
    return zlib.crc32(entry['server'].encode()) % 2


def server_maxima(qmodel, calib):
    """Each calibration server's highest tool score, highest first."""
    best = {}
    for e in calib:
        s = tool_score(qmodel, windows(e['fields']))
        best[e['server']] = max(best.get(e['server'], s), s)
    return sorted(best.values(), reverse=True)


def tail_threshold(scores):
    """Round 21: the CALIBRATE_Q quantile of an exponential tail fitted to
    the top CALIBRATE_TAIL of the scores: over the (m+1)-th highest score u,
    the m excesses' mean is the tail's scale (its maximum-likelihood fit),
    and the threshold is where m * exp(-(t - u) / scale) tools are expected
    over it, the (1 - CALIBRATE_Q) * n that the quantile allows."""
    top = sorted(scores, reverse=True)
    m = max(8, int(round(CALIBRATE_TAIL * len(top))))
    u = top[m]
    scale = sum(x - u for x in top[:m]) / m
    return int(math.ceil(u + scale * math.log(m / ((1 - CALIBRATE_Q) * len(top)))))


def calibrate(qmodel, calib):
    """The threshold: the CALIBRATE_Q quantile of the calibration half's
    tool scores, plus one. With server_calib (an experiment), each server
    counts once, by its highest tool, and the threshold lies just over the
    (k+1)-th server, k = 0.1% of the calibration tools."""
    if FEATURES['server_calib']:
        top = server_maxima(qmodel, calib)
        k = int((1 - CALIBRATE_Q) * len(calib))
        return top[k] + 1, k, len(top)
    scores = sorted(tool_score(qmodel, windows(e['fields'])) for e in calib)
    if FEATURES['tail']:
        threshold = tail_threshold(scores)
    else:
        threshold = scores[int(CALIBRATE_Q * len(scores))] + 1
    return threshold, sum(s >= threshold for s in scores), len(scores)


def evaluate(qmodel, threshold, entries):
    """Print the model's own flags on entries, per label and category."""
    rows = {}
    for e in entries:
        key = e['category'] if e['label'] == 'malicious' else 'honest (%s)' % e['label']
        n, k = rows.get(key, (0, 0))
        rows[key] = (n + 1, k + (tool_score(qmodel, windows(e['fields'])) >= threshold))
    for key in sorted(rows):
        n, k = rows[key]
        print('  %-28s %4d flagged of %4d  %.3f' % (key, k, n, k / n))
    mal = [(n, k) for key, (n, k) in rows.items() if not key.startswith('honest')]
    print('  %-28s %4d flagged of %4d  %.3f' % ('attacks', sum(k for _, k in mal),
                                                 sum(n for n, _ in mal),
                                                 sum(k for _, k in mal) / max(1, sum(n for n, _ in mal))))


def write_table(path, qmodel, threshold, n_train):
    table, bias = qmodel
    size = 1 << TABLE_BITS
    assert len(table) < size // 2, 'table too full'
    tags = [0] * size
    weights = [0] * size
    for k in sorted(table):
        i = k & (size - 1)
        while tags[i]:
            i = (i + 1) & (size - 1)
        tags[i] = (k >> 32) | 1
        weights[i] = table[k]
    with open(path, 'w', encoding='ascii') as out:
        out.write('/* Generated by scripts/train_wording.py from %d labeled tools; '
                  'do not edit. */\n' % n_train)
        out.write('#define WORDING_TABLE_BITS %d\n' % TABLE_BITS)
        out.write('#define WORDING_BIAS %d\n' % bias)
        out.write('#define WORDING_THRESHOLD %d\n' % threshold)
        out.write('static const uint32_t wording_tags[%d] = {\n' % size)
        for i in range(0, size, 8):
            out.write(','.join('%du' % t for t in tags[i:i + 8]) + ',\n')
        out.write('};\nstatic const int16_t wording_weights[%d] = {\n' % size)
        for i in range(0, size, 16):
            out.write(','.join(str(x) for x in weights[i:i + 16]) + ',\n')
        out.write('};\n')
        if not (FEATURES['cls'] or FEATURES['wc']):
            return
        # Round 18 experiment: the word classes (scripts/wording_classes.txt),
        # by the normalized word's hash.
        csize = 1 << CLASS_BITS
        assert len(CLASSES) < csize // 2, 'class table too full'
        ctags, cls = [0] * csize, [0] * csize
        for k in sorted(CLASSES):
            i = k & (csize - 1)
            while ctags[i]:
                i = (i + 1) & (csize - 1)
            ctags[i] = (k >> 32) | 1
            cls[i] = CLASSES[k]
        out.write('#define WORDING_CLASSES %d /* %s */\n' % (len(CLASS_NAMES), ' '.join(CLASS_NAMES)))
        out.write('#define WORDING_CLASS_BITS %d\n' % CLASS_BITS)
        out.write('static const uint32_t wording_class_tags[%d] = {\n' % csize)
        for i in range(0, csize, 8):
            out.write(','.join('%du' % t for t in ctags[i:i + 8]) + ',\n')
        out.write('};\nstatic const uint8_t wording_class_of[%d] = {\n' % csize)
        for i in range(0, csize, 32):
            out.write(','.join(str(x) for x in cls[i:i + 32]) + ',\n')
        out.write('};\n')


def read_table(path):
    """The shipped table as (weights by tag and slot, bias, threshold)."""
    src = open(path, encoding='ascii').read()
    def define(name):
        return int(re.search(r'#define %s (-?\d+)' % name, src).group(1))
    def array(name):
        body = re.search(r'%s\[\d+\] = \{(.*?)\};' % name, src, re.S).group(1)
        return [int(x.rstrip('u')) for x in body.replace('\n', '').split(',') if x.strip()]
    return array('wording_tags'), array('wording_weights'), define('WORDING_BIAS'), \
        define('WORDING_THRESHOLD')


def table_score(table, wins):
    tags, weights, bias, _ = table
    mask = len(tags) - 1

    def weight(h):
        i, tag = h & mask, (h >> 32) | 1
        while tags[i]:
            if tags[i] == tag:
                return weights[i]
            i = (i + 1) & mask
        return 0
    return max(bias + sum(weight(k) for k in f) for f in wins)


# The check's lower bar beside a destructive fact, under the threshold
# (WORDING_DESTROY_BAR in src/engine/checks/wording_learned.c).
DESTROY_BAR_BELOW = 1300


def verify(build, table_path, files):
    """Score FILES with the shipped table here and with the check in C
    (every other check disabled): the two must flag the same tools."""
    table = read_table(table_path)
    mcpvet = os.path.join(build, 'mcpvet')
    probe = json.loads(subprocess.run([mcpvet, 'eval', '--format', 'json', '--corpus', files[0]],
                                      capture_output=True, check=True).stdout)
    cmd = [mcpvet, 'eval', '--per-entry', '--format', 'json', '--jobs', '2']
    for check in probe['checks']:
        if check != 'wording.learned':
            cmd += ['--disable-check', check]
    for f in files:
        cmd += ['--corpus', f]
    verdicts = {e['id']: e['verdict'] for e in
                json.loads(subprocess.run(cmd, capture_output=True, check=True).stdout)['entries']}
    bad = 0
    entries = dump(build, files)
    for e in entries:
        score = table_score(table, windows(e['fields']))
        flagged = score >= table[3]
        # Round 17: under the threshold but over the lower bar, the check
        # also flags a tool with a destructive command or value fixed in
        # its definition (wording_learned.c, WORDING_DESTROY_BAR); the
        # trainer does not read those facts, so a flag there is not a
        # disagreement.
        if not flagged and score >= table[3] - DESTROY_BAR_BELOW and \
                verdicts[e['id']] != 'clean':
            continue
        if flagged != (verdicts[e['id']] != 'clean'):
            bad += 1
            print('mismatch: %s: trainer %s, check %s' % (e['id'], flagged, verdicts[e['id']]))
    print('%d entries, %d flagged, %d mismatches' %
          (len(entries), sum(v != 'clean' for v in verdicts.values()), bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build', help='the build folder (holds mcpvet and mcpvet_wording_dump)')
    ap.add_argument('--out', help='the table to write, or to verify (default: the shipped one, '
                    'src/engine/checks/wording_table.inc)')
    ap.add_argument('--verify', nargs='+', metavar='CORPUS',
                    help='do not train: check that the C check and this script agree on CORPUS')
    ap.add_argument('--exclude', action='append', default=[], metavar='GLOB',
                    help='leave the corpus files matching GLOB out of the training '
                    '(to measure authors the model never saw); repeatable')
    ap.add_argument('--features', default='',
                    help='experiments only: comma list of feature switches, +name or -name '
                    '(%s)' % ', '.join(FEATURES))
    ap.add_argument('--eval', action='append', metavar='CORPUS',
                    help='after training, print how many entries of CORPUS the model alone flags; '
                    'repeatable')
    opts = ap.parse_args()
    for sw in filter(None, opts.features.split(',')):
        FEATURES[sw[1:]] = sw[0] == '+'
    build = os.path.abspath(opts.build)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    out = os.path.abspath(opts.out or os.path.join(root, 'src/engine/checks/wording_table.inc'))
    evals = [os.path.abspath(f) for f in opts.eval or []]
    if (opts.features or opts.exclude) and not opts.out and not opts.verify:
        ap.error('--features and --exclude make a table that is not the shipped one: '
                 'write it with --out')
    os.chdir(root)
    if FEATURES['cls'] or FEATURES['wc']:
        load_classes(build, root)
    if opts.verify:
        sys.exit(verify(build, out, [os.path.abspath(f) for f in opts.verify]))
    files = sorted(p for p in glob.glob('corpus/*.json') + glob.glob('corpus/*/*.json')
                   if not p.startswith('corpus/holdout/') and not p.startswith('corpus/real/')
                   and not any(fnmatch.fnmatch(p, g) for g in opts.exclude))
    entries = dump(build, files)
    npm = dump(build, ['corpus/real/npm_servers.json'])
    entries += [e for e in npm if npm_half(e) == 0]
    calib = [e for e in npm if npm_half(e) == 1]
    qmodel = fit(entries)
    threshold, flagged, nserv = calibrate(qmodel, calib)
    write_table(out, qmodel, threshold, len(entries))
    unit = 'calibration servers' if FEATURES['server_calib'] else 'calibration tools'
    print('trained on %d tools (%d attacks), %d weights; threshold %d flags %d of %d %s' %
          (len(entries), sum(e['label'] == 'malicious' for e in entries), len(qmodel[0]),
           threshold, flagged, nserv, unit))
    if evals:
        ev = dump(build, evals)
        print('at the threshold:')
        evaluate(qmodel, threshold, ev)
        # the same model at fixed numbers of calibration servers flagged,
        # to compare features without the threshold's own jumps
        top = server_maxima(qmodel, calib)
        for k in (3, 6, 10):
            print('at %d calibration servers flagged (threshold %d):' % (k, top[k] + 1))
            evaluate(qmodel, top[k] + 1, ev)


if __name__ == '__main__':
    main()
