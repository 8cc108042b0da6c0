//! Account requests at the edges: two registrations from one guest session at once, and names
//! whose combining marks break the rule (`name_marks`).

mod common;

use common::*;
use serde_json::json;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn credentials(name: &str) -> serde_json::Value {
    json!({"name": name, "password": format!("{name} password")})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_registrations_from_one_guest_session_at_once_lose_nothing_silently() {
    // Both requests find the session's account a guest; only one can register it. The other
    // used to answer 200 with the first one's account while its own name and password were
    // never stored. Now every 200 is the account it asked for, and the other is told so.
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    for round in 0..4 {
        let g = srv.post("/api/guest", None, None).await;
        let tok = g.session.clone().unwrap();
        let guest_id = g.json()["user"]["id"].clone();
        let names = [format!("racer{round}a"), format!("racer{round}b")];
        let (a, b) = (credentials(&names[0]), credentials(&names[1]));
        let (ra, rb) = tokio::join!(
            srv.post("/api/register", Some(&tok), Some(&a)),
            srv.post("/api/register", Some(&tok), Some(&b)),
        );
        let mut kept_guest = 0;
        for (name, r) in names.iter().zip([&ra, &rb]) {
            let login = srv.post("/api/login", None, Some(&credentials(name))).await;
            match r.status {
                200 => {
                    // One registered the guest; a later one (the guest registered by then)
                    // made an account of its own: either way, the one it asked for.
                    assert_eq!(&r.json()["user"]["name"], name, "{}", r.body);
                    kept_guest += usize::from(r.json()["user"]["id"] == guest_id);
                    assert_eq!(login.status, 200, "{name} was answered 200: {}", login.body);
                    assert_eq!(login.json()["user"]["id"], r.json()["user"]["id"]);
                }
                409 => {
                    let e = &r.json()["error"];
                    assert_eq!(e["code"], "already_registered", "{}", r.body);
                    assert!(
                        e["message"]
                            .as_str()
                            .unwrap()
                            .contains("registered by another request"),
                        "{}",
                        r.body
                    );
                    assert_eq!(login.status, 401, "{name} was refused: nothing stored");
                }
                s => panic!("{name}: {s} {}", r.body),
            }
        }
        assert_eq!(kept_guest, 1, "the guest account is registered once");
        // The session goes on, as the account that registered it.
        let me = srv.get("/api/me", Some(&tok)).await;
        assert_eq!(me.json()["user"]["id"], guest_id);
        assert_eq!(me.json()["user"]["guest"], false);
    }
}

#[tokio::test]
async fn names_with_misplaced_combining_marks_say_so_counted_in_normal_form() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let register = |name: &'static str| {
        let srv = &srv;
        async move {
            srv.post("/api/register", None, Some(&credentials(name)))
                .await
        }
    };
    for name in [
        // Five marks on one letter (the tester's name), and an Arabic one.
        "a\u{334}\u{334}\u{334}\u{334}\u{334}bxyz",
        "alice\u{64B}\u{64C}\u{64D}\u{64E}\u{64F}",
        // A mark that follows no letter: at the start, after `_` or a digit.
        "\u{301}abc",
        "abc_\u{301}",
        "ab1\u{301}",
        // Four as typed, but U+0344 is two marks (U+0308 U+0301) in the normal form: five.
        "q\u{344}\u{334}\u{334}\u{334}abc",
    ] {
        let r = register(name).await;
        assert_eq!(r.status, 400, "{name:?}: {}", r.body);
        let e = &r.json()["error"];
        assert_eq!(e["code"], "name_marks", "{name:?}");
        let message = e["message"].as_str().unwrap();
        for says in [
            "combining marks",
            "follow a letter",
            "at most 4 in a row",
            "NFKC",
        ] {
            assert!(message.contains(says), "{name:?}: {message}");
        }
        assert!(!message.contains("only letters, digits"), "{message}");
    }
    // Five as typed, but `e` and the acute accent are one letter `é` in the normal form: four
    // marks on it, a name.
    let r = register("e\u{301}\u{334}\u{334}\u{334}\u{334}abc").await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Other characters are still `name_chars`, even with a mark out of place too.
    for name in ["bad name", "\u{301}a b"] {
        let r = register(name).await;
        assert_eq!(r.json()["error"]["code"], "name_chars", "{name:?}");
    }
}
