//! Accounts: guests, registration, login, sessions (HttpOnly SameSite cookies), profiles,
//! histories and the leaderboard.

use crate::error::{AccountRule, ApiError, NAME_CHARS, PASSWORD_CHARS};
use crate::games_api::summary;
use crate::hub::Sessions;
use crate::ids::random_token;
use crate::limits::{ClientIp, Request};
use crate::store::{User, SESSION_LIFETIME_MS};
use crate::AppState;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::{Path, Query, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "jungle_session";

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/guest", post(guest))
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/logout-all", post(logout_all))
        .route("/api/password", post(change_password))
        .route("/api/me", get(me))
        .route("/api/users/{name}", get(user))
        .route("/api/users/{name}/games", get(user_games))
        .route("/api/leaderboard", get(leaderboard))
}

/// The session token of a request's cookie, if any.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == SESSION_COOKIE)
        .map(|(_, v)| v.to_string())
        .filter(|v| !v.is_empty() && v.len() <= 64)
}

/// The account of a request's session, or 401.
pub async fn session_user(state: &AppState, headers: &HeaderMap) -> Result<User, ApiError> {
    Ok(session(state, headers).await?.1)
}

/// A request's session: its token and its account, or 401.
pub async fn session(state: &AppState, headers: &HeaderMap) -> Result<(String, User), ApiError> {
    let token = session_token(headers).ok_or(ApiError::Unauthorized)?;
    let user = state
        .hub
        .store()
        .session_user(&token, state.hub.clock().now_ms())
        .await?
        .ok_or(ApiError::Unauthorized)?;
    Ok((token, user))
}

fn cookie(state: &AppState, token: &str, max_age: i64) -> HeaderValue {
    let secure = if state.hub.config().secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let v = format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    );
    HeaderValue::from_str(&v).unwrap_or_else(|_| HeaderValue::from_static(""))
}

async fn start_session(state: &AppState, user: User) -> Result<Response, ApiError> {
    let token = random_token(40);
    let now = state.hub.clock().now_ms();
    state
        .hub
        .store()
        .create_session(&token, &user.id, now)
        .await?;
    let mut resp = Json(json!({ "user": user })).into_response();
    resp.headers_mut().insert(
        SET_COOKIE,
        cookie(state, &token, SESSION_LIFETIME_MS / 1000),
    );
    Ok(resp)
}

async fn guest(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
) -> Result<Response, ApiError> {
    state
        .limits
        .allow(Request::Account, ip)
        .map_err(ApiError::RateLimited)?;
    let now = state.hub.clock().now_ms();
    // A few tries in the unlikely case the generated name is taken.
    for _ in 0..5 {
        let name = format!("Guest-{}", rand::random::<u32>() % 900_000 + 100_000);
        match state.hub.store().create_user(&name, None, now).await {
            Ok(u) => return start_session(&state, u).await,
            Err(crate::store::StoreError::NameTaken) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::Internal("no free guest name".into()))
}

/// `{"name","password"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// Login name.
    pub name: String,
    /// Password.
    pub password: String,
}

/// A name as typed, in the form it is kept and looked up in: Unicode NFKC, so that a full-width
/// `Ａｌｉｃｅ` is the `Alice` it looks like (and so taken when `alice` is), and `Ｇuest-1` is
/// reserved like `Guest-1`.
pub fn normalize_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.nfkc().collect()
}

/// Characters that count as letters but show as nothing (Hangul fillers): a name of them would
/// look blank, or like another name.
fn invisible(c: char) -> bool {
    matches!(c, '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}')
}

/// Whether the combining marks of `name` (accents, vowel signs) each follow a letter, at most
/// [`MAX_MARKS`] in a row: marks piled on one letter, or standing alone, are not writing.
fn marks_on_letters(name: &str) -> bool {
    let mut run = MAX_MARKS; // at the start a mark follows nothing
    name.chars().all(|c| {
        if unicode_normalization::char::is_combining_mark(c) {
            run += 1;
            run <= MAX_MARKS
        } else {
            // After a digit, `_` or `-`, a mark stands alone again.
            run = if c.is_alphabetic() { 0 } else { MAX_MARKS };
            true
        }
    })
}

/// Combining marks allowed on one letter, in a name's normal form ([`normalize_name`]): Myanmar
/// writes up to four on one consonant (a medial, vowel signs and the asat: ကျော်), Devanagari a
/// nukta, a vowel sign and an anusvara (ज़िं).
pub const MAX_MARKS: usize = 4;

