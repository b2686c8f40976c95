#!/usr/bin/env python3
"""Scores ccmail's reader on a folder of letters written by people who had not seen its
fixtures: each `NAME.eml` beside a `NAME.expect.json` in the samples' form (only the keys
given are checked; objects key by key; strings NFC-normalised and trimmed; `[]` variation
also accepts null; `problem_codes` an exact set or {"include": [...], "exclude": [...]}).

    python3 benches/python/letters.py target/release/ccmail benches/letters/first [-v]

Prints one line a failing letter (with the keys that differ, and with -v both values) and the
score. A generalisation figure, not a test: the letters are never tuned to the reader.
"""
import json
import subprocess
import sys
import unicodedata
from pathlib import Path


def norm(v):
    if isinstance(v, str):
        return unicodedata.normalize("NFC", v).strip()
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


def differs(key, want, got):
    """The sub-keys (or the key) where `got` is not what `want` says."""
    if key == "problem_codes":
        codes = {p.get("code") for p in (got or [])}
        if isinstance(want, dict):
            ok = set(want.get("include", [])) <= codes and not (codes & set(want.get("exclude", [])))
        else:
            ok = codes == set(want)
        return [] if ok else [key]
    if key == "variation" and want == [] and got is None:
        return []
    if isinstance(want, dict) and isinstance(got, dict):
        return [f"{key}.{k}" for k, w in want.items() if norm(w) != norm(got.get(k))]
    return [] if norm(want) == norm(got) else [key]


def score(binary, folder, verbose):
    letters = sorted(Path(folder).glob("*.eml"))
    passed, failed = 0, []
    for eml in letters:
        want = json.loads(eml.with_suffix(".expect.json").read_text(encoding="utf-8"))
        out = subprocess.run([binary, "--json", "parse", str(eml)], capture_output=True)
        try:
            got = json.loads(out.stdout)
        except ValueError:
            failed.append((eml.name, ["exit %d: %s" % (out.returncode, out.stderr.decode()[:200])]))
            continue
        got["problem_codes"] = got.get("problems")
        bad = []
        for key, w in want.items():
            bad += differs(key, w, got.get(key))
        if bad:
            if verbose:
                bad = [f"{k}: want {json.dumps(want.get(k.split('.')[0]), ensure_ascii=False)} "
                       f"got {json.dumps(got.get(k.split('.')[0]), ensure_ascii=False)}" for k in bad]
            failed.append((eml.name, bad))
        else:
            passed += 1
    for name, bad in failed:
        print(f"FAIL {name}: {'; '.join(bad)}")
    total = len(letters)
    print(f"{passed} of {total} read right ({100 * passed / max(total, 1):.0f}%)")
    return passed, total


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "-v"]
    if len(args) != 2:
        sys.exit(__doc__)
    score(args[0], args[1], "-v" in sys.argv)
