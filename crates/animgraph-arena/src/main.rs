//! `arena`: an example game. GBot (2D) and Robot (3D) characters, each driven by its own seeded
//! random inputs, drawn in a window (or run `--headless`), exposing the live-debugging link and
//! hot-reloading their graph files: save a graph in the editor and the running characters
//! rebind within a second, keeping their states.
//!
//! ```sh
//! cargo run --release -p animgraph-arena                 # a window, link on 127.0.0.1:47800
//! cargo run -p animgraph-arena -- --headless --link 0    # no window, any free port
//! ```

mod game;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

/// The example game.
#[derive(Parser, Debug, Clone)]
#[command(version, about)]
pub struct Args {
    /// No window: update at 60 Hz and print what happens.
    #[arg(long)]
    pub headless: bool,
    /// Stop after this many frames (0: run until closed).
    #[arg(long, default_value_t = 0)]
    pub frames: u64,
    /// Where the link listens: a port (0 picks a free one) or 127.0.0.1:PORT. Default:
    /// $ANIMGRAPH_LINK, else 47800.
    #[arg(long)]
    pub link: Option<String>,
    /// No link at all.
    #[arg(long)]
    pub no_link: bool,
    /// How many GBots.
    #[arg(long, default_value_t = 4)]
    pub gbots: usize,
    /// How many Robots.
    #[arg(long, default_value_t = 2)]
    pub robots: usize,
    /// The GBot graph (watched for changes).
    #[arg(long)]
    pub gbot_graph: Option<PathBuf>,
    /// The Robot graph (watched for changes).
    #[arg(long)]
    pub robot_graph: Option<PathBuf>,
    /// Seed of the characters' random inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Headless: do not wait between frames (as fast as possible).
    #[arg(long)]
    pub fast: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut game = match game::Game::new(&args) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("arena: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.headless {
        game.run_headless(&args);
        return ExitCode::SUCCESS;
    }
    match game::window::run(game, args.frames) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: the window failed ({e}); try --headless");
            ExitCode::FAILURE
        }
    }
}
