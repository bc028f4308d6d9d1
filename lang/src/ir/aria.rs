//! The outline an `aria_snapshot` is written in (`docs/acl.md` §9.2), parsed: one node per
//! line, `- role "name" [attr] [attr=value]`, an optional `: text` after it, children indented
//! deeper. A name or text is a quoted string (exact, whitespace-normalised) or `/regex/flags`.
//!
//! Why parsed at admission: a mistake in the outline (a line without `- `, an unclosed quote, a
//! regular expression that does not compile) is the suite's, and is refused with its line
//! before any browser starts; the runner parses the admitted text again, which cannot fail.

use regex::Regex;

/// A name or text in an outline.
#[derive(Debug, Clone)]
pub enum AriaText {
    /// `"Cart"`: equal after whitespace normalisation.
    Exact(String),
    /// `/\d+ items/i`: the regular expression finds a match in it.
    Pattern(Regex),
}

impl AriaText {
    /// Whether `text` (whitespace-normalised) matches.
    pub fn matches(&self, text: &str) -> bool {
        match self {
            AriaText::Exact(s) => s == text,
            AriaText::Pattern(re) => re.is_match(text),
        }
    }
}

impl PartialEq for AriaText {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (AriaText::Exact(a), AriaText::Exact(b)) => a == b,
            (AriaText::Pattern(a), AriaText::Pattern(b)) => a.as_str() == b.as_str(),
            _ => false,
        }
    }
}

/// One line of an outline and the lines nested under it.
#[derive(Debug, Clone, PartialEq)]
pub struct AriaTemplate {
    /// The role (`text` for page text).
    pub role: String,
    /// The name, when written.
    pub name: Option<AriaText>,
    /// Attributes: `[checked]` is `("checked", None)`, `[level=1]` is `("level", Some("1"))`.
    pub attrs: Vec<(String, Option<String>)>,
    /// The text after `:`, when written.
    pub text: Option<AriaText>,
    /// The nested lines.
    pub children: Vec<AriaTemplate>,
    /// The line it was written on (1-based), for messages.
    pub line: usize,
}

/// A line of an outline that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct AriaTemplateError {
    /// 1-based line in the outline.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Parse an outline; blank lines and lines starting with `#` are skipped.
pub fn parse_aria(outline: &str) -> Result<Vec<AriaTemplate>, AriaTemplateError> {
    let mut roots: Vec<AriaTemplate> = Vec::new();
    // The path to the last node, with each node's indentation.
    let mut stack: Vec<usize> = Vec::new();
    for (i, raw) in outline.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = raw.len() - trimmed.len();
        let fail = |message: String| AriaTemplateError { line, message };
        let Some(body) = trimmed
            .strip_prefix("- ")
            .or_else(|| (trimmed == "-").then_some(""))
        else {
            return Err(fail(format!(
                "`{}` does not start with `- ` (each line is `- role \"name\"`)",
                clip(trimmed)
            )));
        };
        let node = parse_line(body.trim_end(), line).map_err(fail)?;
        while stack.last().is_some_and(|&d| d >= indent) {
            stack.pop();
        }
        let mut level = &mut roots;
        for _ in 0..stack.len() {
            level = &mut level.last_mut().expect("a parent on the stack").children;
        }
        level.push(node);
        stack.push(indent);
    }
    Ok(roots)
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

