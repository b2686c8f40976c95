#!/usr/bin/env python3
"""The daemon's benchmarks (first sync, latency, footprint) on the real test servers, each next
to its limit measured in the same run:

  sync      first sync: `ccmail run --once` of a 5,000-message mailbox (and of a 1,000 one, for
            the memory; and of the 5,000 one whose moves are for 500 games against one
            address, match-N) next to imaplib's bare `UID FETCH 1:* BODY.PEEK[]` and bare
            `UID FETCH 1:* BODY.PEEK[HEADER]` (the floor): time, and the bytes Dovecot sent
            each (its `out=`); the server's own part of the first sync (ccmail's commands,
            recorded and replayed without ccmail); then the 5,000-message first sync once
            more, through a home line's rate and round trips (link.py; CCMAIL_BENCH_LINK);
  live      latency: 100 moves sent by SMTP to a running `ccmail run` (IDLE), SMTP accepted ->
            move applied, next to a bare IDLE client's SMTP accepted -> `* N EXISTS` for the
            very same deliveries; then footprint: the idle daemon's memory, and its CPU and
            wake-ups over an idle minute (CCMAIL_BENCH_IDLE_SECS, default 60).

    daemon.py sync|live CCMAIL_BINARY FIXTURES

FIXTURES is what `cargo bench --bench mailbox` wrote (store.db, mail-N/, live/). The servers
are found as the tests find them (MAILSERVER_* or /tmp/ccmail-mail/etc/env). Each figure is
also printed as `RESULT key value` for benches/run's table.
"""

import hashlib
import imaplib
import os
import re
import pathlib
import shutil
import signal
import smtplib
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from link import Link

NOW = "2026-03-02"
LOGIN = "white@example.test"
# The bare IDLE client's login: the same deliveries, a mailbox of its own.
BARE = "black@example.test"


def servers():
    env = dict(os.environ)
    path = pathlib.Path(env.get("MAILSERVER_DIR", "/tmp/ccmail-mail")) / "etc/env"
    if path.exists():
        for line in path.read_text().splitlines():
            key, _, value = line.removeprefix("export ").partition("=")
            env.setdefault(key, value.strip("'\""))
    return {
        "host": env.get("MAILSERVER_HOST", "127.0.0.1"),
        "imap": int(env.get("MAILSERVER_IMAP_PORT", "11143")),
        "smtp": int(env.get("MAILSERVER_SMTP_PORT", "11025")),
        "password": env.get("MAILSERVER_PASSWORD", "secret"),
    }


S = servers()


def result(key, value):
    print(f"RESULT {key} {value}", flush=True)


def results(key, **figures):
    """`key_name value` for each of `figures`."""
    for name, value in figures.items():
        result(f"{key}_{name}", value)


def imap(login=LOGIN, port=None):
    c = imaplib.IMAP4(S["host"], port or S["imap"])
    c.login(login, S["password"])
    return c


# ------------------------------------------------------------------ filling a mailbox


def append_all(mailbox, folder):
    """APPENDs the messages of `folder` (index.tsv order) pipelined with LITERAL+."""
    index = [line.split("\t") for line in (folder / "index.tsv").read_text().splitlines()]
    sock = socket.create_connection((S["host"], S["imap"]))
    f = sock.makefile("rb")
    f.readline()
    sock.sendall(f'l LOGIN "{LOGIN}" "{S["password"]}"\r\n'.encode())
    while not f.readline().startswith(b"l "):
        pass
    done = threading.Event()
    failures = []

    def read():
        n = 0
        while n < len(index):
            line = f.readline()
            if not line:
                break
            if line.startswith(b"a"):
                n += 1
                if b" OK " not in line:
                    failures.append(line)
        done.set()

    threading.Thread(target=read, daemon=True).start()
    for i, (name, date) in enumerate(index):
        raw = (folder / name).read_bytes()
        sock.sendall(f'a{i} APPEND "{mailbox}" () "{date}" {{{len(raw)}+}}\r\n'.encode() + raw + b"\r\n")
    done.wait()
    sock.sendall(b"z LOGOUT\r\n")
    sock.close()
    if failures:
        sys.exit(f"APPEND failed: {failures[:3]}")


