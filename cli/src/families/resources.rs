//! `resources` in the demo and in `explain`.

use super::{DemoArgs, ExplainArgs};
use crate::CliError;

/// Demo section (empty text = nothing to show yet).
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    Ok(String::new())
}

/// `kruise-core explain` for this family.
pub fn explain(_args: &ExplainArgs) -> Result<String, CliError> {
    Err(super::not_built("explain resources"))
}
