#!/usr/bin/env python3
"""Solves the boards below, writes each result file to results/, verifies
it with the independent checker (`gosolve verify`), and regenerates
results/README.md and the table of solved boards in README.md (between its
solved-table markers). Usage: scripts/solved-table.py [--budget SECONDS]
[--long [--rows BOARD,...]]

A solve that exceeds the budget is listed as not finished, with the budget.
The boards in LONG take minutes each; their rows (a table of their own) are
solved again only with --long (budget LONG_BUDGET, or BUDGETS where a board
needs more) and kept as they are otherwise; with --long --rows, the long table's rows of only those boards
are solved again, its other rows kept (the short table is solved again
either way). Everything runs `gosolve` in release mode with the default table
(256 MB)."""
import argparse, json, os, re, subprocess, time

# van der Werf & Winands' 2009 rules: basic ko, repetition a tie, no suicide.
NONE = ["--superko", "none", "--suicide", "forbidden"]
# Exact values for the best first moves only, proved bounds for the others.
BOUNDS = ["--first-moves", "bounds"]
# One thread for 1xn with a proof: on 2 threads the extraction replays the
# superko fights the two threads left unproved, which depends on the order
# they met them in (1x11 BOUNDS stalled past 120-300 s in 2 of 3 table runs
# on 2026-11-27, where one thread takes 7 s every time).
ONE = ["--threads", "1"]

BOARDS = [
    ("1x1", []), ("1x2", []), ("1x3", []), ("1x4", []), ("1x5", []), ("1x6", []), ("1x7", []),
    ("2x2", []), ("2x2", ["--superko", "situational"]), ("2x2", ["--superko", "none"]),
    ("2x2", ["--suicide", "forbidden"]), ("2x2", ["--komi", "0.5"]),
    ("1x8", []), ("1x9", []),
    ("2x3", []), ("2x4", []), ("2x5", []), ("2x6", []), ("3x3", []), ("3x4", []),
    ("2x3", NONE), ("2x4", NONE), ("3x3", NONE), ("3x4", NONE),
    # With suicide (a free pass that forces repetitions): every bound a tie
    # keeps, so a closed strategy (src/search/closed.rs) where a tree grows
    # large; one thread, as on 2 the 3x3 value search took 1-27 s (median
    # 14 s in 10 runs, 2026-11-29) where one thread takes 4 s, and with
    # the small boards' earlier restarts still 0.6-9 s (median 3.6 s).
    ("2x4", ["--superko", "none"] + ONE), ("3x3", ["--superko", "none"] + ONE),
    ("cycle:5", ["--rules", "ggg"]), ("cycle:6", []), ("cycle:6", ["--rules", "conway"]),
    ("petersen", ["--rules", "conway"]),
    ("1x4", ["--rules", "logical"]), ("2x3", ["--rules", "logical"]),
    ("1x5", ["--rules", "conway-replacement"]), ("1x5", ["--rules", "koh"]),
    # The worse first moves only bounded: their exact values are superko
    # fights the search does not always finish (1x10's, with the proof to
    # follow: past 300 s on one thread, 2026-11-27).
    ("1x10", BOUNDS + ONE), ("1x10", ["--suicide", "forbidden"] + BOUNDS + ONE),
    ("1x11", BOUNDS + ONE), ("1x11", ["--suicide", "forbidden"] + BOUNDS + ONE),
]

