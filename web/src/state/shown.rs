//! "Show me" on an interview card: the setup it loads, the question asked
//! before a learner's own document is replaced, the way back, and opening or
//! closing the whole tree at once.
//!
//! A card replaces the text and the settings. A preset document can be had
//! again from its menu, so it is replaced at once; a document the learner
//! typed, pasted or opened is not replaced until they choose: replace it
//! (with an undo), or keep it and take only the card's settings. Every
//! setup a card makes is a visit ([`State::visit`]) that the page records
//! in the browser history, so Back returns to the setup before it.

use super::reducer::{tree_open, State};
use crate::share::Snapshot;
use chunkscope::NodeId;
use std::collections::BTreeSet;
use std::rc::Rc;

/// A card's setup waiting for the learner's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    /// The card (`data-card`).
    pub card: &'static str,
    /// What it would load.
    pub snapshot: Snapshot,
}

/// The card whose setup is on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The card (`data-card`).
    pub card: &'static str,
    /// The page before the card: what Undo (and Back) bring back.
    pub before: Snapshot,
    /// Whether the learner's text was kept (only the settings changed).
    pub kept_text: bool,
}

/// What the learner answered when a card would replace their document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Load the card's document and settings; the old text can be undone.
    Replace,
    /// Keep the document, take the card's view and settings only.
    KeepText,
    /// Do nothing.
    Cancel,
}

/// Whether loading `snapshot` would lose text the learner cannot get back
/// from a menu: their own document, different from the card's. A card's own
/// text, on screen unedited since its card loaded it, is had again from that
/// card, so it is not the learner's.
fn would_lose_text(state: &State, snapshot: &Snapshot) -> bool {
    let a_cards_text = state.shown.as_ref().is_some_and(|s| !s.kept_text);
    state.document.is_none() && !a_cards_text && state.text != snapshot.text
}

/// "Show me" on `card`: loads it, or asks first.
pub fn show(state: State, card: &'static str, snapshot: Snapshot) -> State {
    if would_lose_text(&state, &snapshot) {
        State {
            offer: Some(Offer { card, snapshot }),
            ..state
        }
    } else {
        load(state, card, snapshot, false)
    }
}

/// The learner's answer to the pending offer.
pub fn answer(state: State, choice: Choice) -> State {
    let Some(offer) = state.offer.clone() else {
        return state;
    };
    let state = State {
        offer: None,
        ..state
    };
    match choice {
        Choice::Cancel => state,
        Choice::Replace => load(state, offer.card, offer.snapshot, false),
        Choice::KeepText => {
            let snapshot = Snapshot {
                text: state.text.clone(),
                ..offer.snapshot
            };
            load(state, offer.card, snapshot, true)
        }
    }
}

fn load(state: State, card: &'static str, snapshot: Snapshot, kept_text: bool) -> State {
    let before = state.snapshot();
    let (file, visit) = (state.file.clone(), state.visit + 1);
    let mut next = state.restored(snapshot);
    if kept_text {
        // The document did not change: it keeps its name.
        next.file = file;
    }
    next.visit = visit;
    next.shown = Some(Shown {
        card,
        before,
        kept_text,
    });
    next
}

/// Undo: the page as it was before the card, text included.
pub fn undo(state: State) -> State {
    let Some(shown) = state.shown.clone() else {
        return state;
    };
    let mut next = state.restored(shown.before);
    next.shown = None;
    next
}

