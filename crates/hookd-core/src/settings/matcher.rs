//! Hook matchers exactly as Claude Code documents them.
//!
//! `*`, empty or absent: everything. A matcher made only of letters, digits,
//! `_`, `-`, space, `,` and `|` is a list of exact names separated by `|` or
//! `,`. Anything else is an unanchored regular expression (`Edit.*` also
//! matches `NotebookEdit`). Matching is case-sensitive. An invalid regex is an
//! error with its position, never a silent non-match.

use regex::Regex;

/// A parsed matcher.
#[derive(Debug, Clone)]
pub enum Matcher {
    /// `*`, empty or absent.
    All,
    /// Exact names (`Write|Edit`, `Write, Edit`).
    Exact(Vec<String>),
    /// An unanchored regular expression.
    Regex(Regex),
}

/// How a target matched, for `hookd hooks test` to explain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchReason {
    /// The matcher matches everything.
    All,
    /// The event has no matcher support, so the matcher was ignored.
    NotSupported,
    /// The target equals this exact name.
    ExactName(String),
    /// The regex found this text in the target.
    Regex(String),
}

/// An invalid matcher.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid regex {pattern:?}{}: {message}", position.map(|p| format!(" at position {p}")).unwrap_or_default())]
pub struct MatcherError {
    /// The matcher text.
    pub pattern: String,
    /// Character offset of the problem, when the regex engine names one.
    pub position: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl Matcher {
    /// Parses a matcher; `None` means absent.
    pub fn parse(text: Option<&str>) -> Result<Self, MatcherError> {
        let Some(text) = text else {
            return Ok(Self::All);
        };
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed == "*" {
            return Ok(Self::All);
        }
        if text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|'))
        {
            let names = text
                .split(['|', ','])
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect();
            return Ok(Self::Exact(names));
        }
        Regex::new(text)
            .map(Self::Regex)
            .map_err(|err| regex_error(text, &err))
    }

    /// Whether `target` matches, and why. `None` target: the payload lacks
    /// the field, which only `All` matches.
    pub fn explain(&self, target: Option<&str>) -> Option<MatchReason> {
        match (self, target) {
            (Self::All, _) => Some(MatchReason::All),
            (Self::Exact(names), Some(target)) => names
                .iter()
                .find(|name| *name == target)
                .map(|name| MatchReason::ExactName(name.clone())),
            (Self::Regex(regex), Some(target)) => regex
                .find(target)
                .map(|m| MatchReason::Regex(m.as_str().to_owned())),
            (_, None) => None,
        }
    }

    /// Whether `target` matches.
    pub fn matches(&self, target: Option<&str>) -> bool {
        self.explain(target).is_some()
    }

    /// `exact`, `regex` or `all`, for display.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Exact(_) => "exact",
            Self::Regex(_) => "regex",
        }
    }
}

fn regex_error(pattern: &str, err: &regex::Error) -> MatcherError {
    // regex's syntax errors print the pattern with a caret under the problem;
    // the caret's column is the position.
    let text = err.to_string();
    let position = text
        .lines()
        .find(|line| line.trim_start().starts_with('^'))
        .map(|line| line.find('^').unwrap_or(0).saturating_sub(4));
    let message = text
        .lines()
        .rev()
        .find(|line| line.starts_with("error:"))
        .map_or_else(
            || text.clone(),
            |line| line.trim_start_matches("error:").trim().to_owned(),
        );
    MatcherError {
        pattern: pattern.to_owned(),
        position,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> Matcher {
        Matcher::parse(Some(text)).unwrap()
    }

    #[test]
    fn the_documented_matcher_table() {
        let cases: &[(&str, &str, bool)] = &[
            ("*", "Anything", true),
            ("", "Anything", true),
            ("Write", "Write", true),
            ("Write", "write", false),
            ("Write", "WriteFile", false),
            ("Write|Edit", "Edit", true),
            ("Write|Edit", "MultiEdit", false),
            ("Write, Edit", "Edit", true),
            ("Write,Edit", "Write", true),
            ("Edit.*", "NotebookEdit", true),
            ("Edit.*", "Edit", true),
            ("^Edit$", "NotebookEdit", false),
            ("mcp__memory", "mcp__memory__create_entities", false),
            ("mcp__memory__.*", "mcp__memory__create_entities", true),
            ("mcp__.*__write.*", "mcp__filesystem__write_file", true),
            ("Notebook", "NotebookEdit", false),
            ("startup", "startup", true),
            ("auto|manual", "manual", true),
        ];
        for (matcher, target, expected) in cases {
            assert_eq!(
                m(matcher).matches(Some(target)),
                *expected,
                "{matcher:?} vs {target:?}"
            );
        }
        assert!(Matcher::parse(None).unwrap().matches(None));
        assert!(!m("Write").matches(None));
    }

    #[test]
    fn kinds_and_reasons() {
        assert_eq!(m("Write|Edit").kind(), "exact");
        assert_eq!(m("Edit.*").kind(), "regex");
        assert_eq!(m("*").kind(), "all");
        assert_eq!(
            m("Write|Edit").explain(Some("Edit")),
            Some(MatchReason::ExactName("Edit".into()))
        );
        assert_eq!(
            m("Edit.*").explain(Some("NotebookEdit")),
            Some(MatchReason::Regex("Edit".into()))
        );
    }

    #[test]
    fn invalid_regexes_are_errors_with_a_position() {
        let err = Matcher::parse(Some("Edit(")).unwrap_err();
        assert_eq!(err.pattern, "Edit(");
        assert_eq!(err.position, Some(4), "{err}");
        assert!(err.to_string().contains("position 4"), "{err}");
        let err = Matcher::parse(Some("[a-")).unwrap_err();
        assert!(err.position.is_some(), "{err}");
    }
}
