//! hookd's own configuration, loaded in layers: defaults → config file →
//! `HOOKD_*` environment variables (the CLI applies its flags last).
//!
//! The file is TOML at `$HOOKD_CONFIG`, else `$XDG_CONFIG_HOME/hookd/config.toml`,
//! else `~/.config/hookd/config.toml`; a missing file is simply the
//! defaults. `docs/config.example.toml` documents every key.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The topic exchange events are published to unless configured otherwise.
pub const DEFAULT_EXCHANGE: &str = "hookd.events";

/// Environment variable naming the config file.
pub const CONFIG_ENV: &str = "HOOKD_CONFIG";
/// Environment variable with the broker URL.
pub const AMQP_URL_ENV: &str = "HOOKD_AMQP_URL";
/// Environment variable with the exchange name.
pub const AMQP_EXCHANGE_ENV: &str = "HOOKD_AMQP_EXCHANGE";
/// Environment variable with the ledger mode.
pub const LEDGER_MODE_ENV: &str = "HOOKD_LEDGER_MODE";
/// Environment variable with the largest file content kept for rewind, in bytes.
pub const MAX_CONTENT_BYTES_ENV: &str = "HOOKD_MAX_CONTENT_BYTES";

/// Who writes the ledgers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LedgerMode {
    /// The daemon writes each repository's ledger; no broker (the default without a URL).
    Local,
    /// The daemon only publishes; ledger consumers write the ledgers.
    Amqp,
    /// The daemon writes the ledgers and publishes (the default with a URL).
    Both,
}

impl LedgerMode {
    /// Whether the daemon writes ledgers itself.
    pub fn writes_locally(self) -> bool {
        matches!(self, Self::Local | Self::Both)
    }

    /// Whether the daemon publishes to the broker.
    pub fn publishes(self) -> bool {
        matches!(self, Self::Amqp | Self::Both)
    }

    /// `local`, `amqp` or `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Local => "local",
            Self::Amqp => "amqp",
            Self::Both => "both",
        }
    }
}

impl FromStr for LedgerMode {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim().to_ascii_lowercase().as_str() {
            "local" => Ok(Self::Local),
            "amqp" => Ok(Self::Amqp),
            "both" => Ok(Self::Both),
            other => Err(ConfigError::Invalid(format!(
                "ledger mode {other:?}: expected local, amqp or both"
            ))),
        }
    }
}

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read config file {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid TOML for hookd.
    #[error("config file {path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What the TOML parser said.
        message: String,
    },
    /// A value is out of range or the combination makes no sense.
    #[error("{0}")]
    Invalid(String),
}

/// The `[amqp]` table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmqpSection {
    /// Broker URL (`amqp://user:pass@host:5672/vhost`).
    pub url: Option<String>,
    /// Topic exchange to publish to (default `hookd.events`).
    pub exchange: Option<String>,
}

/// The `[ledger]` table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LedgerSection {
    /// `local`, `amqp` or `both`.
    pub mode: Option<LedgerMode>,
}

/// The config file as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// Broker settings.
    #[serde(default)]
    pub amqp: AmqpSection,
    /// Ledger settings.
    #[serde(default)]
    pub ledger: LedgerSection,
    /// Rewind settings.
    #[serde(default)]
    pub rewind: RewindSection,
}

/// The `[rewind]` table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RewindSection {
    /// Largest file content kept for rewind, in bytes; a bigger file's
    /// change is recorded as too large to restore.
    pub max_content_bytes: Option<u64>,
}

/// The effective configuration after every layer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookdConfig {
    /// Who writes the ledgers.
    pub ledger_mode: LedgerMode,
    /// Broker URL, when publishing.
    pub amqp_url: Option<String>,
    /// Exchange to publish to.
    pub amqp_exchange: String,
    /// Largest file content kept for rewind, in bytes.
    pub max_content_bytes: u64,
    /// The file that was read, if any.
    pub source: Option<PathBuf>,
}

/// Overrides from the command line, applied last.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--amqp URL`.
    pub amqp_url: Option<String>,
    /// `--amqp-exchange NAME`.
    pub amqp_exchange: Option<String>,
    /// `--ledger-mode MODE`.
    pub ledger_mode: Option<LedgerMode>,
    /// `--config FILE`.
    pub config_file: Option<PathBuf>,
}