/// Whether the letters of `name` come from one writing system: one script, or scripts written
/// together (Latin with Han, Hiragana and Katakana; with Han and Bopomofo; with Han and
/// Hangul), as Unicode's "highly restrictive" profile (UTS #39) has it. A Latin name with a
/// Cyrillic `а` or Greek `ο` in it, which looks like another name, is refused.
fn one_writing_system(name: &str) -> bool {
    use unicode_script::{Script, UnicodeScript};
    const TOGETHER: [&[Script]; 3] = [
        &[
            Script::Latin,
            Script::Han,
            Script::Hiragana,
            Script::Katakana,
        ],
        &[Script::Latin, Script::Han, Script::Bopomofo],
        &[Script::Latin, Script::Han, Script::Hangul],
    ];
    let used: Vec<Script> = name
        .chars()
        .map(|c| c.script())
        .filter(|s| !matches!(s, Script::Common | Script::Inherited))
        .collect();
    let Some(first) = used.first() else {
        return true;
    };
    used.iter().all(|s| s == first)
        || TOGETHER
            .iter()
            .any(|set| used.iter().all(|s| set.contains(s)))
}

/// Checks a new account name (in [`normalize_name`]'s form): 2–20 letters (any script, with
/// their accents), digits, `_` or `-` (`name_chars`), its combining marks each on a letter, at
/// most [`MAX_MARKS`] in a row (`name_marks`), from one writing system, not `Guest-…`.
pub fn validate_name(name: &str) -> Result<(), ApiError> {
    if !NAME_CHARS.contains(&name.chars().count()) {
        return Err(ApiError::Account(AccountRule::NameLength));
    }
    // Marks (a virama, say, which is not itself a letter) are part of the letter they follow.
    let mark = unicode_normalization::char::is_combining_mark;
    if !name
        .chars()
        .all(|c| (c.is_alphanumeric() && !invisible(c)) || mark(c) || c == '_' || c == '-')
    {
        return Err(ApiError::Account(AccountRule::NameChars));
    }
    // Counted in the form given (the normal form): `e` and an acute accent are one letter `é`
    // by then, and a mark that is two in it (U+0344) counts as two.
    if !marks_on_letters(name) {
        return Err(ApiError::Account(AccountRule::NameMarks));
    }
    if !one_writing_system(name) {
        return Err(ApiError::Account(AccountRule::NameScripts));
    }
    // Guests are shown as 游客123456 / 訪客123456 in Chinese (`Guest-123456` in English): no
    // registered name may look like one.
    if ["guest", "游客", "訪客", "访客", "遊客"]
        .iter()
        .any(|p| name.to_lowercase().starts_with(p))
    {
        return Err(ApiError::Account(AccountRule::NameReserved));
    }
    Ok(())
}

/// Checks a new password: [`PASSWORD_CHARS`] characters.
fn validate_password(password: &str) -> Result<(), ApiError> {
    if PASSWORD_CHARS.contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(ApiError::Account(AccountRule::PasswordLength))
    }
}

fn json_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::BadRequest(format!("bad JSON: {e}")))
}

/// How many password hashes (Argon2, about 19 MiB of memory each) run at once, server-wide:
/// the machine's CPUs, at most [`MAX_HASHING`]. Every `register`, `login` and `password`
/// request hashes once or twice; those over the cap wait their turn (in order) instead of each
/// taking a blocking thread and its 19 MiB at the same moment, so that a burst of logins costs
/// at most `cap × 19 MiB` and no more CPU than there is. The per-address limit of account
/// requests (`--auth-per-min`) bounds the queue.
pub fn hashing_cap() -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, MAX_HASHING)
}

/// The most password hashes that run at once whatever the number of CPUs (see [`hashing_cap`]).
pub const MAX_HASHING: usize = 4;

/// A cap on blocking jobs run at once (password hashing: [`hashing_cap`]); the rest wait, in
/// the order they came, for a place.
#[derive(Debug, Clone)]
pub struct BlockingLimiter {
    places: std::sync::Arc<tokio::sync::Semaphore>,
}

impl BlockingLimiter {
    /// A limiter letting `cap` jobs (at least 1) run at once.
    pub fn new(cap: usize) -> BlockingLimiter {
        BlockingLimiter {
            places: std::sync::Arc::new(tokio::sync::Semaphore::new(cap.max(1))),
        }
    }

