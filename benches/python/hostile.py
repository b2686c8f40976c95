#!/usr/bin/env python3
"""The daemon's peak memory with hostile mail ahead of a partner's move, on the real test
servers: `ccmail run --once` from a fresh store (one game, Black) on a mailbox of ten hostile
letters from the partner's own address (so that each is fetched and read, the worst case)
and then the partner's real move, under /usr/bin/time.

Two mailboxes, the six shapes taking turns in each: ten letters of 50 MB (over the daemon's
cap on a letter fetched whole: only their heads are fetched), and ten of 7.5 MB (under it:
fetched whole, and stopped by the MIME layer's and the reader's caps, but for the base64
attachment beside a short text, which is not read and not too large). The shapes: blank
lines, one long line, multiparts nested 40,000 deep, a huge base64 attachment, a million tiny
parts, and a game header followed by megabytes of move-like tokens.

    hostile.py CCMAIL_BINARY

Prints `RESULT hostile_<n>mb_rss_kb`, `…_held` and `…_applied` for benches/run's table, and
fails when the move behind the letters is not applied or a letter is not held.
"""

import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from daemon import LOGIN, S, imap, result

# The partner (White) writes from this address; the player (Black) is ME, reading LOGIN's
# mailbox.
PARTNER = "white.partner@example.org"
ME = "black@example.test"
HEADER = "Event: Hostile Cup 2026\r\nWhite: Белов\r\nBlack: Чернов\r\n\r\n"
SHAPES = ["blank lines", "one long line", "deep multipart", "base64 attachment",
          "tiny parts", "move tokens"]


