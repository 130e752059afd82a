//! Replays every vector file in `conformance/vectors/` (or the files named by the
//! `KRUISE_VECTORS` environment variable, separated by `:`) through `kruise_core::call`.
//! Prints each failing case and ends with `N passed, N failed`.

use std::path::PathBuf;

fn vector_files() -> Vec<PathBuf> {
    if let Ok(list) = std::env::var("KRUISE_VECTORS") {
        // cargo runs tests from `conformance/`; relative paths are taken from the workspace root too.
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        return list
            .split(':')
            .filter(|s| !s.is_empty())
            .map(|s| {
                let p = PathBuf::from(s);
                if p.is_relative() && !p.exists() {
                    root.join(p)
                } else {
                    p
                }
            })
            .collect();
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("conformance/vectors exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn all_vectors_pass() {
    let mut total = kruise_core::conformance::Report::default();
    for f in vector_files() {
        let text = std::fs::read_to_string(&f).expect("readable vector file");
        let r =
            kruise_core::conformance::run_text(&text).expect("vector file in the shared format");
        println!(
            "{}: {} passed, {} failed",
            f.display(),
            r.passed,
            r.failed()
        );
        total.merge(r);
    }
    for f in &total.failures {
        println!("{f}");
    }
    println!("{} passed, {} failed", total.passed, total.failed());
    assert!(total.passed > 0, "no vector ran");
    assert_eq!(total.failed(), 0, "conformance failures");
}
