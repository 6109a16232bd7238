//! `animgraph`: the command line for animation graphs.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: animgraph_test_support::counting::PerThread = animgraph_test_support::counting::PerThread;

mod bench;
mod import;
mod lint;
mod markers;
mod render;
mod simulate;
mod skeleton;
mod validate;

/// Animation graphs for games: check and run `.mres` graphs from the command line.
#[derive(Parser)]
#[command(name = "animgraph", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Let paths inside files (textures, glTF buffers, clip libraries) leave the folder of the
    /// file that names them. Off by default, so a file cannot make the tools read elsewhere;
    /// special files (devices, FIFOs) stay refused either way.
    #[arg(long, global = true)]
    allow_outside_paths: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Check .mres graph files: a summary line per valid file; every error and warning of an
    /// invalid one. Exits with status 1 if any file is invalid.
    Validate(validate::Args),
    /// Find graph mistakes validation cannot: unreachable states, transitions that can never fire
    /// (contradictions, shadowing), unused parameters, `*` transitions that fire every frame,
    /// clips and mask bones a skeleton lacks, flat blend-space triangles, exit times that gate
    /// nothing. Each finding has a stable code and a fix. Exits 1 on errors, 0 with warnings only.
    Lint(lint::Args),
    /// Run a graph from a parameter script without a game, printing one JSON object per frame
    /// (JSON Lines): each layer's state, normalised time and transition, the samples and events.
    Simulate(simulate::Args),
    /// Import a character from another tool into a .mskel (Godot 4 .tscn scenes, Spine 4.x JSON).
    Import(import::Args),
    /// Render a character driven by a graph and a script to PNG frames.
    Render(render::Args),
    /// Find the foot plants of a glTF's clips and write them as sync markers
    /// (NAME.markers.json beside the model), for marker-synced blend spaces and transitions.
    Markers(markers::Args),
    /// Measure this machine: bind, advance, apply, crowds of 10,000 characters (one thread and
    /// all), net encode/decode and allocations per frame, in a few seconds per group.
    Bench(bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    animgraph_runtime::files::allow_paths_outside(cli.allow_outside_paths);
    match cli.command {
        Command::Validate(args) => validate::run(&args),
        Command::Lint(args) => lint::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Bench(args) => bench::run_bench(&args),
        Command::Markers(args) => markers::run(&args),
    }
}
