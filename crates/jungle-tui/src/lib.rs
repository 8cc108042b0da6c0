//! The terminal client for Jungle: play the AI, a friend or a server.
//!
//! The crate is split so that everything but the terminal itself is testable:
//! - [`app`]: the state machine (keys, engine answers, server messages in; commands out);
//! - [`ui`]: drawing the state with ratatui;
//! - [`proto`] and [`net`]: the server API of `doc/protocol.md`;
//! - [`mod@run`]: the terminal, the event loop, the engine thread and the connection;
//! - [`i18n`]: the message catalogue (English, 简体中文, 繁體中文).
#![forbid(unsafe_code)]

pub mod app;
pub mod i18n;
pub mod net;
pub mod proto;
pub mod run;
pub mod ui;

pub use app::{App, Config, Glyphs, Opponent};
pub use i18n::Lang;
pub use run::{run, RunError, Server};
