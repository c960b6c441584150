#!/usr/bin/env bash
# How often a solve with its proof passes a time cap, for one binary or two
# side by side (runs interleaved, so both see the same machine). On 2 threads
# the proof of 1x10 and 1x11 sometimes stalls, and by chance: one run says
# little, and this is how the issue notes measure a change against it.
#
# Usage: scripts/stall-rate.sh [-n RUNS] [-c CAP_SECONDS] BIN [BIN2] -- SOLVE_ARGS...
# e.g.   scripts/stall-rate.sh -n 10 -c 30 /tmp/old target/release/gosolve -- 1x11 --first-moves bounds
# Each run is `BIN solve SOLVE_ARGS --fresh --out TMP`, in a temporary
# directory removed at the end. Prints each run, then per binary: runs,
# stalled (killed at the cap), and the finished runs' median and mean seconds.
set -euo pipefail
runs=10
cap=30
while getopts "n:c:" o; do
  case "$o" in
    n) runs="$OPTARG" ;;
    c) cap="$OPTARG" ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
bins=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  bins+=("$1")
  shift
done
if [ $# -eq 0 ] || [ ${#bins[@]} -eq 0 ] || [ ${#bins[@]} -gt 2 ]; then
  echo "usage: scripts/stall-rate.sh [-n RUNS] [-c CAP_SECONDS] BIN [BIN2] -- SOLVE_ARGS..." >&2
  exit 2
fi
shift
for b in "${bins[@]}"; do
  [ -x "$b" ] || { echo "stall-rate: $b is not an executable" >&2; exit 2; }
done
case "$runs,$cap" in
  *[!0-9,]* | ,* | *, | 0,* | *,0) echo "stall-rate: -n and -c take whole numbers above 0" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log="$tmp/runs"
for i in $(seq 1 "$runs"); do
  for j in "${!bins[@]}"; do
    b="${bins[$j]}"
    start=$(date +%s.%N)
    rc=0
    timeout "$cap" "$b" solve "$@" --fresh --out "$tmp/r$j.gsr" >/dev/null 2>&1 || rc=$?
    end=$(date +%s.%N)
    # A run stopped at the cap leaves its resume files (the table's can be
    # gigabytes): gone before the next run.
    rm -f "$tmp/r$j.gsr" "$tmp/r$j.gsr.resume" "$tmp/r$j.gsr.resume.table"
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    # 124: killed at the cap; any other non-zero status is a failure.
    echo "$j $rc $secs" | tee -a "$log" | awk -v b="$b" '{ print "run: " b ", status " $2 ", " $3 " s" }'
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
      echo "stall-rate: $b failed (status $rc)" >&2
      exit 1
    fi
  done
done
for j in "${!bins[@]}"; do
  awk -v j="$j" '$1 == j' "$log" | sort -k3 -n | awk -v b="${bins[$j]}" -v cap="$cap" '
    $2 == 124 { stalled++; next }
    { t[n++] = $3; sum += $3 }
    END {
      runs = n + stalled
      if (n == 0) { printf "%s: %d runs, %d past %d s\n", b, runs, stalled, cap; exit }
      med = (n % 2) ? t[(n - 1) / 2] : (t[n / 2 - 1] + t[n / 2]) / 2
      printf "%s: %d runs, %d past %d s; finished: median %.1f s, mean %.1f s\n", b, runs, stalled, cap, med, sum / n
    }'
done
