// The contract between the UI and the Tauri backend (src-tauri), as JSON.
//
// Field names are snake_case because that is what the Rust side serialises.
// Hand-written for now; once src-tauri generates bindings (ts-rs or
// tauri-specta, see conventions.md) this file should be replaced by, or
// re-export, the generated types so the two sides cannot drift.

/** How the app relates to the hookd daemon. */
export type DaemonMode = 'own' | 'attached' | 'unavailable';

/** Result of `app_info`. */
export interface AppInfo {
  /** Version of the desktop app. */
  version: string;
  /** The daemon the app runs (own), talks to (attached) or cannot reach. */
  daemon: {
    mode: DaemonMode;
    /** Socket path the daemon listens on. */
    socket: string;
    /** Why the daemon is unavailable, when it is. */
    error: string | null;
  };
  /** hookd's data directory (registry, spool, outside-git ledger). */
  data_dir: string;
}

/** The daemon's counters since it started (`hookd status`). */
export interface DaemonStats {
  connections: number;
  lines_accepted: number;
  lines_rejected: number;
  events_stored: number;
  events_spooled: number;
}

/** The broker publisher, in the status file while publishing to AMQP. */
export interface PublisherStatus {
  /** e.g. `connected`, `connecting`, `disconnected`. */
  state: string;
  url: string;
  exchange: string;
  /** Events waiting to be published. */
  backlog: number;
  /** Events published since start. */
  published: number;
  last_error: string | null;
  last_error_at: string | null;
  connected_since: string | null;
}

/** Result of `daemon_status`: the daemon's status file (null when missing). */
export interface DaemonStatus {
  pid: number;
  socket: string;
  /** RFC 3339 start time. */
  started_at: string;
  /** RFC 3339 time the file was written (every second). */
  updated_at: string;
  /** `local`, `amqp` or `both`. */
  ledger_mode: string;
  stats: DaemonStats;
  /** Present only while publishing to a broker. */
  publisher?: PublisherStatus;
}

/** Which of Claude Code's settings files call hookd. */
export interface ConnectedScopes {
  user: boolean;
  project: boolean;
  local: boolean;
}

/** One known project, from `list_projects`. */
export interface ProjectInfo {
  /** Absolute path of the project (the git root for repositories). */
  root: string;
  /** Display name (usually the last path component). */
  name: string;
  /** Seen through an event, or added by hand (drop or "Add folder"). */
  origin: 'event' | 'manual';
  /** RFC 3339 time the project was first seen. */
  first_seen: string;
  /** RFC 3339 time of the newest ledger event, null without any. */
  last_activity: string | null;
  /** Number of hook events in the project's ledger. */
  events: number;
  /** Number of file mutations in the project's ledger. */
  mutations: number;
  /** Whether `.hookd/mutations.db` exists. */
  has_ledger: boolean;
  /** Per scope: whether the agent's hook config calls hookd. */
  connected: ConnectedScopes;
}

/** A path `add_projects` refused, with the reason. */
export interface RejectedPath {
  path: string;
  reason: string;
}

/** Result of `add_projects`, also the payload of `projects-changed`. */
export interface AddProjectsResult {
  added: ProjectInfo[];
  rejected: RejectedPath[];
}

/** Argument of `timeline`; mirrors `hookd query`'s flags. */
export interface TimelineQuery {
  /** Any directory inside a repository; null with `all`. */
  repo: string | null;
  /** Every known repository (rows then carry `repo`). */
  all: boolean;
  /** Duration back from now (`30m`, `1h`, `2d`) or RFC 3339. */
  since: string | null;
  until: string | null;
  /** File path as stored (relative to the git root). */
  file: string | null;
  agent: string | null;
  branch: string | null;
  /** Tool name, compared case-insensitively. */
  tool: string | null;
  /** Keep only the newest N rows. */
  limit: number | null;
}

/** One row of the `mutations` table (a file change). */
export interface MutationRow {
  id: number;
  event_type: string;
  hook_type: string;
  tool_name: string;
  agent_id: string;
  file_path: string | null;
  file_ext: string | null;
  lines_changed: number | null;
  branch: string;
  head_sha: string;
  /** The hook payload as JSON text. */
  raw_payload: string;
  event_timestamp: string;
  received_at: string;
  event_id: string;
  /** Position of this row among the rows of one event (Bash can change several files). */
  mutation_seq: number;
  session_id: string | null;
  tool_use_id: string | null;
  remote_url: string | null;
  /** The Bash command, for Bash mutations. */
  command: string | null;
  source_pid: number | null;
  /** Repository root, present on `all` queries. */
  repo?: string;
}

/** The error every rejected command carries. */
export interface ApiError {
  kind: string;
  message: string;
}

/** One ledger's share of a commit, in a `ledger-commit` event. */
export interface LedgerNotice {
  /** The ledger that was written (its path). */
  ledger: string;
  events: {
    event_id: string;
    hook_type: string;
    tool_name: string | null;
    tool_use_id: string | null;
  }[];
  /** Number of mutation rows written. */
  mutations: number;
}

/** Payload of `ledger-commit`. */
export interface LedgerCommit {
  notices: LedgerNotice[];
}

/** Commands: name → [argument object, result]. */
export interface Commands {
  app_info: [Record<string, never>, AppInfo];
  daemon_status: [Record<string, never>, DaemonStatus | null];
  launch_on_login: [Record<string, never>, boolean];
  set_launch_on_login: [{ enabled: boolean }, boolean];
  list_projects: [Record<string, never>, ProjectInfo[]];
  add_projects: [{ paths: string[] }, AddProjectsResult];
  timeline: [{ query: TimelineQuery }, MutationRow[]];
}

/** Events the backend emits: name → payload. */
export interface Events {
  'ledger-commit': LedgerCommit;
  'projects-changed': AddProjectsResult;
  /** Tauri's own window drag-and-drop events; used only to highlight the drop zone. */
  'tauri://drag-enter': unknown;
  'tauri://drag-leave': unknown;
  'tauri://drag-drop': unknown;
}
