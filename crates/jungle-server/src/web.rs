//! The browser client: every file under `web/`, embedded in the binary at compile time and served
//! from the same port (`/` is `index.html`).

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use include_dir::{include_dir, Dir};

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../../web");

/// The routes of this module (a fallback: everything not under `/api` or `/ws`).
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().fallback(file)
}

/// The embedded file at `path` (no leading `/`), if any.
pub fn embedded(path: &str) -> Option<&'static [u8]> {
    WEB.get_file(path).map(|f| f.contents())
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
                f.contents(),
            )
                .into_response()
        }
        None => not_found(),
    }
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(serde_json::json!({"error": {"code": "not_found", "message": "no such page"}})),
    )
        .into_response()
}