    /// How many more jobs could start now without waiting.
    pub fn free(&self) -> usize {
        self.places.available_permits()
    }

    /// Runs `job` on a blocking thread once a place is free and answers its result. The place
    /// is held until the job has finished, even if the caller stops waiting for it (a client
    /// that hung up): a job that was started always runs to its end.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let place = self
            .places
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Internal(format!("hashing limiter: {e}")))?;
        tokio::task::spawn_blocking(move || {
            let out = job();
            drop(place);
            out
        })
        .await
        .map_err(|e| ApiError::Internal(format!("hashing job: {e}")))
    }
}

/// The server's one password-hashing limiter ([`hashing_cap`] places).
fn hashing() -> &'static BlockingLimiter {
    static HASHING: std::sync::OnceLock<BlockingLimiter> = std::sync::OnceLock::new();
    HASHING.get_or_init(|| BlockingLimiter::new(hashing_cap()))
}

/// Hashes a password (Argon2id, a fresh salt), waiting for a place under [`hashing_cap`].
async fn hash_password(password: String) -> Result<String, ApiError> {
    hashing()
        .run(move || {
            let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
            Argon2::default()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| ApiError::Internal(format!("argon2: {e}")))
        })
        .await?
}

/// Whether `password` is the one `hash` was made from (false for a hash that cannot be read),
/// waiting for a place under [`hashing_cap`].
async fn verify_password(password: String, hash: String) -> bool {
    hashing()
        .run(move || {
            PasswordHash::new(&hash)
                .map(|h| {
                    Argon2::default()
                        .verify_password(password.as_bytes(), &h)
                        .is_ok()
                })
                .unwrap_or(false)
        })
        .await
        .unwrap_or(false)
}

async fn register(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    state
        .limits
        .allow(Request::Account, ip)
        .map_err(ApiError::RateLimited)?;
    let c: Credentials = json_body(&body)?;
    let name = normalize_name(&c.name);
    validate_name(&name)?;
    validate_password(&c.password)?;
    let hash = hash_password(c.password).await?;
    let now = state.hub.clock().now_ms();
    // A guest registering keeps its id, and so its history.
    if let Ok(current) = session_user(&state, &headers).await {
        if current.guest {
            let user = state
                .hub
                .store()
                .register_guest(&current.id, &name, &hash)
                .await?;
            return Ok(Json(json!({ "user": user })).into_response());
        }
    }
    let user = state
        .hub
        .store()
        .create_user(&name, Some(&hash), now)
        .await?;
    start_session(&state, user).await
}

async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    state
        .limits
        .allow(Request::Account, ip)
        .map_err(ApiError::RateLimited)?;
    let c: Credentials = json_body(&body)?;
    let store = state.hub.store();
    // Names are kept in NFKC form (those stored before are brought to it at start).
    let found = store.login_lookup(&normalize_name(&c.name)).await?;
    let Some((user, Some(hash))) = found else {
        // Spend the same time as a real check, so names cannot be probed by timing.
        let _ = verify_password(c.password, DUMMY_HASH.into()).await;
        return Err(ApiError::BadLogin);
    };
    if !verify_password(c.password, hash).await {
        return Err(ApiError::BadLogin);
    }
    start_session(&state, user).await
}

const DUMMY_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$9sTbSlTio3Biev89thdrlKKiCaYsjjYVJxGAL3swxpQ";

fn clear_cookie(state: &AppState) -> Response {
    let mut resp = Json(json!({})).into_response();
    resp.headers_mut().insert(SET_COOKIE, cookie(state, "", 0));
    resp
}

/// Ends this session; the sockets opened with it are closed.
async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = session_token(&headers) {
        let store = state.hub.store();
        let user = store
            .session_user(&token, state.hub.clock().now_ms())
            .await?;
        store.delete_session(&token).await?;
        if let Some(user) = user {
            state.hub.sign_out(&user.id, Sessions::One(token.into()));
        }
    }
    Ok(clear_cookie(&state))
}

/// Ends every session of the account; all its sockets are closed.
async fn logout_all(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = session_user(&state, &headers).await?;
    state.hub.store().delete_sessions(&user.id).await?;
    state.hub.sign_out(&user.id, Sessions::All);
    Ok(clear_cookie(&state))
}

/// `{"old","new"}`: a password change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    old: String,
    new: String,
}