# A minute or more each: solved only with --long, with their proofs (the
# 4x4 ones are 20 MB or more, so they go to results/large/).
LONG = [
    ("4x4", []), ("4x4", ["--superko", "situational"]), ("4x4", NONE),
    ("3x5", []), ("3x5", NONE), ("2x7", []), ("2x7", NONE),
    ("2x8", []), ("2x8", NONE),
    # With suicide, every bound a tie keeps: about 20 s on one thread
    # with the proof since the first test is at the tie (2026-11-30; 2
    # minutes before).
    ("3x4", ["--superko", "none"] + ONE),
    # 18 points. 3x6's proof needs a larger table: with 256 MB its
    # extraction had not finished one strategy after 23 minutes at 12 GB
    # (the search's results were gone, so each choice searched again);
    # with 4096 MB it takes about a minute.
    ("3x6", ["--tt-mb", "4096"]), ("3x6", NONE + ["--tt-mb", "4096"]),
    # 2x9: 3 to 6 minutes each with the proof (8 GB).
    ("2x9", []), ("2x9", NONE),
    # 20 points, the worse first moves bounded: 7.5 and 10 minutes with
    # the proof (13 GB; 2026-11-27).
    ("2x10", BOUNDS), ("2x10", NONE + BOUNDS),
    # 10 minutes with the proof (18 GB; 2026-11-27, first finished once the
    # extraction's choices had a share of nodes each).
    ("4x5", NONE + BOUNDS),
    # Under positional superko: 18 minutes with the proof (18.3 GB; C2's
    # strategy 27.8 M owner nodes), verified since the checker keeps its
    # produced colourings as positions in a root's set (2026-11-27).
    ("4x5", BOUNDS),
    # With the proof, 5.7 s on one thread, 3.0-6.6 s in 6 runs on 2
    # (2026-11-27); one for the reason of ONE.
    ("1x10", ["--suicide", "forbidden"] + ONE),
    # Every class exact since df-pn keeps its numbers by depth: 61 s on one
    # thread, 52 s of it the proof (2026-11-27). With suicide, past 90 s.
    ("1x11", ["--suicide", "forbidden"] + ONE),
    # +2 since the table keeps variants (2026-11-27): 12 minutes for the
    # value and 20 for the proof on one thread, 1.2 GB.
    ("1x12", ["--suicide", "forbidden"] + BOUNDS + ONE),
    # Open before gosolve (Hayward's notes: 1xn from 13 on). Two threads, as
    # first solved (2026-11-28): 1x13 about a minute each with the proof,
    # 1x14 without suicide 10 minutes at 4.5 GB (a second run passed 28
    # minutes: on 2 threads the extraction can stall, see ONE); 1x14 with
    # suicide 21 minutes at 13 GB, its proof held past 30 minutes with
    # 4096 MB. Their rows (2026-11-29): 16 minutes each with the check;
    # with suicide the proof is 2.24 MB, so it goes to results/large/.
    ("1x13", BOUNDS + ["--tt-mb", "4096"]),
    ("1x13", ["--suicide", "forbidden"] + BOUNDS + ["--tt-mb", "4096"]),
    ("1x14", ["--suicide", "forbidden"] + BOUNDS + ["--tt-mb", "4096"]),
    ("1x14", BOUNDS + ["--tt-mb", "12288"]),
    # Without suicide, first solved with its proof on 2026-11-30: 82
    # minutes on 2 threads with the proof extracted as the classes
    # settled, 16.7 GB at the peak. With an 8 GB table the extraction
    # of F1's and H1's strategies was open after 44 minutes.
    ("1x15", ["--suicide", "forbidden"] + BOUNDS + ["--tt-mb", "14336"]),
]
# An hour: 1x12 took 32 minutes with its proof.
LONG_BUDGET = 3600
# Boards that need more: two hours for 1x15 (82 minutes when first solved).
BUDGETS = {"1x15": 7200}

# Result files above this size stay out of the repository (results/large/, ignored by git).
LARGE = 2_000_000

START, END = "<!-- solved-table:start -->", "<!-- solved-table:end -->"
LONG_START, LONG_END = "<!-- solved-table-long:start -->", "<!-- solved-table-long:end -->"


def value_text(v, scored):
    if not scored:
        return "Black wins" if v > 0 else "White wins"
    return f"+{v}" if v > 0 else str(v)


def option(opts, name):
    """The value given to `name` in `opts`, or None."""
    return opts[opts.index(name) + 1] if name in opts else None


