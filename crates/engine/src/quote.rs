//! Input quoted in a message: never more than a short excerpt of it, since
//! what a client sends may be megabytes long.

/// At most `limit` characters of `text`, with `…` where it was cut.
pub fn excerpt(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Input quoted in a message: its first 100 characters.
pub fn quote(input: &str) -> String {
    excerpt(input, 100)
}