/// Changes the password of the session's registered account, given the current one. Every other
/// session of the account ends (its sockets close); this one goes on.
async fn change_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    state
        .limits
        .allow(Request::Account, ip)
        .map_err(ApiError::RateLimited)?;
    let (token, user) = session(&state, &headers).await?;
    let c: PasswordChange = json_body(&body)?;
    let store = state.hub.store();
    let Some((_, Some(hash))) = store.login_lookup(&user.name).await? else {
        return Err(ApiError::GuestAccount);
    };
    if !verify_password(c.old, hash).await {
        return Err(ApiError::WrongPassword);
    }
    validate_password(&c.new)?;
    let hash = hash_password(c.new).await?;
    store.set_password(&user.id, &hash).await?;
    store.delete_other_sessions(&user.id, &token).await?;
    state.hub.sign_out(&user.id, Sessions::AllBut(token.into()));
    Ok(Json(json!({ "user": user })).into_response())
}

async fn me(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let user = session_user(&state, &headers).await?;
    Ok(Json(json!({ "user": user })).into_response())
}

async fn user(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let user = state
        .hub
        .store()
        .user_by_name(&normalize_name(&name))
        .await?
        .ok_or(ApiError::NotFound("user"))?;
    Ok(Json(json!({ "user": user })).into_response())
}

/// `?before=ID&limit=N`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    /// Games older than this one.
    pub before: Option<crate::GameId>,
    /// At most this many (default 20, at most 100).
    pub limit: Option<i64>,
}

async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(page): Query<Page>,
) -> Result<Response, ApiError> {
    let store = state.hub.store();
    let user = store
        .user_by_name(&normalize_name(&name))
        .await?
        .ok_or(ApiError::NotFound("user"))?;
    let before = match &page.before {
        None => None,
        Some(id) => {
            let row = store.game(id).await?.ok_or(ApiError::NotFound("game"))?;
            Some((row.started_at, id))
        }
    };
    let limit = page.limit.unwrap_or(20).clamp(1, 100);
    let rows = store.user_games(&user.id, before, limit).await?;
    let mut games = Vec::with_capacity(rows.len());
    for r in &rows {
        games.push(summary(&state, r).await?);
    }
    Ok(Json(json!({ "games": games })).into_response())
}

