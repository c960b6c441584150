#!/usr/bin/env bash
# The slow exact counts, too long for `cargo test`: prints each figure with
# its time, and fails if one disagrees with the published table.
# Usage: scripts/perft.sh [--with-2x2]   (2x2 takes about 25 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/gosolve
fail=0

check() { # want, then the command
  local want=$1; shift
  local start end got
  start=$(date +%s.%N)
  got=$("$bin" "$@" | head -1 | awk '{print $NF}')
  end=$(date +%s.%N)
  printf '%-55s %25s %8.2f s  %s\n' "gosolve $*" "$got" "$(awk "BEGIN{print $end - $start}")" \
    "$([ "$got" = "$want" ] && echo agree || echo "DISAGREE (published $want)")"
  [ "$got" = "$want" ] || fail=1
}

check 414295148741 count 5x5
check 62567386502084877 count 6x6
check 24318165 count 4x4 --method brute
check 8180343 count 3x5 --method brute
check 2098407841 games 1x4
check 719178893 games 1x4 --suicide forbidden
if [ "${1:-}" = "--with-2x2" ]; then
  check 386356909593 games 2x2
fi
exit $fail
