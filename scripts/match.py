#!/usr/bin/env python3
"""A quick strength check between two UCI engines: pairs of clock games from
lichess openings, each opening played with colours reversed.

Usage: scripts/match.py ENGINE_A ENGINE_B PAIRS BASE_MS [CORE] [SEED]

Each side gets BASE_MS milliseconds plus BASE_MS/100 per move; both engines
run pinned to CORE (default 1) with `taskset`, so they never search at once.
Openings: PAIRS positions drawn (SEED, default 1) from the first 5,000 of
positions/lichess_popular_20k.epd. A game ends by the rules (mate,
stalemate, repetition, fifty moves, insufficient material: python-chess
judges), on a flag, or as a draw at 400 plies. Prints the running score of A
and, at the end, A's score and the Elo difference it implies.

Needs python-chess (`pip install chess`). Used for the match quoted in the
README's whole-engine section.
"""
import math
import random
import sys
import time
from pathlib import Path

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("error: python-chess is not installed (pip install chess)")


def main():
    if len(sys.argv) not in (5, 6, 7):
        sys.exit(__doc__.split("\n\n")[1])
    a, b = sys.argv[1], sys.argv[2]
    try:
        pairs, base_ms = int(sys.argv[3]), int(sys.argv[4])
        core = sys.argv[5] if len(sys.argv) > 5 else "1"
        seed = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    except ValueError as e:
        sys.exit(f"error: PAIRS, BASE_MS and SEED are whole numbers: {e}")
    for p in (a, b):
        if not Path(p).is_file():
            sys.exit(f"error: no engine at {p}")
    book = Path(__file__).resolve().parent.parent / "positions" / "lichess_popular_20k.epd"
    fens = [l.split(" bm")[0].strip() for l in book.read_text().splitlines() if l.strip()][:5000]
    if not 1 <= pairs <= len(fens):
        sys.exit(f"error: PAIRS must be 1..{len(fens)}")
    random.seed(seed)
    openings = random.sample(fens, pairs)
    engines = [chess.engine.SimpleEngine.popen_uci(["taskset", "-c", core, p]) for p in (a, b)]
    base, inc = base_ms / 1000, base_ms / 100_000
    score, wins, draws, losses = 0.0, 0, 0, 0
    try:
        for i, fen in enumerate(openings):
            for a_white in (True, False):
                board = chess.Board(fen + " 0 1" if len(fen.split()) == 4 else fen)
                clock = {chess.WHITE: base, chess.BLACK: base}
                flagged = None
                while not board.is_game_over(claim_draw=True) and board.ply() < 400:
                    engine = engines[0 if (board.turn == chess.WHITE) == a_white else 1]
                    limit = chess.engine.Limit(
                        white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK], white_inc=inc, black_inc=inc
                    )
                    t0 = time.monotonic()
                    move = engine.play(board, limit).move
                    clock[board.turn] += inc - (time.monotonic() - t0)
                    if clock[board.turn] < 0:
                        flagged = board.turn
                        break
                    board.push(move)
                if flagged is not None:
                    white_score = 0.0 if flagged == chess.WHITE else 1.0
                else:
                    white_score = {"1-0": 1.0, "0-1": 0.0}.get(board.result(claim_draw=True), 0.5)
                a_score = white_score if a_white else 1.0 - white_score
                score += a_score
                wins, draws, losses = wins + (a_score == 1), draws + (a_score == 0.5), losses + (a_score == 0)
            print(f"after {2 * (i + 1)} games: A {score:.1f} (+{wins} ={draws} -{losses})", flush=True)
    finally:
        for e in engines:
            e.quit()
    n = wins + draws + losses
    p = score / n
    elo = f"{-400 * math.log10(1 / p - 1):+.0f}" if 0 < p < 1 else "unbounded"
    print(f"A={a} B={b}: {score}/{n} = {p:.3f}, Elo {elo}")


if __name__ == "__main__":
    main()