async fn leaderboard(State(state): State<AppState>) -> Result<Response, ApiError> {
    let users = state.hub.store().leaderboard(100).await?;
    Ok(Json(json!({ "users": users })).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Condvar, Mutex};

    /// Jobs that count how many of them run at once, and wait for [`Gate::open`] to finish.
    #[derive(Default)]
    struct Gate {
        open: Mutex<bool>,
        opened: Condvar,
        running: AtomicUsize,
        most: AtomicUsize,
        done: AtomicUsize,
    }

    impl Gate {
        fn job(self: &Arc<Self>) -> impl FnOnce() -> usize + Send + 'static {
            let gate = self.clone();
            move || {
                let now = gate.running.fetch_add(1, Ordering::SeqCst) + 1;
                gate.most.fetch_max(now, Ordering::SeqCst);
                let mut open = gate.open.lock().unwrap();
                while !*open {
                    open = gate.opened.wait(open).unwrap();
                }
                drop(open);
                gate.running.fetch_sub(1, Ordering::SeqCst);
                gate.done.fetch_add(1, Ordering::SeqCst);
                now
            }
        }

        fn open(&self) {
            *self.open.lock().unwrap_or_else(|e| e.into_inner()) = true;
            self.opened.notify_all();
        }

        /// Opens the gate when dropped: a failing test lets its jobs end (the runtime waits
        /// for them).
        fn opened_at_end(self: &Arc<Self>) -> impl Drop {
            struct OpenOnDrop(Arc<Gate>);
            impl Drop for OpenOnDrop {
                fn drop(&mut self) {
                    self.0.open();
                }
            }
            OpenOnDrop(self.clone())
        }

        /// Waits (yielding) until `f` holds; panics after a generous while, not to hang.
        async fn until(&self, what: &str, f: impl Fn(&Self) -> bool) {
            for _ in 0..10_000 {
                if f(self) {
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            }
            panic!("never happened: {what}");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_hashing_limiter_runs_at_most_its_cap_at_once_and_queues_the_rest() {
        let limiter = BlockingLimiter::new(3);
        let gate = Arc::new(Gate::default());
        let _end = gate.opened_at_end();
        let jobs: Vec<_> = (0..12)
            .map(|_| {
                let (limiter, job) = (limiter.clone(), gate.job());
                tokio::spawn(async move { limiter.run(job).await.unwrap() })
            })
            .collect();
        gate.until("3 jobs running", |g| g.running.load(Ordering::SeqCst) >= 3)
            .await;
        assert_eq!(limiter.free(), 0);
        // The other 9 wait for a place: give them every chance to start anyway.
        for _ in 0..50 {
            tokio::task::yield_now().await;
        }
        assert_eq!(gate.running.load(Ordering::SeqCst), 3);
        assert_eq!(gate.done.load(Ordering::SeqCst), 0);
        gate.open();
        for job in jobs {
            assert!(job.await.unwrap() <= 3);
        }
        assert_eq!(gate.most.load(Ordering::SeqCst), 3);
        assert_eq!(gate.done.load(Ordering::SeqCst), 12);
        assert_eq!(limiter.free(), 3);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_hash_whose_request_is_dropped_keeps_its_place_until_it_has_run() {
        // A client that hangs up drops its request's future; the Argon2 job it started runs on
        // (a blocking thread cannot be stopped), so it must still count against the cap.
        let limiter = BlockingLimiter::new(1);
        let gate = Arc::new(Gate::default());
        let _end = gate.opened_at_end();
        let first = tokio::spawn({
            let (limiter, job) = (limiter.clone(), gate.job());
            async move { limiter.run(job).await }
        });
        gate.until("the job running", |g| g.running.load(Ordering::SeqCst) == 1)
            .await;
        first.abort();
        assert!(first.await.unwrap_err().is_cancelled());
        assert_eq!(limiter.free(), 0, "the running job still holds its place");
        let second = tokio::spawn({
            let (limiter, job) = (limiter.clone(), gate.job());
            async move { limiter.run(job).await.unwrap() }
        });
        for _ in 0..50 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            gate.running.load(Ordering::SeqCst),
            1,
            "the second one waits"
        );
        gate.open();
        assert_eq!(second.await.unwrap(), 1, "it ran alone");
        gate.until("both jobs done", |g| g.done.load(Ordering::SeqCst) == 2)
            .await;
        assert_eq!(gate.most.load(Ordering::SeqCst), 1);
        assert_eq!(limiter.free(), 1);
    }

    #[test]
    fn the_hashing_cap_is_the_cpus_at_most_max_hashing() {
        let cap = hashing_cap();
        assert!((1..=MAX_HASHING).contains(&cap), "{cap}");
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(cap, cpus.min(MAX_HASHING));
    }

    #[test]
    fn misplaced_combining_marks_have_their_own_rule() {
        let code = |name: &str| match validate_name(&normalize_name(name)) {
            Ok(()) => "ok",
            Err(e) => e.code(),
        };
        // Four marks on a letter is writing; five is not, nor one on nothing.
        assert_eq!(code("a\u{334}\u{334}\u{334}\u{334}bxyz"), "ok");
        assert_eq!(
            code("a\u{334}\u{334}\u{334}\u{334}\u{334}bxyz"),
            "name_marks"
        );
        assert_eq!(code("\u{301}abc"), "name_marks");
        assert_eq!(code("ab-\u{301}c"), "name_marks");
        // Counted in the normal form: `e` + acute is `é` (one mark fewer), U+0344 is two marks.
        assert_eq!(code("e\u{301}\u{334}\u{334}\u{334}\u{334}abc"), "ok");
        assert_eq!(code("q\u{344}\u{334}\u{334}\u{334}abc"), "name_marks");
        // Other characters are the other rule, whatever the marks.
        assert_eq!(code("\u{301}a b"), "name_chars");
        let message = AccountRule::NameMarks.message();
        assert!(message.contains("at most 4 in a row"), "{message}");
        assert!(message.contains("follow a letter"), "{message}");
    }

    #[test]
    fn names_people_write_are_accepted() {
        for name in [
            "小明abc",
            "小明",
            "Al",
            "たろう太郎",
            "タロウ_01",
            "김철수",
            "王小明ㄅㄆ",
            "Nguyễn",
            "Zoë-7",
            "स्त्री123",
            "ज़िंदगी",
            "ਜ਼ਿੰਦਗੀ",
            "ইয়াং",
            "ဖြိုး",
            "ကျော်ကျော်",
            "ဇော်ဝင်း",
            "မျိုးမင်း",
            "Иван",
            "Σωκράτης",
            "محمد",
        ] {
            let name = normalize_name(name);
            assert!(validate_name(&name).is_ok(), "{name}");
        }
    }
}
