//! The open documents: full text per URI, kept in step with the editor by incremental changes.
//!
//! The client owns a document between `didOpen` and `didClose`; the server only ever reads what
//! it was sent. A change for a document that is not open is refused with a typed error (the loop
//! logs it; a notification has no answer), never guessed at.

use super::text::{Lines, Pos};
use a3s_test_lang::ir::Library;
use std::collections::HashMap;

/// One open document.
#[derive(Debug, Clone)]
pub struct Doc {
    /// The full current text.
    pub text: String,
    /// The client's version of it.
    pub version: i32,
    lines: Lines,
}

impl Doc {
    /// A document holding `text` at `version`.
    pub fn new(text: String, version: i32) -> Self {
        let lines = Lines::new(&text);
        Doc {
            text,
            version,
            lines,
        }
    }

    /// The line table of the current text.
    pub fn lines(&self) -> &Lines {
        &self.lines
    }

    /// Apply one change: `range` replaced by `text`, or the whole text when `range` is `None`.
    pub fn apply(&mut self, change: &Change) {
        match change.range {
            None => self.text = change.text.clone(),
            Some((start, end)) => {
                // A column inside a surrogate pair names no byte: take the character's start.
                let start = floor_boundary(&self.text, self.lines.offset(start));
                let end = floor_boundary(&self.text, self.lines.offset(end)).max(start);
                self.text.replace_range(start..end, &change.text);
            }
        }
        self.lines = Lines::new(&self.text);
    }
}

/// `offset`, or the start of the character it falls inside.
fn floor_boundary(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// One content change as the client sends it.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The replaced range; `None` replaces the whole text.
    pub range: Option<(Pos, Pos)>,
    /// The new text of that range.
    pub text: String,
}

/// Why a document operation was refused.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum StoreError {
    /// A change or close for a URI the client never opened (or already closed).
    #[error("{0} is not open: the client must send didOpen first")]
    NotOpen(String),
}

/// Every open document by URI, and the libraries their `use` steps may call.
#[derive(Debug, Default)]
pub struct Store {
    docs: HashMap<String, Doc>,
    libraries: Vec<(String, Library)>,
}

impl Store {
    /// A store whose documents may `use` the groups of `libraries`: the admitted `library` files
    /// the project file includes, each with its path (read by the caller; the core reads no file).
    pub fn with_libraries(libraries: Vec<(String, Library)>) -> Self {
        Store {
            docs: HashMap::new(),
            libraries,
        }
    }

    /// The included libraries.
    pub fn libraries(&self) -> &[(String, Library)] {
        &self.libraries
    }

    /// Open (or reopen) `uri` with `text`.
    pub fn open(&mut self, uri: &str, text: String, version: i32) {
        self.docs.insert(uri.to_string(), Doc::new(text, version));
    }

    /// Apply `changes` in order and take `version`.
    pub fn change(
        &mut self,
        uri: &str,
        version: i32,
        changes: &[Change],
    ) -> Result<(), StoreError> {
        let doc = self
            .docs
            .get_mut(uri)
            .ok_or_else(|| StoreError::NotOpen(uri.to_string()))?;
        for change in changes {
            doc.apply(change);
        }
        doc.version = version;
        Ok(())
    }

    /// Forget `uri`.
    pub fn close(&mut self, uri: &str) -> Result<(), StoreError> {
        self.docs
            .remove(uri)
            .map(|_| ())
            .ok_or_else(|| StoreError::NotOpen(uri.to_string()))
    }

    /// The open document at `uri`.
    pub fn get(&self, uri: &str) -> Option<&Doc> {
        self.docs.get(uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_changes_apply_in_order() {
        let mut store = Store::default();
        store.open("file:///a.acl", "ab\ncd\n".into(), 1);
        let changes = [
            Change {
                range: Some((Pos::new(1, 0), Pos::new(1, 1))),
                text: "X".into(),
            },
            Change {
                range: Some((Pos::new(0, 2), Pos::new(0, 2))),
                text: "é".into(),
            },
        ];
        store.change("file:///a.acl", 2, &changes).unwrap();
        let doc = store.get("file:///a.acl").unwrap();
        assert_eq!(doc.text, "abé\nXd\n");
        assert_eq!(doc.version, 2);
    }

    #[test]
    fn a_column_inside_a_surrogate_pair_lands_on_the_character() {
        let mut doc = Doc::new("a😀b".into(), 1);
        let inside = Pos::new(0, 2);
        doc.apply(&Change {
            range: Some((inside, inside)),
            text: "X".into(),
        });
        assert_eq!(doc.text, "aX😀b");
    }

    #[test]
    fn a_change_for_an_unopened_document_is_refused() {
        let mut store = Store::default();
        let err = store.change("file:///b.acl", 1, &[]).unwrap_err();
        assert_eq!(err, StoreError::NotOpen("file:///b.acl".into()));
        assert!(store.close("file:///b.acl").is_err());
    }
}
