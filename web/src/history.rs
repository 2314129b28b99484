//! The page's states in the browser history: a setup made by an interview
//! card is a new history entry, so Back returns to the page before it
//! rather than leaving the app, and Forward comes back.
//!
//! Each entry's `history.state` is a number, the index of its snapshot in a
//! list kept for the page's life; its address carries the share link when
//! that is short enough to be an address, so a reloaded entry still opens.

use crate::share::{encode, Snapshot};
use crate::state::Action;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use yew::Callback;

thread_local! {
    /// Every snapshot an entry points to, by its index.
    static ENTRIES: RefCell<Vec<Snapshot>> = const { RefCell::new(Vec::new()) };
}

/// The longest share link written into an entry's address.
const MAX_LINK: usize = 16 * 1024;

/// The address of an entry for `snapshot`: the page with its share link, or
/// the bare page when the link would be too long.
async fn address(snapshot: &Snapshot) -> String {
    let location = web_sys::window().map(|w| w.location());
    let path = location
        .as_ref()
        .and_then(|l| Some(l.pathname().ok()? + &l.search().ok()?))
        .unwrap_or_default();
    match encode(snapshot).await {
        Some(link) if link.len() <= MAX_LINK => format!("{path}#{link}"),
        _ => path,
    }
}

fn remember(snapshot: &Snapshot) -> JsValue {
    ENTRIES.with(|e| {
        let mut e = e.borrow_mut();
        e.push(snapshot.clone());
        JsValue::from(e.len() - 1)
    })
}

/// Records a visit: the current entry is marked as `before`, and `after` is
/// pushed as a new entry, once both addresses are compressed.
pub fn push(before: &Snapshot, after: &Snapshot) {
    let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else {
        return;
    };
    let (before, after) = (before.clone(), after.clone());
    let (was, is) = (remember(&before), remember(&after));
    wasm_bindgen_futures::spawn_local(async move {
        let (was_at, is_at) = (address(&before).await, address(&after).await);
        let _ = history.replace_state_with_url(&was, "", Some(&was_at));
        let _ = history.push_state_with_url(&is, "", Some(&is_at));
    });
}

/// Listens for Back and Forward for the page's life, restoring the entry's
/// snapshot (or its address's share link, after a reload).
pub fn listen(dispatch: Callback<Action>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let on_pop =
        Closure::<dyn Fn(web_sys::PopStateEvent)>::new(move |e: web_sys::PopStateEvent| {
            let remembered = e
                .state()
                .as_f64()
                .and_then(|k| ENTRIES.with(|v| v.borrow().get(k as usize).cloned()));
            if let Some(snapshot) = remembered {
                dispatch.emit(Action::History(snapshot));
                return;
            }
            let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) else {
                return;
            };
            let dispatch = dispatch.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if let Ok(Some(snapshot)) = crate::share::decode(&hash).await {
                    dispatch.emit(Action::History(snapshot));
                }
            });
        });
    let _ = window.add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
    on_pop.forget();
}
