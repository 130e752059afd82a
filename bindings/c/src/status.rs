//! Status codes: numbered once, never renumbered; new codes are only appended.

/// The result of every `kruise_*` function. Numbers are stable forever.
///
/// On any status other than `KRUISE_OK`, a function that takes an `out` buffer fills it with
/// `{"error": {"kind": "...", "message": "..."}}` (kind = the stable snake_case error kind).
#[repr(u32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum kruise_status {
    /// Success; `out` holds the result.
    KRUISE_OK = 0,
    /// The decision function rejected its input (any core error kind other than `unknown_fn`,
    /// e.g. `invalid_input`, `division_by_zero`); the kind is in `out`.
    KRUISE_DECISION_ERROR = 1,
    /// A string argument (fn id, input, expression, variable name or value) is not valid UTF-8.
    /// Error kind `invalid_utf8`.
    KRUISE_INVALID_UTF8 = 2,
    /// The input is not valid JSON. Error kind `invalid_json`.
    KRUISE_INVALID_JSON = 3,
    /// A required pointer argument was NULL (a NULL `ptr` with `len == 0` is an empty string and
    /// allowed). Nothing is written when `out` itself is NULL. Error kind `null_parameter`.
    KRUISE_NULL_PARAMETER = 4,
    /// The fn id is not registered. Error kind `unknown_fn`.
    KRUISE_UNKNOWN_FN = 5,
    /// A Rust panic was caught at the boundary (a bug: please report it). Error kind `panic`.
    KRUISE_PANIC = 6,
    /// An argument is outside its documented range (e.g. an unknown `kruise_var.kind`).
    /// Error kind `invalid_argument`.
    KRUISE_INVALID_ARGUMENT = 7,
    /// The function is not available in this build of the library (a cargo feature was off).
    /// Error kind `unsupported`.
    KRUISE_UNSUPPORTED = 8,
    /// An input is longer than the input-size limit (`kruise_max_input_bytes`, default
    /// `KRUISE_DEFAULT_MAX_INPUT_BYTES` = 16 MiB; change it with `kruise_set_max_input_bytes`).
    /// Error kind `input_too_large`.
    KRUISE_INPUT_TOO_LARGE = 9,
}

impl kruise_status {
    /// The error kind written into `out` for binding-level statuses.
    pub(crate) fn kind(self) -> &'static str {
        match self {
            kruise_status::KRUISE_OK => "ok",
            kruise_status::KRUISE_DECISION_ERROR => "decision_error",
            kruise_status::KRUISE_INVALID_UTF8 => "invalid_utf8",
            kruise_status::KRUISE_INVALID_JSON => "invalid_json",
            kruise_status::KRUISE_NULL_PARAMETER => "null_parameter",
            kruise_status::KRUISE_UNKNOWN_FN => "unknown_fn",
            kruise_status::KRUISE_PANIC => "panic",
            kruise_status::KRUISE_INVALID_ARGUMENT => "invalid_argument",
            kruise_status::KRUISE_UNSUPPORTED => "unsupported",
            kruise_status::KRUISE_INPUT_TOO_LARGE => kcore::error::INPUT_TOO_LARGE,
        }
    }

    /// The status for a core error: `unknown_fn` and `input_too_large` have their own codes, every
    /// other kind is a decision error.
    pub(crate) fn of_core(e: &kcore::Error) -> Self {
        match e.kind {
            kcore::error::UNKNOWN_FN => kruise_status::KRUISE_UNKNOWN_FN,
            kcore::error::INPUT_TOO_LARGE => kruise_status::KRUISE_INPUT_TOO_LARGE,
            _ => kruise_status::KRUISE_DECISION_ERROR,
        }
    }
}
