//! The browser client: every file under `web/`, embedded in the binary at compile time and served
//! from the same port (`/` is `index.html`).
//!
//! `messages.json`, the one catalogue of both clients, is served without the terminal's own
//! entries (keys starting with `tui_` or `cli_`, a third of it) and without its layout: the
//! browser never uses them ([`browser_catalogue`]).

use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use include_dir::{include_dir, Dir};
use std::sync::OnceLock;

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web");

/// The routes of this module (a fallback: everything not under `/api` or `/ws`).
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().fallback(file)
}

/// The embedded file at `path` (no leading `/`), if any.
pub fn embedded(path: &str) -> Option<&'static [u8]> {
    WEB.get_file(path).map(|f| f.contents())
}

/// The prefixes of the catalogue entries only the terminal client uses.
pub const TERMINAL_ONLY: [&str; 2] = ["tui_", "cli_"];

/// `web/messages.json` as the browser gets it: compact, without the terminal's own entries
/// ([`TERMINAL_ONLY`]).
pub fn browser_catalogue() -> &'static [u8] {
    static CATALOGUE: OnceLock<Vec<u8>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let all = embedded("messages.json").unwrap_or(b"{}");
        match serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(all) {
            Ok(mut entries) => {
                entries.retain(|k, _| !TERMINAL_ONLY.iter().any(|p| k.starts_with(p)));
                serde_json::to_vec(&entries).unwrap_or_else(|_| all.to_vec())
            }
            // Never the case for a catalogue that passed its tests: served as it is.
            Err(_) => all.to_vec(),
        }
    })
}

async fn file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    };
    if path.starts_with("api/") || path.split('/').any(|s| s == "..") {
        return not_found();
    }
    match WEB.get_file(&path) {
        Some(f) => {
            let mime = mime_guess::from_path(&path).first_or_octet_stream();
            let mime = if mime.type_() == "text" || mime.subtype() == "javascript" {
                format!("{mime}; charset=utf-8")
            } else {
                mime.to_string()
            };
            (
                [
                    (CONTENT_TYPE, mime),
                    (CACHE_CONTROL, "no-cache".to_string()),
                ],
                if path == "messages.json" {
                    browser_catalogue()
                } else {
                    f.contents()
                },
            )
                .into_response()
        }
        None => not_found(),
    }
}

/// Adds to `resp` the headers that keep pages of other sites from framing the client (against
/// clickjacking: `X-Frame-Options: DENY`, and `frame-ancestors 'none'`, the only directive of the
/// `Content-Security-Policy`, so that the client's own scripts and styles are not restricted)
/// and browsers from guessing content types (`X-Content-Type-Options: nosniff`). A header the
/// answer already has is kept.
pub async fn security_headers(mut resp: Response) -> Response {
    let headers = resp.headers_mut();
    for (name, value) in [
        (X_FRAME_OPTIONS, "DENY"),
        (CONTENT_SECURITY_POLICY, "frame-ancestors 'none'"),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ] {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    resp
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(serde_json::json!({"error": {"code": "not_found", "message": "no such page"}})),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_gets_the_catalogue_without_the_terminals_entries() {
        let all: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(embedded("messages.json").unwrap()).unwrap();
        let served: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(browser_catalogue()).unwrap();
        assert!(all.keys().any(|k| k.starts_with("tui_")));
        assert!(all.keys().any(|k| k.starts_with("cli_")));
        for (k, v) in &all {
            let terminal = TERMINAL_ONLY.iter().any(|p| k.starts_with(p));
            assert_eq!(served.get(k), (!terminal).then_some(v), "{k}");
        }
        assert_eq!(
            served.len(),
            all.keys()
                .filter(|k| !k.starts_with("tui_") && !k.starts_with("cli_"))
                .count()
        );
        assert!(browser_catalogue().len() * 3 < embedded("messages.json").unwrap().len() * 2);
    }
}
