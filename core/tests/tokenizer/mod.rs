//! The cl100k and o200k tokenizers for the tests, built from tiktoken-rs's
//! rank tables (ranks 0, 1, … up to the first special token), so token units
//! are tested without the crate's `tiktoken` feature.

use chunkscope::tokens::{Encoding, Tokenizer};
use chunkscope::{Counter, Resources, Unit};
use std::sync::OnceLock;

/// Both tokenizers, for a splitter to resolve a token unit in.
pub fn resources() -> Resources {
    Encoding::ALL
        .into_iter()
        .fold(Resources::new(), |r, e| r.with_tokenizer(built(e)))
}

/// What `unit` counts with.
#[allow(dead_code, reason = "not every test binary counts outside a splitter")]
pub fn counter(unit: Unit) -> Counter {
    resources()
        .counter(unit)
        .expect("both tokenizers are there")
}

/// `encoding`'s tokenizer, built once for the test binary.
fn built(encoding: Encoding) -> &'static Tokenizer {
    static BUILT: [OnceLock<Tokenizer>; 2] = [OnceLock::new(), OnceLock::new()];
    BUILT[encoding as usize].get_or_init(|| build(encoding))
}

fn build(encoding: Encoding) -> Tokenizer {
    let bpe = match encoding {
        Encoding::Cl100k => tiktoken_rs::cl100k_base(),
        Encoding::O200k => tiktoken_rs::o200k_base(),
    }
    .expect("tiktoken-rs embeds its tables");
    let special = bpe.special_tokens();
    let mut ranks = Vec::new();
    while let Ok(bytes) = bpe.decode_bytes(&[ranks.len() as u32]) {
        if std::str::from_utf8(&bytes).is_ok_and(|s| special.contains(s)) {
            break;
        }
        ranks.push(bytes);
    }
    Tokenizer::from_ranks(encoding, ranks).expect("tiktoken's ranks")
}
