#!/usr/bin/env bash
# Slow solver checks, to run before every change to the search: the naive
# reference solver on 4- and 5-point boards under every ruleset, and the
# solver's own configurations agreeing on larger boards. The naive search
# orders its turns by the fast solver's table (its values are its own) and
# keys its memo by a fingerprint of the history's set of states; so
# measured 2026-11-26 on one core each: every 4-point board under every
# ruleset, Conway Go with replacement included, in about 5 minutes (star:4
# with replacement 3.5 of them); 1x5 and cycle:5 under tromp-taylor, ggg,
# conway and koh in a minute (cycle:5 tromp-taylor had not finished its
# first option in 25 minutes before); logical on 1x5 in a second and on
# cycle:5 in 3 minutes. The variants in GOSOLVE_SWEEP_SKIP (below) do not
# finish and are skipped, and said so: Conway Go under situational
# superko with suicide allowed on 1x5 and cycle:5 (vertex geography: see
# tests/solver.rs), logical `--superko none --suicide allowed` on 1x5 (71
# minutes without advice, 11 with) and cycle:5 (200 M nodes in 8
# minutes), logical situational superko with suicide on cycle:5 (200 M
# nodes in 8 minutes), and Conway Go with replacement on 1x5 and cycle:5
# but positional superko without suicide on 1x5 (agrees in 155 M naive
# nodes, 406 s beside another solve, 2026-11-28: the advice's solve now
# runs on one thread, so every run gives the naive check the same table;
# on the global pool it gave 12.5 M in some runs and 155 M in others):
# 1x5 positional with suicide past 400 M nodes at depths 36-52 in
# 14 minutes, situational with suicide past 400 M at depths 63-73 in 10
# (and without suicide not tried after it), cycle:5's first option past
# 500 M nodes at depths 54-63 in 12 minutes.
# `cargo test` has the checker verify the 5-point proofs.
# GOSOLVE_SWEEP=tromp-taylor,logical limits the naive sweep to those rulesets,
# GOSOLVE_SWEEP_BOARDS=1x5,cycle:5 to those boards, GOSOLVE_SWEEP_SKIP=
# (empty) runs every variant; GOSOLVE_NAIVE_MEMO=N holds N million memo
# entries (here 100, about 8.5 GB); GOSOLVE_NAIVE_ADVICE=0 leaves out the
# fast solver's turn order; progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOSOLVE_NAIVE_MEMO="${GOSOLVE_NAIVE_MEMO-100}"
export GOSOLVE_SWEEP_SKIP="${GOSOLVE_SWEEP_SKIP-1x5@logical:none:allowed,cycle:5@logical:none:allowed,cycle:5@logical:situational:allowed,1x5@conway-replacement:positional:allowed,1x5@conway-replacement:situational:allowed,1x5@conway-replacement:situational:forbidden,cycle:5@conway-replacement}"
cargo test --release --test solver -- --ignored --nocapture
bin=target/release/gosolve
# The board's value and every first move's, as one line.
values() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["value"], sorted((x, m["value"]) for m in j["first_moves"] for x in m["moves"]))'; }
for board in 1x7 2x4 cycle:7 3x3; do
  a=$("$bin" solve "$board" --json --no-save --fresh | values)
  b=$("$bin" solve "$board" --json --no-save --fresh --no-symmetry --moves-first | values)
  c=$("$bin" --threads 1 solve "$board" --json --no-save --fresh --tt-mb 16 | values)
  echo "$board: $a"
  [ "$a" = "$b" ] && [ "$a" = "$c" ] || { echo "configurations disagree on $board: $a / $b / $c"; exit 1; }
done
