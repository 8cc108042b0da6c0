//! The one error type of the HTTP API, and the error codes shared with the WebSocket.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Everything an HTTP request can fail with. Each variant picks its status and log level;
/// internal details are logged, never sent to clients.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed (bad JSON, unknown fields, bad values).
    #[error("{0}")]
    BadRequest(String),
    /// A move of the request is not allowed (a `bad_request` that also says why as data).
    #[error("move {ply}: illegal move {text}: {why}")]
    IllegalMove {
        /// Its number in the request's move list, from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why not.
        why: jungle::Illegal,
    },
    /// A well-formed JFEN that is not a valid position (a `bad_request` that also lists its
    /// problems as data, `problems`: doc/protocol.md).
    #[error("{0}")]
    BadPosition(jungle::PositionError),
    /// A text that is not JFEN (a `bad_request` that also says what is wrong as data, `syntax`:
    /// doc/protocol.md).
    #[error("{0}")]
    BadJfen(jungle::ParseJfenError),
    /// No valid session.
    #[error("log in first")]
    Unauthorized,
    /// Wrong name or password.
    #[error("wrong name or password")]
    BadLogin,
    /// A password change whose current password is wrong.
    #[error("the current password is wrong")]
    WrongPassword,
    /// A guest asked for what only a registered account has (a password to change).
    #[error("guests have no password: register first")]
    GuestAccount,
    /// The name is taken.
    #[error("that name is taken")]
    NameTaken,
    /// A guest session's registration found its account registered already, by another
    /// request of the same session that came first (two at once): this one changed nothing.
    #[error(
        "this session's guest account was registered by another request meanwhile; \
         nothing was changed"
    )]
    AlreadyRegistered,
    /// A new account's name or password breaks a rule; each rule has its own code, so that
    /// clients can say which in their players' language.
    #[error("{}", .0.message())]
    Account(AccountRule),
    /// Nothing there.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// Too many requests from this address: the limit that refused it.
    #[error("{}", .0.message())]
    RateLimited(crate::limits::Refusal),
    /// The database or another internal part failed.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    /// The machine-readable code of doc/protocol.md.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) | ApiError::IllegalMove { .. } => "bad_request",
            ApiError::BadPosition(_) => "bad_position",
            ApiError::BadJfen(_) => "bad_jfen",
            ApiError::Unauthorized => "unauthorized",
            ApiError::BadLogin => "bad_login",
            ApiError::WrongPassword => "wrong_password",
            ApiError::GuestAccount => "guest_account",
            ApiError::NameTaken => "name_taken",
            ApiError::AlreadyRegistered => "already_registered",
            ApiError::Account(rule) => rule.code(),
            ApiError::NotFound(_) => "not_found",
            ApiError::RateLimited(_) => "rate_limited",
            ApiError::Internal(_) => "internal",
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_)
            | ApiError::IllegalMove { .. }
            | ApiError::BadPosition(_)
            | ApiError::BadJfen(_)
            | ApiError::Account(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::BadLogin => StatusCode::UNAUTHORIZED,
            ApiError::WrongPassword | ApiError::GuestAccount => StatusCode::FORBIDDEN,
            ApiError::NameTaken | ApiError::AlreadyRegistered => StatusCode::CONFLICT,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// The rules a new account's name and password must keep (`POST /api/register`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountRule {
    /// A name has [`NAME_CHARS`] characters.
    NameLength,
    /// A name holds only letters (of any script), digits, `_` and `-`.
    NameChars,
    /// A name's combining marks (accents, vowel signs) each follow a letter, at most
    /// [`MAX_MARKS`](crate::accounts::MAX_MARKS) in a row, counted in its normal form
    /// ([`normalize_name`](crate::accounts::normalize_name)).
    NameMarks,
    /// Names starting with `guest` belong to guests.
    NameReserved,
    /// A name's letters come from one writing system (no Latin name with Cyrillic look-alikes).
    NameScripts,
    /// A password has [`PASSWORD_CHARS`] characters.
    PasswordLength,
}

