//! Online Jungle: the game server, accounts, lobby, clocks, scores and storage.
