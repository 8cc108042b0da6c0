//! The load tool (`jungle loadtest`): bot players over real WebSockets on loopback.
