//! Launch on login: the XDG autostart entry `hookd.desktop` that starts the
//! app in the tray (`--hidden`) when the user logs in. The Settings screen
//! and the tray's "Launch on login" item both turn it on and off here.
//!
//! Written by hand rather than through `tauri-plugin-autostart`: that plugin
//! (through `auto-launch`) always writes `~/.config/autostart/`, while the
//! XDG autostart specification has sessions read `$XDG_CONFIG_HOME/autostart/`
//! (`~/.config` only when `XDG_CONFIG_HOME` is unset or not absolute). With
//! `XDG_CONFIG_HOME` set elsewhere the plugin's entry was never started, and
//! the app wrote outside the directories it was given.

use std::path::{Path, PathBuf};

use tauri::{AppHandle, Manager, Runtime};

use crate::error::{AppError, ErrorKind};

/// The entry's file name in the autostart directory.
pub const ENTRY_FILE: &str = "hookd.desktop";

/// Why launch on login cannot be read or changed.
#[derive(Debug, thiserror::Error)]
pub enum AutostartError {
    /// Neither `$XDG_CONFIG_HOME` (absolute) nor `$HOME` is set.
    #[error("no config directory: neither XDG_CONFIG_HOME nor HOME is set")]
    NoConfigDir,
    /// Writing the entry failed.
    #[error(transparent)]
    Write(#[from] hookd_core::fs_atomic::FsAtomicError),
    /// Reading or removing the entry failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// The app's autostart entry: where it lives and what it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Autostart {
    /// The entry file, `$XDG_CONFIG_HOME/autostart/hookd.desktop`.
    pub entry: PathBuf,
    /// The program the entry starts (this executable, or the AppImage).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// The user's autostart directory per the XDG autostart specification:
/// `$XDG_CONFIG_HOME/autostart`, or `$HOME/.config/autostart` when
/// `XDG_CONFIG_HOME` is unset, empty or relative (the base directory
/// specification says to ignore a relative one). `None` without either.
pub fn autostart_dir(
    xdg_config_home: Option<&std::ffi::OsStr>,
    home: Option<&std::ffi::OsStr>,
) -> Option<PathBuf> {
    let config = xdg_config_home
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .or_else(|| {
            home.filter(|h| !h.is_empty())
                .map(|h| Path::new(h).join(".config"))
        })?;
    Some(config.join("autostart"))
}

impl Autostart {
    /// The entry for `program args` in the autostart directory this process's
    /// environment names.
    pub fn from_env(program: PathBuf, args: Vec<String>) -> Result<Self, AutostartError> {
        let dir = autostart_dir(
            std::env::var_os("XDG_CONFIG_HOME").as_deref(),
            std::env::var_os("HOME").as_deref(),
        )
        .ok_or(AutostartError::NoConfigDir)?;
        Ok(Self {
            entry: dir.join(ENTRY_FILE),
            program,
            args,
        })
    }

    /// Whether the entry exists and is not hidden (`Hidden=true` turns an
    /// entry off per the specification).
    pub fn is_enabled(&self) -> Result<bool, AutostartError> {
        match std::fs::read_to_string(&self.entry) {
            Ok(text) => Ok(!text.lines().any(|line| line.trim() == "Hidden=true")),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(source) => Err(self.io(source)),
        }
    }

    /// Writes the entry (on) or removes it (off); returns the state afterwards.
    pub fn set(&self, enabled: bool) -> Result<bool, AutostartError> {
        if enabled {
            let dir = self.entry.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(dir).map_err(|source| AutostartError::Io {
                path: dir.to_owned(),
                source,
            })?;
            // Whole or not at all: a crash leaves the old entry or the new one.
            hookd_core::fs_atomic::write_atomic(&self.entry, self.desktop_entry().as_bytes())?;
        } else {
            match std::fs::remove_file(&self.entry) {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => return Err(self.io(source)),
            }
        }
        self.is_enabled()
    }

    /// The entry's text: a desktop entry whose `Exec` runs the program with
    /// its arguments, quoted as the Desktop Entry specification asks.
    pub fn desktop_entry(&self) -> String {
        let exec = std::iter::once(self.program.to_string_lossy().into_owned())
            .chain(self.args.iter().cloned())
            .map(|arg| exec_quote(&arg))
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "[Desktop Entry]\nType=Application\nVersion=1.0\nName=hookd\n\
             Comment=Start hookd in the tray\nExec={exec}\nStartupNotify=false\nTerminal=false\n"
        )
    }

    fn io(&self, source: std::io::Error) -> AutostartError {
        AutostartError::Io {
            path: self.entry.clone(),
            source,
        }
    }
}

/// Turns launch on login on or off for the app (the Settings screen's switch,
/// the tray's item); returns the state afterwards.
pub fn set_for_app<R: Runtime>(app: &AppHandle<R>, enabled: bool) -> crate::error::Result<bool> {
    let on = managed(app)?
        .set(enabled)
        .map_err(|err| to_app_error(&err))?;
    tracing::info!(enabled = on, "launch on login changed");
    Ok(on)
}

/// Whether the app starts on login.
pub fn is_enabled_for_app<R: Runtime>(app: &AppHandle<R>) -> crate::error::Result<bool> {
    managed(app)?.is_enabled().map_err(|err| to_app_error(&err))
}

fn managed<R: Runtime>(app: &AppHandle<R>) -> crate::error::Result<tauri::State<'_, Autostart>> {
    app.try_state::<Autostart>().ok_or_else(|| {
        AppError::new(
            ErrorKind::Unavailable,
            "launch on login is not available (no config directory or program path)",
        )
    })
}

