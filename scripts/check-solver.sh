#!/usr/bin/env bash
# Slow solver checks, to run before every change to the search: the naive
# reference solver on 4- and 5-point boards under every ruleset (minutes),
# and the solver's own configurations agreeing on larger boards.
# GOSOLVE_SWEEP=tromp-taylor,logical limits the naive sweep to those rulesets,
# GOSOLVE_SWEEP_BOARDS=1x5,cycle:5 to those boards; progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test solver -- --ignored --nocapture
bin=target/release/gosolve
for board in 1x7 2x4 cycle:7; do
  a=$("$bin" solve "$board" --json | sed 's/.*"value":\([-0-9.]*\),.*/\1/')
  b=$("$bin" solve "$board" --json --no-symmetry --moves-first | sed 's/.*"value":\([-0-9.]*\),.*/\1/')
  c=$("$bin" --threads 1 solve "$board" --json | sed 's/.*"value":\([-0-9.]*\),.*/\1/')
  echo "$board: $a / $b / $c"
  [ "$a" = "$b" ] && [ "$a" = "$c" ] || { echo "configurations disagree on $board"; exit 1; }
done
