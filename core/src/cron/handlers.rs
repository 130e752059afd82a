//! JSON handlers of the registry entries (input and output JSON shapes of the `cron.*` fn ids).

use super::schedule::{Kind, Schedule};
use super::zone::{Location, Zone, parse_rfc3339};
use crate::error::{Error, Result};
use crate::registry::{decode, encode};
use serde::Deserialize;
use serde_json::{Value, json};

/// Largest `count` accepted by `cron.next`.
pub const MAX_COUNT: i64 = 100_000;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ParseIn {
    schedule: String,
    #[serde(default)]
    time_zone: Option<String>,
}

fn list(mask: u64) -> Vec<u32> {
    (0..64).filter(|i| mask >> i & 1 == 1).collect()
}

/// `cron.parse`.
pub fn parse(input: &Value) -> Result<Value> {
    let i: ParseIn = decode(input)?;
    let s = Schedule::parse_with_time_zone(&i.schedule, i.time_zone.as_deref())?;
    Ok(describe(&s))
}

/// The `cron.parse` output shape of a schedule.
pub fn describe(s: &Schedule) -> Value {
    match s.kind() {
        Kind::Every { seconds } => json!({"kind": "every", "everySeconds": seconds}),
        Kind::Spec(f) => json!({
            "kind": "spec",
            "location": s.location().name(),
            "minutes": list(f.minutes),
            "hours": list(f.hours),
            "daysOfMonth": list(f.days_of_month),
            "months": list(f.months),
            "daysOfWeek": list(f.days_of_week),
            "domStar": f.dom_star,
            "dowStar": f.dow_star,
        }),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct NextIn {
    schedule: String,
    #[serde(default)]
    time_zone: Option<String>,
    #[serde(default)]
    local_time_zone: Option<String>,
    after: String,
    count: i64,
}

/// Loads the controller's local zone (`localTimeZone`, default UTC). `"Local"` means UTC here.
pub(crate) fn local_zone(name: Option<&str>, field: &str) -> Result<Zone> {
    match name.map(Location::load).transpose() {
        Ok(None | Some(Location::Local)) => Ok(Zone::utc()),
        Ok(Some(Location::Zone(z))) => Ok(z),
        Err(e) => Err(Error::at(e.kind, field, e.message)),
    }
}

/// Parses an RFC 3339 input field (Go `time.Parse(time.RFC3339, ..)`); `invalid_input` otherwise.
pub(crate) fn time_field(s: &str, field: &str) -> Result<(i64, u32)> {
    parse_rfc3339(s)
        .ok_or_else(|| Error::invalid_input(field, format!("{s:?} is not an RFC 3339 time")))
}

/// `cron.next`.
pub fn next(input: &Value) -> Result<Value> {
    let i: NextIn = decode(input)?;
    let s = Schedule::parse_with_time_zone(&i.schedule, i.time_zone.as_deref())?;
    let local = local_zone(i.local_time_zone.as_deref(), "localTimeZone")?;
    let (mut t, _) = time_field(&i.after, "after")?;
    if i.count > MAX_COUNT {
        return Err(Error::invalid_input(
            "count",
            format!("at most {MAX_COUNT}"),
        ));
    }
    let mut out = Vec::new();
    for _ in 0..i.count.max(0) {
        match s.next_secs(t, &local) {
            Some(n) => {
                out.push(Value::String(super::zone::format_utc(n)));
                t = n;
            }
            None => break,
        }
    }
    Ok(Value::Array(out))
}

/// `cron.decide`.
pub fn decide(input: &Value) -> Result<Value> {
    let i: super::DecideInput = decode(input)?;
    encode(&super::decide(&i)?)
}

/// `cron.prune`.
pub fn prune(input: &Value) -> Result<Value> {
    let i: super::prune::PruneInput = decode(input)?;
    encode(&super::prune(&i)?)
}

/// `cron.jobState`.
pub fn job_state(input: &Value) -> Result<Value> {
    let i: super::job_state::JobStateInput = decode(input)?;
    encode(&super::job_state(&i))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecIn {
    /// Absent or null is the zero spec, which the defaults fill.
    #[serde(default)]
    spec: Value,
}

/// `cron.defaults`.
pub fn defaults(input: &Value) -> Result<Value> {
    let i: SpecIn = decode(input)?;
    super::defaults(i.spec)
}

/// `cron.validate`.
pub fn validate(input: &Value) -> Result<Value> {
    let i: super::validate::ValidateInput = decode(input)?;
    encode(&super::validate(&i)?)
}