/// How many characters an account name has.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 2..=20;
/// How many characters a password has.
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

impl AccountRule {
    /// The error code of doc/protocol.md.
    pub fn code(self) -> &'static str {
        match self {
            AccountRule::NameLength => "name_length",
            AccountRule::NameChars => "name_chars",
            AccountRule::NameMarks => "name_marks",
            AccountRule::NameReserved => "name_reserved",
            AccountRule::NameScripts => "name_scripts",
            AccountRule::PasswordLength => "password_length",
        }
    }

    /// The rule in English (the error's `message`).
    pub fn message(self) -> String {
        match self {
            AccountRule::NameLength => format!(
                "a name has {} to {} characters",
                NAME_CHARS.start(),
                NAME_CHARS.end()
            ),
            AccountRule::NameChars => "a name may hold only letters, digits, `_` and `-`".into(),
            AccountRule::NameMarks => format!(
                "combining marks (accents, vowel signs) may only follow a letter, at most {} in \
                 a row (counted after Unicode NFKC normalization)",
                crate::accounts::MAX_MARKS
            ),
            AccountRule::NameReserved => {
                "names starting with `guest`, `游客` or `訪客` are kept for guests".into()
            }
            AccountRule::NameScripts => {
                "a name may not mix alphabets (such as Latin and Cyrillic letters)".into()
            }
            AccountRule::PasswordLength => format!(
                "a password has {} to {} characters",
                PASSWORD_CHARS.start(),
                PASSWORD_CHARS.end()
            ),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::Internal(format!("database: {e}"))
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        match e {
            crate::store::StoreError::NameTaken => ApiError::NameTaken,
            crate::store::StoreError::NotAGuest => ApiError::AlreadyRegistered,
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match &self {
            ApiError::Internal(detail) => tracing::error!(%detail, "internal error"),
            // Logged by the limit that refused it, at most once in 10 s (`limits`).
            ApiError::RateLimited(_) => {}
            other => tracing::debug!(error = %other, "request refused"),
        }
        let mut body = serde_json::json!({
            "error": {"code": self.code(), "message": self.to_string()}
        });
        match &self {
            ApiError::IllegalMove { why, .. } => body["error"]["why"] = crate::wire::why_json(why),
            ApiError::BadPosition(e) => {
                body["error"]["problems"] =
                    e.problems.iter().map(crate::wire::problem_json).collect()
            }
            ApiError::BadJfen(e) => body["error"]["syntax"] = crate::wire::syntax_json(e),
            _ => {}
        }
        let mut resp = (self.status(), Json(body)).into_response();
        // Waiting helps a limit per minute (an open socket is freed when its client closes it).
        if let Some(s) = match &self {
            ApiError::RateLimited(refusal) => refusal.retry_after_s(),
            _ => None,
        } {
            resp.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, s.into());
        }
        resp
    }
}

/// Gives every error answer the API's JSON shape: axum answers some refusals itself before a
/// handler runs (a malformed query string or path, a body over the size limit, a wrong method)
/// with plain text or nothing. This turns such an answer into
/// `{"error": {"code", "message"}}`, keeping its status and its text as the message. Answers that
/// are already JSON, and successful ones, pass unchanged.
pub async fn json_errors(resp: Response) -> Response {
    let status = resp.status();
    let is_json = resp
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return resp;
    }
    let code = match status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::UNAUTHORIZED => "unauthorized",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::TOO_MANY_REQUESTS => "rate_limited",
        StatusCode::REQUEST_TIMEOUT => "timeout",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    };
    let (parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() || status.is_server_error() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text
    };
    let mut out = (
        status,
        Json(serde_json::json!({"error": {"code": code, "message": message}})),
    )
        .into_response();
    // Keep what the refusal said besides its body (e.g. `Allow` on a wrong method).
    for (name, value) in &parts.headers {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            out.headers_mut().append(name.clone(), value.clone());
        }
    }
    out
}
