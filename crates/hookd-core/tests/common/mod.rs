//! Helpers shared by several of hookd-core's integration tests that only
//! this crate needs: the executor's temp project, and the AMQP helpers that
//! need lapin (which hookd-testkit leaves out). Everything generic comes
//! from hookd-testkit.

#![allow(dead_code)] // each test binary uses a different subset

#[cfg(feature = "amqp")]
pub mod amqp;
pub mod executor;
