//! Links from the report to artifacts: relative to the report's folder, so the report and the
//! run folder can be copied or uploaded together and still open from `file://`.

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use std::path::{Component, Path};

/// Bytes escaped in one path segment of a relative URL: controls, space and everything that
/// would end or change the segment (`#`, `?`, `%`, `/`, `\`, quotes, brackets).
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'\\')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'\'');

/// The `href` of `target` seen from the folder `base` (both absolute): `../runs/x/shot.png`.
/// `None` when no relative path exists (different roots) or a path is not absolute.
pub fn relative_href(base: &Path, target: &Path) -> Option<String> {
    if !base.is_absolute() || !target.is_absolute() {
        return None;
    }
    let base: Vec<Component> = base.components().collect();
    let target: Vec<Component> = target.components().collect();
    let common = base.iter().zip(&target).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut parts: Vec<String> = vec!["..".to_string(); base.len() - common];
    for component in &target[common..] {
        match component {
            Component::Normal(name) => {
                parts.push(utf8_percent_encode(&name.to_string_lossy(), SEGMENT).to_string())
            }
            Component::ParentDir => parts.push("..".into()),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if parts.is_empty() {
        return Some(".".into());
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_and_escaped() {
        let cases = [
            (
                "/w/report",
                "/w/.a3s-test/runs/r/s/x/failure/screenshot.png",
                Some("../.a3s-test/runs/r/s/x/failure/screenshot.png"),
            ),
            ("/w", "/w/a b/#1?.png", Some("a%20b/%231%3F.png")),
            ("/w/report", "/w/report", Some(".")),
            ("/a/b/c", "/x", Some("../../../x")),
            ("/w", "relative.png", None),
        ];
        for (base, target, expected) in cases {
            assert_eq!(
                relative_href(Path::new(base), Path::new(target)).as_deref(),
                expected,
                "{base} -> {target}"
            );
        }
    }
}
