//! The cl100k and o200k tokenizers for the tests, built from tiktoken-rs's
//! rank tables (ranks 0, 1, … up to the first special token), so token units
//! are tested without the crate's `tiktoken` feature. This is the one place
//! the tests reach the process-wide token registry.

use chunkscope::tokens::{self, Encoding, Tokenizer};
use chunkscope::{Counter, Unit};

/// What `unit` counts with. A token unit's tokenizer is built once and
/// installed process-wide, where the LangChain engine's `split` finds it.
pub fn counter(unit: Unit) -> Counter {
    match unit {
        Unit::Tokens(encoding) => Counter::with_tokenizer(installed(encoding)),
        Unit::Chars | Unit::Bytes => Counter::new(unit).expect("chars and bytes need nothing"),
    }
}

fn installed(encoding: Encoding) -> &'static Tokenizer {
    if let Some(tokenizer) = tokens::get(encoding) {
        return tokenizer;
    }
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
    tokens::install(Tokenizer::from_ranks(encoding, ranks).expect("tiktoken's ranks"))
}
