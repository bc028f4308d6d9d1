//! Evidence paths (`screenshot`, `accessibility`, `console`, `page_errors`, `download`, `har` and
//! `trace` stop) and upload paths.
//!
//! An evidence path is written under the scenario's artifact folder, so admission rejects anything
//! that could leave it or is not portable (`test.spec.evidence_path`): empty, absolute (`/x`,
//! `C:…`, `\\server`), any backslash (a Windows separator that would smuggle `..\`), a `..`
//! segment, a NUL or other control character, or a path naming a folder (`x/`, `.`). A screenshot
//! must end in `.png`. A path longer than 1,024 bytes, deeper than 32 names or with a name over
//! 255 bytes is `test.spec.evidence_path_limit` (see [`crate::limits`]). Symlinks cannot be seen statically; the runner re-checks confinement before
//! writing. Upload paths follow the same shape rules (relative to the working directory) but are
//! inputs, not evidence, so they are `test.spec.invalid_value`.

use super::context::{Annotate, Ctx};
use super::values::{string, string_list_with, ItemRules};
use crate::ast::{Attribute, ValueKind};
use crate::code::Code;
use crate::ir::EvidencePath;

/// Why `path` is not a safe relative file path, or `None`.
pub(super) fn path_problem(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("is empty");
    }
    if path.chars().any(char::is_control) {
        return Some("contains a control character");
    }
    if path.contains('\\') {
        return Some("contains a backslash; separate folders with `/`");
    }
    let bytes = path.as_bytes();
    if path.starts_with('/')
        || (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
    {
        return Some("is absolute");
    }
    if path.split('/').any(|segment| segment == "..") {
        return Some("leaves its folder with `..`");
    }
    if matches!(path.rsplit('/').next(), Some("" | ".")) {
        return Some("names a folder, not a file");
    }
    None
}

/// An evidence path attribute; `extension` (e.g. `.png`) is required when given.
pub(super) fn evidence_path(
    ctx: &mut Ctx,
    attr: &Attribute,
    extension: Option<&str>,
) -> Option<EvidencePath> {
    let path = string(ctx, attr)?;
    let name = &attr.name.name;
    if let Some(problem) = path_problem(path) {
        ctx.error_in(
            Code::EvidencePath,
            name,
            attr.value.span,
            format!("evidence path \"{path}\" {problem}"),
        );
        return None;
    }
    if let Some(problem) = crate::limits::evidence_path_limit(path) {
        // The message quotes the start only: the path itself may be kilobytes long.
        let mut shown: String = path.chars().take(64).collect();
        if shown.len() < path.len() {
            shown.push('…');
        }
        ctx.error_in(
            Code::EvidencePathLimit,
            name,
            attr.value.span,
            format!("evidence path \"{shown}\" {problem}"),
        );
        return None;
    }
    if let Some(ext) = extension {
        let file = path.rsplit('/').next().unwrap_or(path);
        if !file.ends_with(ext) || file.len() == ext.len() {
            ctx.error_in(
                Code::EvidencePath,
                name,
                attr.value.span,
                format!("evidence path \"{path}\" must end in `{ext}`"),
            )
            .hint(format!("name the file like \"checkout{ext}\""));
            return None;
        }
    }
    Some(EvidencePath(path.to_string()))
}

/// `upload { paths = [...] }`: a non-empty list of relative file paths.
pub(super) fn upload_paths(ctx: &mut Ctx, attr: &Attribute) -> Option<Vec<String>> {
    let rules = ItemRules {
        non_empty: true,
        unique: false,
        at_least_one: true,
    };
    let paths = string_list_with(ctx, attr, rules)?;
    let ValueKind::List(items) = &attr.value.kind else {
        return None;
    };
    let mut ok = true;
    for (path, item) in paths.iter().zip(items) {
        if let Some(problem) = path_problem(path) {
            ctx.error_in(
                Code::InvalidValue,
                "paths",
                item.span,
                format!("upload path \"{path}\" {problem}"),
            )
            .hint("give a path relative to the working directory, without `..`");
            ok = false;
        }
    }
    ok.then(|| paths.iter().map(|p| p.to_string()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_file_paths_pass() {
        for ok in [
            "a.png",
            "shots/a.png",
            "./a.png",
            "a..b.png",
            "..a/b.json",
            "a b.png",
            "é.png",
        ] {
            assert_eq!(path_problem(ok), None, "{ok}");
        }
    }

    #[test]
    fn escaping_or_odd_paths_fail() {
        for bad in [
            "",
            "/abs.png",
            "C:x.png",
            "c:\\x.png",
            "..",
            "../a.png",
            "a/../../b.png",
            "a/..",
            "a\\..\\b",
            "\\\\server\\x",
            "a\0.png",
            "dir/",
            ".",
            "a/.",
            "a\n.png",
        ] {
            assert!(path_problem(bad).is_some(), "{bad:?}");
        }
    }
}
