//! Which control a configuration error is about, so the page can mark that
//! control (`aria-invalid`, a red outline) next to the message saying why.

use crate::state::{parse_count, Settings, View};
use chunkscope::Error;

/// A control that can hold a bad value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The size input.
    Size,
    /// The overlap input.
    Overlap,
    /// The unit select (a character longer than the size in bytes).
    Unit,
    /// The separator list (empty, or a regex that does not compile).
    Separators,
}

/// The control to blame for `error`, the message the page shows for `settings`
/// in `view` (`None` when there is no error). The engine's typed error decides;
/// nothing is matched by message. An error that validation does not explain came
/// from splitting, and the only such error is a character longer than the size
/// in bytes, which the unit select brought about.
pub fn blame(settings: &Settings, view: View, error: Option<&str>) -> Option<Field> {
    error?;
    let found = view.strategies().iter().find_map(|&strategy| {
        let Ok(config) = settings.parsed(strategy) else {
            let size_ok = parse_count("size", &settings.size, settings.unit).is_ok();
            return Some(if size_ok { Field::Overlap } else { Field::Size });
        };
        match config.validate().err()? {
            Error::ZeroSize => Some(Field::Size),
            Error::OverlapTooLarge { .. } => Some(Field::Overlap),
            Error::NoSeparators | Error::InvalidRegex { .. } => Some(Field::Separators),
            Error::CharTooBig { .. } => Some(Field::Unit),
        }
    });
    found.or(Some(Field::Unit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{reduce, Action, State};
    use chunkscope::{Separator, Unit};

    fn blamed(actions: Vec<Action>) -> Option<Field> {
        let state = actions
            .into_iter()
            .fold(State::default(), |s, a| reduce(&s, a));
        blame(&state.settings, state.view, state.error.as_deref())
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
}
