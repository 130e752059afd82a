//! Unit tests of the expression engine (values checked against OpenKruise v1.9.0's calculator).

use super::*;

fn ev(expr: &str, vars: &[(&str, Var<'_>)]) -> std::result::Result<String, &'static str> {
    Expression::compile_unchecked(expr)
        .eval_to_string(vars)
        .map_err(|e| e.kind)
}

#[test]
fn error_slot_last_wins_and_prefix_counts() {
    assert_eq!(ev("1/0 +", &[]), Err("division_by_zero"));
    assert_eq!(ev("foo 1", &[]), Err("undefined_variable"));
    assert_eq!(
        ev("foo 1", &[("foo", Var::Number(1.0))]),
        Err("syntax_error")
    );
    assert_eq!(ev("max(1/0)", &[]), Err("wrong_argument_count"));
    assert_eq!(ev("foo(1/0)", &[]), Err("unknown_function"));
    assert_eq!(ev("40m*2m + 1/0", &[]), Err("division_by_zero"));
    assert_eq!(ev("1/0 + foo", &[]), Err("undefined_variable"));
}

#[test]
fn deep_nesting_has_no_stack_overflow() {
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert_eq!(ev(&deep, &[]), Ok("1".into()));
    let unbalanced = "(".repeat(10_000);
    assert_eq!(ev(&unbalanced, &[]), Err("syntax_error"));
    let right = format!("{}1{}", "1+(".repeat(5_000), ")".repeat(5_000));
    assert_eq!(ev(&right, &[]), Ok("5001".into()));
}

#[test]
fn compile_rejects_only_variable_independent_errors() {
    assert_eq!(Expression::compile("2 +").unwrap_err().kind, "syntax_error");
    assert_eq!(
        Expression::compile("1e3m +").unwrap_err().kind,
        "invalid_quantity"
    );
    assert!(Expression::compile("foo 1").is_ok());
    assert!(Expression::compile("1/0").is_ok());
}

#[test]
fn strict_mode_reports_silent_zero_numbers() {
    assert_eq!(ev("1K + 1", &[]), Ok("1".into()));
    assert_eq!(
        Expression::compile_strict("1K + 1").unwrap_err().kind,
        "suspicious_number"
    );
    assert_eq!(
        Expression::compile_strict("2cpu").unwrap_err().kind,
        "suspicious_number"
    );
    assert_eq!(
        Expression::compile_strict("foo 1").unwrap_err().kind,
        "syntax_error"
    );
    let e = Expression::compile_unchecked("1e400 + 1K");
    let kinds: Vec<_> = e.lint().iter().map(|l| l.kind).collect();
    assert_eq!(kinds, ["number_overflow", "unparsable_number"]);
    assert!(
        Expression::compile_strict("max(cpu*50%, 50m)")
            .unwrap()
            .lint()
            .is_empty()
    );
}

#[test]
fn number_quantity_mixing() {
    assert_eq!(ev("1Gi * 33%", &[]), Ok("354334801920m".into()));
    assert_eq!(ev("max(1.005, 1m)", &[]), Ok("1004m".into()));
    assert_eq!(ev("max(1.005, 1m) + 0m", &[]), Ok("1004m".into()));
    assert_eq!(
        ev("cpu", &[("cpu", Var::Quantity("1.500m"))]),
        Ok("1.500m".into())
    );
    assert_eq!(
        ev("max(cpu, 1m)", &[("cpu", Var::Quantity("0100m"))]),
        Ok("0100m".into())
    );
    assert_eq!(ev("500u * 1", &[]), Ok("0".into())); // 500u is a NUMBER token read as 0
    assert_eq!(
        ev("cpu * 1", &[("cpu", Var::Quantity("500u"))]),
        Ok("1m".into())
    );
    assert_eq!(ev("10P * 1", &[]), Ok("0".into()));
}

#[test]
fn eval_values_keeps_format_less_zero() {
    let e = Expression::compile("memory*1e400/-2").unwrap();
    let v = e
        .eval_values(&[("memory", Value::Quantity(crate::quantity::Quantity::ZERO))])
        .unwrap();
    assert_eq!(v.to_string(), "4611686018427387904e-3");
}

#[test]
fn invalid_variable_text_is_an_input_error() {
    let e = Expression::compile("cpu * 2").unwrap();
    let err = e.eval(&[("cpu", Var::Quantity("1e3m"))]).unwrap_err();
    assert_eq!(
        (err.kind, err.field.as_deref()),
        ("invalid_quantity", Some("variables.cpu"))
    );
    // Unreferenced variables are not looked at by the typed API (the JSON handler checks all).
    assert_eq!(
        e.eval_to_string(&[("cpu", Var::Quantity("1")), ("x", Var::Quantity("bad"))])
            .unwrap(),
        "2"
    );
    let json = serde_json::json!({"expr": "cpu", "variables": {"cpu": "1", "x": "bad"}});
    assert_eq!(
        crate::registry::call("resources.eval", &json)
            .unwrap_err()
            .kind,
        "invalid_quantity"
    );
}

#[test]
fn milli_overflow_wraps_like_apimachinery() {
    // Values from running OpenKruise v1.9.0's calculator with apimachinery v0.32.10.
    let with = |v: &'static str| ev("cpu * 1", &[("cpu", Var::Quantity(v))]);
    assert_eq!(with("9007199254740993M"), Ok("4611686019427387392m".into())); // scale gap 9: wrapped
    assert_eq!(with("10P"), Ok("0".into())); // scale gap 18: 0
    assert_eq!(with("100Pi"), Ok("1909526242005090304m".into())); // big decimal: low 64 bits
    assert_eq!(with("92233720368547758G"), Ok("0".into()));
    assert_eq!(with("1e17"), Ok("0".into()));
    assert_eq!(with("9223372036854775807k"), Err("negative_result")); // wraps to -1k
    assert_eq!(with("12345678901234567"), Err("negative_result"));
    assert_eq!(ev("25040 * 100Pi", &[]), Err("negative_result"));
    assert_eq!(
        ev("9007199254740993M * 1", &[]),
        Ok("4611686019427387392m".into())
    );
}

#[test]
fn call_names_are_reported_as_written_in_both_evaluations() {
    // The calculator's `callFunc` names the function as written; a variable spelled the same
    // up to case (looked up lower-cased) must not lend it its spelling.
    let vars = [("cpu", Var::Quantity("1.500m"))];
    for (src, name) in [
        ("cpu(CPU)", "cpu"),
        ("cpu(1,CPU)", "cpu"),
        ("CPU(cpu)", "CPU"),
        ("Cpu(CPU) + cpu(1)", "cpu"),
        ("CPU + cpu(1)", "cpu"),
    ] {
        let want = format!("unknown function: {name}");
        let once = Expression::eval_once_to_string(src, &vars).unwrap_err();
        let compiled = Expression::compile_unchecked(src)
            .eval_to_string(&vars)
            .unwrap_err();
        assert_eq!(
            (once.kind, once.message.as_ref()),
            ("unknown_function", want.as_str()),
            "{src}"
        );
        assert_eq!(
            (compiled.kind, compiled.message.as_ref()),
            ("unknown_function", want.as_str()),
            "{src}"
        );
    }
    // The variable itself still resolves case-insensitively.
    assert_eq!(ev("CPU + 1m", &vars), Ok("2500u".into()));
}

#[test]
fn max_min_left_operand_takes_the_decimal_form_of_the_right() {
    // 65585Pi and 1.5Ki parse to exact decimals; 20P and -0.5m are int64 amounts until Cmp
    // converts them, after which MilliValue follows the decimal rules.
    assert_eq!(
        ev("min(20P, 65585Pi) * 1", &[]),
        Ok("1553255926290448384m".into())
    );
    // In the int64 form -0.5m has milli value -1; as a decimal, rounding toward +inf, 1.
    assert_eq!(ev("min(-0.5m, 1.5Ki) * 1", &[]), Ok("1m".into()));
    assert_eq!(ev("-0.5m * 1", &[]), Err("negative_result"));
    assert_eq!(ev("12.5% * min(47P, 65585Pi)", &[]), Err("negative_result"));
    // Without a decimal on the right the int64 form stays (its overflowing MilliValue is 0).
    assert_eq!(ev("min(20P, 30P) * 1", &[]), Ok("0".into()));
}

/// The sidecar decision called with typed values (no JSON) answers what its JSON form does.
#[test]
fn sidecar_decision_typed() {
    use super::fns::{
        Aggregate as AggregateFn, AggregateContainer, AggregateInput, Sidecar, SidecarInput,
    };
    let q = |s: &str| policy::QuantityText(s.into());
    let resources = |cpu: &str, mem: &str| policy::ResourceRequirements {
        limits: Some([("cpu".to_string(), q(cpu)), ("memory".to_string(), q(mem))].into()),
        requests: Some([("cpu".to_string(), q(cpu))].into()),
    };
    let pod = PodContainers {
        init_containers: vec![],
        containers: vec![
            Container {
                name: "app".into(),
                restart_policy: None,
                resources: resources("500m", "1Gi"),
            },
            Container {
                name: "web".into(),
                restart_policy: None,
                resources: resources("1", "512Mi"),
            },
        ],
    };
    let policy = ResourcesPolicy {
        target_containers_mode: "sum".into(),
        target_containers_name_regex: ".*".into(),
        resources_expr: ResourcesExpr {
            limits: Some(ResourceExprs {
                cpu: "cpu * 50%".into(),
                memory: "max(memory * 10%, 100Mi)".into(),
            }),
            requests: Some(ResourceExprs {
                cpu: "cpu * 10%".into(),
                memory: String::new(),
            }),
        },
    };
    let input = SidecarInput {
        resources_policy: Some(policy),
        pod,
        sidecar_container_names: vec![],
    };
    let json_input = serde_json::json!({
        "resourcesPolicy": {"targetContainersMode": "sum", "targetContainersNameRegex": ".*",
            "resourcesExpr": {"limits": {"cpu": "cpu * 50%", "memory": "max(memory * 10%, 100Mi)"},
                              "requests": {"cpu": "cpu * 10%"}}},
        "pod": {"containers": [
            {"name": "app", "resources": {"limits": {"cpu": "500m", "memory": "1Gi"}, "requests": {"cpu": "500m"}}},
            {"name": "web", "resources": {"limits": {"cpu": "1", "memory": "512Mi"}, "requests": {"cpu": "1"}}}]}
    });
    let out = crate::decide::<Sidecar>(input.clone())
        .unwrap()
        .expect("a policy gives resources");
    let show = |q: &Option<crate::quantity::Quantity<'static>>| q.as_ref().map(|q| q.to_string());
    assert_eq!(show(&out.limits.cpu).as_deref(), Some("750m"));
    assert_eq!(show(&out.requests.cpu).as_deref(), Some("150m"));
    assert_eq!(out.requests.memory, None);
    let by_json = crate::call("resources.sidecar", &json_input).unwrap();
    assert_eq!(
        by_json,
        crate::registry::encode(&Some(out.clone())).unwrap()
    );
    // 10% of 1536Mi is 161061273.6 bytes: a quantity printed in milli-units, as Kubernetes does
    assert_eq!(
        by_json["limits"],
        serde_json::json!({"cpu": "750m", "memory": "161061273600m"})
    );
    assert!(
        by_json["requests"].get("memory").is_none(),
        "an unset resource is absent"
    );
    // no policy: null
    let none = SidecarInput {
        resources_policy: None,
        ..input
    };
    assert_eq!(crate::decide::<Sidecar>(none).unwrap(), None);
    assert_eq!(
        crate::call("resources.sidecar", &serde_json::json!({"pod": {}})).unwrap(),
        serde_json::Value::Null
    );

    let agg = crate::decide::<AggregateFn>(AggregateInput {
        mode: "max".into(),
        containers: vec![
            AggregateContainer {
                name: "a".into(),
                resources: resources("500m", "1Gi"),
            },
            AggregateContainer {
                name: "b".into(),
                resources: policy::ResourceRequirements::default(),
            },
        ],
    })
    .unwrap();
    // max: a limit only if every target has it; a request if any has it
    assert_eq!(
        crate::registry::encode(&agg).unwrap(),
        serde_json::json!({"limits": {}, "requests": {"cpu": "500m"}})
    );
}

#[test]
fn eval_indexed_matches_eval_by_name() {
    use super::{Expression, Var};
    let e = Expression::compile("max(cpu*50%, 50m) + MEM * 0 + cpu * 0").unwrap();
    assert_eq!(e.variables().collect::<Vec<_>>(), ["cpu", "mem"]);
    assert_eq!(e.variable_index("mem"), Some(1));
    assert_eq!(e.variable_index("MEM"), None);
    let cases: &[[Option<Var<'_>>; 2]] = &[
        [Some(Var::Quantity("200m")), Some(Var::Number(1.0))],
        [Some(Var::Quantity("20m")), Some(Var::Quantity("1Gi"))],
        [Some(Var::Quantity("2x")), Some(Var::Number(0.0))],
        [Some(Var::Number(-3.0)), Some(Var::Number(0.0))],
        [None, Some(Var::Number(0.0))],
        [Some(Var::Quantity("1")), None],
    ];
    for c in cases {
        let named: Vec<(&str, Var<'_>)> = ["cpu", "mem"]
            .iter()
            .zip(c)
            .filter_map(|(n, v)| v.map(|v| (*n, v)))
            .collect();
        let by_name = e.eval(&named).map(|v| v.to_string());
        let indexed = e.eval_indexed(c).map(|v| v.to_string());
        assert_eq!(by_name, indexed, "{c:?}");
        let mut printed = String::new();
        if let Ok(v) = e.eval_indexed(c) {
            v.write_to(&mut printed).unwrap();
            assert_eq!(Ok(printed), by_name);
        }
    }
    // a shorter slice leaves the rest unbound
    assert_eq!(
        e.eval_indexed(&[Some(Var::Quantity("1"))])
            .map(|v| v.to_string()),
        e.eval(&[("cpu", Var::Quantity("1"))])
            .map(|v| v.to_string())
    );
}

/// Every `resources.sidecar` vector through one [`policy::CompiledResourcesPolicy`] applied twice
/// (reuse must not change the answer), each evaluated step checked against the one-pass
/// [`policy::evaluate_field`], and the answer against the vector.
#[test]
fn compiled_policy_matches_every_sidecar_vector() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../conformance/vectors/resources.json"
    );
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("vectors")).expect("json");
    let mut checked = 0;
    for case in file["cases"].as_array().expect("cases") {
        if case["fn"] != "resources.sidecar" || case["input"]["resourcesPolicy"].is_null() {
            continue;
        }
        let input: fns::SidecarInput =
            serde_json::from_value(case["input"].clone()).expect("sidecar input");
        let p = input.resources_policy.as_ref().expect("policy");
        let compiled = policy::CompiledResourcesPolicy::new(p);
        for _ in 0..2 {
            let got = compiled.apply(&input.pod, &input.sidecar_container_names);
            let uncompiled = policy::apply(p, &input.pod, &input.sidecar_container_names);
            assert_eq!(got, uncompiled, "{}", case["name"]);
            match (got, case.get("expect_error")) {
                (Err(e), Some(kind)) => assert_eq!(e.kind, kind, "{}", case["name"]),
                (Ok(a), None) => {
                    assert_eq!(a.to_json(), case["expect"], "{}", case["name"]);
                    for s in &a.steps {
                        if s.result.is_some() {
                            let once = evaluate_field(
                                &s.expr,
                                s.input.as_ref(),
                                s.field.starts_with("limits"),
                            )
                            .expect("evaluates");
                            assert_eq!(once, s.result, "{} {}", case["name"], s.field);
                        }
                    }
                }
                (got, _) => panic!("{}: {got:?} against {case}", case["name"]),
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} applications checked");
}

/// A compile error of a limit expression is not reported for a pod whose aggregate limit is
/// undefined (the reference never parses it), and is for a pod where it is defined.
#[test]
fn compiled_policy_reports_expression_errors_lazily() {
    let p: ResourcesPolicy = serde_json::from_str(
        r#"{"targetContainersMode": "sum", "targetContainersNameRegex": "^app",
            "resourcesExpr": {"limits": {"cpu": "cpu +"}, "requests": {"cpu": "cpu * 50%"}}}"#,
    )
    .expect("policy");
    let compiled = policy::CompiledResourcesPolicy::new(&p);
    assert!(compiled.regex_error().is_none());
    let no_limit: PodContainers = serde_json::from_str(
        r#"{"containers": [{"name": "app", "resources": {"requests": {"cpu": "300m"}}}]}"#,
    )
    .expect("pod");
    let a = compiled.apply(&no_limit, &[]).expect("limit not evaluated");
    assert_eq!(a.limits.cpu, None);
    assert_eq!(
        a.requests.cpu.map(|q| q.to_string()).as_deref(),
        Some("150m")
    );
    let with_limit: PodContainers = serde_json::from_str(
        r#"{"containers": [{"name": "app", "resources": {"limits": {"cpu": "1"}}}]}"#,
    )
    .expect("pod");
    let e = compiled.apply(&with_limit, &[]).unwrap_err();
    assert_eq!(e.kind, "syntax_error");
    assert_eq!(e.field.as_deref(), Some("resourcesExpr.limits.cpu"));
    let bad: ResourcesPolicy =
        serde_json::from_str(r#"{"targetContainersNameRegex": "a("}"#).expect("policy");
    let compiled = policy::CompiledResourcesPolicy::new(&bad);
    assert_eq!(
        compiled.regex_error().map(|e| e.kind),
        Some("invalid_regex")
    );
    assert_eq!(
        compiled
            .apply(&PodContainers::default(), &[])
            .unwrap_err()
            .kind,
        "invalid_regex"
    );
}
