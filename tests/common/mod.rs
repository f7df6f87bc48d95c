//! Shared by the chain tests and `examples/label_chains.rs`.
#![allow(dead_code)]

pub mod generators;
pub mod oracle;
