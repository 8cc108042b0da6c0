//! Newtype ids: random, URL-safe, made by the server.

use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// `len` random characters from an unambiguous alphabet.
pub(crate) fn random_token(len: usize) -> String {
    let mut rng = rand::thread_rng();
    (0..len)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

/// An id that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid id `{0}`")]
pub struct ParseIdError(pub String);

macro_rules! id_type {
    ($name:ident, $len:expr, $doc:literal) => {
        #[doc = $doc]
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl $name {
            /// A new random id.
            pub fn random() -> Self {
                $name(random_token($len))
            }
            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl FromStr for $name {
            type Err = ParseIdError;
            fn from_str(s: &str) -> Result<Self, ParseIdError> {
                if !s.is_empty() && s.len() <= 32 && s.bytes().all(|b| b.is_ascii_alphanumeric()) {
                    Ok($name(s.to_string()))
                } else {
                    Err(ParseIdError(s.chars().take(40).collect()))
                }
            }
        }

        impl TryFrom<String> for $name {
            type Error = ParseIdError;
            fn try_from(s: String) -> Result<Self, ParseIdError> {
                s.parse()
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }
    };
}

id_type!(GameId, 10, "A game's id, as in `/api/games/{id}`.");
id_type!(UserId, 16, "An account's id (never shown as a name).");
id_type!(SeekId, 10, "A lobby seek's or a private challenge's id.");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_text_and_json() {
        let g = GameId::random();
        assert_eq!(g.as_str().len(), 10);
        assert_eq!(g.to_string().parse::<GameId>().unwrap(), g);
        let json = serde_json::to_string(&g).unwrap();
        assert_eq!(serde_json::from_str::<GameId>(&json).unwrap(), g);
        let u = UserId::random();
        assert_eq!(u.to_string().parse::<UserId>().unwrap(), u);
    }

    #[test]
    fn bad_ids_are_refused() {
        assert!("".parse::<GameId>().is_err());
        assert!("a/b".parse::<GameId>().is_err());
        assert!("x".repeat(33).parse::<SeekId>().is_err());
        assert!(serde_json::from_str::<GameId>("\"../etc\"").is_err());
    }
}
