//! The CLI as kubectl users expect it: kind and apiVersion checks (`wrong_kind`,
//! `unsupported_version`), exit codes (1 decision/input error, 2 usage error), `-` and `-f -` for
//! stdin, `--now` (wall clock by default), `convert` of Lists with foreign items, `-o json|yaml`,
//! and the notes on surprising v1.9 answers.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const NOW: &str = "2026-06-21T10:12:00Z";

fn example(rel: &str) -> String {
    format!("{}/examples/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kruise-core"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(text.as_bytes()).unwrap();
    }
    child.wait_with_output().expect("binary finishes")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(example(rel)).unwrap()
}

/// A manifest as `kubectl get -o yaml` prints it: a temp file.
fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("kruise-core-kubectl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn explain_refuses_a_manifest_of_another_kind_in_every_mode() {
    let pods = example("rollout/pods.yaml");
    // a CloneSet given to each other mode
    let cloneset = example("rollout/cloneset-rolling.yaml");
    for kind in ["sidecarset", "uniteddeployment", "advancedcronjob", "pub"] {
        let o = run(
            &["explain", kind, &cloneset, "--pods", &pods, "--now", NOW],
            None,
        );
        assert_eq!(o.status.code(), Some(1), "{kind}: {}", err(&o));
        assert!(
            err(&o).contains("error [wrong_kind]: kind: \"CloneSet\" is not"),
            "{kind}: {}",
            err(&o)
        );
        assert!(out(&o).is_empty(), "{kind}: {}", out(&o));
    }
    // and a SidecarSet to cloneset
    let set = example("resources/sidecarset.yaml");
    let o = run(&["explain", "cloneset", &set, "--now", NOW], None);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("error [wrong_kind]: kind: \"SidecarSet\" is not CloneSet"),
        "{}",
        err(&o)
    );
}

