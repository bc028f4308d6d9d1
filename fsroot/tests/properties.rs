//! The path check is the first line of confinement: whatever it accepts has only plain names, so
//! joining them to the anchor never climbs out of it.

use a3s_test_fsroot::{components, RelError};
use proptest::prelude::*;
use std::path::{Component, Path, PathBuf};

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("..".to_string()),
        Just(".".to_string()),
        Just(String::new()),
        "[a-z.]{1,4}",
    ]
}

proptest! {
    #[test]
    fn accepted_paths_stay_below_the_anchor(pieces in prop::collection::vec(piece(), 0..8), absolute in any::<bool>()) {
        let joined = pieces.join("/");
        let text = if absolute { format!("/{joined}") } else { joined };
        let absolute = text.starts_with('/');
        let path = Path::new(&text);
        match components(path) {
            Ok(parts) => {
                prop_assert!(!absolute);
                let anchor = Path::new("/anchor");
                let mut full = PathBuf::from(anchor);
                for part in &parts {
                    prop_assert!(*part != ".." && *part != "." && !part.is_empty());
                    full.push(part);
                }
                prop_assert!(full.starts_with(anchor));
                prop_assert!(full.components().all(|c| !matches!(c, Component::ParentDir)));
            }
            Err(RelError::Parent) => prop_assert!(path.components().any(|c| c == Component::ParentDir)),
            Err(RelError::Absolute) => prop_assert!(absolute),
            Err(RelError::Nul) => prop_assert!(false, "no NUL was generated"),
        }
    }
}
