//! Reading lines from another program, and quoting what it sent, without trusting it: a line is
//! read up to a length cap (the rest of an over-long line is read and dropped, so memory stays
//! bounded however long it is), bytes that are not UTF-8 are decoded lossily, and text echoed
//! back is shortened and has its control characters escaped.

use std::io::{self, BufRead};

/// Reads one line from `input` into `buf` (without its `\n`), keeping at most `cap` bytes of it
/// and reading past the rest. Returns the line's whole length in bytes (more than `buf` holds
/// when it was longer than `cap`), or `None` at the end of input with nothing read. A last line
/// without `\n` counts as a line.
pub(crate) fn read_line_capped(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total: usize = 0;
    let mut any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        total = total.saturating_add(chunk.len());
        let used = chunk.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            return Ok(Some(total));
        }
    }
}

/// `text` shortened to its first `max` characters (`…` marks a cut) with control characters
/// (NUL, ESC, a stray `\r`, …) escaped as `\u{1b}`, so that it can be echoed in one line of
/// output whatever it held.
pub(crate) fn sanitize(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// How many characters of a word read from another program [`quote`] keeps.
pub(crate) const QUOTE_CHARS: usize = 80;

/// `text` in backticks, [`sanitize`]d to [`QUOTE_CHARS`] characters: the form in which error
/// messages name what they were sent.
pub(crate) fn quote(text: &str) -> String {
    format!("`{}`", sanitize(text, QUOTE_CHARS))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<(Vec<u8>, usize)> {
        let mut r = io::BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        while let Some(n) = read_line_capped(&mut r, &mut buf, cap).unwrap() {
            out.push((buf.clone(), n));
        }
        out
    }

    #[test]
    fn lines_are_cut_at_the_cap_and_the_rest_is_dropped() {
        let out = lines(b"short\nabcdefghijkl\n\nlast", 5);
        assert_eq!(
            out,
            [
                (b"short".to_vec(), 5),
                (b"abcde".to_vec(), 12),
                (Vec::new(), 0),
                (b"last".to_vec(), 4),
            ]
        );
        assert!(lines(b"", 5).is_empty());
        // Bytes that are not UTF-8 are kept as they are (the caller decodes them lossily).
        assert_eq!(lines(b"\xc4\xe3\n", 5), [(b"\xc4\xe3".to_vec(), 2)]);
    }

    #[test]
    fn an_endless_line_is_read_in_bounded_memory() {
        // 10 MB without a newline, then one.
        let mut data = vec![b'x'; 10_000_000];
        data.extend_from_slice(b"\nok\n");
        let mut r = io::BufReader::new(&data[..]);
        let mut buf = Vec::new();
        assert_eq!(
            read_line_capped(&mut r, &mut buf, 100).unwrap(),
            Some(10_000_000)
        );
        assert_eq!(buf.len(), 100);
        assert!(buf.capacity() < 10_000);
        assert_eq!(read_line_capped(&mut r, &mut buf, 100).unwrap(), Some(2));
        assert_eq!(buf, b"ok");
    }

    #[test]
    fn quoting_escapes_control_characters_and_shortens() {
        assert_eq!(quote("a\0b\x1b[31m"), "`a\\u{0}b\\u{1b}[31m`");
        let long = "y".repeat(200);
        let q = quote(&long);
        assert_eq!(q.chars().count(), QUOTE_CHARS + 3);
        assert!(q.ends_with("…`"));
        assert_eq!(quote("鼠g4"), "`鼠g4`");
    }
}
