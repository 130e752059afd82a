//! Compiles `tests/kruise_test.c` with the system C compiler (`$CC`, default `gcc`) against the
//! static library cargo just built (`target/<profile>/libkruise_core.a`) and the checked-in header,
//! runs it, and fails when any C-side check fails. Also pins the documented link line.

use std::path::PathBuf;
use std::process::Command;

/// The extra libraries a program linking `libkruise_core.a` needs on Linux/glibc (documented in
/// docs/c.md and used by the Go package's `#cgo LDFLAGS`).
const NATIVE_LIBS: &[&str] = &[
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

fn profile_dir() -> PathBuf {
    // target/<profile>/deps/c_program-<hash>  ->  target/<profile>
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(|p| p.parent())
        .expect("target/<profile>")
        .to_path_buf()
}

#[test]
fn c_test_program_passes() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lib = profile_dir().join("libkruise_core.a");
    assert!(lib.exists(), "{} not built", lib.display());
    let exe = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kruise_c_test");
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let mut cmd = Command::new(&cc);
    cmd.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe);
    cmd.arg("-I").arg(crate_dir.join("include"));
    if cfg!(feature = "expr") {
        cmd.arg("-DKRUISE_TEST_EXPR=1");
    }
    cmd.arg(crate_dir.join("tests/kruise_test.c"))
        .arg(&lib)
        .args(NATIVE_LIBS);
    let status = cmd.status().unwrap_or_else(|e| panic!("running {cc}: {e}"));
    assert!(status.success(), "compiling the C test failed");
    let out = Command::new(&exe).output().expect("run C test");
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(" passed, 0 failed"),
        "C test reported failures"
    );
    assert!(out.status.success(), "C test exited with {}", out.status);
}
