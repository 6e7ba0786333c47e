#!/usr/bin/env python3
"""Games against the engine with python-chess as the referee: null moves
(`0000`) in the move list, `searchmoves`, and `go mate N`.

Usage: uci_game.py ENGINE [GAMES] [SEED]

Two kinds of game, GAMES of each:

* Through python-chess's own UCI client (`chess.engine`), with `root_moves`
  (sent as `go ... searchmoves ...`). python-chess 1.11 does not put null
  moves into `position ... moves` (it logs "Not transmitting history with
  null moves" and sends the current FEN instead), so these games have none.
* Over a raw pipe, the move list written as python-chess writes it
  (`Move.null().uci()` is `0000`) with passes mixed in, as an analysis GUI
  sends them: `position startpos moves e2e4 0000 ...`. After each
  `position` the engine's `d` must print python-chess's FEN (the
  en-passant field aside: python-chess and this engine differ on when to
  show it), and each `go` must get exactly one `bestmove`.

Every answer must be legal, and one of the searchmoves when there are any;
`Limit(mate=2)` must report mate in 2 on a known mate in 2. Prints one
summary line; exits non-zero with a reason on the first failure. Run by
engine/tests/integration/python_chess.rs.
"""
import queue
import random
import subprocess
import sys
import threading

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("error: python-chess is not installed (pip install chess)")

MATE_IN_2 = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1"
MAX_PLIES = 80
TIMEOUT_S = 30


def fail(message):
    sys.exit(f"error: {message}")


def pick_root_moves(board, rng):
    """A third of the legal moves, on every third ply where there are a few."""
    legal = list(board.legal_moves)
    if board.ply() % 3 == 0 and len(legal) > 3:
        return rng.sample(legal, len(legal) // 3)
    return None


def check_answer(board, move, root):
    if move is None or move not in board.legal_moves:
        history = " ".join(m.uci() for m in board.move_stack)
        fail(f"illegal answer {move} in {board.fen()} after {history}")
    if root is not None and move not in root:
        fail(f"answer {move} not among searchmoves {[m.uci() for m in root]} in {board.fen()}")


def client_game(engine, rng, counts):
    """A game through python-chess's UCI client."""
    board = chess.Board()
    while not board.is_game_over(claim_draw=False) and board.ply() < MAX_PLIES:
        root = pick_root_moves(board, rng)
        counts["searchmoves"] += root is not None
        limit = chess.engine.Limit(depth=rng.choice([1, 2, 3]), nodes=20000)
        move = engine.play(board, limit, root_moves=root).move
        check_answer(board, move, root)
        board.push(move)
        counts["moves"] += 1


class Pipe:
    """The engine on a raw pipe."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        # Lines through a queue, so a silent engine fails the game after
        # TIMEOUT_S instead of hanging it.
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            try:
                line = self.lines.get(timeout=TIMEOUT_S)
            except queue.Empty:
                self.proc.kill()
                fail(f"no {prefix!r} within {TIMEOUT_S} s; got {lines}")
            if line is None:
                fail(f"the engine exited before {prefix!r}; got {lines}")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        try:
            code = self.proc.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail("the engine did not quit")
        if code != 0:
            fail(f"the engine exited with status {code}")


def without_ep(fen):
    fields = fen.split()
    return " ".join(fields[:3] + fields[4:])


def pipe_game(pipe, rng, counts):
    """A game with passes, the move list sent as python-chess writes it."""
    board = chess.Board()
    pipe.send("ucinewgame")
    while not board.is_game_over(claim_draw=False) and board.ply() < MAX_PLIES:
        # A pass now and then (never in check: it would leave the king
        # capturable).
        if board.ply() % 7 == 4 and not board.is_check():
            board.push(chess.Move.null())
            counts["null"] += 1
            continue
        pipe.send("position startpos moves " + " ".join(m.uci() for m in board.move_stack))
        pipe.send("d")
        engine_fen = pipe.until("info string fen ")[-1][len("info string fen "):]
        if without_ep(engine_fen) != without_ep(board.fen()):
            fail(f"after {' '.join(m.uci() for m in board.move_stack)} the engine has {engine_fen}, "
                 f"python-chess {board.fen()}")
        root = pick_root_moves(board, rng)
        counts["searchmoves"] += root is not None
        go = f"go depth {rng.choice([1, 2, 3])}"
        if root is not None:
            go += " searchmoves " + " ".join(m.uci() for m in root)
        pipe.send(go)
        answer = pipe.until("bestmove")[-1]
        pipe.send("isready")
        extra = [line for line in pipe.until("readyok") if line.startswith("bestmove")]
        if extra:
            fail(f"{go}: more than one bestmove: {answer} then {extra}")
        move = chess.Move.from_uci(answer.split()[1])
        check_answer(board, move, root)
        board.push(move)
        counts["moves"] += 1


def main():
    if len(sys.argv) not in (2, 3, 4):
        sys.exit(__doc__.split("\n\n")[1])
    path = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    counts = {"games": 0, "moves": 0, "null": 0, "searchmoves": 0}
    with chess.engine.SimpleEngine.popen_uci(path, timeout=TIMEOUT_S) as engine:
        engine.configure({"Hash": 4})
        for _ in range(games):
            client_game(engine, rng, counts)
            counts["games"] += 1
        info = engine.analyse(chess.Board(MATE_IN_2), chess.engine.Limit(mate=2))
        if info.get("score") is None or info["score"].relative != chess.engine.Mate(2):
            fail(f"go mate 2 on {MATE_IN_2}: score {info.get('score')}, expected mate in 2")
        if [m.uci() for m in info.get("pv", [])] != ["d5d8", "e7d8", "e1e8"]:
            fail(f"go mate 2 on {MATE_IN_2}: pv {info.get('pv')}")
    pipe = Pipe(path)
    pipe.send("uci")
    pipe.until("uciok")
    for _ in range(games):
        pipe_game(pipe, rng, counts)
        counts["games"] += 1
    pipe.close()
    if counts["null"] == 0 or counts["searchmoves"] == 0:
        fail(f"the games exercised too little: {counts}")
    print("python-chess: {games} games, {moves} engine moves, {null} null moves, "
          "{searchmoves} searches with searchmoves, go mate 2 found".format(**counts))


if __name__ == "__main__":
    main()
