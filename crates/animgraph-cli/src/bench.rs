//! `animgraph bench [--json]`: the benchmark scenarios, quickly, on this machine.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use animgraph_bench::quick::{Options, run};

/// Arguments of `bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object: {"machine": {...}, "rows": [{"scenario", "value", "unit", "note"}]}.
    #[arg(long)]
    json: bool,
    /// Milliseconds spent on each scenario.
    #[arg(long, default_value_t = 700)]
    budget_ms: u64,
    /// Characters in the crowd scenarios.
    #[arg(long, default_value_t = 10_000)]
    crowd: usize,
    /// Threads for the parallel crowds (0: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Also run the side-by-side comparison with fyrox-animation (needs a build with
    /// `--features peer`: cargo run --release -p animgraph-cli --features peer -- bench --peer).
    #[arg(long)]
    peer: bool,
}

/// Runs the scenarios and prints a table (or JSON).
pub fn run_bench(args: &Args) -> ExitCode {
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: this is a debug build; figures are far slower than a game's. Use: cargo run --release -p animgraph-cli -- bench"
        );
    }
    let options = Options {
        budget: Duration::from_millis(args.budget_ms),
        crowd: args.crowd.max(1),
        threads: args.threads,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    #[cfg(not(feature = "peer"))]
    if args.peer {
        eprintln!(
            "this build has no peer; rebuild with: cargo run --release -p animgraph-cli --features peer -- bench --peer"
        );
        return ExitCode::FAILURE;
    }
    #[cfg_attr(not(feature = "peer"), allow(unused_mut))]
    let mut rows = run(&options, &animgraph_test_support::counting::allocations, |stage| {
        if !args.json {
            eprint!("\rmeasuring {stage}...        ");
            let _ = std::io::stderr().flush();
        }
    });
    #[cfg(feature = "peer")]
    if args.peer {
        if !args.json {
            eprint!("\rmeasuring the peer...        ");
        }
        rows.extend(animgraph_bench::peer::compare(
            options.budget * 2,
            &animgraph_test_support::counting::allocations,
        ));
    }
    if args.json {
        let machine = serde_json::json!({
            "cores": cores,
            "os": std::env::consts::OS,
            "arch": std::env::consts::ARCH,
            "debug_build": cfg!(debug_assertions),
        });
        println!("{}", serde_json::json!({ "machine": machine, "rows": rows }));
        return ExitCode::SUCCESS;
    }
    eprintln!("\r{:40}", "");
    println!("animgraph bench: {cores} cores, {} {}", std::env::consts::OS, std::env::consts::ARCH);
    let width = rows.iter().map(|r| r.scenario.len()).max().unwrap_or(10);
    for r in &rows {
        let value = if r.value >= 100.0 || r.value == r.value.floor() {
            format!("{:.0}", r.value)
        } else {
            format!("{:.2}", r.value)
        };
        println!("  {:width$}  {:>10} {:<11} {}", r.scenario, value, r.unit, r.note);
    }
    ExitCode::SUCCESS
}
