//! The daemon's side of the broker: starting the publisher when the ledger
//! mode publishes, handing it each batch through the durable outbox, and
//! reading its state for the status file.
//!
//! The broker client lives behind the cargo feature `amqp`. Built without
//! it, [`PublishTarget`] has no values, so the daemon's code paths stay the
//! same while the compiler removes every broker branch (and the config
//! refuses a publishing ledger mode before the daemon starts).

#[cfg(feature = "amqp")]
mod imp {
    use std::path::PathBuf;

    use tokio_util::sync::CancellationToken;
    use tokio_util::task::TaskTracker;

    use crate::amqp::message::{CARRIED_LIMIT, CarriedContent};
    use crate::amqp::outbox::{self, Outbox, OutboxMessage};
    use crate::amqp::publisher::{Publisher, PublisherConfig};
    use crate::daemon::server::DaemonConfig;
    use crate::daemon::status::PublisherStatus;
    use crate::record::LedgerEntry;
    use crate::{Error, Result};

    /// One batch's messages for the broker, in arrival order.
    pub type Outgoing = Vec<OutboxMessage>;

    /// The durable outbox the ingest thread appends to, and the publisher
    /// to wake.
    pub struct PublishTarget {
        outbox: Outbox,
        publisher: Publisher,
    }

    /// A cheap handle for reading the publisher's state.
    #[derive(Clone, Debug)]
    pub struct PublisherHandle(Publisher);

    impl PublisherHandle {
        /// The publisher's state now.
        pub fn status(&self) -> PublisherStatus {
            self.0.status()
        }
    }

    /// Starts the publisher when `config`'s ledger mode publishes; it runs
    /// on `tasks` until `stop` fires.
    pub fn start(
        config: &DaemonConfig,
        stop: &CancellationToken,
        tasks: &TaskTracker,
    ) -> Result<Option<PublishTarget>> {
        let Some(target) = config
            .amqp
            .as_ref()
            .filter(|_| config.ledger_mode.publishes())
        else {
            return Ok(None);
        };
        let outbox_path = outbox::outbox_path(&config.data_dir);
        let publisher = Publisher::spawn(
            PublisherConfig {
                exchange: target.exchange.clone(),
                ..PublisherConfig::new(target.url.clone(), outbox_path.clone())
            },
            stop.clone(),
            tasks,
        )
        .map_err(|err| Error::Amqp(Box::new(err)))?;
        let outbox = Outbox::open(&outbox_path).map_err(|err| Error::Amqp(Box::new(err)))?;
        tracing::info!(broker = %crate::amqp::topology::redact(&target.url), exchange = %target.exchange, mode = config.ledger_mode.as_str(), "publishing events");
        Ok(Some(PublishTarget { outbox, publisher }))
    }

    impl PublishTarget {
        /// A handle for the status file.
        pub fn handle(&self) -> PublisherHandle {
            PublisherHandle(self.publisher.clone())
        }

        /// The message for one entry, to be queued with [`Self::push`],
        /// carrying `kept` (hash, bytes: the contents its mutations refer
        /// to) up to [`CARRIED_LIMIT`] bytes; the rest is left out, logged.
        pub fn message(&self, entry: &LedgerEntry, kept: Vec<(String, Vec<u8>)>) -> OutboxMessage {
            let mut carried = Vec::with_capacity(kept.len());
            let mut bytes = 0;
            for (hash, content) in kept {
                let content = CarriedContent::new(&hash, content);
                if bytes + content.len() > CARRIED_LIMIT {
                    tracing::warn!(event_id = %entry.event.event_id, hash, bytes = content.len(), limit = CARRIED_LIMIT, "a content is past what one broker message carries; left out");
                    continue;
                }
                bytes += content.len();
                carried.push(content);
            }
            OutboxMessage::carrying(entry, carried)
        }

        /// The outbox file.
        pub fn path(&self) -> PathBuf {
            self.outbox.path().to_path_buf()
        }

        /// Appends `messages` to the outbox (one transaction) and wakes the
        /// publisher.
        pub fn push(&mut self, messages: &[OutboxMessage]) -> Result<()> {
            self.outbox
                .push(messages)
                .map_err(|err| Error::Amqp(Box::new(err)))?;
            self.publisher.wake();
            Ok(())
        }
    }
}

#[cfg(not(feature = "amqp"))]
mod imp {
    use std::path::PathBuf;

    use tokio_util::sync::CancellationToken;
    use tokio_util::task::TaskTracker;

    use crate::Result;
    use crate::daemon::server::DaemonConfig;
    use crate::daemon::status::PublisherStatus;
    use crate::record::LedgerEntry;

    /// A message for the broker: never built in this build.
    #[derive(Debug)]
    pub struct Message;

    /// One batch's messages for the broker (always empty in this build).
    pub type Outgoing = Vec<Message>;

    /// Never built: there is no broker in this build.
    pub enum PublishTarget {}

    /// Never built: there is no broker in this build.
    #[derive(Clone, Debug)]
    pub enum PublisherHandle {}

    impl PublisherHandle {
        /// Unreachable: no value of this type exists.
        pub fn status(&self) -> PublisherStatus {
            match *self {}
        }
    }

    /// Always `None`: the config refuses a publishing ledger mode in a
    /// build without the broker.
    pub fn start(
        _config: &DaemonConfig,
        _stop: &CancellationToken,
        _tasks: &TaskTracker,
    ) -> Result<Option<PublishTarget>> {
        Ok(None)
    }

    impl PublishTarget {
        /// Unreachable: no value of this type exists.
        pub fn handle(&self) -> PublisherHandle {
            match *self {}
        }

        /// Unreachable: no value of this type exists.
        pub fn message(&self, _entry: &LedgerEntry, _kept: Vec<(String, Vec<u8>)>) -> Message {
            match *self {}
        }

        /// Unreachable: no value of this type exists.
        pub fn path(&self) -> PathBuf {
            match *self {}
        }

        /// Unreachable: no value of this type exists.
        pub fn push(&mut self, _messages: &[Message]) -> Result<()> {
            match *self {}
        }
    }
}

pub use imp::{Outgoing, PublishTarget, PublisherHandle, start};
