#!/usr/bin/env python3
"""A small GTP client: the gosolve engine plays Black against random legal
White moves (or itself with --self), over GTP, and prints each game and
its final score. A by-hand check of `gosolve gtp` as a controller drives it.

    scripts/gtp-play.py 3x3 --games 5
    scripts/gtp-play.py 2x4 --self --engine "target/release/gosolve gtp"
"""
import argparse
import random
import shlex
import subprocess


class Gtp:
    def __init__(self, command):
        self.p = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line):
        """Sends one command; returns (ok, text) of its reply."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            got = self.p.stdout.readline()
            if got == "":
                raise SystemExit(f"the engine quit after: {line}")
            if got == "\n" and lines:
                break
            lines.append(got.rstrip("\n"))
        head = lines[0]
        return head.startswith("="), "\n".join([head[1:].strip()] + lines[1:]).strip()

    def must(self, line):
        ok, text = self.ask(line)
        if not ok:
            raise SystemExit(f"{line}: ? {text}")
        return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("board", help="a grid, e.g. 3x3 (rows x columns)")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--self", action="store_true", help="the engine plays both sides")
    ap.add_argument("--engine", default="cargo run --release --quiet -- gtp")
    a = ap.parse_args()
    rows, cols = (int(x) for x in a.board.split("x"))
    rng = random.Random(a.seed)
    gtp = Gtp(shlex.split(a.engine) + [a.board])
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    points = [f"{letters[c]}{r + 1}" for r in range(rows) for c in range(cols)]
    for n in range(a.games):
        gtp.must("clear_board")
        moves, passes, color = [], 0, "b"
        while passes < 2:
            if color == "b" or a.self:
                m = gtp.must(f"genmove {color}")
            else:
                # A random legal move: the engine refuses the illegal ones.
                for m in rng.sample(points, len(points)) + ["pass"]:
                    if gtp.ask(f"play w {m}")[0]:
                        break
            moves.append(m)
            passes = passes + 1 if m.lower() == "pass" else 0
            color = "w" if color == "b" else "b"
        print(f"game {n + 1}: {' '.join(moves)} -> {gtp.must('final_score')}")
    gtp.must("quit")


if __name__ == "__main__":
    main()