def solve_rows(root, exe, boards, budget):
    """Solves, verifies and files each board: (README rows, results/README.md rows)."""
    main_rows, result_rows = [], []
    for board, opts in boards:
        limit = max(budget, BUDGETS.get(board, 0))
        # The guide is built in every row's time, not read from a cache.
        cmd = [exe, "solve", board, "--json", "--fresh", "--no-guide-cache"] + opts
        label = " ".join(o for o in opts if o != "--no-save") or "tromp-taylor"
        try:
            out = subprocess.run(cmd, cwd=root, capture_output=True, text=True,
                                 timeout=limit, check=True).stdout
        except subprocess.TimeoutExpired:
            main_rows.append(f"| {board} | {label} | solve + proof not finished in {limit} s | | | | | |")
            result_rows.append(f"| {board} | {label} | solve + proof not finished in {limit} s | | | | | | |")
            continue
        r = json.loads(out)
        if "--first-moves" in opts:
            r["rules"] += "; worse first moves bounded"
        n = option(opts, "--threads")
        if n:
            r["rules"] += "; one thread" if n == "1" else f"; {n} threads"
        if option(opts, "--tt-mb"):
            r["rules"] += f"; {option(opts, '--tt-mb')} MB table"
        value = value_text(r["value"], r["scored"])
        best = " ".join(r["first_moves"][0]["moves"]) if r["first_moves"] else ""
        mem = f"{r['peak_bytes'] / 1e6:.0f} MB" if r["peak_bytes"] else "?"
        path = r["result_file"]
        if path is None:
            main_rows.append(f"| {board} | {r['rules']} | {value} | {best} | {r['nodes']:,} | "
                             f"{r['seconds']:.2f} | {mem} | no proof |")
            result_rows.append(f"| {board} | {r['rules']} | {value} | {best} | "
                               f"{r['nodes']:,} | {r['seconds']:.2f} | no proof | | no |")
            continue
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
    return main_rows, result_rows


def board_of(row):
    """The board a table row is about: its first cell, without a link or note."""
    m = re.match(r"\| \[?([^\] (|]+)", row)
    return m.group(1) if m else None


def splice(old, new_rows, boards, head, cols):
    """The table block `old` with the rows of `boards` replaced by `new_rows`
    (where the first of them stood), under `head` and the header `cols`.
    Each row carries its own date and host, so the head names none."""
    if old is None:
        return head + "\n" + cols + "\n".join(new_rows) + "\n"
    out, placed = [], False
    for line in old.rstrip("\n").split("\n"):
        if not line.startswith("| ") or line.startswith(("| board |", "| --- |")):
            continue
        if board_of(line) in boards:
            if not placed:
                out.extend(new_rows)
                placed = True
            continue
        out.append(line)
    if not placed:
        out.extend(new_rows)
    return head + "\n" + cols + "\n".join(out) + "\n"


def with_measured(header):
    """A table header (its two lines) with a last column, "measured"."""
    names, rule = header.rstrip("\n").split("\n")
    return f"{names} measured |\n{rule} --- |\n"


def block(text, start, end):
    """The text between two markers, or None."""
    m = re.search(re.escape(start) + "\n(.*?)" + re.escape(end), text, flags=re.S)
    return m.group(1) if m else None


def parse_args():
    """The options, checked before anything is built or solved: an unknown
    option or a bad value is an error, not a run of the default table."""
    p = argparse.ArgumentParser(
        prog="scripts/solved-table.py",
        description="Solves the table's boards, verifies each result file and rewrites the "
                    "solved tables of README.md and results/README.md.")
    p.add_argument("--budget", type=int, default=120, metavar="SECONDS",
                   help="seconds a board of the short table may take (default 120)")
    p.add_argument("--long", action="store_true",
                   help=f"also solve the long table's boards ({LONG_BUDGET} s a board, more for those in BUDGETS)")
    p.add_argument("--rows", metavar="BOARD,...",
                   help="with --long: solve only these boards' long rows, keep the others")
    args = p.parse_args()
    if args.budget <= 0:
        p.error("--budget takes a positive number of seconds")
    if args.rows is not None:
        if not args.long:
            p.error("--rows goes with --long")
        args.rows = [b for b in args.rows.split(",") if b]
        unknown = [b for b in args.rows if b not in {x[0] for x in LONG}]
        if not args.rows or unknown:
            p.error(f"--rows takes boards of the long list, comma-separated: {unknown or 'none given'}")
    return args


