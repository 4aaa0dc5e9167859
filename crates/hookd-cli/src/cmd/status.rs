//! `hookd status`: is a daemon listening, and how is it doing (counters,
//! ledger mode, broker connection and backlog), from its status file.

use std::path::PathBuf;

use clap::Args;

/// Flags of `hookd status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Socket to check [default: $HOOKD_SOCKET, else $XDG_RUNTIME_DIR/hookd.sock].
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// Print the status file as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Prints the daemon's status; fails when no daemon answers.
pub fn run(args: &StatusArgs) -> anyhow::Result<()> {
    let socket = args.socket.clone().unwrap_or_else(hookd_proto::socket_path);
    let data_dir = hookd_core::dirs::data_dir().ok();
    let waiting = data_dir
        .as_deref()
        .map_or(0, hookd_core::daemon::journal::backlog);
    if let Err(err) = std::os::unix::net::UnixStream::connect(&socket) {
        let kept = if waiting > 0 {
            format!("; {waiting} events wait in the journal and are stored when it starts")
        } else {
            String::new()
        };
        anyhow::bail!(
            "no hookd daemon is listening on {} ({err}); start one with `hookd daemon`{kept}",
            socket.display()
        );
    }
    let status =
        hookd_core::daemon::status::read(&hookd_core::daemon::status::status_path(&socket))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&status)?);
        return Ok(());
    }
    let Some(status) = status else {
        println!(
            "hookd daemon listening on {} (no status file yet)",
            socket.display()
        );
        return Ok(());
    };
    println!(
        "hookd daemon running (pid {}), listening on {}",
        status.pid,
        socket.display()
    );
    println!("  started:      {}", status.started_at);
    println!("  ledger mode:  {}", status.ledger_mode);
    let s = status.stats;
    println!(
        "  events:       {} accepted, {} rejected, {} stored, {} spooled ({} connections)",
        s.lines_accepted, s.lines_rejected, s.events_stored, s.events_spooled, s.connections
    );
    let spool = data_dir
        .as_deref()
        .map_or(0, hookd_core::daemon::journal::spool_backlog);
    println!(
        "  backlog:      {waiting} in the journal (replayed every few seconds), {spool} in the spool (retried until a ledger takes them)"
    );
    if status.recording_paused || s.events_unrecorded > 0 {
        let now = if status.recording_paused {
            "paused (hooks still answer; events are not recorded)"
        } else {
            "on"
        };
        println!(
            "  recording:    {now}; {} events left out while paused",
            s.events_unrecorded
        );
    }
    if s.hooks_skipped_untrusted > 0 {
        println!(
            "  not trusted:  {} managed hook run{} skipped (files not approved; see `hookd hooks list`, approve with `hookd trust`)",
            s.hooks_skipped_untrusted,
            if s.hooks_skipped_untrusted == 1 {
                ""
            } else {
                "s"
            }
        );
    }
    for moved in &status.moved_aside_ledgers {
        println!(
            "  damaged ledger moved aside: {} -> {} ({}, at {})",
            moved.ledger.display(),
            moved.moved_to.display(),
            moved.reason,
            moved.at
        );
    }
    for ledger in &status.ledgers_being_checked {
        println!(
            "  checking:     {} (in the background; events are stored meanwhile, and kept in the journal until it passes)",
            ledger.display()
        );
    }
    if let Some(publisher) = &status.publisher {
        println!(
            "  broker:       {} ({}, exchange {})",
            publisher.state.as_str(),
            publisher.url,
            publisher.exchange
        );
        println!(
            "  published:    {} confirmed, backlog {}",
            publisher.published, publisher.backlog
        );
        if let Some(error) = &publisher.last_error {
            println!(
                "  last error:   {error} (at {})",
                publisher.last_error_at.as_deref().unwrap_or("-")
            );
        }
    }
    if let Ok(data_dir) = hookd_core::dirs::data_dir() {
        println!("  data dir:     {}", data_dir.display());
    }
    Ok(())
}
