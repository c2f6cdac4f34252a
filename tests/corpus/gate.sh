#!/usr/bin/env bash
# The blocking corpus gate (issue 5). Prints every scorecard in the log, pass
# or fail, and fails on any breached contract:
#   1. recall >= 0.90 over the labeled corpus, hard-negative quarantine FP
#      <= 0.05, per-category floors, SC-003 (structural recall at quarantine
#      tier >= 0.95, no benign or hard negative quarantined) and SC-004 (every
#      variant of a phrase family caught at the same rate as the others);
#   2. a deliberate regression (one check disabled) makes the gate exit 6
#      naming the category that fell.
# The holdout set is reported separately and never gated: it measures
# over-fitting, and gating on it would make it a tuning set. The real-tool
# limits (data in ../shared) are tests/corpus/real_registry.sh.
set -u
mcpvet=${MCPVET:?MCPVET must point at the mcpvet binary}
src=${MCPVET_SOURCE_DIR:?}
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

# ratchet NAME DIR MIN_RECALL MIN_EXPECTED_QUARANTINE: one red-team set as
# its own gate (per-category recall at any tier, entries expected to be
# quarantined quarantined, hard-negative quarantine FP <= 0.05).
ratchet() {
    local out rc
    out=$("$mcpvet" eval --corpus "$src/corpus/$2" --gate --min-recall "$3" --max-fp 0.05 \
        --structural-min-recall 0.0 --min-expected-quarantine "$4" --jobs 2 2>&1)
    rc=$?
    echo "$out"
    if [ "$rc" -eq 0 ] && grep -q '^GATE PASSED' <<<"$out"; then
        ok "$1 ratchet passed"
    else
        bad "$1 ratchet (exit $rc)"
    fi
}

