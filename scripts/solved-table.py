#!/usr/bin/env python3
"""Solves the boards below, writes each result file to results/, verifies
it with the independent checker (`gosolve verify`), and regenerates
results/README.md and the table of solved boards in README.md (between its
solved-table markers). Usage: scripts/solved-table.py [--budget SECONDS]

A solve that exceeds the budget is listed as not finished, with the budget.
Everything runs `gosolve` in release mode with the default table (256 MB)."""
import json, os, re, subprocess, sys, time

# van der Werf & Winands' 2009 rules: basic ko, repetition a tie, no suicide.
NONE = ["--superko", "none", "--suicide", "forbidden"]

BOARDS = [
    ("1x1", []), ("1x2", []), ("1x3", []), ("1x4", []), ("1x5", []), ("1x6", []), ("1x7", []),
    ("2x2", []), ("2x2", ["--superko", "situational"]), ("2x2", ["--superko", "none"]),
    ("2x2", ["--suicide", "forbidden"]), ("2x2", ["--komi", "0.5"]),
    ("1x8", []), ("1x9", []),
    ("2x3", []), ("2x4", []), ("2x5", []), ("2x6", []), ("3x3", []), ("3x4", []),
    ("2x3", NONE), ("2x4", NONE), ("3x3", NONE), ("3x4", NONE),
    ("cycle:5", ["--rules", "ggg"]), ("cycle:6", []), ("cycle:6", ["--rules", "conway"]),
    ("petersen", ["--rules", "conway"]),
    ("1x4", ["--rules", "logical"]), ("2x3", ["--rules", "logical"]),
    ("1x5", ["--rules", "conway-replacement"]), ("1x5", ["--rules", "koh"]),
]

# Result files above this size stay out of the repository (results/large/, ignored by git).
LARGE = 2_000_000

START, END = "<!-- solved-table:start -->", "<!-- solved-table:end -->"


def value_text(v, scored):
    if not scored:
        return "Black wins" if v > 0 else "White wins"
    return f"+{v}" if v > 0 else str(v)


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
    head = (f"Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores ({cpu}), "
            f"`--tt-mb 256`, by `scripts/solved-table.py --budget {budget}`.\n")
    main_rows, result_rows = [], []
    for board, opts in BOARDS:
        cmd = [exe, "solve", board, "--json"] + opts
        label = " ".join(opts) or "tromp-taylor"
        try:
            out = subprocess.run(cmd, cwd=root, capture_output=True, text=True,
                                 timeout=budget, check=True).stdout
        except subprocess.TimeoutExpired:
            main_rows.append(f"| {board} | {label} | solve + proof not finished in {budget} s | | | | | |")
            result_rows.append(f"| {board} | {label} | solve + proof not finished in {budget} s | | | | | | |")
            continue
        r = json.loads(out)
        value = value_text(r["value"], r["scored"])
        best = " ".join(r["first_moves"][0]["moves"]) if r["first_moves"] else ""
        mem = f"{r['peak_bytes'] / 1e6:.0f} MB" if r["peak_bytes"] else "?"
        path = r["result_file"]
        v = subprocess.run([exe, "verify", path, "--json"], cwd=root, capture_output=True, text=True)
        checked = json.loads(v.stdout) if v.stdout.strip() else {"verified": False}
        verified = "yes" if v.returncode == 0 and checked.get("verified") else "NO"
        size = os.path.getsize(os.path.join(root, path))
        proof = f"{checked.get('nodes', 0):,} nodes, {size / 1e3:,.0f} kB" if verified == "yes" else "-"
        link = f"[{board}]({os.path.basename(path)})"
        if size > LARGE:
            os.makedirs(os.path.join(root, "results", "large"), exist_ok=True)
            os.replace(os.path.join(root, path), os.path.join(root, "results", "large", os.path.basename(path)))
            link = f"{board} (large: `results/large/`, not in git)"
        main_rows.append(f"| {board} | {r['rules']} | {value} | {best} | {r['nodes']:,} | "
                         f"{r['seconds']:.2f} | {mem} | {verified} |")
        result_rows.append(f"| {link} | {r['rules']} | {value} | {best} | "
                           f"{r['nodes']:,} | {r['seconds']:.2f} | {proof} | "
                           f"{checked.get('seconds', 0):.2f} | {verified} |")
    table = (head + "\n| board | rules | value | best first moves | nodes | seconds | peak memory | verified |\n"
             "| --- | --- | --- | --- | --- | --- | --- | --- |\n" + "\n".join(main_rows) + "\n")
    readme = os.path.join(root, "README.md")
    text = open(readme).read()
    text = re.sub(re.escape(START) + ".*?" + re.escape(END), START + "\n" + table + END, text, flags=re.S)
    open(readme, "w").write(text)
    with open(os.path.join(root, "results", "README.md"), "w") as f:
        f.write("# Solved boards\n\n"
                "Each file here is a result file written by `gosolve solve` and re-proved by the\n"
                "independent checker (`gosolve verify FILE`); `gosolve show FILE` prints it and\n"
                "`gosolve export FILE --sgf` opens it in any SGF viewer. Values are Black − White − komi.\n"
                "Generated by `scripts/solved-table.py`, which keeps files over 2 MB in `results/large/`\n"
                "(ignored by git). To regenerate one: `gosolve solve BOARD [options]` (it writes\n"
                "`results/<board>-<rules>[-<options>].gsr`), then `gosolve verify` on the file.\n\n"
                + head + "\n| board | rules | value | best first moves | nodes | seconds | proof | verify seconds | verified |\n"
                "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" + "\n".join(result_rows) + "\n")
    print(table)


if __name__ == "__main__":
    main()
