//! Test support shared by the integration tests of the rules crate.
//!
//! `reference` is an independent, deliberately simple implementation of RULES.md §1–§7 (a
//! mailbox, written from the rules text alone) used to check the fast bitboard implementation.

#![allow(dead_code)]

pub mod reference;
pub mod strategies;
