//! The part of Hugging Face `tokenizers`' `tokenizer.json` that static
//! models ship, read and run as the library runs it, so that a model2vec
//! model gives here the token ids it gives in Python.
//!
//! Encoding a text (`Tokenizer.encode(text, add_special_tokens=False)`):
//!
//! 1. **Added tokens** (`[CLS]`, `[SEP]`, …) are cut out of the raw text
//!    first, leftmost and longest, and become their own ids.
//! 2. **Normalizer** on each remaining piece: `BertNormalizer` (drop
//!    controls, spaces for every white space, CJK ideographs set apart,
//!    accents stripped through NFD, lowercase), `Lowercase`, `NFD`, `NFKD`,
//!    `NFC`, `NFKC`, `StripAccents`, `Strip`, or a `Sequence` of them.
//! 3. **Pre-tokenizer**: `BertPreTokenizer` (split at white space, each
//!    punctuation char on its own), `WhitespaceSplit`, `Whitespace`
//!    (`\w+|[^\w\s]+`), `Metaspace`, or a `Sequence`.
//! 4. **Model** on each word: `WordPiece` (greedy longest prefix, then
//!    `##` continuations; a word that cannot be covered is one unknown
//!    token), `WordLevel` (the word or unknown) or `Unigram` (the Viterbi
//!    path of highest total score; an uncovered char is unknown).
//!
//! Anything else (BPE, byte-level, SentencePiece's precompiled normalizer,
//! regex replacements) is refused by name rather than approximated: ids that
//! differ from the library's would give other vectors without a word said.

use super::json::Json;
use std::collections::HashMap;
use unicode_general_category::{get_general_category, GeneralCategory as G};
use unicode_normalization::UnicodeNormalization;

#[derive(Clone, Debug)]
enum Norm {
    Bert {
        clean_text: bool,
        chinese: bool,
        strip_accents: bool,
        lowercase: bool,
    },
    Lowercase,
    Nfd,
    Nfkd,
    Nfc,
    Nfkc,
    StripAccents,
    Strip {
        left: bool,
        right: bool,
    },
}

