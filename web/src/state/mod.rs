//! The playground's state, one module per concern: what is shown
//! ([`view`]), the settings as typed ([`settings`]), each engine's results and
//! the requests for them ([`slots`]), and the reducer over every action
//! ([`reducer`]).

pub mod corpus;
pub mod eval;
pub mod listing;
pub mod model_file;
pub mod recipe;
pub mod reducer;
pub mod semantic;
pub mod settings;
pub mod shown;
pub mod slots;
pub mod view;

pub use recipe::RecipeList;
pub use reducer::{
    reduce, tree_open, Action, Pointed, State, TokenizerStatus, FIRST_CHILDREN, OPEN_ALL_UP_TO,
};
pub use semantic::SemanticSettings;
pub use settings::{parse_count, Settings};
pub use shown::Choice;
pub use slots::{Badge, Checked, Request, Shared, Split};
pub use view::{Libraries, View};

#[cfg(test)]
pub mod testing;
