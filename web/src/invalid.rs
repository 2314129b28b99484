//! Which control a configuration error is about, so the page can mark that
//! control (`aria-invalid`, a red outline) next to the message saying why.

use chunkscope::{Error, Setting};

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
}

/// Why the settings cannot split, and the control to change. Made where the
/// error happens, from the engine's typed error, so nothing is matched by
/// message and nothing is split again to find out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What the page shows: the engine's message, or what to type.
    pub message: String,
    /// The control the message is about.
    pub field: Field,
}

impl Problem {
    /// A problem with `field` that the page found itself (a number field
    /// that does not hold a usable number).
    pub fn new(field: Field, message: String) -> Problem {
        Problem { message, field }
    }
}

impl From<Error> for Problem {
    fn from(error: Error) -> Problem {
        Problem {
            field: blame(&error),
            message: error.to_string(),
        }
    }
}

/// The control to blame for an engine error: the one holding the setting
/// the engine says the error is about.
pub fn blame(error: &Error) -> Field {
    match error.setting() {
        Setting::Size => Field::Size,
        Setting::Overlap => Field::Overlap,
        Setting::Unit => Field::Unit,
        _ => Field::Separators,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{reduce, Action, State, View};
    use chunkscope::{Separator, Unit};

    fn blamed(actions: Vec<Action>) -> Option<Field> {
        let state = actions
            .into_iter()
            .fold(State::default(), |s, a| reduce(&s, a));
        state.error.map(|p| p.field)
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
        .fold(State::default(), |s, a| reduce(&s, a));
        let problem = state.error.expect("an unbalanced group is refused");
        assert_eq!(problem.field, Field::Separators);
        assert!(problem.message.contains("Python"), "{}", problem.message);
    }
}