def main():
    args = parse_args()
    budget = args.budget
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
            f"`--tt-mb` default (256 MB up to 16 points), `--search auto` (alpha-beta up to five points, df-pn above); "
            f"seconds: until the value is known, with the proof's strategies extracted meanwhile (each class's as "
            f"it settles, from 2026-11-30); "
            f"proof: owner nodes and the file's size (zstd-compressed above 1 MB), "
            f"by `scripts/solved-table.py --budget {budget}`.\n")
    main_rows, result_rows = solve_rows(root, exe, BOARDS, budget)
    cols = ("| board | rules | value | best first moves | nodes | seconds | peak memory | verified |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- |\n")
    rcols = ("| board | rules | value | best first moves | nodes | seconds | proof | verify seconds | verified |\n"
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
    table = head + "\n" + cols + "\n".join(main_rows) + "\n"
    readme = os.path.join(root, "README.md")
    results_readme = os.path.join(root, "results", "README.md")
    text = open(readme).read()
    old_results = open(results_readme).read() if os.path.exists(results_readme) else ""
    # The long table's rows each say when and where they were measured:
    # they are regenerated a few boards at a time, over days and hosts.
    stamp = f"{time.strftime('%Y-%m-%d')}, {cpu}"
    more = "".join(f", {b} {t} s" for b, t in BUDGETS.items())
    long_head = (f"Measured on {os.cpu_count()} cores, each row on the date and host in its last column; "
                 f"`--tt-mb` default (256 MB up to 16 points, 4096 on 18 with 16 GB or more; 3x6: 4096 given), "
                 f"`--search auto`; proof: owner nodes and the file's size (zstd-compressed above 1 MB); "
                 f"by `scripts/solved-table.py --long` ({LONG_BUDGET} s a board{more}), or `--long --rows BOARD,...` "
                 f"for some boards' rows.\n")
    lcols, lrcols = with_measured(cols), with_measured(rcols)

    def stamped(rows):
        return [f"{r} {stamp} |" for r in rows]

    if args.rows is not None:
        # Only the long table's rows of these boards, the others kept as they are.
        boards = args.rows
        todo = [b for b in LONG if b[0] in boards]
        long_rows, long_results = solve_rows(root, exe, todo, LONG_BUDGET)
        long_table = splice(block(text, LONG_START, LONG_END), stamped(long_rows), boards, long_head, lcols)
        long_result_table = splice(block(old_results, LONG_START, LONG_END), stamped(long_results), boards,
                                   long_head, lrcols)
    elif args.long:
        long_rows, long_results = solve_rows(root, exe, LONG, LONG_BUDGET)
        long_table = long_head + "\n" + lcols + "\n".join(stamped(long_rows)) + "\n"
        long_result_table = long_head + "\n" + lrcols + "\n".join(stamped(long_results)) + "\n"
    else:
        long_table = block(text, LONG_START, LONG_END) or "Not solved yet: run with --long.\n"
        long_result_table = block(old_results, LONG_START, LONG_END) or "Not solved yet: run with --long.\n"
    text = re.sub(re.escape(START) + ".*?" + re.escape(END), lambda _: START + "\n" + table + END, text, flags=re.S)
    text = re.sub(re.escape(LONG_START) + ".*?" + re.escape(LONG_END),
                  lambda _: LONG_START + "\n" + long_table + LONG_END, text, flags=re.S)
    open(readme, "w").write(text)
    with open(results_readme, "w") as f:
        f.write("# Solved boards\n\n"
                "Each file here is a result file written by `gosolve solve` and re-proved by the\n"
                "independent checker (`gosolve verify FILE`); `gosolve show FILE` prints it and\n"
                "`gosolve export FILE --sgf` opens it in any SGF viewer. Values are Black − White − komi.\n"
                "Generated by `scripts/solved-table.py`, which keeps files over 2 MB in `results/large/`\n"
                "(ignored by git). To regenerate one: `gosolve solve BOARD [options]` (it writes\n"
                "`results/<board>-<rules>[-<options>].gsr`), then `gosolve verify` on the file.\n\n"
                + head + "\n" + rcols + "\n".join(result_rows) + "\n\n"
                "## Boards that take minutes (`scripts/solved-table.py --long`)\n\n"
                + LONG_START + "\n" + long_result_table + LONG_END + "\n")
    print(table)


if __name__ == "__main__":
    main()
