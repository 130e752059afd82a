//! The `kruise-core` command line: a person's door to the decision registry.
//!
//! - `kruise-core call FN_ID` reads input JSON on stdin and prints the result JSON (exit 0), or
//!   `{"error": {"kind", "message"}}` (exit 1); misuse exits 2.
//! - `kruise-core conformance FILE...` replays vector files and ends with `N passed, N failed`.
//! - `kruise-core demo` runs every family's decisions on the embedded seed manifests.
//! - `kruise-core explain KIND FILE ...` explains a decision for a user's own manifest.
//! - `kruise-core fns` lists the registered fn ids.
//! - `kruise-core schema FN_ID` prints the fn's JSON Schema (the text of `schemas/<FN_ID>.json`).
//!
//! `--max-input-bytes N` (any subcommand; default 16 MiB) bounds every input read: stdin and each
//! file. A longer input is the error kind `input_too_large` (for `call`: the error JSON on stdout,
//! exit 1).

mod families;
mod input;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "kruise-core", version, about = "OpenKruise v1.9 decisions, outside the cluster")]
struct Cli {
    /// Largest input accepted, in bytes, for stdin and every file (default 16 MiB); a longer
    /// input is the error `input_too_large`.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = kruise_core::error::DEFAULT_MAX_INPUT_BYTES)]
    max_input_bytes: usize,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Call a decision function: input JSON on stdin, result JSON on stdout.
    Call {
        /// The fn id, e.g. resources.eval (see `kruise-core fns`).
        fn_id: String,
    },
    /// Replay conformance vector files; prints failures and `N passed, N failed`.
    Conformance {
        /// Vector files in the shared format.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// List the registered fn ids with one line each.
    Fns,
    /// Print a fn's JSON Schema (draft 2020-12; `$defs.input`, `$defs.output`), as in schemas/.
    Schema {
        /// The fn id, e.g. rollout.scale_int_or_percent (see `kruise-core fns`).
        fn_id: String,
    },
    /// Run every decision family on embedded real examples (the seed manifests).
    Demo(families::DemoArgs),
    /// Explain a decision for your own manifest.
    Explain(families::ExplainArgs),
    /// Convert a manifest between apps.kruise.io versions (YAML or JSON, multi-document YAML too).
    Convert(families::ConvertArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    input::set_max_input_bytes(cli.max_input_bytes);
    match cli.command {
        Command::Call { fn_id } => call(&fn_id),
        Command::Conformance { files } => conformance(&files),
        Command::Fns => {
            for e in kruise_core::registry::entries() {
                println!("{:<40} {}", e.id, e.doc);
            }
            ExitCode::SUCCESS
        }
        Command::Schema { fn_id } => schema(&fn_id),
        Command::Demo(args) => report(families::demo(&args)),
        Command::Explain(args) => report(families::explain(&args)),
        Command::Convert(args) => report(families::convert(&args)),
    }
}

/// Prints a command's text or its error; a decision error exits 1, misuse 2.
fn report(r: Result<String, CliError>) -> ExitCode {
    match r {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(CliError::Decision(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
        Err(CliError::Usage(m)) => {
            eprintln!("kruise-core: {m}");
            ExitCode::from(2)
        }
    }
}

/// What a subcommand can fail with.
#[derive(Debug)]
pub enum CliError {
    /// A decision (or input) error from the core: exit 1.
    Decision(kruise_core::Error),
    /// Misuse: unreadable file, bad flag value: exit 2.
    Usage(String),
}

impl From<kruise_core::Error> for CliError {
    fn from(e: kruise_core::Error) -> Self {
        CliError::Decision(e)
    }
}

/// Prints the schema of `fn_id` (pretty, keys sorted: the text of `schemas/<fn_id>.json`); an
/// unknown fn id exits 2, a fn not typed yet 1.
fn schema(fn_id: &str) -> ExitCode {
    let Some(e) = kruise_core::registry::lookup(fn_id) else {
        eprintln!("kruise-core: unknown fn id {fn_id:?}; `kruise-core fns` lists them");
        return ExitCode::from(2);
    };
    match e.schema() {
        Some(s) => {
            println!("{}", serde_json::to_string_pretty(&sorted(&s)).expect("a schema serialises"));
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("kruise-core: {fn_id} is not typed yet; it has no schema");
            ExitCode::from(1)
        }
    }
}

/// `v` with every object's keys sorted (whatever serde_json's map order).
fn sorted(v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            serde_json::Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&m[k]))).collect())
        }
        serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(sorted).collect()),
        v => v.clone(),
    }
}

fn call(fn_id: &str) -> ExitCode {
    if kruise_core::registry::lookup(fn_id).is_none() {
        eprintln!("kruise-core: unknown fn id {fn_id:?}; `kruise-core fns` lists them");
        return ExitCode::from(2);
    }
    let text = match input::read_limited(std::io::stdin().lock(), "stdin") {
        Ok(t) => t,
        Err(CliError::Decision(e)) => {
            println!("{}", e.to_json());
            return ExitCode::from(1);
        }
        Err(CliError::Usage(m)) => {
            eprintln!("kruise-core: {m}");
            return ExitCode::from(2);
        }
    };
    let input: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("kruise-core: stdin is not JSON: {e}");
            return ExitCode::from(2);
        }
    };
    match kruise_core::call(fn_id, &input) {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}", e.to_json());
            ExitCode::from(1)
        }
    }
}

fn conformance(files: &[PathBuf]) -> ExitCode {
    let mut total = kruise_core::conformance::Report::default();
    for f in files {
        let text = match input::read_text(f) {
            Ok(t) => t,
            Err(CliError::Decision(e)) => {
                eprintln!("kruise-core: {e}");
                return ExitCode::from(2);
            }
            Err(CliError::Usage(m)) => {
                eprintln!("kruise-core: {m}");
                return ExitCode::from(2);
            }
        };
        match kruise_core::conformance::run_text(&text) {
            Ok(r) => total.merge(r),
            Err(e) => {
                eprintln!("kruise-core: {}: {e}", f.display());
                return ExitCode::from(2);
            }
        }
    }
    for f in &total.failures {
        println!("{f}");
    }
    println!("{} passed, {} failed", total.passed, total.failed());
    if total.failed() == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
