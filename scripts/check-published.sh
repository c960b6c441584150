#!/usr/bin/env bash
# Reruns every published figure (src/cli/published.txt) with a generous budget
# and writes the report to results/published-check.md.
# Usage: scripts/check-published.sh [BUDGET_SECONDS]   (default 600 per figure)
set -uo pipefail
cd "$(dirname "$0")/.."
budget="${1:-600}"
cargo build --release --quiet
{
  echo "# Published figures, rechecked"
  echo
  echo "\`gosolve check --budget $budget\` on $(date -u +%Y-%m-%d), $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
  echo "Figures and sources: \`src/cli/published.txt\`. A skipped figure was over the budget."
  echo
  echo '```'
  # A disagreement exits 1 but the report is still whole: keep it (an
  # `exit` in this group would leave only the .tmp file behind).
  target/release/gosolve check --budget "$budget"
  status=$?
  echo '```'
} > results/published-check.md.tmp
mv results/published-check.md.tmp results/published-check.md
tail -n 3 results/published-check.md
exit $status