#[derive(Clone, Debug)]
enum Pre {
    Bert,
    WhitespaceSplit,
    Whitespace,
    Metaspace {
        replacement: char,
        prepend: Prepend,
        split: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Prepend {
    Always,
    First,
    Never,
}

#[derive(Clone, Debug)]
enum Model {
    WordPiece {
        unk: Option<u32>,
        prefix: String,
        max_chars: usize,
    },
    WordLevel {
        unk: Option<u32>,
    },
    Unigram {
        scores: Vec<f64>,
        unk: Option<u32>,
        longest: usize,
    },
}

/// A `tokenizer.json`, ready to encode.
#[derive(Clone, Debug)]
pub(crate) struct HfTokenizer {
    vocab: HashMap<String, u32>,
    /// Every token by id (model vocabulary and added tokens).
    tokens: Vec<String>,
    added_raw: Vec<(String, u32)>,
    added_normalized: Vec<(String, u32)>,
    norms: Vec<Norm>,
    pres: Vec<Pre>,
    model: Model,
    /// The id model2vec drops from every encoding (`_get_unk_token_id`).
    pub(crate) unk: Option<u32>,
    /// What the page shows: `WordPiece`, `Unigram`, `WordLevel`.
    pub(crate) kind: &'static str,
}

fn unsupported(what: &str) -> String {
    format!("{what} is not supported (supported: WordPiece, WordLevel or Unigram models with Bert/Lowercase/Unicode/StripAccents/Strip normalizers and Bert/Whitespace/WhitespaceSplit/Metaspace pre-tokenizers)")
}

fn flag(v: &Json, key: &str, default: bool) -> Result<bool, String> {
    match v.get(key) {
        None | Some(Json::Null) => Ok(default),
        Some(x) => x
            .as_bool()
            .ok_or_else(|| format!("{key} is not true or false")),
    }
}

fn type_of(v: &Json) -> Result<&str, String> {
    v.get("type")
        .and_then(Json::as_str)
        .ok_or_else(|| "a component without a \"type\"".to_string())
}

fn normalizers(v: &Json, out: &mut Vec<Norm>) -> Result<(), String> {
    if v.is_null() {
        return Ok(());
    }
    let n = match type_of(v)? {
        "Sequence" => {
            for n in v
                .get("normalizers")
                .and_then(Json::as_array)
                .ok_or("a Sequence normalizer without \"normalizers\"")?
            {
                normalizers(n, out)?;
            }
            return Ok(());
        }
        "BertNormalizer" => {
            let lowercase = flag(v, "lowercase", true)?;
            Norm::Bert {
                clean_text: flag(v, "clean_text", true)?,
                chinese: flag(v, "handle_chinese_chars", true)?,
                strip_accents: flag(v, "strip_accents", lowercase)?,
                lowercase,
            }
        }
        "Lowercase" => Norm::Lowercase,
        "NFD" => Norm::Nfd,
        "NFKD" => Norm::Nfkd,
        "NFC" => Norm::Nfc,
        "NFKC" => Norm::Nfkc,
        "StripAccents" => Norm::StripAccents,
        "Strip" => Norm::Strip {
            left: flag(v, "strip_left", true)?,
            right: flag(v, "strip_right", true)?,
        },
        other => return Err(unsupported(&format!("the normalizer {other:?}"))),
    };
    out.push(n);
    Ok(())
}

fn pre_tokenizers(v: &Json, out: &mut Vec<Pre>) -> Result<(), String> {
    if v.is_null() {
        return Ok(());
    }
    let p = match type_of(v)? {
        "Sequence" => {
            for p in v
                .get("pretokenizers")
                .and_then(Json::as_array)
                .ok_or("a Sequence pre-tokenizer without \"pretokenizers\"")?
            {
                pre_tokenizers(p, out)?;
            }
            return Ok(());
        }
        "BertPreTokenizer" => Pre::Bert,
        "WhitespaceSplit" => Pre::WhitespaceSplit,
        "Whitespace" => Pre::Whitespace,
        "Metaspace" => {
            let mut r = v
                .get("replacement")
                .and_then(Json::as_str)
                .unwrap_or("▁")
                .chars();
            let replacement = match (r.next(), r.next()) {
                (Some(c), None) => c,
                _ => return Err("the Metaspace replacement must be one char".into()),
            };
            let prepend = match v.get("prepend_scheme").and_then(Json::as_str) {
                Some("always") => Prepend::Always,
                Some("first") => Prepend::First,
                Some("never") => Prepend::Never,
                None => match v.get("add_prefix_space").and_then(Json::as_bool) {
                    Some(false) => Prepend::Never,
                    _ => Prepend::Always,
                },
                Some(other) => {
                    return Err(unsupported(&format!(
                        "the Metaspace prepend_scheme {other:?}"
                    )))
                }
            };
            Pre::Metaspace {
                replacement,
                prepend,
                split: flag(v, "split", true)?,
            }
        }
        other => return Err(unsupported(&format!("the pre-tokenizer {other:?}"))),
    };
    out.push(p);
    Ok(())
}

impl HfTokenizer {
    /// Reads a `tokenizer.json`. The message says what is missing or not
    /// supported.
    pub(crate) fn from_json(v: &Json) -> Result<HfTokenizer, String> {
        let model = v.get("model").ok_or("no \"model\"")?;
        let kind = match model.get("type").and_then(Json::as_str) {
            Some(t) => t,
            // Older files leave the type out; the fields say which.
            None if model.get("continuing_subword_prefix").is_some() => "WordPiece",
            None => return Err("the model has no \"type\"".into()),
        };
        let mut vocab: HashMap<String, u32> = HashMap::new();
        let mut scores = Vec::new();
        let kind: &'static str = match kind {
            "WordPiece" | "WordLevel" => {
                let Some(Json::Obj(pairs)) = model.get("vocab") else {
                    return Err("the model's \"vocab\" is not an object of token: id".into());
                };
                for (token, id) in pairs {
                    let id = id
                        .as_usize()
                        .filter(|&i| i < u32::MAX as usize)
                        .ok_or_else(|| format!("the id of {token:?} is not a whole number"))?;
                    vocab.entry(token.clone()).or_insert(id as u32);
                }
                if kind == "WordPiece" {
                    "WordPiece"
                } else {
                    "WordLevel"
                }
            }
            "Unigram" => {
                let pairs = model
                    .get("vocab")
                    .and_then(Json::as_array)
                    .ok_or("the Unigram \"vocab\" is not a list of [token, score]")?;
                for (id, pair) in pairs.iter().enumerate() {
                    match pair.as_array() {
                        Some([Json::Str(t), Json::Num(s)]) => {
                            vocab.entry(t.clone()).or_insert(id as u32);
                            scores.push(*s);
                        }
                        _ => return Err(format!("Unigram vocab entry {id} is not [token, score]")),
                    }
                }
                if flag(model, "byte_fallback", false)? {
                    return Err(unsupported("a Unigram model with byte_fallback"));
                }
                "Unigram"
            }
            other => return Err(unsupported(&format!("the model type {other:?}"))),
        };
        let unk_of = |name: &str| -> Result<Option<u32>, String> {
            match model.get(name) {
                None | Some(Json::Null) => Ok(None),
                Some(Json::Str(t)) => Ok(vocab.get(t).copied()),
                Some(_) => Err(format!("{name} is not a string")),
            }
        };
        let parsed = match kind {
            "WordPiece" => Model::WordPiece {
                unk: unk_of("unk_token")?,
                prefix: model
                    .get("continuing_subword_prefix")
                    .and_then(Json::as_str)
                    .unwrap_or("##")
                    .to_string(),
                max_chars: match model.get("max_input_chars_per_word") {
                    None => 100,
                    Some(m) => m
                        .as_usize()
                        .ok_or("max_input_chars_per_word is not a whole number")?,
                },
            },
            "WordLevel" => Model::WordLevel {
                unk: unk_of("unk_token")?,
            },
            _ => {
                let unk = match model.get("unk_id") {
                    None | Some(Json::Null) => None,
                    Some(id) => Some(
                        id.as_usize()
                            .filter(|&i| i < scores.len())
                            .ok_or("unk_id is not an id of the vocab")?
                            as u32,
                    ),
                };
                let longest = vocab.keys().map(|t| t.len()).max().unwrap_or(0);
                Model::Unigram {
                    scores,
                    unk,
                    longest,
                }
            }
        };
        let unk = match &parsed {
            Model::WordPiece { unk, .. }
            | Model::WordLevel { unk }
            | Model::Unigram { unk, .. } => *unk,
        };
        let mut added_raw = Vec::new();
        let mut added_normalized = Vec::new();
        if let Some(list) = v.get("added_tokens").and_then(Json::as_array) {
            for t in list {
                let content = t
                    .get("content")
                    .and_then(Json::as_str)
                    .ok_or("an added token without \"content\"")?;
                let id = t
                    .get("id")
                    .and_then(Json::as_usize)
                    .filter(|&i| i < u32::MAX as usize)
                    .ok_or("an added token without a whole-number \"id\"")?
                    as u32;
                for f in ["single_word", "lstrip", "rstrip"] {
                    if flag(t, f, false)? {
                        return Err(unsupported(&format!(
                            "the added token {content:?} with {f}"
                        )));
                    }
                }
                if content.is_empty() {
                    continue;
                }
                vocab.entry(content.to_string()).or_insert(id);
                let special = flag(t, "special", false)?;
                if flag(t, "normalized", !special)? {
                    added_normalized.push((content.to_string(), id));
                } else {
                    added_raw.push((content.to_string(), id));
                }
            }
        }
        let mut norms = Vec::new();
        normalizers(v.get("normalizer").unwrap_or(&Json::Null), &mut norms)?;
        let mut pres = Vec::new();
        pre_tokenizers(v.get("pre_tokenizer").unwrap_or(&Json::Null), &mut pres)?;
        let size = vocab.values().map(|&i| i as usize + 1).max().unwrap_or(0);
        if size != vocab.len() {
            return Err(format!(
                "the vocabulary's ids are not 0 to {} without gaps",
                vocab.len().saturating_sub(1)
            ));
        }
        let mut tokens = vec![String::new(); size];
        for (t, &i) in &vocab {
            tokens[i as usize] = t.clone();
        }
        Ok(HfTokenizer {
            vocab,
            tokens,
            added_raw,
            added_normalized,
            norms,
            pres,
            model: parsed,
            unk,
            kind,
        })
    }

    /// Every token, by id.
    pub(crate) fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// The ids of `text`, as `encode(text, add_special_tokens=False).ids`.
    pub(crate) fn encode(&self, text: &str, out: &mut Vec<u32>) {
        for (piece, id) in split_added(text, &self.added_raw) {
            if let Some(id) = id {
                out.push(id);
                continue;
            }
            let normalized = self.normalize(piece);
            for (piece, id) in split_added(&normalized, &self.added_normalized) {
                if let Some(id) = id {
                    out.push(id);
                    continue;
                }
                for word in self.pre_tokenize(piece) {
                    self.tokenize(&word, out);
                }
            }
        }
    }

    fn normalize(&self, text: &str) -> String {
        let mut s = text.to_string();
        for n in &self.norms {
            s = match *n {
                Norm::Bert {
                    clean_text,
                    chinese,
                    strip_accents,
                    lowercase,
                } => {
                    let mut t = String::with_capacity(s.len());
                    for c in s.chars() {
                        if clean_text {
                            if c == '\0' || c == '\u{fffd}' || is_control(c) {
                                continue;
                            }
                            if matches!(c, '\t' | '\n' | '\r') || c.is_whitespace() {
                                t.push(' ');
                                continue;
                            }
                        }
                        if chinese && is_chinese(c) {
                            t.push(' ');
                            t.push(c);
                            t.push(' ');
                        } else {
                            t.push(c);
                        }
                    }
                    if strip_accents {
                        t = strip(&t);
                    }
                    if lowercase {
                        t = t.to_lowercase();
                    }
                    t
                }
                Norm::Lowercase => s.to_lowercase(),
                Norm::Nfd => s.nfd().collect(),
                Norm::Nfkd => s.nfkd().collect(),
                Norm::Nfc => s.nfc().collect(),
                Norm::Nfkc => s.nfkc().collect(),
                Norm::StripAccents => s
                    .chars()
                    .filter(|&c| get_general_category(c) != G::NonspacingMark)
                    .collect(),
                Norm::Strip { left, right } => {
                    let mut t = s.as_str();
                    if left {
                        t = t.trim_start();
                    }
                    if right {
                        t = t.trim_end();
                    }
                    t.to_string()
                }
            };
        }
        s
    }

    fn pre_tokenize(&self, text: &str) -> Vec<String> {
        let mut words = vec![text.to_string()];
        for (i, p) in self.pres.iter().enumerate() {
            let mut next = Vec::new();
            for (w_index, w) in words.iter().enumerate() {
                match p {
                    Pre::Bert => {
                        for part in w.split(char::is_whitespace) {
                            split_isolated(part, is_bert_punct, &mut next);
                        }
                    }
                    Pre::WhitespaceSplit => {
                        next.extend(
                            w.split(char::is_whitespace)
                                .filter(|s| !s.is_empty())
                                .map(str::to_string),
                        );
                    }
                    Pre::Whitespace => {
                        let mut cur = String::new();
                        let mut cur_word = None;
                        for c in w.chars() {
                            let class = if is_word_char(c) {
                                Some(true)
                            } else if c.is_whitespace() {
                                None
                            } else {
                                Some(false)
                            };
                            if class != cur_word && !cur.is_empty() {
                                next.push(std::mem::take(&mut cur));
                            }
                            cur_word = class;
                            if class.is_some() {
                                cur.push(c);
                            }
                        }
                        if !cur.is_empty() {
                            next.push(cur);
                        }
                    }
                    Pre::Metaspace {
                        replacement,
                        prepend,
                        split,
                    } => {
                        let mut t: String = w
                            .chars()
                            .map(|c| if c == ' ' { *replacement } else { c })
                            .collect();
                        let first = i == 0 && w_index == 0;
                        if !t.starts_with(*replacement)
                            && (*prepend == Prepend::Always
                                || (*prepend == Prepend::First && first))
                        {
                            t.insert(0, *replacement);
                        }
                        if *split {
                            let mut cur = String::new();
                            for c in t.chars() {
                                if c == *replacement && !cur.is_empty() {
                                    next.push(std::mem::take(&mut cur));
                                }
                                cur.push(c);
                            }
                            if !cur.is_empty() {
                                next.push(cur);
                            }
                        } else if !t.is_empty() {
                            next.push(t);
                        }
                    }
                }
            }
            words = next;
        }
        words.retain(|w| !w.is_empty());
        words
    }

    fn tokenize(&self, word: &str, out: &mut Vec<u32>) {
        match &self.model {
            Model::WordLevel { unk } => {
                if let Some(&id) = self.vocab.get(word) {
                    out.push(id);
                } else if let Some(u) = unk {
                    out.push(*u);
                }
            }
            Model::WordPiece {
                unk,
                prefix,
                max_chars,
            } => {
                let bad = |out: &mut Vec<u32>| out.extend(*unk);
                if word.chars().count() > *max_chars {
                    return bad(out);
                }
                let before = out.len();
                let mut start = 0;
                let mut key = String::new();
                while start < word.len() {
                    let mut end = word.len();
                    let mut found = None;
                    while start < end {
                        key.clear();
                        if start > 0 {
                            key.push_str(prefix);
                        }
                        key.push_str(&word[start..end]);
                        if let Some(&id) = self.vocab.get(&key) {
                            found = Some(id);
                            break;
                        }
                        end -= word[..end].chars().next_back().map_or(1, char::len_utf8);
                    }
                    match found {
                        Some(id) => out.push(id),
                        None => {
                            out.truncate(before);
                            return bad(out);
                        }
                    }
                    start = end;
                }
            }
            Model::Unigram {
                scores,
                unk,
                longest,
            } => self.viterbi(word, scores, *unk, *longest, out),
        }
    }

    /// The best segmentation: for each char boundary, the highest-scoring
    /// path ending there (a tie keeps the path found first, shorter last
    /// token first); a char no token starts with is unknown, scored the
    /// lowest score minus 10. Consecutive unknowns are one token.
    fn viterbi(
        &self,
        word: &str,
        scores: &[f64],
        unk: Option<u32>,
        longest: usize,
        out: &mut Vec<u32>,
    ) {
        let min = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let unk_score = min - 10.0;
        let n = word.len();
        // best[i] = (score, start of the last token, its id or None for unknown)
        let mut best: Vec<Option<(f64, usize, Option<u32>)>> = vec![None; n + 1];
        best[0] = Some((0.0, 0, None));
        let boundaries: Vec<usize> = word.char_indices().map(|(i, _)| i).collect();
        for &start in &boundaries {
            let Some((here, _, _)) = best[start] else {
                continue;
            };
            let mut single = false;
            let first_len = word[start..].chars().next().map_or(1, char::len_utf8);
            for (end, _) in word[start..]
                .char_indices()
                .skip(1)
                .map(|(i, c)| (start + i, c))
                .chain(std::iter::once((n, ' ')))
            {
                if end - start > longest {
                    break;
                }
                if let Some(&id) = self.vocab.get(&word[start..end]) {
                    if (id as usize) < scores.len() {
                        if end - start == first_len {
                            single = true;
                        }
                        let s = here + scores[id as usize];
                        if best[end].is_none_or(|(b, _, _)| s > b) {
                            best[end] = Some((s, start, Some(id)));
                        }
                    }
                }
            }
            if !single {
                let end = start + first_len;
                let s = here + unk_score;
                if best[end].is_none_or(|(b, _, _)| s > b) {
                    best[end] = Some((s, start, None));
                }
            }
        }
        let mut path = Vec::new();
        let mut at = n;
        while at > 0 {
            let Some((_, start, id)) = best[at] else {
                return;
            };
            path.push(id);
            at = start;
        }
        let mut last_unknown = false;
        for id in path.into_iter().rev() {
            match id {
                Some(id) => {
                    out.push(id);
                    last_unknown = false;
                }
                None => {
                    if !last_unknown {
                        out.extend(unk);
                    }
                    last_unknown = true;
                }
            }
        }
    }
}

/// Cuts `text` at every occurrence of an added token (leftmost, longest
/// first): pieces of text with `None`, tokens with their id.
fn split_added<'a>(text: &'a str, added: &[(String, u32)]) -> Vec<(&'a str, Option<u32>)> {
    let mut out = Vec::new();
    if added.is_empty() {
        out.push((text, None));
        return out;
    }
    let mut piece = 0;
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let hit = added
            .iter()
            .filter(|(t, _)| rest.starts_with(t.as_str()))
            .max_by_key(|(t, _)| t.len());
        match hit {
            Some((t, id)) => {
                if piece < i {
                    out.push((&text[piece..i], None));
                }
                out.push((&text[i..i + t.len()], Some(*id)));
                i += t.len();
                piece = i;
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    if piece < text.len() {
        out.push((&text[piece..], None));
    }
    out
}

/// Splits `text` so that every char `isolate` accepts is a word of its own.
fn split_isolated(text: &str, isolate: fn(char) -> bool, out: &mut Vec<String>) {
    let mut cur = String::new();
    for c in text.chars() {
        if isolate(c) {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            out.push(c.to_string());
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
}

fn strip(text: &str) -> String {
    text.nfd()
        .filter(|&c| get_general_category(c) != G::NonspacingMark)
        .collect()
}

/// Cc, Cf, Cs, Co and Cn (BERT's "control"), except tab, newline and CR.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r')
        && matches!(
            get_general_category(c),
            G::Control | G::Format | G::Surrogate | G::PrivateUse | G::Unassigned
        )
}

/// BERT's punctuation: ASCII punctuation (symbols included) and Unicode P*.
fn is_bert_punct(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(
            get_general_category(c),
            G::ConnectorPunctuation
                | G::DashPunctuation
                | G::OpenPunctuation
                | G::ClosePunctuation
                | G::InitialPunctuation
                | G::FinalPunctuation
                | G::OtherPunctuation
        )
}

/// `\w`: alphabetic, marks, decimal digits, connector punctuation, joiners.
fn is_word_char(c: char) -> bool {
    c.is_alphabetic()
        || matches!(c, '\u{200c}' | '\u{200d}')
        || matches!(
            get_general_category(c),
            G::NonspacingMark
                | G::SpacingMark
                | G::EnclosingMark
                | G::DecimalNumber
                | G::ConnectorPunctuation
        )
}

/// The CJK ideograph blocks BERT sets apart with spaces.
fn is_chinese(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}
