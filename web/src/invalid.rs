//! Which control a configuration error is about, so the page can mark that
//! control (`aria-invalid`, a red outline) next to the message saying why.

use chunkscope::Error;
use chunkscope_wasm::contract::Refusal;

/// A control that can hold a bad value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The size input.
    Size,
    /// The overlap input.
    Overlap,
    /// The unit select (a character longer than the size in bytes).
    Unit,
    /// The separator list (empty, a regex that does not compile, regexes
    /// mixed with literals for LangChain, …).
    Separators,
    /// chonkie-recursive's `min_characters_per_chunk` input.
    MinCharacters,
}

impl Field {
    /// The control for a refusal's `field` (as the worker's messages name
    /// settings); `None` for a setting the page has no control for.
    pub fn named(name: &str) -> Option<Field> {
        match name {
            "size" => Some(Field::Size),
            "overlap" => Some(Field::Overlap),
            "unit" => Some(Field::Unit),
            "separators" => Some(Field::Separators),
            "min_characters_per_chunk" => Some(Field::MinCharacters),
            _ => None,
        }
    }
}

/// Why the settings cannot split, and the control to change. Made from the
/// engine's typed error (in the worker, or here for a field that does not
/// parse), so nothing is matched by message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What the page shows: the engine's message, or what to type.
    pub message: String,
    /// The control the message is about, when one is.
    pub field: Option<Field>,
    /// When one separator of the list is to blame, its index.
    pub separator: Option<usize>,
}

impl Problem {
    /// A problem with `field` that the page found itself (a number field
    /// that does not hold a usable number).
    pub fn new(field: Field, message: String) -> Problem {
        Problem {
            message,
            field: Some(field),
            separator: None,
        }
    }
}

impl From<Refusal> for Problem {
    fn from(refusal: Refusal) -> Problem {
        Problem {
            field: refusal.field.as_deref().and_then(Field::named),
            separator: refusal.separator,
            message: refusal.message,
        }
    }
}

impl From<Error> for Problem {
    fn from(error: Error) -> Problem {
        Refusal::from(error).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::{act, start};
    use crate::state::{Action, State, View};
    use chunkscope::{Separator, Unit};

    fn blamed(actions: Vec<Action>) -> Option<Field> {
        let state = actions.into_iter().fold(start(), |s: State, a| act(&s, a));
        state.error.and_then(|p| p.field)
    }

    #[test]
    fn each_error_blames_its_control() {
        assert_eq!(blamed(vec![]), None);
        assert_eq!(blamed(vec![Action::SetSize("".into())]), Some(Field::Size));
        assert_eq!(blamed(vec![Action::SetSize("0".into())]), Some(Field::Size));
        assert_eq!(
            blamed(vec![Action::SetOverlap("x".into())]),
            Some(Field::Overlap)
        );
        assert_eq!(
            blamed(vec![Action::SetOverlap("40".into())]),
            Some(Field::Overlap)
        );
        assert_eq!(
            blamed(vec![Action::AddSeparator(Separator::regex("("))]),
            Some(Field::Separators)
        );
        let chonkie = Action::SetView(View::One(chunkscope::Strategy::ChonkieRecursive));
        for typed in ["", "2.5", "-1", "0"] {
            assert_eq!(
                blamed(vec![
                    chonkie.clone(),
                    Action::SetMinCharacters(typed.into())
                ]),
                Some(Field::MinCharacters),
                "{typed:?}"
            );
        }
        // Another strategy never reads it.
        assert_eq!(blamed(vec![Action::SetMinCharacters("x".into())]), None);
        assert_eq!(
            blamed(vec![
                Action::SetText("ab😀cd".into()),
                Action::SetSize("2".into()),
                Action::SetUnit(Unit::Bytes),
            ]),
            Some(Field::Unit)
        );
    }

    #[test]
    fn a_bad_separator_is_blamed_by_its_index() {
        let state = act(&start(), Action::AddSeparator(Separator::regex("(")));
        let at = state
            .settings
            .separators
            .iter()
            .position(|s| *s == Separator::regex("("));
        let state = act(&state, Action::RaiseSeparator(at.unwrap()));
        let at = state
            .settings
            .separators
            .iter()
            .position(|s| *s == Separator::regex("("));
        assert!(at.is_some_and(|i| i > 0));
        let problem = state.error.unwrap();
        assert_eq!(
            (problem.field, problem.separator),
            (Some(Field::Separators), at)
        );
        // A list at fault as a whole names no one separator.
        let state = act(&start(), Action::SetView(View::LangChain));
        let state = act(&state, Action::AddSeparator(Separator::regex(r"\s+")));
        let problem = state.error.unwrap();
        assert_eq!(
            (problem.field, problem.separator),
            (Some(Field::Separators), None)
        );
    }

    #[test]
    fn langchain_errors_blame_their_control() {
        let langchain = Action::SetView(View::LangChain);
        assert_eq!(
            blamed(vec![langchain.clone(), Action::SetOverlap("41".into())]),
            Some(Field::Overlap)
        );
        // A regex among literals: LangChain has one switch for the whole list.
        assert_eq!(
            blamed(vec![
                langchain.clone(),
                Action::AddSeparator(Separator::regex(r"\s+"))
            ]),
            Some(Field::Separators)
        );
        // A pattern Python rejects is only found while splitting.
        let state = [
            langchain,
            Action::LoadSeparators("default".into()),
            Action::RemoveSeparator(0),
            Action::RemoveSeparator(0),
            Action::RemoveSeparator(0),
            Action::RemoveSeparator(0),
            Action::AddSeparator(Separator::regex("(")),
        ]
        .into_iter()
        .fold(start(), |s: State, a| act(&s, a));
        let problem = state.error.expect("an unbalanced group is refused");
        assert_eq!(problem.field, Some(Field::Separators));
        assert!(problem.message.contains("Python"), "{}", problem.message);
    }
}
