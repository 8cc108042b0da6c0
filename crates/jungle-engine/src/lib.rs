//! The Jungle AI: search, evaluation, levels, the text protocol, bench and matches.
