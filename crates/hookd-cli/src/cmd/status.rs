//! `hookd status`: is a daemon listening, and where.

use std::path::PathBuf;

use clap::Args;

/// Flags of `hookd status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Socket to check [default: $HOOKD_SOCKET, else $XDG_RUNTIME_DIR/hookd.sock].
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
}

/// Prints whether a daemon answers; fails when none does.
pub fn run(args: &StatusArgs) -> anyhow::Result<()> {
    let socket = args.socket.clone().unwrap_or_else(hookd_proto::socket_path);
    let pid_file = hookd_proto::pid_file_for(&socket);
    match std::os::unix::net::UnixStream::connect(&socket) {
        Ok(_) => {
            let pid = std::fs::read_to_string(&pid_file)
                .map(|p| p.trim().to_owned())
                .unwrap_or_default();
            let pid = if pid.is_empty() {
                String::new()
            } else {
                format!(" (pid {pid})")
            };
            println!(
                "hookd daemon running{pid}, listening on {}",
                socket.display()
            );
            if let Ok(data_dir) = hookd_core::dirs::data_dir() {
                println!("data directory: {}", data_dir.display());
            }
            Ok(())
        }
        Err(err) => anyhow::bail!(
            "no hookd daemon is listening on {} ({err}); start one with `hookd daemon`",
            socket.display()
        ),
    }
}