def mailbox_for(folder):
    """The mailbox holding `folder`'s messages, filled once (its name carries a digest)."""
    digest = hashlib.sha1()
    for name in sorted(p.name for p in folder.iterdir()):
        digest.update(name.encode())
        digest.update(str((folder / name).stat().st_size).encode())
    name = f"bench-{folder.name}-{digest.hexdigest()[:8]}"
    c = imap()
    typ, data = c.status(f'"{name}"', "(MESSAGES)")
    count = len((folder / "index.tsv").read_text().splitlines())
    if typ == "OK" and f"MESSAGES {count})".encode() in data[0]:
        c.logout()
        indexed(name)
        return name
    typ, listed = c.list('""', f'"bench-{folder.name}-*"')
    for line in listed or []:
        if line:
            old = line.decode().rsplit(" ", 1)[-1].strip('"')
            c.delete(f'"{old}"')
    c.create(f'"{name}"')
    c.logout()
    t = time.perf_counter()
    append_all(name, folder)
    print(f"filled {name}: {count} messages in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    indexed(name)
    return name


def indexed(mailbox):
    """Waits until the server's full-text index covers `mailbox` (tests/mailserver: Dovecot's
    Lucene plugin, fed as mail is saved, as a mail provider's search index is): a text search
    waits for the indexer to catch up, which is the server's work on new mail, not a sync's."""
    t = time.perf_counter()
    c = imap()
    c.select(f'"{mailbox}"', readonly=True)
    c.uid("SEARCH", "BODY", '"ccmail-bench-index"')
    c.logout()
    print(f"{mailbox}: text index ready in {time.perf_counter() - t:.1f} s", file=sys.stderr)


# ------------------------------------------------------------------ a player


def player(fixtures, mailbox, email, store="store.db", port=None):
    home = pathlib.Path(tempfile.mkdtemp(prefix="ccmail-bench-"))
    shutil.copy(fixtures / store, home / "ccmail.db")
    (home / "config.toml").write_text(
        f'[player]\nname = "Чернов Чеслав"\nsurname = "Чернов"\nemail = "{email}"\n'
        f'timezone = "Europe/Moscow"\n\n[store]\npath = "{home / "ccmail.db"}"\n\n'
        f'[imap]\nhost = "{S["host"]}"\nport = {port or S["imap"]}\nsecurity = "plain"\n'
        f'username = "{LOGIN}"\npassword_env = "CCMAIL_BENCH_PASSWORD"\nmailbox = "{mailbox}"\n'
    )
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "CCMAIL_CONFIG": str(home / "config.toml"),
        "CCMAIL_BENCH_PASSWORD": S["password"],
        "NO_COLOR": "1",
    }
    return home, env


# ------------------------------------------------------------------ item 2: first sync


def bare_fetch(mailbox, item="BODY.PEEK[]", port=None):
    """Connect, LOGIN, SELECT, `UID FETCH 1:* (item)`: seconds, the bytes of the messages
    (or headers), and the bytes Dovecot sent the IMAP session (None without its log). `port`: the
    server's, or a `Link`'s to it."""
    log = dovecot_log()
    offset = log.stat().st_size if log else 0
    t = time.perf_counter()
    c = imap(port=port)
    c.select(f'"{mailbox}"', readonly=True)
    typ, data = c.uid("FETCH", "1:*", f"({item})")
    elapsed = time.perf_counter() - t
    size = sum(len(d[1]) for d in data if isinstance(d, tuple))
    c.logout()
    return elapsed, size, served_since(log, offset)


def dovecot_log():
    path = pathlib.Path(os.environ.get("MAILSERVER_DIR", "/tmp/ccmail-mail")) / "log/dovecot.log"
    return path if path.exists() else None


