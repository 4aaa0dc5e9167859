//! Whether a hook's command can start: its program, and the script an
//! interpreter is given, exist.
//!
//! A missing script is worse than a hook that does nothing: CPython exits 2
//! when it cannot open its script, and exit 2 is the agent's "block"
//! (anthropics/claude-code#80697), so a guard whose file moved blocks every
//! call with a confusing reason. Only what can be told without running
//! anything is checked: the first simple command, with `$CLAUDE_PROJECT_DIR`,
//! `$HOME`, `~` and, for a plugin's hooks, `$CLAUDE_PLUGIN_ROOT` expanded;
//! a word that still holds a `$` is not judged.

use std::path::{Path, PathBuf};

use crate::settings::connect::shell_words;

/// Programs that run the script named after their options.
const INTERPRETERS: &[&str] = &[
    "python", "python3", "node", "bash", "sh", "zsh", "ruby", "perl", "php", "deno", "bun",
];

/// Shell builtins and keywords: always there.
const BUILTINS: &[&str] = &[
    "echo", "exit", "true", "false", "test", "[", "printf", "cd", "exec", ":", "read", "if", "for",
    "while", "case", "{", "(", "!", "set", "export", "eval", "source", ".",
];

/// What a command needs and does not find.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Missing {
    /// Its program: a path that is not an executable file, or a name not on `PATH`.
    Program(String),
    /// The script its interpreter is given.
    Script {
        /// The interpreter (`python3`).
        interpreter: String,
        /// The script, expanded.
        script: PathBuf,
    },
}

/// Where a command runs: what its variables stand for and where its
/// programs are looked up.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setting<'a> {
    /// The project: the working directory and `$CLAUDE_PROJECT_DIR`.
    pub(crate) project: &'a Path,
    /// The user's home: `$HOME` and `~`.
    pub(crate) home: &'a Path,
    /// `PATH`.
    pub(crate) path: &'a str,
    /// The plugin's folder (`$CLAUDE_PLUGIN_ROOT`) for a plugin's hooks.
    pub(crate) plugin_root: Option<&'a Path>,
}

/// What `command` needs that is not there when run as `setting` says;
/// `None` when everything it names exists or cannot be judged.
pub(crate) fn missing(command: &str, setting: &Setting<'_>) -> Option<Missing> {
    let Setting { project, path, .. } = *setting;
    let words: Vec<String> = shell_words(command, 16)
        .into_iter()
        .take_while(|w| !matches!(w.as_str(), "&&" | "||" | ";" | "|" | "&"))
        // `FOO=1 cmd`: the assignments go first.
        .skip_while(|w| is_assignment(w))
        .collect();
    let program = expand(words.first()?, setting)?;
    if command.trim_start().starts_with(['(', '{']) || program.contains(['`', '(', ';', '|', '&']) {
        return None;
    }
    if !program_exists(&program, project, path) {
        return Some(Missing::Program(program));
    }
    let name = program.rsplit('/').next().unwrap_or(&program);
    let versioned = name
        .strip_prefix("python3.")
        .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit()));
    if !(INTERPRETERS.contains(&name) || versioned) {
        return None;
    }
    let mut rest = words.iter().skip(1);
    let script = loop {
        let word = rest.next()?;
        match word.as_str() {
            // Inline code or a module: no script file.
            "-c" | "-e" | "-m" | "--eval" | "-p" | "run" | "eval" => return None,
            w if w.starts_with('-') => {}
            w => break w,
        }
    };
    let script = expand(script, setting)?;
    let full = resolve(&script, project);
    (!full.is_file()).then(|| Missing::Script {
        interpreter: name.to_owned(),
        script: full,
    })
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// `word` with the project, home and plugin variables expanded; `None`
/// when another variable remains (its value is the agent's, not known here).
fn expand(word: &str, setting: &Setting<'_>) -> Option<String> {
    let project = setting.project.display().to_string();
    let home = setting.home.display().to_string();
    let mut out = word
        .replace("${CLAUDE_PROJECT_DIR}", &project)
        .replace("$CLAUDE_PROJECT_DIR", &project)
        .replace("${HOME}", &home)
        .replace("$HOME", &home);
    if let Some(root) = setting.plugin_root {
        let root = root.display().to_string();
        out = out
            .replace("${CLAUDE_PLUGIN_ROOT}", &root)
            .replace("$CLAUDE_PLUGIN_ROOT", &root);
    }
    if let Some(rest) = out.strip_prefix("~/") {
        out = format!("{home}/{rest}");
    }
    (!out.contains('$')).then_some(out)
}

/// A relative path is the project's: hooks run with the project as their
/// working directory.
fn resolve(path: &str, project: &Path) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        project.join(p)
    }
}

fn program_exists(program: &str, project: &Path, path: &str) -> bool {
    if BUILTINS.contains(&program) {
        return true;
    }
    if program.contains('/') {
        return is_executable(&resolve(program, project));
    }
    std::env::split_paths(path).any(|dir| is_executable(&dir.join(program)))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    #[test]
    fn finds_a_missing_program_or_script_and_leaves_what_it_cannot_judge() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("p");
        let home = tmp.path().join("home");
        let bin = tmp.path().join("bin");
        for dir in [&project, &home, &bin] {
            fs::create_dir_all(dir).unwrap();
        }
        for tool in ["python3", "jq"] {
            let exe = bin.join(tool);
            fs::write(&exe, "#!/bin/sh\n").unwrap();
            fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
        }
        fs::create_dir_all(project.join(".hookd/hooks")).unwrap();
        fs::write(project.join(".hookd/hooks/guard.py"), "").unwrap();
        let path = bin.display().to_string();
        let setting = Setting {
            project: &project,
            home: &home,
            path: &path,
            plugin_root: None,
        };
        let check = |c: &str| missing(c, &setting);

        assert_eq!(
            check("python3 \"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/guard.py"),
            None
        );
        assert_eq!(
            check("python3 -u \"$CLAUDE_PROJECT_DIR\"/.hookd/hooks/gone.py"),
            Some(Missing::Script {
                interpreter: "python3".into(),
                script: project.join(".hookd/hooks/gone.py"),
            })
        );
        assert_eq!(
            check("~/bin/notify.sh done"),
            Some(Missing::Program(format!(
                "{}/bin/notify.sh",
                home.display()
            )))
        );
        assert_eq!(check("rg foo"), Some(Missing::Program("rg".into())));
        assert_eq!(check("FOO=1 jq . | tee x"), None);
        assert_eq!(check("python3 -c 'print(1)'"), None);
        assert_eq!(
            check("$MY_TOOL run"),
            None,
            "an unknown variable is not judged"
        );
        assert_eq!(check("echo hi >&2; exit 2"), None);

        // A plugin's own folder.
        let plugin = tmp.path().join("plugin");
        fs::create_dir_all(plugin.join("hooks")).unwrap();
        fs::write(plugin.join("hooks/check.py"), "").unwrap();
        let in_plugin = Setting {
            plugin_root: Some(&plugin),
            ..setting
        };
        assert_eq!(
            missing("python3 ${CLAUDE_PLUGIN_ROOT}/hooks/check.py", &in_plugin),
            None
        );
        assert_eq!(
            missing("python3 ${CLAUDE_PLUGIN_ROOT}/hooks/gone.py", &in_plugin),
            Some(Missing::Script {
                interpreter: "python3".into(),
                script: plugin.join("hooks/gone.py"),
            })
        );
        assert_eq!(
            check("python3 ${CLAUDE_PLUGIN_ROOT}/hooks/gone.py"),
            None,
            "outside a plugin the variable is not known"
        );
    }
}