#[test]
fn explain_checks_the_served_api_versions() {
    // CloneSet is served at apps.kruise.io/v1alpha1 only in v1.9.0
    let beta = read("rollout/cloneset-rolling.yaml")
        .replace("apps.kruise.io/v1alpha1", "apps.kruise.io/v1beta1");
    assert!(beta.contains("apps.kruise.io/v1beta1"));
    let o = run(
        &[
            "explain",
            "cloneset",
            &temp("cs-beta.yaml", &beta),
            "--now",
            NOW,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("error [unsupported_version]: apiVersion:"),
        "{}",
        err(&o)
    );
    assert!(
        err(&o).contains("served: apps.kruise.io/v1alpha1"),
        "{}",
        err(&o)
    );
    // a PodUnavailableBudget under apps.kruise.io is not the policy.kruise.io kind
    let pb = read("pub/web-server-pub.yaml")
        .replace("policy.kruise.io/v1alpha1", "apps.kruise.io/v1alpha1");
    let o = run(
        &[
            "explain",
            "pub",
            &temp("pub-apps.yaml", &pb),
            "--pods",
            &example("resources/pod.yaml"),
            "--now",
            NOW,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("unsupported_version"), "{}", err(&o));
    // SidecarSet v1alpha1 and v1beta1 are both served
    let alpha = read("resources/sidecarset.yaml")
        .replace("apps.kruise.io/v1beta1", "apps.kruise.io/v1alpha1");
    let o = run(
        &[
            "explain",
            "sidecarset",
            &temp("set-alpha.yaml", &alpha),
            "--pods",
            &example("resources/pod.yaml"),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // a pods file holding a Service
    let svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n";
    let o = run(
        &[
            "explain",
            "sidecarset",
            &example("resources/sidecarset.yaml"),
            "--pods",
            &temp("svc.yaml", svc),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("error [wrong_kind]: items[0].kind: \"Service\" is not Pod"),
        "{}",
        err(&o)
    );
}

#[test]
fn usage_errors_exit_2_and_input_errors_exit_1() {
    let set = example("resources/sidecarset.yaml");
    // usage: a missing required flag, a bad flag value, an unknown flag or subcommand
    for args in [
        vec!["explain", "sidecarset", set.as_str()],
        vec!["explain", "cloneset", set.as_str(), "--now", "yesterday"],
        vec!["explain", "cloneset", set.as_str(), "-o", "xml"],
        vec!["explain", "cloneset"],
        vec!["frobnicate"],
        vec!["call", "no.such_fn"],
    ] {
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
    }
    // input: a missing file, YAML that does not parse, stdin that is not JSON
    let o = run(
        &["explain", "cloneset", "/nonexistent/cs.yaml", "--now", NOW],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("error [invalid_input]: /nonexistent/cs.yaml: cannot read"),
        "{}",
        err(&o)
    );
    let o = run(
        &["explain", "cloneset", "-", "--now", NOW],
        Some("kind: [CloneSet\n"),
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("error [invalid_input]: stdin: invalid YAML"),
        "{}",
        err(&o)
    );
    let o = run(&["call", "resources.eval"], Some("{not json"));
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let v: Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(
        (v["error"]["kind"].as_str(), v["error"]["field"].as_str()),
        (Some("invalid_input"), Some("stdin"))
    );
}

/// A sidecar whose expression fails: the explanation is printed, then the command exits 1.
#[test]
fn a_decision_error_in_explain_exits_1() {
    let set = read("resources/sidecarset.yaml").replace("max(cpu*50%, 50m)", "cpu / 0");
    assert!(set.contains("cpu / 0"));
    let o = run(
        &[
            "explain",
            "sidecarset",
            &temp("div0.yaml", &set),
            "--pods",
            &example("resources/pod.yaml"),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains("error [division_by_zero]"), "{}", out(&o));
    assert!(err(&o).contains("error [division_by_zero]"), "{}", err(&o));
    // the same in JSON: the error is listed
    let o = run(
        &[
            "explain",
            "sidecarset",
            &temp("div0.yaml", &set),
            "--pods",
            &example("resources/pod.yaml"),
            "-o",
            "json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["errors"][0]["kind"], "division_by_zero", "{v}");
    // a cron schedule that does not parse
    let acj = read("cron/acj-image-pull.yaml");
    let sched = acj
        .lines()
        .find(|l| l.trim_start().starts_with("schedule:"))
        .unwrap();
    let bad = acj.replace(sched, "  schedule: \"61 * * * *\"");
    let o = run(
        &[
            "explain",
            "advancedcronjob",
            &temp("acj-bad.yaml", &bad),
            "--now",
            NOW,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}\n{}", out(&o), err(&o));
    assert!(out(&o).contains("schedule error"), "{}", out(&o));
}

#[test]
fn dash_and_dash_f_dash_read_stdin() {
    let cs = read("rollout/cloneset-rolling.yaml");
    let pods = example("rollout/pods.yaml");
    let file = run(
        &[
            "explain",
            "cloneset",
            &example("rollout/cloneset-rolling.yaml"),
            "--pods",
            &pods,
            "--now",
            NOW,
        ],
        None,
    );
    assert_eq!(file.status.code(), Some(0), "{}", err(&file));
    assert!(
        out(&file).contains("=> 2 pod(s) will update next."),
        "{}",
        out(&file)
    );
    for args in [
        vec!["explain", "cloneset", "-"],
        vec!["explain", "cloneset", "-f", "-"],
        vec!["explain", "cloneset", "--filename", "-"],
    ] {
        let mut args = args.clone();
        args.extend(["--pods", pods.as_str(), "--now", NOW]);
        let o = run(&args, Some(&cs));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        assert_eq!(out(&o), out(&file), "{args:?}");
    }
    // --pods - too
    let o = run(
        &[
            "explain",
            "cloneset",
            &example("rollout/cloneset-rolling.yaml"),
            "--pods",
            "-",
            "--now",
            NOW,
        ],
        Some(&read("rollout/pods.yaml")),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("In order: sample-e, sample-d"),
        "{}",
        out(&o)
    );
    // stdin feeds one input only
    let o = run(
        &["explain", "cloneset", "-", "--pods", "-", "--now", NOW],
        Some(&cs),
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    // convert and conformance read stdin too
    let o = run(
        &["convert", "-f", "-", "--to", "apps.kruise.io/v1beta1"],
        Some(&read("api/daemonset.yaml")),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("apiVersion: apps.kruise.io/v1beta1"),
        "{}",
        out(&o)
    );
    let vectors = std::fs::read_to_string(format!(
        "{}/../conformance/vectors/resources.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let o = run(&["conformance", "-"], Some(&vectors));
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).ends_with(" passed, 0 failed\n"), "{}", out(&o));
}

#[test]
fn now_defaults_to_the_wall_clock() {
    // A PUB with a pod: the header names the time taken; without --now it is today's.
    let args = [
        "explain",
        "pub",
        &example("pub/web-server-pub.yaml"),
        "--pods",
        &example("resources/pod.yaml"),
    ];
    let before = jiff_now_secs();
    let o = run(&args, None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let after = jiff_now_secs();
    let v: Value = {
        let mut a = args.to_vec();
        a.extend(["-o", "json"]);
        let o = run(&a, None);
        serde_json::from_str(&out(&o)).unwrap()
    };
    let now = v["results"]["now"].as_str().unwrap().to_owned();
    let t: i64 = parse_secs(&now);
    assert!(
        t >= before - 1 && t <= after + 60,
        "{now} not between {before} and {after}"
    );
    assert!(out(&o).contains(&now[..10]), "{}", out(&o));
    // a fixed --now is used as given
    let mut a = args.to_vec();
    a.extend(["--now", NOW]);
    let o = run(&a, None);
    assert!(out(&o).contains(&format!("at {NOW}")), "{}", out(&o));
}

fn jiff_now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// Seconds since the epoch of `YYYY-MM-DDTHH:MM:SSZ` (days from the civil calendar).
fn parse_secs(s: &str) -> i64 {
    let n = |r: std::ops::Range<usize>| s[r].parse::<i64>().unwrap();
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    days * 86_400 + n(11..13) * 3600 + n(14..16) * 60 + n(17..19)
}

#[test]
fn convert_notes_skipped_list_items_and_refuses_them_alone() {
    let ds = read("api/daemonset.yaml");
    let ds_json: Value = serde_saphyr::from_str(&ds).unwrap();
    let svc =
        serde_json::json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}});
    let cs = serde_json::json!({"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": {"name": "cs"}});
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [ds_json, svc, cs]});
    let o = run(
        &["convert", "-", "--to", "apps.kruise.io/v1beta1"],
        Some(&list.to_string()),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["items"][0]["apiVersion"], "apps.kruise.io/v1beta1");
    assert_eq!(v["items"][1], svc);
    assert_eq!(v["items"][2], cs);
    let e = err(&o);
    assert!(e.contains("note: items[1] v1/Service web: skipped"), "{e}");
    assert!(
        e.contains("note: items[2] apps.kruise.io/v1alpha1/CloneSet cs: skipped"),
        "{e}"
    );
    assert!(e.contains("unsupported_kind"), "{e}");
    assert!(!e.contains("items[0]"), "{e}");
    // the same objects alone are errors
    let o = run(
        &["convert", "-", "--to", "apps.kruise.io/v1beta1"],
        Some(&svc.to_string()),
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        err(&o).contains("error [unsupported_version]"),
        "{}",
        err(&o)
    );
    let o = run(
        &["convert", "-", "--to", "apps.kruise.io/v1beta1"],
        Some(&cs.to_string()),
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(err(&o).contains("error [unsupported_kind]"), "{}", err(&o));
}

#[test]
fn explain_prints_json_and_yaml_for_scripts() {
    let args = [
        "explain",
        "cloneset",
        &example("rollout/cloneset-rolling.yaml"),
        "--pods",
        &example("rollout/pods.yaml"),
        "--now",
        NOW,
    ];
    let mut a = args.to_vec();
    a.extend(["-o", "json"]);
    let o = run(&a, None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).expect("JSON");
    assert_eq!(v["kind"], "CloneSet");
    assert_eq!(v["results"]["now"], NOW);
    assert_eq!(v["results"]["podsToUpdateNow"], 2);
    assert_eq!(
        v["results"]["updateOrder"],
        serde_json::json!(["sample-e", "sample-d"])
    );
    assert_eq!(
        v["results"]["progress"]["condition"]["reason"],
        "ProgressDeadlineExceeded"
    );
    assert_eq!(v["errors"], serde_json::json!([]));
    let mut a = args.to_vec();
    a.extend(["-o", "yaml"]);
    let o = run(&a, None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let y: Value = serde_saphyr::from_str(&out(&o)).expect("YAML");
    assert_eq!(y, v);
    // the SidecarSet answer as the registry's resources.sidecar shape
    let o = run(
        &[
            "explain",
            "sidecarset",
            &example("resources/sidecarset.yaml"),
            "--pods",
            &example("resources/pod.yaml"),
            "-o",
            "json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    let s = &v["results"]["sidecars"][0];
    assert_eq!(s["targets"], serde_json::json!(["large-engine-v4"]));
    assert_eq!(s["resources"]["requests"]["cpu"], "750m", "{s}");
}

/// v1.9 evaluates a memory expression without the word `memory` with the variable named `cpu`
/// (bound to the memory aggregate), and writes fractional bytes in milli-bytes.
#[test]
fn explain_notes_the_surprising_v19_answers() {
    let set = r#"apiVersion: apps.kruise.io/v1beta1
kind: SidecarSet
metadata:
  name: memory-by-cpu
spec:
  selector:
    matchLabels:
      app: web
  containers:
  - name: proxy
    image: envoy
    resourcesPolicy:
      targetContainersMode: sum
      targetContainersNameRegex: ^app$
      resourcesExpr:
        limits:
          memory: cpu*40%
"#;
    let pod = r#"apiVersion: v1
kind: Pod
metadata:
  name: web-0
spec:
  containers:
  - name: app
    image: nginx
    resources:
      limits:
        cpu: "1"
        memory: 1Gi
"#;
    let o = run(
        &[
            "explain",
            "sidecarset",
            &temp("mem-set.yaml", set),
            "--pods",
            &temp("mem-pod.yaml", pod),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("-> 429496729600m"), "{text}");
    assert!(text.contains("note: limits.memory: v1.9 evaluates this memory expression with the variable named `cpu`"), "{text}");
    assert!(
        text.contains("note: limits.memory: 429496729600m is a fractional number of bytes"),
        "{text}"
    );
    let o = run(
        &[
            "explain",
            "sidecarset",
            &temp("mem-set.yaml", set),
            "--pods",
            &temp("mem-pod.yaml", pod),
            "-o",
            "json",
        ],
        None,
    );
    let v: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["notes"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(
        v["results"]["sidecars"][0]["resources"]["limits"]["memory"],
        "429496729600m"
    );
    // the seed (memory: 200Mi, no `cpu` in it) has no note
    let o = run(
        &[
            "explain",
            "sidecarset",
            &example("resources/sidecarset.yaml"),
            "--pods",
            &example("resources/pod.yaml"),
        ],
        None,
    );
    assert!(!out(&o).contains("note:"), "{}", out(&o));
}
