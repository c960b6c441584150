#!/usr/bin/env python3
"""Solves the boards below and prints the README's table of solved boards
(Markdown) on stdout. Usage: scripts/solved-table.py [--budget SECONDS]

Each solve runs `gosolve solve ... --json` in release mode; a solve that
exceeds the budget is listed as not finished, with the budget."""
import json, subprocess, sys, time, platform, os

BOARDS = [
    ("1x1", []), ("1x2", []), ("1x3", []), ("1x4", []), ("1x5", []), ("1x6", []), ("1x7", []),
    ("2x2", []), ("2x2", ["--superko", "situational"]), ("2x2", ["--superko", "none"]),
    ("2x3", []), ("2x4", []), ("3x3", []),
    ("cycle:6", ["--rules", "conway"]), ("cycle:6", []), ("petersen", ["--rules", "conway"]),
    ("2x3", ["--rules", "logical"]), ("1x5", ["--rules", "conway-replacement"]),
]

def main():
    budget = 120
    if "--budget" in sys.argv:
        budget = int(sys.argv[sys.argv.index("--budget") + 1])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=root, check=True)
    exe = os.path.join(root, "target", "release", "gosolve")
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    print(f"Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores ({cpu}), "
          f"`--tt-mb 256`, by `scripts/solved-table.py --budget {budget}`.\n")
    print("| board | rules | value | best first moves | nodes | seconds | peak memory |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for board, opts in BOARDS:
        cmd = [exe, "solve", board, "--json"] + opts
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=budget, check=True).stdout
        except subprocess.TimeoutExpired:
            print(f"| {board} | {' '.join(opts) or 'tromp-taylor'} | not solved in {budget} s | | | | |")
            continue
        r = json.loads(out)
        v = r["value"]
        value = (f"+{v}" if v > 0 else str(v)) if r["scored"] else ("Black wins" if v > 0 else "White wins")
        best = r["first_moves"][0]["moves"] if r["first_moves"] else []
        mem = f"{r['peak_bytes'] / 1e6:.0f} MB" if r["peak_bytes"] else "?"
        print(f"| {board} | {r['rules']} | {value} | {' '.join(best)} | {r['nodes']:,} | {r['seconds']:.2f} | {mem} |")

if __name__ == "__main__":
    main()
