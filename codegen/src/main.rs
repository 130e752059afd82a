//! `scripts/codegen`: writes every generated file (schemas/, docs/fns.md, the typed Python and Go
//! bindings) from the kruise-core registry, and deletes generated files no longer produced.

use std::process::ExitCode;

fn main() -> ExitCode {
    let root = kruise_codegen::repo_root();
    let files = match kruise_codegen::generate(&root) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("codegen: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut written = 0;
    for (rel, text) in &files {
        let path = root.join(rel);
        if std::fs::read_to_string(&path).is_ok_and(|old| old == *text) {
            continue;
        }
        if let Some(dir) = path.parent()
            && let Err(e) = std::fs::create_dir_all(dir)
        {
            eprintln!("codegen: {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("codegen: {rel}: {e}");
            return ExitCode::FAILURE;
        }
        println!("wrote {rel}");
        written += 1;
    }
    for rel in kruise_codegen::leftovers(&root, &files) {
        if let Err(e) = std::fs::remove_file(root.join(&rel)) {
            eprintln!("codegen: {rel}: {e}");
            return ExitCode::FAILURE;
        }
        println!("deleted {rel}");
    }
    println!("codegen: {} files, {written} changed", files.len());
    ExitCode::SUCCESS
}
