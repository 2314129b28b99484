//! Runs the determinism checks that were left for after the first paint of a
//! long text (see `Split::rechecking`).

use crate::state::{Action, Shared};
use gloo_timers::callback::Timeout;
use yew::prelude::*;

/// How long after a long text's chunks are drawn its second run starts: long
/// enough for the browser to paint them first, short enough that the badge
/// settles while the learner is still looking at it.
const AFTER_PAINT_MS: u32 = 60;

/// Schedules the second run of every split in `splits` that waits for one, and
/// reports each result with [`Action::Rechecked`]. A split replaced before its
/// turn is never run (its timer is dropped with the effect).
#[hook]
pub fn use_recheck(splits: &[Shared], dispatch: &Callback<Action>) {
    let waiting: Vec<Shared> = splits.iter().filter(|s| s.rechecking).cloned().collect();
    let dispatch = dispatch.clone();
    use_effect_with(waiting, move |waiting| {
        let timers: Vec<Timeout> = waiting
            .iter()
            .cloned()
            .map(|split| {
                let dispatch = dispatch.clone();
                Timeout::new(AFTER_PAINT_MS, move || {
                    let check = split.recheck();
                    dispatch.emit(Action::Rechecked(split, check));
                })
            })
            .collect();
        move || drop(timers)
    });
}
