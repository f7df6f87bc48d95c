//! Rust source as tokens, without comments, and without the items marked
//! `#[cfg(test)]`.
//!
//! Only what the architecture check needs survives: identifiers, `::`, single
//! punctuation characters and string literals (their text, for `#[path]`).
//! Numbers, characters and lifetimes are dropped, and a string's text never
//! reads as code, so `"crate::x"` and `/// see crate::x` are not uses.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    Ident(String),
    Str(String),
    /// `::`
    PathSep,
    Punct(char),
}

impl Token {
    pub fn is_ident(&self, name: &str) -> bool {
        matches!(self, Token::Ident(ident) if ident == name)
    }

    pub fn is_punct(&self, c: char) -> bool {
        *self == Token::Punct(c)
    }
}

/// The tokens of `source` outside the items marked `#[cfg(test)]`.
pub fn tokens_without_tests(source: &str) -> Vec<Token> {
    strip_test_items(&tokenize(source))
}

pub fn tokenize(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = skip_block_comment(&chars, i);
        } else if c == '"' {
            let (text, end) = quoted(&chars, i);
            tokens.push(Token::Str(text));
            i = end;
        } else if c == '\'' {
            i = skip_char_or_lifetime(&chars, i);
        } else if c.is_ascii_digit() {
            i = skip_word(&chars, i);
        } else if is_ident_start(c) {
            i = identifier_or_prefixed_literal(&chars, i, &mut tokens);
        } else if c == ':' && next == Some(':') {
            tokens.push(Token::PathSep);
            i += 2;
        } else {
            tokens.push(Token::Punct(c));
            i += 1;
        }
    }
    tokens
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

fn skip_word(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && is_ident_char(chars[i]) {
        i += 1;
    }
    i
}

/// Past a `/* … */` comment, which may nest.
fn skip_block_comment(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                break;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// The text of the `"…"` literal opening at `i`, and the index past it.
fn quoted(chars: &[char], start: usize) -> (String, usize) {
    let mut text = String::new();
    let mut i = start + 1;
    while i < chars.len() && chars[i] != '"' {
        if chars[i] == '\\' {
            i += 1;
        }
        if let Some(&c) = chars.get(i) {
            text.push(c);
        }
        i += 1;
    }
    (text, i + 1)
}

/// The text of the raw literal `#…#"…"#…#` opening at `i` (after its `r`).
fn raw_quoted(chars: &[char], start: usize) -> (String, usize) {
    let hashes = chars[start..].iter().take_while(|&&c| c == '#').count();
    let body = start + hashes + 1;
    let closing: Vec<char> = std::iter::once('"')
        .chain(std::iter::repeat_n('#', hashes))
        .collect();
    let mut i = body;
    while i < chars.len() && !chars[i..].starts_with(&closing) {
        i += 1;
    }
    (
        chars[body..i.min(chars.len())].iter().collect(),
        i + closing.len(),
    )
}

/// Past a character literal (`'a'`, `'\n'`, `'\u{2014}'`) or a lifetime (`'a`).
fn skip_char_or_lifetime(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        let mut j = i + 3;
        while j < chars.len() && chars[j] != '\'' {
            j += 1;
        }
        j + 1
    } else if chars.get(i + 2) == Some(&'\'') {
        i + 3
    } else {
        skip_word(chars, i + 1)
    }
}

/// An identifier, or a literal with a prefix: `r"…"`, `r#"…"#`, `b"…"`,
/// `br"…"`, `c"…"`, `b'x'`; `r#type` is the identifier `type`.
fn identifier_or_prefixed_literal(chars: &[char], start: usize, tokens: &mut Vec<Token>) -> usize {
    let end = skip_word(chars, start);
    let word: String = chars[start..end].iter().collect();
    let next = chars.get(end).copied();
    let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
    match next {
        Some('"') if raw_prefix => {
            let (text, after) = raw_quoted(chars, end);
            tokens.push(Token::Str(text));
            after
        }
        Some('#') if raw_prefix && chars.get(end + 1).is_some_and(|&c| c == '#' || c == '"') => {
            let (text, after) = raw_quoted(chars, end);
            tokens.push(Token::Str(text));
            after
        }
        Some('#') if word == "r" => {
            let after = skip_word(chars, end + 1);
            tokens.push(Token::Ident(chars[end + 1..after].iter().collect()));
            after
        }
        Some('"') if word == "b" || word == "c" => {
            let (text, after) = quoted(chars, end);
            tokens.push(Token::Str(text));
            after
        }
        Some('\'') if word == "b" => skip_char_or_lifetime(chars, end),
        _ => {
            tokens.push(Token::Ident(word));
            end
        }
    }
}

/// `tokens` without each item (or statement) marked `#[cfg(test)]`, such as
/// the `mod tests { … }` of unit tests: they may use what they like.
pub fn strip_test_items(tokens: &[Token]) -> Vec<Token> {
    let mut kept = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if is_cfg_test(&tokens[i..]) {
            i = skip_item(tokens, i);
        } else {
            kept.push(tokens[i].clone());
            i += 1;
        }
    }
    kept
}

fn is_cfg_test(tokens: &[Token]) -> bool {
    let pattern = [
        Token::Punct('#'),
        Token::Punct('['),
        Token::Ident("cfg".into()),
        Token::Punct('('),
        Token::Ident("test".into()),
        Token::Punct(')'),
        Token::Punct(']'),
    ];
    tokens.starts_with(&pattern)
}

/// Past the attributes opening at `i` and the item they are on: up to its
/// `;` or through its `{ … }` body, whichever comes first outside brackets.
fn skip_item(tokens: &[Token], mut i: usize) -> usize {
    while tokens.get(i).is_some_and(|t| t.is_punct('#')) {
        i = past_group(tokens, i + 1);
    }
    let mut depth = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Punct('(' | '[') => depth += 1,
            Token::Punct(')' | ']') => depth -= 1,
            Token::Punct(';') if depth == 0 => return i + 1,
            Token::Punct('{') if depth == 0 => return past_group(tokens, i),
            _ => {}
        }
        i += 1;
    }
    i
}

/// The index past the bracketed group (`(…)`, `[…]` or `{…}`) opening at `i`.
pub fn past_group(tokens: &[Token], mut i: usize) -> usize {
    let mut depth = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}
