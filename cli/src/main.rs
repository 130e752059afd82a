//! The `kruise-core` command line: a person's door to the decision registry.
//!
//! - `kruise-core call FN_ID` reads input JSON on stdin and prints the result JSON (exit 0), or
//!   `{"error": {"kind", "message"}}` (exit 1); misuse exits 2.
//! - `kruise-core conformance FILE...` replays vector files and ends with `N passed, N failed`.
//! - `kruise-core demo` runs every family's decisions on the embedded seed manifests.
//! - `kruise-core explain KIND FILE ...` explains a decision for a user's own manifest (checked to
//!   be that kind at an apiVersion OpenKruise v1.9.0 serves); `-o json|yaml` for scripts.
//! - `kruise-core convert FILE --to VERSION` converts manifests between apps.kruise.io versions.
//! - `kruise-core status FILE` prints the rollout health of every kruise workload in a manifest
//!   file and exits 3 when one is degraded.
//! - `kruise-core fns` lists the registered fn ids.
//! - `kruise-core schema FN_ID` prints the fn's JSON Schema (the text of `schemas/<FN_ID>.json`).
//!
//! `--max-input-bytes N` (any subcommand; default 16 MiB) bounds every input read: stdin and each
//! file. A longer input is the error kind `input_too_large` (for `call`: the error JSON on stdout,
//! exit 1). A file argument `-` (or `-f -`) reads stdin.
//!
//! Exit codes (docs/cli.md): 0 success; 1 a decision or input error (a typed error kind and a
//! message naming the field, e.g. `wrong_kind`, `invalid_input`); 2 a usage error (unknown flag,
//! subcommand or fn id, a missing argument, a bad flag value).

/// Exit code of a decision or input error.
pub const EXIT_ERROR: u8 = 1;
/// Exit code of a usage error (clap's own errors exit 2 as well).
pub const EXIT_USAGE: u8 = 2;

mod families;
mod input;
mod report;
mod status;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "kruise-core",
    version,
    about = "OpenKruise v1.9 decisions, outside the cluster"
)]
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
    /// Print the rollout health of every kruise workload in a manifest file; exit 3 if one is
    /// degraded.
    Status(status::StatusArgs),
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
        Command::Explain(args) => explain(&args),
        Command::Convert(args) => report(families::convert(&args)),
        Command::Status(args) => match status::status(&args).and_then(|l| status::print(&args, &l))
        {
            Ok(code) => ExitCode::from(code),
            Err(e) => fail(&e),
        },
    }
}

/// Prints a command's text or its error; a decision or input error exits 1, misuse 2.
fn report(r: Result<String, CliError>) -> ExitCode {
    match r {
        Ok(text) => {
            print!("{text}");
            let errors = report::take().errors;
            if errors.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_ERROR)
            }
        }
        Err(e) => fail(&e),
    }
}

/// Prints an error on stderr and answers its exit code.
fn fail(e: &CliError) -> ExitCode {
    match e {
        CliError::Decision(e) => {
            eprintln!("error [{}]: {}", e.kind, e.message);
            ExitCode::from(EXIT_ERROR)
        }
        CliError::Usage(m) => {
            eprintln!("kruise-core: {m}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// `explain`: the text (default), or the structured results as JSON or YAML. Either way the
/// whole explanation is printed, and a decision error met on the way exits 1 (named on stderr).
fn explain(args: &families::ExplainArgs) -> ExitCode {
    let text = match families::explain(args) {
        Ok(t) => t,
        Err(e) => {
            let _ = report::take();
            return fail(&e);
        }
    };
    let collected = report::take();
    match args.output {
        families::Output::Text => print!("{text}"),
        format => {
            let doc = families::structured(args, &collected);
            let printed = match format {
                families::Output::Json => serde_json::to_string_pretty(&doc)
                    .map(|mut s| {
                        s.push('\n');
                        s
                    })
                    .map_err(|e| e.to_string()),
                _ => serde_saphyr::to_string(&doc).map_err(|e| e.to_string()),
            };
            match printed {
                Ok(s) => print!("{s}"),
                Err(e) => return fail(&CliError::Usage(format!("cannot print the result: {e}"))),
            }
        }
    }
    for e in &collected.errors {
        eprintln!("error [{}]: {}", e.kind, e.message);
    }
    if collected.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_ERROR)
    }
}

/// What a subcommand can fail with.
#[derive(Debug)]
pub enum CliError {
    /// A decision or input error (a typed error kind naming the field): exit 1.
    Decision(kruise_core::Error),
    /// Misuse of the command line (a missing argument, a bad flag value): exit 2.
    Usage(String),
}

impl CliError {
    /// An `invalid_input` error about `field` (a manifest, a member of one, a file).
    pub fn input(field: impl Into<String>, message: impl std::fmt::Display) -> Self {
        CliError::Decision(kruise_core::Error::invalid_input(field, message))
    }
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
        return ExitCode::from(EXIT_USAGE);
    };
    match e.schema() {
        Some(s) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&sorted(&s)).expect("a schema serialises")
            );
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("kruise-core: {fn_id} is not typed yet; it has no schema");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// `v` with every object's keys sorted (whatever serde_json's map order).
fn sorted(v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            serde_json::Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&m[k])))
                    .collect(),
            )
        }
        serde_json::Value::Array(a) => serde_json::Value::Array(a.iter().map(sorted).collect()),
        v => v.clone(),
    }
}

fn call(fn_id: &str) -> ExitCode {
    if kruise_core::registry::lookup(fn_id).is_none() {
        eprintln!("kruise-core: unknown fn id {fn_id:?}; `kruise-core fns` lists them");
        return ExitCode::from(EXIT_USAGE);
    }
    let text = match input::read_limited(std::io::stdin().lock(), "stdin") {
        Ok(t) => t,
        Err(CliError::Decision(e)) => {
            println!("{}", e.to_json());
            return ExitCode::from(EXIT_ERROR);
        }
        Err(CliError::Usage(m)) => {
            eprintln!("kruise-core: {m}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let input: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            let e = kruise_core::Error::invalid_input("stdin", format_args!("not JSON: {e}"));
            println!("{}", e.to_json());
            eprintln!("error [{}]: {}", e.kind, e.message);
            return ExitCode::from(EXIT_ERROR);
        }
    };
    match kruise_core::call(fn_id, &input) {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}", e.to_json());
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn conformance(files: &[PathBuf]) -> ExitCode {
    let mut total = kruise_core::conformance::Report::default();
    for f in files {
        let text = match input::read_text(f) {
            Ok(t) => t,
            Err(e) => return fail(&e),
        };
        match kruise_core::conformance::run_text(&text) {
            Ok(r) => total.merge(r),
            Err(e) => {
                eprintln!("error: {}: {e}", f.display());
                return ExitCode::from(EXIT_ERROR);
            }
        }
    }
    for f in &total.failures {
        println!("{f}");
    }
    println!("{} passed, {} failed", total.passed, total.failed());
    if total.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_ERROR)
    }
}
