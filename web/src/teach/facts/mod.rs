//! What a card's setup really shows, read from the splits on screen.
//!
//! A card's answer is prose; its *finding* is computed from the engine's
//! output and trace every time the page draws, so a card cannot claim what
//! the engine does not do. Three parts, kept apart so that each changes for
//! its own reason:
//!
//! - [`finding`]: for each card, the numbers and quoted texts its splits show,
//!   and whether the card's point is visible in them ([`Finding::holds`]);
//! - [`words`]: every sentence those values are said in, so rewording a card
//!   touches that file alone;
//! - [`token_counts`]: the tokens card's counter, a component that asks the
//!   worker for the text's counts.
//!
//! The native tests in `cards.rs` load every card's setup through the
//! worker's contract and pin each card's values.

mod finding;
pub mod token_counts;
mod words;

pub use finding::*;
pub use token_counts::TokenCounts;

/// Findings written out by hand, for the tests that pin them.
#[cfg(test)]
pub mod written {
    use super::{Chunks, CutBy, CutCounts};

    /// `n` cuts by the separator labelled `label`.
    pub fn sep(label: &str, n: usize) -> (CutBy, usize) {
        (CutBy::Separator(label.into()), n)
    }

    /// `count` chunks cut by `cuts`.
    pub fn chunks(count: usize, cuts: Vec<(CutBy, usize)>) -> Chunks {
        Chunks {
            count,
            cuts: CutCounts(cuts),
        }
    }

    pub fn strings(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }
}
