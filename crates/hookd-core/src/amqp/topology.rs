//! Connecting to RabbitMQ and declaring hookd's exchange.
//!
//! The publisher, the ledger consumer and `hookd amqp declare` all go
//! through these functions, so they agree on the exchange's type (topic) and
//! durability (redeclaring with other flags would make the broker close the
//! channel), and every error names the broker without leaking its password.

use std::time::Duration;

use lapin::options::ExchangeDeclareOptions;
use lapin::types::{FieldTable, ShortString};
use lapin::uri::{AMQPScheme, AMQPUri};
use lapin::{Channel, Connection, ConnectionProperties, ExchangeKind};

use super::AmqpError;

/// How long a connection attempt may take: a broker behind a firewall that
/// drops packets would otherwise hold a caller for the kernel's TCP timeout
/// (minutes) instead of letting it back off and retry.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Connects (lapin, tokio runtime) with a clear error naming the URL (password redacted).
///
/// Must be called inside a tokio runtime: lapin drives the connection on it.
pub async fn connect(url: &str) -> Result<Connection, AmqpError> {
    let context = || format!("connecting to {}", redact(url));
    let properties = ConnectionProperties::default()
        .with_connection_name(format!("hookd (pid {})", std::process::id()).into());
    match tokio::time::timeout(CONNECT_TIMEOUT, Connection::connect(url, properties)).await {
        Ok(Ok(connection)) => Ok(connection),
        Ok(Err(source)) => Err(AmqpError::broker(context(), source)),
        Err(_) => Err(AmqpError::Timeout {
            context: context(),
            after: CONNECT_TIMEOUT,
        }),
    }
}

/// Rejects a URL no retry can make work (unparsable, or `amqps://`, which
/// needs TLS this build leaves out), before anything loops on it.
pub fn check_url(url: &str) -> Result<(), AmqpError> {
    let invalid = |reason: String| AmqpError::InvalidUrl {
        url: redact(url),
        reason,
    };
    let parsed: AMQPUri = url.parse().map_err(invalid)?;
    if parsed.scheme == AMQPScheme::AMQPS {
        return Err(invalid(
            "amqps:// needs TLS, which this build of hookd does not include".into(),
        ));
    }
    Ok(())
}

/// Declares the durable topic exchange (idempotent).
pub async fn declare_exchange(channel: &Channel, exchange: &str) -> Result<(), AmqpError> {
    let name = short_string("exchange", exchange)?;
    channel
        .exchange_declare(
            name,
            ExchangeKind::Topic,
            ExchangeDeclareOptions {
                durable: true,
                ..ExchangeDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await
        .map_err(|source| AmqpError::broker(format!("declaring exchange {exchange}"), source))
}

/// An AMQP short string (exchange, queue, routing key), or an error naming
/// `what` when it is longer than 255 bytes; lapin's own `From` would panic.
pub fn short_string(what: &'static str, value: &str) -> Result<ShortString, AmqpError> {
    ShortString::try_new(value).map_err(|_| AmqpError::NameTooLong {
        what,
        name: value.to_owned(),
    })
}

/// For logs and status: the URL with any password replaced by ***.
///
/// When the URL is ambiguous (an unescaped `@` or `/` in the password), it
/// errs on the side of hiding too much rather than leaking the secret.
pub fn redact(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_owned();
    };
    let rest_start = scheme_end + 3;
    let rest = &url[rest_start..];
    // Userinfo ends at the last `@` before any query or fragment; searching
    // past the first `/` keeps a password with a raw `/` hidden.
    let before_query = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
    let Some(at) = before_query.rfind('@') else {
        return url.to_owned();
    };
    let userinfo = &rest[..at];
    let Some(colon) = userinfo.find(':') else {
        return url.to_owned();
    };
    format!(
        "{}{}:***{}",
        &url[..rest_start],
        &userinfo[..colon],
        &rest[at..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_hides_only_the_password() {
        assert_eq!(
            redact("amqp://guest:guest@127.0.0.1:5672/%2f"),
            "amqp://guest:***@127.0.0.1:5672/%2f"
        );
        assert_eq!(
            redact("amqps://u:p%40ss@host/vhost?heartbeat=10"),
            "amqps://u:***@host/vhost?heartbeat=10"
        );
        assert_eq!(redact("amqp://host:5672"), "amqp://host:5672");
        assert_eq!(redact("amqp://user@host"), "amqp://user@host");
        assert_eq!(redact("amqp://u:pa/ss@host/v"), "amqp://u:***@host/v");
        assert_eq!(redact("amqp://u:pa@ss@host"), "amqp://u:***@host");
        assert_eq!(redact("not a url"), "not a url");
    }

    #[test]
    fn urls_no_retry_can_fix_are_rejected() {
        assert!(check_url("amqp://guest:guest@127.0.0.1:5672/%2f").is_ok());
        assert!(check_url("amqp://guest:guest@127.0.0.1:1/").is_ok());
        assert!(matches!(
            check_url("amqps://u:secret@host/"),
            Err(AmqpError::InvalidUrl { url, .. }) if !url.contains("secret")
        ));
        assert!(matches!(
            check_url("http://u:secret@host:notaport/"),
            Err(AmqpError::InvalidUrl { url, .. }) if !url.contains("secret")
        ));
    }

    #[test]
    fn long_names_are_errors_not_panics() {
        assert!(short_string("exchange", "hookd.events").is_ok());
        let long = "x".repeat(256);
        assert!(matches!(
            short_string("exchange", &long),
            Err(AmqpError::NameTooLong {
                what: "exchange",
                ..
            })
        ));
    }
}