/// Opens every node of the primary split's tree (`open`), or closes it
/// down to its first two levels.
pub fn open_tree(mut state: State, open: bool) -> State {
    let Some(split) = state.primary().cloned() else {
        return state;
    };
    let none = BTreeSet::new();
    let toggled: BTreeSet<NodeId> = split
        .output
        .trace
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.children.is_empty())
        .map(|(id, _)| id)
        .filter(|&id| {
            let want = open || split.output.trace.nodes[id].depth < 2;
            tree_open(&split, &none, id) != want
        })
        .collect();
    state.toggled = Rc::new(toggled);
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::{act, start};
    use crate::state::{Action, View};
    use crate::teach::cards::{snapshot, CARDS};
    use chunkscope::Unit;

    fn card(id: &str) -> Action {
        let c = CARDS.iter().find(|c| c.id == id).unwrap();
        Action::ShowCard {
            card: c.id,
            snapshot: snapshot(c),
        }
    }

    fn lens(state: &State) -> Vec<usize> {
        let split = state.primary().unwrap();
        split.output.chunks.iter().map(|c| c.len).collect()
    }

    #[test]
    fn a_card_over_an_example_loads_at_once_and_undo_brings_the_page_back() {
        let page = start();
        let shown = act(&page, card("tokens"));
        assert_eq!(shown.offer, None);
        assert_eq!(shown.visit, 1);
        assert_eq!(
            shown.settings.unit,
            Unit::Tokens(chunkscope::tokens::Encoding::Cl100k)
        );
        assert_eq!(shown.settings.size, "60");
        assert_eq!(shown.document, Some("chinese"));
        let s = shown.shown.as_ref().unwrap();
        assert_eq!((s.card, s.kept_text), ("tokens", false));
        assert_eq!(s.before, page.snapshot());
        let back = act(&shown, Action::UndoCard);
        assert_eq!(back.snapshot(), page.snapshot());
        assert_eq!(back.document, Some("refund"));
        assert_eq!(back.shown, None);
        assert_eq!(lens(&back), vec![13, 20, 31, 28, 16]);
    }

    #[test]
    fn a_card_asks_before_replacing_the_learners_text() {
        let mine: crate::text::Text = "My own notes. Nothing to lose here, please.".into();
        let page = act(&start(), Action::SetText(mine.clone()));
        let asked = act(&page, card("merge"));
        assert_eq!(asked.offer.as_ref().map(|o| o.card), Some("merge"));
        assert_eq!(asked.text, mine, "nothing is replaced before the answer");
        assert_eq!(asked.visit, 0);
        assert_eq!(asked.settings, page.settings);

        let cancelled = act(&asked, Action::AnswerCard(Choice::Cancel));
        assert_eq!(
            (cancelled.offer.clone(), cancelled.text.clone()),
            (None, mine.clone())
        );
        assert_eq!(cancelled.visit, 0);

        let kept = act(&asked, Action::AnswerCard(Choice::KeepText));
        assert_eq!(kept.text, mine);
        assert_eq!(kept.settings.size, "100");
        assert_eq!(kept.visit, 1);
        assert!(kept.shown.as_ref().unwrap().kept_text);
        assert_eq!(lens(&kept), vec![43]);

        let replaced = act(&asked, Action::AnswerCard(Choice::Replace));
        assert_eq!(replaced.document, Some("refund"));
        assert_eq!(replaced.settings.size, "100");
        assert_eq!(replaced.visit, 1);
        let undone = act(&replaced, Action::UndoCard);
        assert_eq!(undone.text, mine);
        assert_eq!(undone.settings, page.settings);
        assert_eq!(undone.document, None);
    }

    #[test]
    fn a_cards_own_text_is_replaced_by_the_next_card_without_asking() {
        let table = act(&start(), card("md-table"));
        assert_eq!(table.document, None, "the card's text is no preset");
        let fence = act(&table, card("md-fence"));
        assert_eq!(fence.offer, None);
        assert_eq!(fence.shown.as_ref().map(|s| s.card), Some("md-fence"));
        // Once edited, the text is the learner's: the next card asks.
        let edited = act(&fence, Action::SetText("My notes.".into()));
        let asked = act(&edited, card("md-heading"));
        assert_eq!(asked.offer.as_ref().map(|o| o.card), Some("md-heading"));
    }

    #[test]
    fn back_restores_the_page_before_the_card_and_ends_its_note() {
        let page = start();
        let shown = act(&page, card("md-fence"));
        assert_eq!(shown.view, View::CompareMarkdown);
        let back = act(&shown, Action::History(page.snapshot()));
        assert_eq!(back.snapshot(), page.snapshot());
        assert_eq!((back.shown.clone(), back.offer.clone()), (None, None));
        assert_eq!(back.visit, 1, "going back is not a new visit");
        let forward = act(&back, Action::History(shown.snapshot()));
        assert_eq!(forward.snapshot(), shown.snapshot());
    }

    #[test]
    fn editing_after_a_card_ends_its_undo() {
        let shown = act(&start(), card("overlap"));
        let edited = act(&shown, Action::SetText("new".into()));
        assert_eq!(edited.shown, None);
        assert_eq!(act(&edited, Action::UndoCard).text, edited.text);
    }

    #[test]
    fn a_long_tree_starts_two_levels_deep_and_opens_and_closes_whole() {
        let text: String = (0..100)
            .map(|i| format!("Paragraph {i} has words. And a second sentence.\n\n"))
            .collect();
        let page = act(&start(), Action::SetText(text.into()));
        let page = act(&page, Action::SetSize("30".into()));
        let split = page.primary().unwrap().clone();
        let nodes = &split.output.trace.nodes;
        assert!(
            nodes.len() > crate::state::OPEN_ALL_UP_TO,
            "{}",
            nodes.len()
        );
        let open = |s: &State| -> Vec<NodeId> {
            (0..nodes.len())
                .filter(|&id| !nodes[id].children.is_empty() && tree_open(&split, &s.toggled, id))
                .collect()
        };
        let branches: Vec<NodeId> = (0..nodes.len())
            .filter(|&id| !nodes[id].children.is_empty())
            .collect();
        assert!(
            branches.len() > 1,
            "the tree has pieces split again: {branches:?}"
        );
        assert_eq!(
            open(&page),
            vec![0],
            "only the root is open: two levels are drawn"
        );
        let all = act(&page, Action::OpenTree(true));
        assert_eq!(open(&all), branches);
        let closed = act(&all, Action::OpenTree(false));
        assert_eq!(open(&closed), vec![0]);
        assert!(closed.toggled.is_empty());
    }
}