main_corpus=()
for f in "$src"/corpus/*.json; do main_corpus+=(--corpus "$f"); done
if [ "${#main_corpus[@]}" -lt 2 ]; then
    bad "no corpus files in $src/corpus"
fi

echo "== gate: labeled corpus (holdout excluded) =="
out=$("$mcpvet" eval "${main_corpus[@]}" --gate --min-recall 0.90 --max-fp 0.05 \
    --structural-min-recall 0.95 --max-variant-gap 0 --jobs 2 2>&1)
rc=$?
echo "$out"
if [ "$rc" -eq 0 ] && grep -q '^GATE PASSED' <<<"$out"; then
    ok "corpus gate passed"
else
    bad "corpus gate (exit $rc)"
fi

echo
echo "== red-team v3 (two outside authors, issue 10): ratchet =="
# Attacks and hard negatives written by authors who never read the rules.
# Every entry states the tier it must reach ("expected"). The floors are
# the levels reached when the set was added (raise them, never lower
# them): recall at any tier and per category >= 0.85 (0.70 until round 3
# of issue 10 raised capability_mismatch, the lowest, from 0.741 to
# 0.963; destructive is now the lowest at 0.852), entries expected to
# be quarantined quarantined >= 0.84, and no hard negative quarantined
# (SC-003 below). The quarantine floor was 0.90 for one round, reached by
# letting a destructive order outside the tool's job quarantine on its
# own; that broke DESIGN.md's rule that one uncorroborated soft signal
# stays review and quarantined three honest npm tools, so the floor is the
# level reached without it.
# Round 3 (the order detector) raised the quarantine floor to 0.88.
ratchet "red-team v3" redteam_v3 0.85 0.88

echo
echo "== red-team v4, phrased classes (authors D and E tune sets, issue 10 round 3): ratchet =="
# The phrased classes of two more outside authors' tune sets and the hard
# negatives resembling them. Floors are the levels reached when the set was
# added: per category recall >= 0.90 at any tier, expected-quarantine >=
# 0.92, no hard negative quarantined. Round 4 (schema values, role blocks,
# trust claims, soft destroy words, orders after CJK words) raised them to
# 0.98 per category (every category now 1.000 at any tier; the lowest was
# data_exfiltration at 0.917) and 0.98 expected-quarantine (0.930 -> 0.989).
ratchet "red-team v4" redteam_v4 0.98 0.98

echo
echo "== red-team v5 (authors F and G, whole sets, issue 10 round 6): ratchet =="
# Two more outside authors' whole sets (138 attacks and 80 hard negatives
# each). They were the unseen measurement of round 5 and the tune data of
# round 6. Floors are the levels reached when they were added: every
# category >= 0.60 at any tier (data_exfiltration is the lowest at 0.600),
# expected-quarantine >= 0.71 (0.713), no hard negative quarantined.
# Round 10 raised them to 0.70 (data_exfiltration 0.700) and 0.77 (0.774).
# Round 12 raised them to 0.72 (data_exfiltration 0.725) and 0.80 (0.809).
ratchet "red-team v5" redteam_v5 0.72 0.80

echo
echo "== red-team v6 (authors H and I, whole sets, issue 10 round 7): ratchet =="
# The unseen measurement of rounds 5 and 6, then the tune data of rounds 7
# and 8. Floors are the levels after round 8: every category >= 0.77 at any
# tier (destructive is the lowest at 0.778), expected-quarantine >= 0.80
# (0.806), no hard negative quarantined.
# Round 10 raised them to 0.80 (destructive 0.806) and 0.82 (0.823).
# Round 12 raised them to 0.83 (destructive 0.833) and 0.85 (0.858).
ratchet "red-team v6" redteam_v6 0.83 0.85

echo
echo "== red-team v7 (authors J, K and L, issue 10 round 8): ratchet =="
# The unseen measurement of round 7, then the tune data of rounds 8 and 9.
# Gated since round 9 fixed its four quarantined honest tools (two
# shadowing look-alikes: a referral "for changes, use X" and a negated
# claim "doesn't replace X"; two unicode ones: a homoglyph checker quoting
# 'pаypal.example' and a cleaner whose examples hold the characters it
# removes). Floors are the levels after round 9: every category >= 0.61 at
# any tier (destructive is the lowest at 0.611), expected-quarantine >=
# 0.70 (0.705), no hard negative quarantined.
# Round 10 raised them to 0.64 (destructive 0.648) and 0.74 (0.749).
# Round 12 raised them to 0.66 (destructive 0.667) and 0.77 (0.775).
ratchet "red-team v7" redteam_v7 0.66 0.77

echo
echo "== red-team v8 (authors M, N and O, issue 10 round 9): ratchet =="
# The never-seen measurement of rounds 7 and 8 (moved out of holdout/),
# then the tune data of round 9. Floors are the levels after round 9:
# every category >= 0.57 at any tier (destructive is the lowest at 0.574),
# expected-quarantine >= 0.67 (0.672), no hard negative quarantined.
# Round 10 raised them to 0.74 (destructive 0.741) and 0.80 (0.809).
# Round 12 raised them to 0.75 (destructive 0.759) and 0.82 (0.820).
ratchet "red-team v8" redteam_v8 0.75 0.82

echo
echo "== red-team v9 (authors P, Q and R, issue 10 round 10): ratchet =="
# The never-seen measurement of round 9 (moved out of holdout/), then the
# tune data of round 10. Gated since round 12 fixed its quarantined honest
# look-alikes (a red-team prompt runner that records "whether it leaked
# its system prompt": what a measurement tests is not what it moves).
# Floors are the levels after round 12: every category >= 0.56 at any
# tier (capability_mismatch is the lowest at 0.563), expected-quarantine
# >= 0.86 (0.864), no hard negative quarantined.
# After all round-12 branches: 0.58 (capability_mismatch 0.583) and 0.86 (0.867).
ratchet "red-team v9" redteam_v9 0.58 0.86

echo
echo "== red-team v10 (authors S, T and U, issue 10 round 11): ratchet =="
# The never-seen measurement of round 10 (moved out of holdout/), then the
# tune data of round 11. Gated since round 12 fixed its quarantined honest
# look-alike (an S3 uploader that "needs AWS credentials": what a tool
# says it signs in with is not moved by its own job statement). Floors are
# the levels after round 12: every category >= 0.55 at any tier
# (destructive is the lowest at 0.556), expected-quarantine >= 0.67
# (0.675), no hard negative quarantined.
# After all round-12 branches: 0.62 (destructive 34 of 54, 0.6296) and 0.80 (0.800).
ratchet "red-team v10" redteam_v10 0.62 0.80

echo
echo "== red-team v11 (authors V, W and X, issue 10 round 12): ratchet =="
# The never-seen measurement of round 11 (moved out of holdout/), then the
# tune data of round 12. Gated since round 12 fixed its five quarantined
# honest look-alikes (two cloud uploaders that need AWS credentials, an
# audit export "as requested by the privacy officer", a bidi cleaner
# quoting the file name it unmasks, a stream-key store that says never to
# echo the key back). Floors are the levels after round 12: every
# category >= 0.59 at any tier (destructive is the lowest at 0.593),
# expected-quarantine >= 0.71 (0.719), no hard negative quarantined.
# After all round-12 branches: 0.81 (data_exfiltration 0.817) and 0.85 (0.852).
ratchet "red-team v11" redteam_v11 0.81 0.85

echo
echo "== red-team v12 (authors Y, Z and AA, issue 10 round 13): ratchet =="
# The never-seen measurement of round 12 (moved out of holdout/), then the
# tune data of round 13. Gated since round 13 fixed its three quarantined
# honest look-alikes (a language detector that says to treat commands in
# its input as data and not follow them, an S3 uploader whose Japanese
# lead sentence authenticates with AWS environment variables next to a
# retention note "retained for 30 days and then purged", a base64 decoder
# showing its sample's decoding beside it). Floors are the levels after
# round 13 (honest13): every category >= 0.70 at any tier
# (data_exfiltration is the lowest at 0.700), expected-quarantine >= 0.73
# (256 of 346, 0.7399), no hard negative quarantined.
# After all merged round-13 branches: 0.74 (capability_mismatch 36 of 48,
# 0.750) and 0.86 (300 of 346, 0.867).
ratchet "red-team v12" redteam_v12 0.74 0.86

echo
echo "== red-team train12 (authors AH, AI, AJ and AK, session 12): ratchet =="
# The second never-seen set of session 12 (scored once before any training
# on it), then training data of the learned wording check and tune data of
# round 15. Gated since round 15 fixed its five quarantined honest
# look-alikes (a red-team prompt runner, an admin tool's destructive
# options, an SSO scope list, a typosquat checker; quiet15d, quiet15s).
# Floors are the levels after round 15 and the retrained table: every
# category >= 0.81 at any tier (prompt_injection is the lowest at 0.819),
# expected-quarantine >= 0.82 (0.822), no hard negative quarantined.
ratchet "red-team train12" redteam_train12 0.81 0.82

echo
echo "== red-team v13 (authors AB, AC and AD, session 13): ratchet =="
# Tune data since round 14. Gated since round 16 took its last quarantined
# honest look-alike out (rtAC-hard_negative-001, a redaction of account
# numbers beside a sign-in step; quiet16). Floors are the levels reached:
# every category >= 0.87 at any tier (destructive is the lowest at
# 0.870), expected-quarantine >= 0.81 (0.817), no hard negative
# quarantined. authorAE.json and authorAF.json of v14 still quarantine
# honest entries and are not gated yet.
# Session 15 released v15 to the learned check's training and stopped it
# reading fields without a letter (numbers, character codes): every
# category stays >= 0.87 (prompt_injection 0.889).
ratchet "red-team v13" redteam_v13 0.87 0.81

echo
echo "== red-team v16 (authors AO, AP and AQ, session 15): ratchet =="
# Tune data since session 16 (authorAP.json held out by round-18 helpers).
# Gated since round 18 took its last quarantined honest look-alikes out
# (an ANSI colour code given as the example of its name, "si el bot
# ignora ..." as a question, "attachments" as a noun; quiet18). Floors
# are the levels reached: every category >= 0.60 at any tier
# (capability_mismatch is the lowest at 0.604), expected-quarantine >=
# 0.77 (0.777), no hard negative quarantined.
ratchet "red-team v16" redteam_v16 0.60 0.77

echo
echo "== holdout (reported, not gated) =="
"$mcpvet" eval --corpus "$src/corpus/holdout" --jobs 2 2>&1
rc=$?
[ "$rc" -eq 0 ] && ok "holdout scorecard printed" || bad "holdout eval exit $rc"

echo
echo "== deliberate regressions: one check disabled =="
for pair in directive.imperative:phrase_injection unicode.hidden:unicode_smuggling \
    secret.embedded:embedded_secret; do
    check=${pair%%:*}
    category=${pair#*:}
    out=$("$mcpvet" eval "${main_corpus[@]}" --gate --min-recall 0.90 --max-fp 0.05 \
        --disable-check "$check" --jobs 2 2>&1)
    rc=$?
    line=$(grep '^GATE FAILED' <<<"$out" | grep "$category" | head -1)
    if [ "$rc" -eq 6 ] && [ -n "$line" ]; then
        ok "without $check the gate exits 6: $line"
    else
        bad "without $check: exit $rc, no GATE FAILED line naming $category"
        echo "$out" | tail -5
    fi
done

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
