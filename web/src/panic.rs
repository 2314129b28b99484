//! Makes a crash visible. A panic in wasm stops the app; without this the page
//! would just freeze, so the hook writes the message into a banner that the
//! page already has (`#panic-banner`), and logs it to the console as well.

/// Installs the panic hook. Safe to call more than once. It goes through Yew,
/// which would otherwise replace it with its own console-only hook on mount.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        let message = format!(
            "Something went wrong and the playground stopped: {info}. Reload the page to start again; \
             your text is not saved."
        );
        show(&message);
    }));
}

fn show(message: &str) {
    web_sys::console::error_1(&message.into());
    let banner = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("panic-banner"));
    if let Some(banner) = banner {
        // text_content, never HTML: the message may quote the learner's text.
        banner.set_text_content(Some(message));
        let _ = banner.remove_attribute("hidden");
    }
}

/// Panics on purpose when the page address ends in `#crash-test`, so that a test
/// can check that a crash is shown to the learner instead of freezing the page.
pub fn crash_test() {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok());
    if hash.as_deref() == Some("#crash-test") {
        panic!("a crash was requested by the page address (#crash-test)");
    }
}
