//! The worker's part, played natively for the reducer's tests: every request
//! is answered through the same contract functions the worker runs
//! (`chunkscope_wasm::contract::answer`, the binary report of
//! `chunkscope_wasm::wire`), so a test sees exactly what the page would.

use super::reducer::{reduce, Action, State};
use super::slots::{Request, Shared, Split};
use chunkscope_wasm::contract::{answer, Answer};
use std::rc::Rc;

/// The action that answers `request`.
pub fn answer_to(request: &Request) -> Action {
    let id = request.id;
    match answer(&request.text, request.config.clone(), request.detail) {
        Answer::Report(analysis) => {
            // Through the binary report, as the page reads it.
            let report = chunkscope_wasm::wire::encode(&analysis);
            let split = Split::decode(request.text.clone(), &report).map(|s| Shared(Rc::new(s)));
            Action::SplitArrived { id, split }
        }
        Answer::Determinism(check) => Action::Rechecked { id, check },
        Answer::Refused(refusal) => Action::SplitFailed { id, refusal },
    }
}

/// `state` once every request it waits on (and every request their answers
/// make) is answered, in order.
pub fn settled(mut state: State) -> State {
    loop {
        let requests = state.requests();
        if requests.is_empty() {
            return state;
        }
        for request in &requests {
            state = reduce(&state, answer_to(request));
        }
    }
}

/// The first page, answered.
pub fn start() -> State {
    settled(State::default())
}

/// `state` after `action`, answered.
pub fn act(state: &State, action: Action) -> State {
    settled(reduce(state, action))
}