def served_since(log, offset):
    """Bytes Dovecot sent to LOGIN's IMAP sessions that logged in after byte `offset` of its
    log (the `out=` of their `Logged out` lines), or None without the log. Dovecot tells an
    IMAP session by its `session=<…>` id: the bare fetch just before logs out too, and
    Dovecot's log process may write that line after `offset`. Waits up to a second for the
    lines: the log process writes them after the client has gone."""
    if log is None:
        return None
    deadline = time.monotonic() + 1.0
    while True:
        with open(log, "rb") as f:
            f.seek(offset)
            lines = f.read().decode(errors="replace").splitlines()
        imap_sessions = {
            m.group(1)
            for line in lines
            if f"Login: user=<{LOGIN}>" in line
            for m in [re.search(r"session=<([^>]+)>", line)]  # Dovecot's IMAP session id
            if m
        }
        outs = {
            m.group(1): int(m.group(2))
            for line in lines
            if f"imap({LOGIN})" in line and "Logged out" in line
            for m in [re.search(r"<([^<>]+)>: .* out=(\d+)", line)]
            if m and m.group(1) in imap_sessions
        }
        if (imap_sessions and len(outs) == len(imap_sessions)) or time.monotonic() > deadline:
            return sum(outs.values()) if outs else None
        time.sleep(0.02)


