//! Rule-set strings (RULES §9): never panics; what parses prints back to the same rules.
#![no_main]

use jungle::Rules;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Rules>() {
        Ok(rules) => {
            let printed = rules.to_string();
            assert_eq!(
                printed.parse::<Rules>().expect("printed rules parse"),
                rules
            );
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
