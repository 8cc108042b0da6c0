//! The terminal client for Jungle: play the AI, a friend or a server.
