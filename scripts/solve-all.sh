#!/usr/bin/env bash
# Regenerates results/ (every solved board's verified result file),
# results/README.md and the README's table of solved boards.
# Usage: scripts/solve-all.sh [BUDGET_SECONDS_PER_BOARD]   (default 300)
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/solved-table.py --budget "${1:-300}"
