//! Size limits on evidence paths, shared by admission and the driver that writes the files.
//!
//! Why at admission: a path of 2,000 nested folders used to pass `check` and fail only at run
//! time, as an infrastructure error, after the driver had created every folder on the way. The
//! limits sit well inside what every common file system accepts (255 bytes per name, 4,096 per
//! path on Linux), leaving room for the artifact folder the path is joined under. The driver
//! checks the same limits on the whole path before it creates anything.

/// Most bytes in one evidence path.
pub const MAX_EVIDENCE_PATH_BYTES: usize = 1024;
/// Most bytes in one folder or file name of an evidence path.
pub const MAX_EVIDENCE_NAME_BYTES: usize = 255;
/// Most names (folders plus the file) in one evidence path.
pub const MAX_EVIDENCE_DEPTH: usize = 32;

/// Why `path` (a relative `/`-separated path) breaks a limit, or `None`.
pub fn evidence_path_limit(path: &str) -> Option<String> {
    if path.len() > MAX_EVIDENCE_PATH_BYTES {
        return Some(format!(
            "is {} bytes long; the limit is {MAX_EVIDENCE_PATH_BYTES}",
            path.len()
        ));
    }
    let names = path.split('/').filter(|n| !n.is_empty() && *n != ".");
    let mut depth = 0;
    for name in names {
        depth += 1;
        if name.len() > MAX_EVIDENCE_NAME_BYTES {
            return Some(format!(
                "has a {}-byte name; the limit is {MAX_EVIDENCE_NAME_BYTES} bytes per name",
                name.len()
            ));
        }
    }
    (depth > MAX_EVIDENCE_DEPTH)
        .then(|| format!("is {depth} names deep; the limit is {MAX_EVIDENCE_DEPTH}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_within_the_limits_pass() {
        assert_eq!(evidence_path_limit("a.png"), None);
        let deep = vec!["d"; MAX_EVIDENCE_DEPTH - 1].join("/") + "/f.json";
        assert_eq!(evidence_path_limit(&deep), None);
        assert_eq!(
            evidence_path_limit(&"n".repeat(MAX_EVIDENCE_NAME_BYTES)),
            None
        );
    }

    #[test]
    fn long_deep_or_wide_paths_fail() {
        let deep = vec!["d"; MAX_EVIDENCE_DEPTH].join("/") + "/f.json";
        assert!(evidence_path_limit(&deep)
            .unwrap()
            .contains("33 names deep"));
        let wide = "n".repeat(MAX_EVIDENCE_NAME_BYTES + 1);
        assert!(evidence_path_limit(&wide)
            .unwrap()
            .contains("256-byte name"));
        let long = vec!["abcdefgh"; 120].join("/");
        assert!(evidence_path_limit(&long).unwrap().contains("bytes long"));
    }
}