fn to_app_error(err: &AutostartError) -> AppError {
    let kind = match err {
        AutostartError::NoConfigDir => ErrorKind::Unavailable,
        AutostartError::Io { .. } | AutostartError::Write(_) => ErrorKind::Io,
    };
    AppError::new(kind, format!("launch on login: {err}"))
}

/// One `Exec` argument: as is when it holds no reserved character, else in
/// double quotes with `"`, `` ` ``, `$` and `\` escaped; `%` is doubled
/// either way (field codes), and the key's own escaping doubles backslashes.
fn exec_quote(arg: &str) -> String {
    const RESERVED: &[char] = &[
        ' ', '\t', '\n', '"', '\'', '\\', '>', '<', '~', '|', '&', ';', '$', '*', '?', '#', '(',
        ')', '`',
    ];
    let arg = arg.replace('%', "%%");
    if !arg.is_empty() && !arg.contains(RESERVED) {
        return arg;
    }
    let mut quoted = String::from("\"");
    for c in arg.chars() {
        match c {
            '"' | '`' | '$' => {
                quoted.push('\\');
                quoted.push(c);
            }
            // `\\` in the quoted argument, each escaped again for the string value.
            '\\' => quoted.push_str("\\\\\\\\"),
            '\n' => quoted.push_str("\\n"),
            _ => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn the_entry_goes_under_xdg_config_home_not_home_dot_config() {
        let dir = autostart_dir(Some(OsStr::new("/cfg")), Some(OsStr::new("/home/u")));
        assert_eq!(dir, Some(PathBuf::from("/cfg/autostart")));
        // Unset, empty or relative: $HOME/.config.
        for xdg in [None, Some(OsStr::new("")), Some(OsStr::new("rel/cfg"))] {
            assert_eq!(
                autostart_dir(xdg, Some(OsStr::new("/home/u"))),
                Some(PathBuf::from("/home/u/.config/autostart")),
                "{xdg:?}"
            );
        }
        assert_eq!(autostart_dir(None, None), None);
    }

    #[test]
    fn turning_it_on_and_off_writes_and_removes_the_entry_where_the_session_reads_it() {
        let tmp = tempfile::tempdir().unwrap();
        let config = tmp.path().join("config");
        let autostart = Autostart {
            entry: autostart_dir(Some(config.as_os_str()), Some(tmp.path().as_os_str()))
                .unwrap()
                .join(ENTRY_FILE),
            program: "/opt/hookd/hookd-desktop".into(),
            args: vec!["--hidden".into()],
        };
        assert!(!autostart.is_enabled().unwrap());
        assert!(autostart.set(true).unwrap());
        let written = config.join("autostart/hookd.desktop");
        let text = std::fs::read_to_string(&written).unwrap();
        assert!(
            text.contains("\nExec=/opt/hookd/hookd-desktop --hidden\n"),
            "{text}"
        );
        assert!(
            text.starts_with("[Desktop Entry]\nType=Application\n"),
            "{text}"
        );
        assert!(
            !tmp.path().join(".config").exists(),
            "nothing under ~/.config"
        );
        assert!(!autostart.set(false).unwrap());
        assert!(!written.exists());
        // Off twice is fine.
        assert!(!autostart.set(false).unwrap());
        // An entry the user hid (Hidden=true) counts as off.
        std::fs::write(&written, "[Desktop Entry]\nHidden=true\n").unwrap();
        assert!(!autostart.is_enabled().unwrap());
    }

    #[test]
    fn exec_arguments_are_quoted_per_the_desktop_entry_spec() {
        assert_eq!(exec_quote("--hidden"), "--hidden");
        assert_eq!(
            exec_quote("/home/a b/hookd-desktop"),
            "\"/home/a b/hookd-desktop\""
        );
        assert_eq!(exec_quote("100%"), "100%%");
        assert_eq!(exec_quote("a\"$b"), "\"a\\\"\\$b\"");
        assert_eq!(exec_quote("a\\b"), "\"a\\\\\\\\b\"");
    }
}
