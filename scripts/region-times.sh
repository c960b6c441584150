#!/usr/bin/env bash
# Times the canonical forms of the generated Go region sets, each once from
# a cold start, as a Markdown table (the README quotes it); then the slow
# region check: Theorem 4.9 of seed 003 on the larger family (minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example region_times
echo "| set | regions | seconds | peak memory |"
echo "| --- | --- | --- | --- |"
for set in corridors eyes:8 eyes:9 eyes:10 one-white:8; do
  target/release/examples/region_times "$set"
done
cargo test --release --test regions -- --ignored
