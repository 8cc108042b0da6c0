-- The whole schema, portable between SQLite and PostgreSQL: TEXT ids made by the server,
-- BIGINT integers (booleans are 0/1, times are milliseconds since the Unix epoch) and
-- DOUBLE PRECISION for Glicko-2 numbers. No database-specific types or defaults.

-- Accounts: registered players and guests (password_hash is NULL for guests).
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    guest BIGINT NOT NULL,
    score BIGINT NOT NULL,
    coins BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    vol DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    losses BIGINT NOT NULL,
    draws BIGINT NOT NULL,
    disconnects BIGINT NOT NULL,
    escapes BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX users_score ON users (score);

-- Login sessions: only a hash of the cookie's token is kept.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Games, live and finished. A seat has a user, or an AI level (then the user is NULL).
-- The clocks here are those at the start; the clocks after each ply are in `moves`.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    red_user TEXT REFERENCES users (id),
    blue_user TEXT REFERENCES users (id),
    red_ai BIGINT,
    blue_ai BIGINT,
    hotseat BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    clock_ms BIGINT NOT NULL,
    inc_ms BIGINT NOT NULL,
    move_ms BIGINT NOT NULL,
    rules TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    status TEXT NOT NULL,
    winner TEXT,
    reason TEXT,
    plies BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    ended_at BIGINT,
    changes TEXT
);
CREATE INDEX games_status ON games (status);
CREATE INDEX games_red ON games (red_user, started_at);
CREATE INDEX games_blue ON games (blue_user, started_at);

-- Every acknowledged ply (a pass is `--`; `timeout` = 1 when the server passed for a player),
-- with both game clocks and the timeout counts right after it.
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id),
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    timeout BIGINT NOT NULL,
    red_ms BIGINT NOT NULL,
    blue_ms BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
