//! Keeps `include/kruise_core.h` honest: regenerates it with the pinned cbindgen (=0.29.4) and fails
//! when the checked-in file differs. Set `KRUISE_BLESS=1` to rewrite the checked-in header instead.

use std::path::PathBuf;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn generate() -> String {
    let dir = crate_dir();
    let config =
        cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let bindings = cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("header is UTF-8")
}

#[test]
fn checked_in_header_is_current() {
    let path = crate_dir().join("include/kruise_core.h");
    let fresh = generate();
    if std::env::var_os("KRUISE_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write header");
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == fresh,
        "{} is stale; regenerate with `KRUISE_BLESS=1 cargo test -p kruise-core-c --test header`",
        path.display()
    );
}

#[test]
fn header_version_matches_cargo_toml() {
    let header =
        std::fs::read_to_string(crate_dir().join("include/kruise_core.h")).expect("header exists");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        header.contains(&format!("#define KRUISE_CORE_VERSION \"{version}\"")),
        "KRUISE_CORE_VERSION != {version}"
    );
    let parts: Vec<&str> = version.split('.').collect();
    for (name, part) in ["MAJOR", "MINOR", "PATCH"].iter().zip(&parts) {
        let part = part.split(['-', '+']).next().unwrap_or(part);
        assert!(
            header.contains(&format!("#define KRUISE_CORE_VERSION_{name} {part}\n")),
            "KRUISE_CORE_VERSION_{name} != {part}"
        );
    }
}

#[test]
fn every_exported_function_is_declared() {
    let header =
        std::fs::read_to_string(crate_dir().join("include/kruise_core.h")).expect("header exists");
    for f in [
        "kruise_call",
        "kruise_buf_free",
        "kruise_fn_ids",
        "kruise_matches",
        "kruise_version",
        "kruise_expr_compile",
        "kruise_expr_eval",
        "kruise_expr_free",
        "kruise_expr_live_count",
        "kruise_expr_var_count",
        "kruise_expr_var_index",
        "kruise_expr_vars_new",
        "kruise_expr_vars_set_quantity",
        "kruise_expr_vars_set_number",
        "kruise_expr_vars_unset",
        "kruise_expr_eval_into",
        "kruise_expr_vars_error",
        "kruise_expr_vars_free",
        "kruise_scale_int_or_percent_value",
        "kruise_set_max_input_bytes",
        "kruise_max_input_bytes",
    ] {
        assert!(
            header.contains(&format!("{f}(")),
            "{f} missing from the header"
        );
    }
}
