#!/usr/bin/env python3
"""The reader benchmark's baseline: what a player would script by hand to read a move message.

The `email` package decodes the message, a regex takes the move record and the new move from
the body, python-chess replays them (a move that is not legal fails the message). Numeric
notation is turned into squares by hand, Russian letters into English ones; the rest is
python-chess's own SAN / UCI reading.

    parse_baseline.py DIR [SECONDS]
    parse_baseline.py --both DIR

DIR holds the sets `cargo bench --bench parse` dumps with CCMAIL_BENCH_DUMP=DIR (`NN/name`,
`NN/*.eml`, and `NN/ccmail-read`, the files ccmail reads through). Prints, per set: name,
messages, messages/s on one core, and how many messages were read through (moves found, all
legal).

Where this script gives up on a message, it has done less than ccmail, which reads it
through: a set's rate then compares different work. `--both DIR` writes `NN/both-read`, the
files both sides read through; a set with such a list that is not the whole set also gets a
row "NAME, both read" of only those messages, as the parse bench does with
CCMAIL_BENCH_BOTH=DIR.
"""

import email
import pathlib
import re
import sys
import time

import chess

MOVE_LINE = re.compile(r"^(?:Ходы|Moves|Мой ход|My move):(.*)$", re.M)
NUMBER = re.compile(r"\d+\.(?:\.\.)?")
RU_PIECES = [("Кр", "K"), ("Ф", "Q"), ("Л", "R"), ("С", "B"), ("К", "N"), (":", "x")]
FILES = "abcdefgh"
PROMO = {"1": "q", "2": "r", "3": "b", "4": "n"}


def numeric(tok):
    """ICCF numeric `5254` (or `17181`, promotion) as UCI."""
    uci = FILES[int(tok[0]) - 1] + tok[1] + FILES[int(tok[2]) - 1] + tok[3]
    return uci + PROMO.get(tok[4:5], "")


def push(board, tok):
    tok = tok.rstrip("+#!?")
    if tok.isdigit():
        board.push_uci(numeric(tok))
        return
    for ru, en in RU_PIECES:
        tok = tok.replace(ru, en)
    tok = tok.replace("0-0-0", "O-O-O").replace("0-0", "O-O")
    if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", tok):
        board.push_uci(tok)
    else:
        board.push_san(tok.replace("-", "") if "O" not in tok else tok)


def body(raw):
    """The first text/plain part, decoded. (The compat32 API: `policy.default` with
    `get_body()` reads the same text about twice as slowly, which would flatter ccmail.)"""
    for part in email.message_from_bytes(raw).walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True) or b""
            return payload.decode(part.get_content_charset() or "utf-8", "replace")
    return ""


def read(raw):
    """True when the message's moves were all read and legal."""
    text = body(raw)
    board = chess.Board()
    tokens = [t for line in MOVE_LINE.findall(text) for t in NUMBER.sub(" ", line).split()]
    if not tokens:
        return False
    try:
        for tok in tokens:
            push(board, tok)
    except (ValueError, IndexError):
        return False
    return True


def throughput(set_, seconds):
    ok = sum(read(raw) for raw in set_)
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        for raw in set_:
            read(raw)
        n += len(set_)
    return n / (time.perf_counter() - start), ok


def write_both(root):
    """`NN/both-read`: the files of each set that this script and ccmail both read through."""
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        ours = set((sub / "ccmail-read").read_text().split())
        both = [p.name for p in sorted(sub.glob("*.eml")) if p.name in ours and read(p.read_bytes())]
        (sub / "both-read").write_text("".join(f"{name}\n" for name in both))


def main():
    if sys.argv[1] == "--both":
        write_both(pathlib.Path(sys.argv[2]))
        return
    root = pathlib.Path(sys.argv[1])
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.5
    print(f"{'set':<32} {'messages':>9} {'messages/s':>14} {'read through':>13}")
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        name = (sub / "name").read_text()
        files = sorted(sub.glob("*.eml"))
        set_ = [p.read_bytes() for p in files]
        rate, ok = throughput(set_, seconds)
        print(f"{name:<32} {len(set_):>9} {rate:>14.0f} {ok:>13}")
        both_list = sub / "both-read"
        if both_list.exists():
            names = set(both_list.read_text().split())
            both = [raw for p, raw in zip(files, set_) if p.name in names]
            if 0 < len(both) < len(set_):
                rate, ok = throughput(both, seconds)
                print(f"{name + ', both read':<32} {len(both):>9} {rate:>14.0f} {ok:>13}")


if __name__ == "__main__":
    main()
