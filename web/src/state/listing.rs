//! Code mode's state: which lesson listing is shown, the lines the learner
//! marked as suspicious, and whether the known bugs are revealed. Pure, so the
//! scoring is tested natively.

use chunkscope_teach::listings::{score, Listing, Score};
use std::collections::BTreeSet;

/// Code mode's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeState {
    /// The listing on screen.
    pub listing: &'static Listing,
    /// Marked lines, counted from 1.
    pub marks: BTreeSet<usize>,
    /// Whether the known bugs are shown (marks are then frozen until a retry).
    pub revealed: bool,
}

/// What the learner does in code mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeAction {
    /// Show the listing with this option value (unknown names are ignored).
    Choose(String),
    /// Mark or unmark a line.
    Toggle(usize),
    /// Show the known bugs and the score.
    Reveal,
    /// Hide them again and clear the marks.
    Retry,
}

impl Default for CodeState {
    fn default() -> Self {
        CodeState {
            // Lesson 001's class, the listing with the most to find.
            listing: Listing::parse("RecursiveTextChunker")
                .expect("lesson 001's class is a listing"),
            marks: BTreeSet::new(),
            revealed: false,
        }
    }
}

impl CodeState {
    /// The state after `action`.
    pub fn reduce(&self, action: CodeAction) -> CodeState {
        let mut next = self.clone();
        match action {
            CodeAction::Choose(name) => {
                if let Some(listing) = Listing::parse(&name) {
                    next = CodeState {
                        listing,
                        ..CodeState::default()
                    };
                }
            }
            CodeAction::Toggle(line) => {
                let in_listing = (1..=self.listing.lines().count()).contains(&line);
                if !self.revealed && in_listing && !next.marks.remove(&line) {
                    next.marks.insert(line);
                }
            }
            CodeAction::Reveal => next.revealed = true,
            CodeAction::Retry => {
                next.revealed = false;
                next.marks.clear();
            }
        }
        next
    }

    /// The score, once revealed.
    pub fn score(&self) -> Option<Score> {
        self.revealed
            .then(|| score(self.listing, self.marks.iter().copied()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(actions: impl IntoIterator<Item = CodeAction>) -> CodeState {
        actions
            .into_iter()
            .fold(CodeState::default(), |s, a| s.reduce(a))
    }

    #[test]
    fn opens_on_the_class_and_scores_only_after_the_reveal() {
        let s = run([CodeAction::Toggle(22), CodeAction::Toggle(3)]);
        assert_eq!(s.listing.name, "RecursiveTextChunker");
        assert_eq!(s.marks.iter().copied().collect::<Vec<_>>(), [3, 22]);
        assert_eq!(s.score(), None);
        let s = s.reduce(CodeAction::Reveal);
        assert_eq!(
            s.score(),
            Some(Score {
                hits: 1,
                misses: 7,
                false_marks: 1
            })
        );
    }

    #[test]
    fn a_second_click_unmarks_and_the_reveal_freezes_the_marks() {
        let s = run([
            CodeAction::Toggle(38),
            CodeAction::Toggle(38),
            CodeAction::Toggle(36),
            CodeAction::Reveal,
            CodeAction::Toggle(5),
        ]);
        assert_eq!(s.marks.iter().copied().collect::<Vec<_>>(), [36]);
        let s = s.reduce(CodeAction::Retry);
        assert!(s.marks.is_empty() && !s.revealed);
    }

    #[test]
    fn lines_outside_the_listing_and_unknown_listings_change_nothing() {
        let s = run([CodeAction::Toggle(0), CodeAction::Toggle(40)]);
        assert!(s.marks.is_empty());
        let s = run([CodeAction::Toggle(2), CodeAction::Choose("nope".into())]);
        assert_eq!(s.listing.name, "RecursiveTextChunker");
        assert_eq!(s.marks.len(), 1);
    }

    #[test]
    fn choosing_a_listing_starts_it_fresh() {
        let s = run([
            CodeAction::Toggle(2),
            CodeAction::Reveal,
            CodeAction::Choose("split".into()),
            CodeAction::Toggle(9),
            CodeAction::Toggle(5),
            CodeAction::Toggle(11),
            CodeAction::Reveal,
        ]);
        assert_eq!(s.listing.name, "split");
        assert_eq!(
            s.score(),
            Some(Score {
                hits: 2,
                misses: 1,
                false_marks: 1
            })
        );
    }
}