def ccmail_once(binary, fixtures, mailbox, store="store.db", port=None):
    """`ccmail run --once` from a fresh store: seconds, peak RSS in KB, the store's counts, the
    moves applied, and the bytes the server sent it (None when its log is not at hand).
    `port`: the server's, or a `Link`'s to it."""
    home, env = player(fixtures, mailbox, LOGIN, store, port)
    log = dovecot_log()
    offset = log.stat().st_size if log else 0
    # Peak RSS by /usr/bin/time: the rusage of a child forked from this Python counts the
    # pages it shared with the parent before exec (the bare fetch's 100 MB) as its own.
    peak = home / "peak"
    t = time.perf_counter()
    p = subprocess.run(
        ["/usr/bin/time", "-f", "%M", "-o", str(peak), binary, "--now", NOW, "run", "--once"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"ccmail run --once failed ({p.returncode}):\n{p.stderr.decode()}")
    rss = int(peak.read_text().split()[-1])
    db = sqlite3.connect(home / "ccmail.db")
    counts = dict(db.execute("select status, count(*) from messages group by status").fetchall())
    moves = db.execute("select count(*) from moves").fetchone()[0]
    db.close()
    shutil.rmtree(home)
    return elapsed, rss, counts, moves, served_since(log, offset)


# ccmail's first look at new mail (crates/mail's `fetch_headers` with the filter's
# `SIFT_FIELDS`), asked by imaplib: what the server takes to answer it, without ccmail.
FIRST_LOOK = (
    "UID RFC822.SIZE INTERNALDATE BODYSTRUCTURE "
    "BODY.PEEK[HEADER.FIELDS (From In-Reply-To References)]"
)


def take_turns(binary, fixtures, box, store, rounds, port=None):
    """`rounds` turns of the bare fetch, the headers-only fetch, ccmail's first look by
    imaplib and ccmail's first sync, all through `port` (the server's, or a `Link`'s): what
    each returned, a list each."""
    bare, head, look, ours = [], [], [], []
    for _ in range(rounds):
        bare.append(bare_fetch(box, port=port))
        head.append(bare_fetch(box, "BODY.PEEK[HEADER]", port=port))
        look.append(bare_fetch(box, FIRST_LOOK, port=port))
        ours.append(ccmail_once(binary, fixtures, box, store, port))
    return bare, head, look, ours


def commands(sent):
    """The IMAP commands in what a client sent: each a line, with the literals it carries
    (`{n}` or `{n+}` at a line's end, the next n bytes)."""
    out, i = [], 0
    while i < len(sent):
        start = i
        while True:
            end = sent.index(b"\r\n", i)
            literal = re.search(rb"\{(\d+)\+?\}$", sent[i:end])
            i = end + 2 + (int(literal.group(1)) if literal else 0)
            if not literal:
                break
        out.append(sent[start:i])
    return out


def replayed(sent):
    """Seconds for the server to answer these commands, sent one after another by a raw
    socket on a new connection, each when the last is done (its tagged reply read), nothing
    of the answers parsed or kept."""
    t = time.perf_counter()
    s = socket.create_connection((S["host"], S["imap"]))
    s.recv(4096)  # the greeting
    for command in sent:
        done = re.compile(rb"(^|\r\n)" + re.escape(command.split(b" ", 1)[0]) + rb" [^\r\n]*\r\n$")
        s.sendall(command)
        tail = b""
        while not done.search(tail):
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            tail = (tail + chunk)[-4096:]
    s.close()
    return time.perf_counter() - t


def server_part(binary, fixtures, box, store, rounds):
    """The server's own part of ccmail's first sync: the commands ccmail sends (recorded once
    through a `Link` of loopback's speed), replayed `rounds` times by `replayed`: the first
    sync's time without ccmail's, the least any client asking the same takes. The median,
    and the commands."""
    sent = []
    with Link((S["host"], S["imap"]), 1e6, 1e6, 0, sent=sent) as port:
        ccmail_once(binary, fixtures, box, store, port)
    asked = commands(b"".join(sent))
    return statistics.median(replayed(asked) for _ in range(rounds)), asked


def sync(binary, fixtures):
    sizes = sorted(int(p.name.split("-")[1]) for p in fixtures.glob("mail-*"))
    runs = [(f"sync{n}", fixtures / f"mail-{n}", "store.db") for n in sizes]
    runs += [
        (f"match{p.name.split('-')[1]}", p, "store-match.db")
        for p in sorted(fixtures.glob("match-*"))
    ]
    rounds = int(os.environ.get("CCMAIL_BENCH_ROUNDS", "5"))
    for key, folder, store in runs:
        box = mailbox_for(folder)
        bare_fetch(box)  # the mailbox into the page cache for all three
        turns = take_turns(binary, fixtures, box, store, rounds)
        bare, head, look, ours = ([t[0] for t in turn] for turn in turns)
        size, head_size = turns[0][-1][1], turns[1][-1][1]
        rss = [t[1] for t in turns[3]]
        _, _, counts, moves, _ = turns[3][-1]
        served = {
            k: [t[-1] for t in turn] for k, turn in zip(("bare", "head", "look", "ccmail"), turns)
        }
        b, h, f, o = (statistics.median(x) for x in (bare, head, look, ours))
        server, asked = server_part(binary, fixtures, box, store, rounds)
        runs_ms = lambda xs: ", ".join(f"{x * 1000:.0f}" for x in xs)
        print(
            f"{key}: the server answers ccmail's {len(asked)} commands, replayed, in "
            f"{server * 1000:.0f} ms = {server / b:.2f}x the bare fetch"
        )
        print(
            f"{key}: {folder.name} ({size / 1e6:.1f} MB, headers {head_size / 1e6:.1f} MB): bare "
            f"imaplib fetch {b * 1000:.0f} ms (runs {runs_ms(bare)}), headers only "
            f"{h * 1000:.0f} ms (runs {runs_ms(head)}), ccmail's first look {f * 1000:.0f} ms "
            f"(runs {runs_ms(look)}), ccmail run --once {o * 1000:.0f} ms "
            f"(runs {runs_ms(ours)}) = {o / b:.2f}x; peak RSS {max(rss) / 1024:.1f} MB; "
            f"stored {counts}, {moves} moves applied"
        )
        results(
            key,
            bare_ms=f"{b * 1000:.0f}",
            head_ms=f"{h * 1000:.0f}",
            ccmail_ms=f"{o * 1000:.0f}",
            ratio=f"{o / b:.2f}",
            head_ratio=f"{h / b:.2f}",
            look_ms=f"{f * 1000:.0f}",
            look_ratio=f"{f / b:.2f}",
            server_ms=f"{server * 1000:.0f}",
            server_ratio=f"{server / b:.2f}",
            commands=len(asked),
            rss_mb=f"{max(rss) / 1024:.1f}",
            mb=f"{size / 1e6:.1f}",
            stored=sum(counts.values()),
            moves=moves,
        )
        # Dovecot's own count of what it sent each IMAP session (the same in every round, but for
        # the odd untagged line): the median.
        outs = {k: [x for x in v if x is not None] for k, v in served.items()}
        if all(outs.values()):
            mb = {k: statistics.median(v) / 1e6 for k, v in outs.items()}
            print(
                f"{key}: Dovecot sent the bare fetch {mb['bare']:.2f} MB, the headers-only "
                f"fetch {mb['head']:.2f} MB, ccmail's first look {mb['look']:.2f} MB, ccmail "
                f"{mb['ccmail']:.2f} MB = "
                f"{mb['ccmail'] / mb['bare']:.3f}x"
            )
            results(
                key,
                bare_served_mb=f"{mb['bare']:.2f}",
                head_served_mb=f"{mb['head']:.2f}",
                look_served_mb=f"{mb['look']:.2f}",
                served_mb=f"{mb['ccmail']:.2f}",
                served_ratio=f"{mb['ccmail'] / mb['bare']:.3f}",
            )
        if key == f"sync{sizes[-1]}":
            over_a_link(binary, fixtures, key, box, store)


def link_settings():
    """CCMAIL_BENCH_LINK: `DOWN,UP,RTT` (Mbit/s, Mbit/s, ms), by default a home line of
    20 Mbit/s down, 5 up and 30 ms round trips; `0` measures no link."""
    text = os.environ.get("CCMAIL_BENCH_LINK", "20,5,30")
    if text == "0":
        return None
    down, up, rtt = (float(x) for x in text.split(","))
    return down, up, rtt


def over_a_link(binary, fixtures, key, box, store):
    """The largest mailbox's first sync once more, through a `Link` (a home line's rate and
    round trips) for all three: what a player waits, where the bytes are no longer free.
    One round (CCMAIL_BENCH_LINK_ROUNDS): the bare fetch alone takes most of a minute."""
    settings = link_settings()
    if settings is None:
        return
    down, up, rtt = settings
    rounds = int(os.environ.get("CCMAIL_BENCH_LINK_ROUNDS", "1"))
    with Link((S["host"], S["imap"]), down, up, rtt) as port:
        turns = take_turns(binary, fixtures, box, store, rounds, port)
    b, h, f, o = (statistics.median(t[0] for t in turn) for turn in turns)
    print(
        f"{key} over a {down:g}/{up:g} Mbit/s link, {rtt:g} ms round trips: bare imaplib "
        f"fetch {b:.1f} s, headers only {h:.1f} s, ccmail's first look {f:.2f} s, "
        f"ccmail run --once {o:.2f} s = {o / b:.3f}x"
    )
    results(
        key,
        link=f"{down:g},{up:g},{rtt:g}",
        link_bare_s=f"{b:.1f}",
        link_head_s=f"{h:.2f}",
        link_look_s=f"{f:.2f}",
        link_ccmail_s=f"{o:.2f}",
        link_ratio=f"{o / b:.3f}",
    )


# ------------------------------------------------------------------ items 3 and 4


class Lines:
    """A child's stderr lines, each with the instant it was read."""

    def __init__(self, stream):
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in stream:
            at = time.perf_counter()
            with self.cond:
                self.lines.append((at, line.decode(errors="replace")))
                self.cond.notify_all()

    def wait(self, what, start=0, timeout=20.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for at, line in self.lines[start:]:
                    if what in line:
                        return at
                left = deadline - time.monotonic()
                if left <= 0:
                    tail = "".join(line for _, line in self.lines[-20:])
                    sys.exit(f"no {what!r} within {timeout} s; the daemon's log ends:\n{tail}")
                self.cond.wait(left)

    def mark(self):
        with self.cond:
            return len(self.lines)


class BareIdle:
    """A bare IDLE client: raw socket, LOGIN, SELECT, IDLE; the instant of each EXISTS push.

    It watches another user's mailbox, which gets the same deliveries: two IMAP sessions on one
    mailbox wake each other (ccmail's FETCH changes the index, which starts the other one's
    0.5 s notify delay in Dovecot early, and its next push then comes early)."""

    def __init__(self, login, mailbox):
        self.sock = socket.create_connection((S["host"], S["imap"]))
        self.f = self.sock.makefile("rb")
        self.f.readline()
        self._command(f'l LOGIN "{login}" "{S["password"]}"', b"l ")
        self._command(f's SELECT "{mailbox}"', b"s ")
        self.sock.sendall(b"i IDLE\r\n")
        while not self.f.readline().startswith(b"+"):
            pass
        self.pushes = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _command(self, line, tag):
        self.sock.sendall(line.encode() + b"\r\n")
        while not (reply := self.f.readline()).startswith(tag):
            pass
        if b" OK " not in reply:
            sys.exit(f"bare IDLE client: {line.split()[1]}: {reply!r}")

    def _read(self):
        for line in self.f:
            if line.startswith(b"* ") and line.rstrip().endswith(b" EXISTS"):
                at = time.perf_counter()
                with self.cond:
                    self.pushes.append(at)
                    self.cond.notify_all()

    def wait(self, count, timeout=20.0):
        with self.cond:
            self.cond.wait_for(lambda: len(self.pushes) >= count, timeout)
            return self.pushes[count - 1] if len(self.pushes) >= count else None

    def close(self):
        try:
            self.sock.sendall(b"DONE\r\nz LOGOUT\r\n")
        finally:
            self.sock.close()


def proc_status(pid):
    """VmRSS, VmHWM (KB) and context switches summed over the process's threads."""
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        fields[key] = value.split()[0] if value.split() else ""
    voluntary, involuntary = {}, 0
    for task in os.listdir(f"/proc/{pid}/task"):
        name = open(f"/proc/{pid}/task/{task}/comm").read().strip()
        for line in open(f"/proc/{pid}/task/{task}/status"):
            if line.startswith("voluntary_ctxt_switches"):
                voluntary[f"{name}/{task}"] = int(line.split()[1])
            elif line.startswith("nonvoluntary_ctxt_switches"):
                involuntary += int(line.split()[1])
    stat = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    ticks = int(stat[11]) + int(stat[12])  # utime + stime
    return int(fields["VmRSS"]), int(fields["VmHWM"]), voluntary, involuntary, ticks


KEEPALIVE_BYTES = len(b"* OK Still here\r\n")


def bytes_read(pid):
    """Bytes the process's TCP connections have received (`ss -ti`: bytes_received)."""
    if shutil.which("ss") is None:
        sys.exit("benches: item 4 needs ss (iproute2) to count what the server sent")
    out = subprocess.run(["ss", "-tinpH"], capture_output=True, text=True, check=True).stdout
    total, ours = 0, False
    for line in out.splitlines():
        if not line[:1].isspace():  # a socket's line; its details follow, indented
            ours = f"pid={pid}," in line
        elif ours:
            m = re.search(r"bytes_received:(\d+)", line)
            total += int(m.group(1)) if m else 0
    return total


def live(binary, fixtures):
    count = int(os.environ.get("CCMAIL_BENCH_MOVES", "100"))
    idle_secs = float(os.environ.get("CCMAIL_BENCH_IDLE_SECS", "60"))
    mailbox = f"benchlive{int(time.time())}"
    for login in (LOGIN, BARE):
        c = imap(login)
        c.create(f'"{mailbox}"')
        c.logout()
    address = f"white+{mailbox}@example.test"
    home, env = player(fixtures, mailbox, address)
    env["RUST_LOG"] = "info,ccmail=debug"
    daemon = subprocess.Popen(
        [binary, "--now", NOW, "run"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        log = Lines(daemon.stderr)
        log.wait("waiting for new mail idle=true")
        bare = BareIdle(BARE, mailbox)
        smtp = smtplib.SMTP(S["host"], S["smtp"])
        ours, theirs, own = [], [], []
        for game in range(count):
            raw = (fixtures / "live" / f"{game:03}.eml").read_bytes()
            mark = log.mark()
            smtp.sendmail(f"opp{game:03}@example.org", [address, f"black+{mailbox}@example.test"], raw)
            accepted = time.perf_counter()
            # The daemon's own part: from IDLE waking it to the move applied and committed.
            woke = log.wait("awake outcome=NewMail", mark)
            applied = log.wait(f"game g{game:03}: applied 1.", mark)
            pushed = bare.wait(game + 1)
            if pushed is None:
                sys.exit(f"the bare IDLE client saw no push for move {game + 1}")
            ours.append((applied - accepted) * 1000)
            own.append((applied - woke) * 1000)
            theirs.append((pushed - accepted) * 1000)
            # Dovecot's 0.5 s notify delay runs from the first change it sees, and an IMAP session's
            # own index writes after a push count: the next move waits until that has passed.
            time.sleep(1.0)
        smtp.quit()
        bare.close()
        for name, xs in (("ccmail", ours), ("bare", theirs)):
            print(
                f"latency, {name}: median {statistics.median(xs):.0f} ms, worst {max(xs):.0f} ms, "
                f"best {min(xs):.0f} ms over {len(xs)} moves"
            )
            result(f"latency_{name}_median_ms", f"{statistics.median(xs):.0f}")
            result(f"latency_{name}_worst_ms", f"{max(xs):.0f}")
        diff = statistics.median(a - b for a, b in zip(ours, theirs))
        result("latency_diff_median_ms", f"{diff:.0f}")
        print(f"latency, ccmail - bare, same delivery: median {diff:.0f} ms")
        result("latency_own_median_ms", f"{statistics.median(own):.0f}")
        result("latency_own_worst_ms", f"{max(own):.0f}")
        print(
            f"latency, ccmail's own part (IDLE woke it → applied): median "
            f"{statistics.median(own):.0f} ms, worst {max(own):.0f} ms"
        )

        # Item 4: let the daemon settle (its outbox pass after the last move), then watch it.
        time.sleep(3)
        rss, hwm, vol0, invol0, ticks0 = proc_status(daemon.pid)
        read0 = bytes_read(daemon.pid)
        t = time.perf_counter()
        time.sleep(idle_secs)
        elapsed = time.perf_counter() - t
        rss1, hwm1, vol1, invol1, ticks1 = proc_status(daemon.pid)
        # IDLE's own wake-ups in the window: what the server sent on the daemon's connections.
        # Dovecot's keep-alive, `* OK Still here` every 2 min, is 17 bytes.
        read = bytes_read(daemon.pid) - read0
        spoke = -(-read // KEEPALIVE_BYTES)
        hz = os.sysconf("SC_CLK_TCK")
        cpu_ms = (ticks1 - ticks0) * 1000 / hz
        # By thread: one born in the window counts all its switches; one that ended in it
        # (its count gone with it) counts one, its last wake-up.
        woke = {t: n - vol0.get(t, 0) for t, n in vol1.items() if n != vol0.get(t, 0)}
        woke.update({t: 1 for t in vol0 if t not in vol1})
        wakeups = sum(woke.values())
        print(
            f"idle daemon, 200 active games: VmRSS {rss1 / 1024:.1f} MB (peak VmHWM {hwm1 / 1024:.1f} MB); "
            f"over {elapsed:.0f} s idle: CPU {cpu_ms:.0f} ms, {wakeups} voluntary and "
            f"{invol1 - invol0} involuntary context switches (by thread: {woke}); "
            f"IDLE's own: it read {read} bytes, {spoke} keep-alive(s)"
        )
        result("idle_rss_mb", f"{rss1 / 1024:.1f}")
        result("idle_hwm_mb", f"{hwm1 / 1024:.1f}")
        result("idle_secs", f"{elapsed:.0f}")
        result("idle_cpu_ms", f"{cpu_ms:.0f}")
        result("idle_wakeups", wakeups)
        result("idle_server_spoke", spoke)
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(10)
        except subprocess.TimeoutExpired:
            daemon.kill()
        shutil.rmtree(home, ignore_errors=True)
        for login in (LOGIN, BARE):
            c = imap(login)
            c.delete(f'"{mailbox}"')
            c.logout()


def profile(binary, fixtures):
    """`ccmail run --once` of the largest mailbox under the command in CCMAIL_BENCH_WRAP
    (e.g. `valgrind --tool=callgrind`), its home kept and printed: for finding out why."""
    size = max(int(p.name.split("-")[1]) for p in fixtures.glob("mail-*"))
    box = mailbox_for(fixtures / f"mail-{size}")
    home, env = player(fixtures, box, LOGIN)
    env["RUST_LOG"] = os.environ.get("RUST_LOG", "info")
    wrap = os.environ.get("CCMAIL_BENCH_WRAP", "").split()
    t = time.perf_counter()
    subprocess.run([*wrap, binary, "--now", NOW, "run", "--once"], env=env, check=True, cwd=home)
    print(f"{time.perf_counter() - t:.2f} s; home {home}")


def main():
    what, binary, fixtures = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    {"sync": sync, "live": live, "profile": profile}[what](binary, fixtures)


if __name__ == "__main__":
    main()
