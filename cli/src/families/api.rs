//! Conversion in the demo and `kruise-core convert`.

use super::{ConvertArgs, DemoArgs};
use crate::CliError;

/// Demo section (empty text = nothing to show yet).
pub fn demo(_args: &DemoArgs) -> Result<String, CliError> {
    Ok(String::new())
}

/// `kruise-core convert`.
pub fn convert(_args: &ConvertArgs) -> Result<String, CliError> {
    Err(super::not_built("convert"))
}
