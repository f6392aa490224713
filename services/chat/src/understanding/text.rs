//! The tokens of an utterance: words (lowercased, with the reader's spelling kept for
//! names and titles), numbers, currency signs, quoted titles and the punctuation that ends
//! a phrase. Hyphens split words ("sci-fi" is "sci fi") so phrases match however they are
//! written; apostrophes stay inside words ("don't", "i'm").

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Word,
    Number,
    Currency,
    Quoted,
    /// Punctuation that ends a phrase (, . ; : ! ? brackets, dashes between words).
    Break,
}

#[derive(Debug, Clone)]
pub(crate) struct Token {
    /// As the reader wrote it (quotes stripped from a quoted title).
    pub text: String,
    pub lower: String,
    pub kind: Kind,
    /// Inside the scope of a "not", "no", "nothing", "without"...
    pub negated: bool,
    /// Already understood by some rule; later rules and the keywords skip it.
    pub used: bool,
}

impl Token {
    fn new(text: String, kind: Kind) -> Self {
        let lower = text.to_lowercase();
        Token {
            text,
            lower,
            kind,
            negated: false,
            used: false,
        }
    }

    pub fn is_word(&self) -> bool {
        self.kind == Kind::Word
    }

    pub fn is_free_word(&self) -> bool {
        self.kind == Kind::Word && !self.used
    }
}

const OPEN_QUOTES: [(char, char); 3] = [
    ('"', '"'),
    ('\u{201c}', '\u{201d}'),
    ('\u{2018}', '\u{2019}'),
];

/// The tokens of `utterance`; never fails, whatever the text.
pub(crate) fn tokenize(utterance: &str) -> Vec<Token> {
    let chars: Vec<char> = utterance.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(close) = quote_close(&chars, i) {
            let inner: String = chars[i + 1..close].iter().collect();
            let inner = inner.split_whitespace().collect::<Vec<_>>().join(" ");
            if !inner.is_empty() {
                tokens.push(Token::new(inner, Kind::Quoted));
            }
            i = close + 1;
        } else if c.is_alphanumeric() {
            let start = i;
            let numeric = c.is_ascii_digit();
            while i < chars.len() && in_word(&chars, i, numeric) {
                i += 1;
            }
            let text: String = chars[start..i]
                .iter()
                .map(|&c| if c == '\u{2019}' { '\'' } else { c })
                .collect();
            let kind = if numeric && text.chars().all(|c| c.is_ascii_digit() || c == '.') {
                Kind::Number
            } else {
                Kind::Word
            };
            tokens.push(Token::new(text, kind));
        } else if matches!(c, '$' | '\u{a3}' | '\u{20ac}') {
            tokens.push(Token::new(c.to_string(), Kind::Currency));
            i += 1;
        } else if matches!(
            c,
            ',' | '.' | ';' | ':' | '!' | '?' | '(' | ')' | '\u{2013}' | '\u{2014}'
        ) || (c == '-' && is_spaced(&chars, i))
        {
            tokens.push(Token::new(c.to_string(), Kind::Break));
            i += 1;
        } else {
            i += 1;
        }
    }
    tokens
}

/// Where the quote opening at `i` closes, when `chars[i]` opens one that closes later.
fn quote_close(chars: &[char], i: usize) -> Option<usize> {
    let (_, close) = OPEN_QUOTES.iter().find(|(open, _)| *open == chars[i])?;
    // A straight quote or a curly single quote inside a word is not an opening quote.
    if i > 0 && chars[i - 1].is_alphanumeric() {
        return None;
    }
    (i + 1..chars.len()).find(|&j| {
        chars[j] == *close && chars.get(j + 1).is_none_or(|next| !next.is_alphanumeric())
    })
}

fn in_word(chars: &[char], i: usize, numeric: bool) -> bool {
    let c = chars[i];
    if c.is_alphanumeric() {
        return true;
    }
    let between = |pred: fn(&char) -> bool| {
        i > 0 && pred(&chars[i - 1]) && chars.get(i + 1).is_some_and(pred)
    };
    match c {
        '\'' | '\u{2019}' => between(|c| c.is_alphanumeric()),
        '.' if numeric => between(|c| c.is_ascii_digit()),
        _ => false,
    }
}

fn is_spaced(chars: &[char], i: usize) -> bool {
    let before = i == 0 || chars[i - 1].is_whitespace();
    let after = chars.get(i + 1).is_none_or(|c| c.is_whitespace());
    before || after
}

/// Where the phrase `words` (lowercase, space separated) starts at `at` among free words.
pub(crate) fn phrase_at(tokens: &[Token], at: usize, phrase: &str) -> Option<usize> {
    let mut i = at;
    for word in phrase.split(' ') {
        let t = tokens.get(i)?;
        if !t.is_free_word() || t.lower != word {
            return None;
        }
        i += 1;
    }
    Some(i - at)
}

/// Marks `len` tokens from `at` as understood.
pub(crate) fn mark_used(tokens: &mut [Token], at: usize, len: usize) {
    for t in tokens.iter_mut().skip(at).take(len) {
        t.used = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowers(s: &str) -> Vec<String> {
        tokenize(s).into_iter().map(|t| t.lower).collect()
    }

    #[test]
    fn splits_hyphens_and_keeps_apostrophes_and_prices() {
        assert_eq!(
            lowers("I don't want sci-fi, under $4.99!"),
            [
                "i", "don't", "want", "sci", "fi", ",", "under", "$", "4.99", "!"
            ]
        );
        assert_eq!(lowers("I\u{2019}m sad"), ["i'm", "sad"]);
    }

    #[test]
    fn quoted_titles_are_one_token() {
        let tokens = tokenize("books like \u{201c}The  Long Winter\u{201d} please");
        assert_eq!(tokens[2].kind, Kind::Quoted);
        assert_eq!(tokens[2].text, "The Long Winter");
        // An unclosed quote is just skipped.
        assert_eq!(lowers("\"dune"), ["dune"]);
    }

    #[test]
    fn any_text_tokenizes_without_panicking() {
        for s in [
            "",
            "\"",
            "\u{2018}",
            "$$$",
            "1.2.3",
            "-",
            "'a'",
            "\u{0}\u{ffff}",
            "İ\u{307}",
        ] {
            let _ = tokenize(s);
        }
    }
}
