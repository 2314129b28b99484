//! A document's text, shared by the state, the requests, the splits and the
//! components: cloning it copies a pointer, and comparing two handles to the
//! same text compares the pointers.
//!
//! `Rc<str>` alone compares by content even when both sides are the same text
//! (the standard library's pointer shortcut needs a sized type), and the page
//! compares its document on every draw (component properties, requests): for
//! a 10 MB document that was a 10 MB comparison each time, several per frame.

use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// A shared text. Equal when it is the same text, or holds the same text.
#[derive(Clone, Default)]
pub struct Text(Rc<str>);

impl Text {
    /// Whether both are the same text (not only equal ones).
    pub fn ptr_eq(a: &Text, b: &Text) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }

    /// The text as an `Rc<str>`, for APIs that take one.
    pub fn shared(&self) -> Rc<str> {
        self.0.clone()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        Text::ptr_eq(self, other) || *self.0 == *other.0
    }
}

impl Eq for Text {}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(s.into())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(s.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_is_equal_by_pointer_and_a_copy_by_content() {
        let a = Text::from("refund policy");
        let b = a.clone();
        let c = Text::from(String::from("refund policy"));
        assert!(Text::ptr_eq(&a, &b) && a == b);
        assert!(!Text::ptr_eq(&a, &c) && a == c);
        assert_ne!(a, Text::from("refund"));
        assert_eq!(&*a, "refund policy");
    }
}
