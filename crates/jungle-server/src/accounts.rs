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
    if !state.limits.allow(Request::Account, ip) {
        return Err(ApiError::RateLimited);
    }
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

/// Combining marks allowed on one letter: Myanmar writes up to four on one consonant (a medial,
/// vowel signs and the asat: ကျော်), Devanagari a nukta, a vowel sign and an anusvara (ज़िं).
const MAX_MARKS: usize = 4;

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
/// their accents), digits, `_` or `-`, from one writing system, not `Guest-…`.
pub fn validate_name(name: &str) -> Result<(), ApiError> {
    if !NAME_CHARS.contains(&name.chars().count()) {
        return Err(ApiError::Account(AccountRule::NameLength));
    }
    // Marks (a virama, say, which is not itself a letter) are part of the letter they follow.
    let mark = unicode_normalization::char::is_combining_mark;
    if !name
        .chars()
        .all(|c| (c.is_alphanumeric() && !invisible(c)) || mark(c) || c == '_' || c == '-')
        || !marks_on_letters(name)
    {
        return Err(ApiError::Account(AccountRule::NameChars));
    }
    if !one_writing_system(name) {
        return Err(ApiError::Account(AccountRule::NameScripts));
    }
    if name.to_lowercase().starts_with("guest") {
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

async fn hash_password(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| ApiError::Internal(format!("argon2: {e}")))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?
}

async fn verify_password(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || {
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
    if !state.limits.allow(Request::Account, ip) {
        return Err(ApiError::RateLimited);
    }
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
    if !state.limits.allow(Request::Account, ip) {
        return Err(ApiError::RateLimited);
    }
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
    if !state.limits.allow(Request::Account, ip) {
        return Err(ApiError::RateLimited);
    }
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
