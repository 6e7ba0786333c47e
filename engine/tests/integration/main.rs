//! The engine's integration tests, as one test program. Each file was a
//! program of its own, and every program is a fat-LTO link of the whole
//! engine (6-10 s each on CI's two cores, 16 of them). `make_unmake` and
//! `cli_evalcycles` stay programs of their own because CI runs each alone
//! in another build (debug assertions; the `eval-time` feature), and
//! `fuzz` is a harness of its own.

mod cli;
mod common;

mod bench_signature;
mod cli_attackers;
mod cli_eval;
mod cli_perft;
mod cli_search;
mod equiv;
mod eval_cases;
mod eval_exact;
mod layers;
mod perft;
mod python_chess;
mod search;
mod see;
mod uci;
mod uci_conversation;
mod uci_eval_options;