def letter(shape, size, n):
    """A letter of `shape`, about `size` bytes, from the partner."""
    head = (f"From: <{PARTNER}>\r\nTo: <{ME}>\r\nSubject: hostile {n}\r\n"
            f"Date: Mon, 02 Mar 2026 09:00:00 +0300\r\nMessage-ID: <hostile.{size}.{n}@example.org>\r\n")
    text = "Content-Type: text/plain; charset=utf-8\r\n\r\n" + HEADER
    if shape == "blank lines":
        body = text + "1. e2-e4\r\n"
        return (head + body).encode() + b"\r\n" * ((size - len(body)) // 2)
    if shape == "one long line":
        return (head + text).encode() + b"1. e4 e5 2. Nf3 " * (size // 16)
    if shape == "deep multipart":
        depth = 40_000
        opening = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'
                          for i in range(depth))
        closing = "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
        filler = size - len(opening) - len(closing)
        return ((head + opening + text).encode() + b"\r\n" * (filler // 2) + closing.encode())
    if shape == "base64 attachment":
        line = b"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAx\r\n"
        return ((head + 'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\n' + text
                 + "A photo of the board.\r\n--b\r\nContent-Type: application/octet-stream\r\n"
                 "Content-Transfer-Encoding: base64\r\n\r\n").encode()
                + line * (size // len(line)) + b"--b--\r\n")
    if shape == "tiny parts":
        part = b"--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
        return ((head + 'Content-Type: multipart/mixed; boundary="b"\r\n\r\n').encode()
                + part * (size // len(part)) + b"--b--\r\n")
    if shape == "move tokens":
        line = b"1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 4. Bb5-a4 Ng8-f6 5. O-O Bf8-e7\r\n"
        return (head + text).encode() + line * (size // len(line))
    raise ValueError(shape)


def the_move():
    """The partner's real move, in the standard form: White's 1. e4."""
    return (f"From: <{PARTNER}>\r\nTo: <{ME}>\r\nSubject: Hostile Cup 2026\r\n"
            f"Date: Mon, 02 Mar 2026 09:00:00 +0300\r\nMessage-ID: <the.move@example.org>\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{HEADER}"
            "My move: 1. e2-e4 sent 02.03.2026\r\n\r\nБелов Борис\r\n").encode()


def mailbox(size):
    """The mailbox of ten hostile letters of `size` and the move, filled once."""
    name = f"bench-hostile-{size}-v1"
    c = imap()
    typ, data = c.status(f'"{name}"', "(MESSAGES)")
    if typ == "OK" and b"MESSAGES 11)" in data[0]:
        c.logout()
        return name
    if typ == "OK":
        c.delete(f'"{name}"')
    c.create(f'"{name}"')
    for n in range(10):
        raw = letter(SHAPES[n % len(SHAPES)], size, n)
        typ, _ = c.append(f'"{name}"', None, None, raw)
        assert typ == "OK", f"APPEND of {len(raw)} bytes failed"
    c.append(f'"{name}"', None, None, the_move())
    c.logout()
    return name


def player(binary, box):
    home = pathlib.Path(tempfile.mkdtemp(prefix="ccmail-hostile-"))
    (home / "config.toml").write_text(
        f'[player]\nname = "Чернов Чеслав"\nsurname = "Чернов"\nemail = "{ME}"\n'
        f'timezone = "Europe/Moscow"\n\n[store]\npath = "{home / "ccmail.db"}"\n\n'
        f'[imap]\nhost = "{S["host"]}"\nport = {S["imap"]}\nsecurity = "plain"\n'
        f'username = "{LOGIN}"\npassword_env = "CCMAIL_BENCH_PASSWORD"\nmailbox = "{box}"\n'
        f'first_sync_since = 2026-02-01\n'
    )
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "CCMAIL_CONFIG": str(home / "config.toml"),
        "CCMAIL_BENCH_PASSWORD": S["password"],
        "NO_COLOR": "1",
    }
    for args in (["init"], ["game", "new", "--event", "Hostile Cup 2026", "--start", "2026-03-01",
                           "--white", "Белов", "--black", "Чернов", "--color", "black",
                           "--opponent", PARTNER, "--arbiter", "arbiter@example.test"]):
        subprocess.run([binary, "--now", "2026-03-01", *args], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    return home, env


def measure(binary, size):
    box = mailbox(size)
    home, env = player(binary, box)
    peak = home / "peak"
    p = subprocess.run(
        ["/usr/bin/time", "-f", "%M", "-o", str(peak), binary, "--now", "2026-03-03", "run",
         "--once"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit(f"ccmail run --once failed ({p.returncode}):\n{p.stderr.decode()[-3000:]}")
    rss = int(peak.read_text().split()[-1])
    db = sqlite3.connect(home / "ccmail.db")
    held = db.execute("select count(*) from messages where status = 'held' "
                      "and reason like '%too large%'").fetchone()[0]
    stored = db.execute("select coalesce(max(length(raw)), 0) from messages").fetchone()[0]
    applied = db.execute("select count(*) from moves").fetchone()[0]
    db.close()
    shutil.rmtree(home)
    key = f"hostile_{size >> 20}mb" if size % (1 << 20) == 0 else f"hostile_{size * 10 >> 20}e-1mb"
    result(f"{key}_rss_kb", rss)
    result(f"{key}_held", held)
    result(f"{key}_applied", applied)
    result(f"{key}_largest_stored", stored)
    print(f"ten {size / (1 << 20):.1f} MB letters: peak RSS {rss / 1024:.1f} MB, "
          f"{held} held as too large, largest stored {stored} bytes, moves {applied}",
          file=sys.stderr)
    # Under the cap, a huge attachment beside a short text is not read, and the letter is:
    # it is no letter too large.
    expected = 10 if size > (8 << 20) else 10 - sum(
        SHAPES[n % len(SHAPES)] == "base64 attachment" for n in range(10))
    if held != expected or applied != 1:
        sys.exit(f"expected {expected} held and the move applied: {held} held, {applied} moves")


def main():
    binary = sys.argv[1]
    for size in (50 << 20, 15 << 19):
        measure(binary, size)


if __name__ == "__main__":
    main()