fn parse_line(body: &str, line: usize) -> Result<AriaTemplate, String> {
    let role_end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(body.len());
    let role = &body[..role_end];
    if role.is_empty() {
        return Err(format!("`{}` names no role", clip(body)));
    }
    let mut rest = body[role_end..].trim_start();
    let mut name = None;
    let mut attrs = Vec::new();
    let mut text = None;
    if rest.starts_with('"') || rest.starts_with('/') {
        let (value, after) = quoted_or_pattern(rest)?;
        name = Some(value);
        rest = after.trim_start();
    }
    while let Some(inner) = rest.strip_prefix('[') {
        let end = inner
            .find(']')
            .ok_or_else(|| "an attribute `[` is not closed with `]`".to_string())?;
        let attr = inner[..end].trim();
        let (key, value) = match attr.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim().to_string())),
            None => (attr, None),
        };
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "`[{attr}]` is not an attribute such as `[level=1]`"
            ));
        }
        attrs.push((key.to_string(), value));
        rest = inner[end + 1..].trim_start();
    }
    if let Some(after) = rest.strip_prefix(':') {
        let after = after.trim();
        if !after.is_empty() {
            text = Some(if after.starts_with('"') || after.starts_with('/') {
                let (value, tail) = quoted_or_pattern(after)?;
                if !tail.trim().is_empty() {
                    return Err(format!("`{}` follows the text", clip(tail.trim())));
                }
                value
            } else {
                AriaText::Exact(normalise(after))
            });
        }
        rest = "";
    }
    if !rest.is_empty() {
        return Err(format!(
            "`{}` is not a name, an attribute or `: text`",
            clip(rest)
        ));
    }
    Ok(AriaTemplate {
        role: role.to_string(),
        name,
        attrs,
        text,
        children: Vec::new(),
        line,
    })
}

/// A quoted string (JSON escapes) or a `/pattern/flags`, and what follows it.
fn quoted_or_pattern(s: &str) -> Result<(AriaText, &str), String> {
    if let Some(inner) = s.strip_prefix('/') {
        let mut escaped = false;
        for (i, c) in inner.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '/' if !escaped => {
                    let pattern = &inner[..i];
                    let tail = &inner[i + 1..];
                    let flags_len = tail
                        .find(|c: char| !c.is_ascii_alphabetic())
                        .unwrap_or(tail.len());
                    let flags = &tail[..flags_len];
                    if let Some(bad) = flags.chars().find(|c| !"ims".contains(*c)) {
                        return Err(format!("flag `{bad}` of /{pattern}/ is not one of i, m, s"));
                    }
                    let source = if flags.is_empty() {
                        pattern.to_string()
                    } else {
                        format!("(?{flags}){pattern}")
                    };
                    let re = Regex::new(&source)
                        .map_err(|e| format!("/{pattern}/ is not a regular expression: {e}"))?;
                    return Ok((AriaText::Pattern(re), &tail[flags_len..]));
                }
                _ => escaped = false,
            }
        }
        return Err("a regular expression `/` is not closed".into());
    }
    let mut escaped = false;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => {
                let text: String = serde_json::from_str(&s[..=i])
                    .map_err(|e| format!("{} is not a quoted name: {e}", clip(&s[..=i])))?;
                return Ok((AriaText::Exact(normalise(&text)), &s[i + 1..]));
            }
            _ => escaped = false,
        }
    }
    Err("a quoted name is not closed with `\"`".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_nest_by_indentation_with_names_attributes_and_text() {
        let t = parse_aria(
            "- heading \"Cart\" [level=1]\n- list:\n  - listitem: /\\d+ apples/i\n  - listitem \"Pears\"\n- checkbox [checked]",
        )
        .unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].name, Some(AriaText::Exact("Cart".into())));
        assert_eq!(
            t[0].attrs,
            vec![("level".to_string(), Some("1".to_string()))]
        );
        assert_eq!(t[1].children.len(), 2);
        assert!(t[1].children[0].text.as_ref().unwrap().matches("3 APPLES"));
        assert_eq!(t[2].attrs, vec![("checked".to_string(), None)]);
        assert_eq!(t[2].line, 5);
    }

    #[test]
    fn a_bad_line_says_which_and_why() {
        for (outline, line, why) in [
            ("- heading\nheading \"x\"", 2, "does not start with `- `"),
            ("- heading \"x", 1, "not closed"),
            ("- heading /(/", 1, "not a regular expression"),
            ("- heading [level=1", 1, "not closed with `]`"),
            ("- heading \"x\" y", 1, "is not a name"),
        ] {
            let e = parse_aria(outline).unwrap_err();
            assert_eq!(e.line, line, "{outline}");
            assert!(e.message.contains(why), "{outline}: {e}");
        }
    }
}
