#!/usr/bin/env bash
# Slow solver checks, to run before every change to the search: the naive
# reference solver on 4- and 5-point boards under every ruleset (the
# 4-point ones in 45 s; 1x5 under tromp-taylor, ggg, conway and logical
# with positional and situational superko in a minute, but 1x5 `logical
# --superko none --suicide allowed` had not finished in 71 minutes on
# 2026-11-26 (its memo at its 3.5 GB cap), nor the first variant of
# cycle:5 `tromp-taylor` or of 1x5 `conway-replacement` in 25; `cargo
# test` has the checker verify the 5-point proofs), and the
# solver's own configurations agreeing on larger boards.
# GOSOLVE_SWEEP=tromp-taylor,logical limits the naive sweep to those rulesets,
# GOSOLVE_SWEEP_BOARDS=1x5,cycle:5 to those boards; progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
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
