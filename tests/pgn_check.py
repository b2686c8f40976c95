"""Reads every game of a PGN file with python-chess (tests/pgn_export.rs runs it).

Prints one JSON object per game: its Event, the plies of its main line, python-chess's
errors, and what `Game.time_control()` made of the TimeControl tag (python-chess >= 1.10),
or why it failed.
"""
import json
import sys

import chess.pgn

with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        out = {
            "event": game.headers.get("Event"),
            "plies": len(list(game.mainline_moves())),
            "errors": [str(e) for e in game.errors],
            "variations": sum(max(len(n.variations) - 1, 0) for n in [game, *game.mainline()]),
        }
        if hasattr(game, "time_control"):
            try:
                tc = game.time_control()
                out["time_control"] = [[p.moves, p.time] for p in tc.parts]
            except Exception as e:  # noqa: BLE001 - the test reports it
                out["time_control_error"] = repr(e)
        print(json.dumps(out))
