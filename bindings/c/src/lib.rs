//! C ABI for kruise-core.