impl HookdConfig {
    /// Loads defaults → file → environment → `overrides`, then validates.
    pub fn load(overrides: &Overrides) -> Result<Self, ConfigError> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let path = overrides
            .config_file
            .clone()
            .or_else(|| env(CONFIG_ENV).map(PathBuf::from))
            .or_else(default_config_path);
        let (file, source) = match &path {
            Some(path) => match read_file(path, overrides.config_file.is_some())? {
                Some(file) => (file, Some(path.clone())),
                None => (ConfigFile::default(), None),
            },
            None => (ConfigFile::default(), None),
        };
        let env_mode = env(LEDGER_MODE_ENV).map(|m| m.parse()).transpose()?;
        let amqp_url = overrides
            .amqp_url
            .clone()
            .or_else(|| env(AMQP_URL_ENV))
            .or(file.amqp.url);
        let amqp_exchange = overrides
            .amqp_exchange
            .clone()
            .or_else(|| env(AMQP_EXCHANGE_ENV))
            .or(file.amqp.exchange)
            .unwrap_or_else(|| DEFAULT_EXCHANGE.to_owned());
        let explicit_mode = overrides.ledger_mode.or(env_mode).or(file.ledger.mode);
        // A broker URL alone turns publishing on, keeping the local ledgers.
        let ledger_mode = explicit_mode.unwrap_or(if amqp_url.is_some() {
            LedgerMode::Both
        } else {
            LedgerMode::Local
        });
        if ledger_mode.publishes() && amqp_url.is_none() {
            return Err(ConfigError::Invalid(format!(
                "ledger mode {} needs a broker URL: pass --amqp URL, set {AMQP_URL_ENV} or [amqp] url in the config file",
                ledger_mode.as_str()
            )));
        }
        if ledger_mode.publishes() && !cfg!(feature = "amqp") {
            return Err(ConfigError::Invalid(format!(
                "ledger mode {} needs the broker, but this hookd was built without it (cargo feature `amqp`)",
                ledger_mode.as_str()
            )));
        }
        if amqp_exchange.trim().is_empty() {
            return Err(ConfigError::Invalid(
                "the AMQP exchange name is empty".into(),
            ));
        }
        let max_content_bytes = match env(MAX_CONTENT_BYTES_ENV) {
            Some(text) => Some(text.trim().parse::<u64>().map_err(|_| {
                ConfigError::Invalid(format!(
                    "{MAX_CONTENT_BYTES_ENV}={text:?}: expected a number of bytes"
                ))
            })?),
            None => file.rewind.max_content_bytes,
        }
        .unwrap_or(crate::ledger::content_store::DEFAULT_MAX_CONTENT_BYTES);
        if max_content_bytes == 0
            || max_content_bytes > crate::ledger::content_store::MAX_CONTENT_BYTES_LIMIT
        {
            return Err(ConfigError::Invalid(format!(
                "max_content_bytes {max_content_bytes}: expected 1 to {} bytes",
                crate::ledger::content_store::MAX_CONTENT_BYTES_LIMIT
            )));
        }
        Ok(Self {
            ledger_mode,
            amqp_url,
            amqp_exchange,
            max_content_bytes,
            source,
        })
    }
}

/// `$XDG_CONFIG_HOME/hookd/config.toml`, else `~/.config/hookd/config.toml`.
pub fn default_config_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            crate::dirs::home_dir()
                .ok()
                .map(|home| home.join(".config"))
        })?;
    Some(base.join("hookd").join("config.toml"))
}

/// Reads a config file; a missing default file is `None`, a missing file the
/// user named explicitly is an error.
fn read_file(path: &Path, required: bool) -> Result<Option<ConfigFile>, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound && !required => return Ok(None),
        Err(source) => {
            return Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    toml::from_str(&text)
        .map(Some)
        .map_err(|err| ConfigError::Parse {
            path: path.to_path_buf(),
            message: err.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_with(file: &str, overrides: Overrides) -> Result<HookdConfig, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, file).unwrap();
        HookdConfig::load(&Overrides {
            config_file: Some(path),
            ..overrides
        })
    }

    #[test]
    fn defaults_are_local_without_a_broker() {
        let config = load_with("", Overrides::default()).unwrap();
        assert_eq!(config.ledger_mode, LedgerMode::Local);
        assert_eq!(config.amqp_url, None);
        assert_eq!(config.amqp_exchange, "hookd.events");
    }

    #[test]
    fn a_url_turns_publishing_on_and_flags_beat_the_file() {
        let file = "[amqp]\nurl = \"amqp://file\"\nexchange = \"from.file\"\n";
        let config = load_with(file, Overrides::default()).unwrap();
        assert_eq!(config.ledger_mode, LedgerMode::Both);
        assert_eq!(config.amqp_url.as_deref(), Some("amqp://file"));
        assert_eq!(config.amqp_exchange, "from.file");
        let flags = Overrides {
            amqp_url: Some("amqp://flag".into()),
            ledger_mode: Some(LedgerMode::Amqp),
            ..Overrides::default()
        };
        let config = load_with(file, flags).unwrap();
        assert_eq!(config.amqp_url.as_deref(), Some("amqp://flag"));
        assert_eq!(config.ledger_mode, LedgerMode::Amqp);
        assert!(config.source.is_some());
    }

    #[test]
    fn the_content_limit_comes_from_the_file_within_bounds() {
        let config = load_with("", Overrides::default()).unwrap();
        assert_eq!(
            config.max_content_bytes,
            crate::ledger::content_store::DEFAULT_MAX_CONTENT_BYTES
        );
        let config =
            load_with("[rewind]\nmax_content_bytes = 1000\n", Overrides::default()).unwrap();
        assert_eq!(config.max_content_bytes, 1000);
        for bad in ["0", "2000000000000"] {
            let err = load_with(
                &format!("[rewind]\nmax_content_bytes = {bad}\n"),
                Overrides::default(),
            )
            .unwrap_err();
            assert!(err.to_string().contains("max_content_bytes"), "{err}");
        }
    }

    #[test]
    fn bad_files_and_combinations_are_clear_errors() {
        let err = load_with("[ledger]\nmode = \"amqp\"\n", Overrides::default()).unwrap_err();
        assert!(err.to_string().contains("needs a broker URL"), "{err}");
        let err = load_with("[amqp]\nurll = \"x\"\n", Overrides::default()).unwrap_err();
        assert!(err.to_string().contains("urll"), "{err}");
        let err = load_with("not toml [", Overrides::default()).unwrap_err();
        assert!(matches!(err, ConfigError::Parse { .. }), "{err}");
        assert!("sideways".parse::<LedgerMode>().is_err());
        let missing = HookdConfig::load(&Overrides {
            config_file: Some("/no/such/hookd.toml".into()),
            ..Overrides::default()
        });
        assert!(matches!(missing, Err(ConfigError::Read { .. })));
    }
}
