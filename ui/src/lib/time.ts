// Time formatting and the `since`/`until` syntax of `hookd query`.
//
// Ledger times are RFC 3339 UTC with milliseconds; the UI shows them relative
// ("3 min ago") with the absolute time in a tooltip, and in local time in the
// timeline.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * "just now", "42 s ago", "3 min ago", "5 h ago", "1 day ago", "12 days ago",
 * then the date (YYYY-MM-DD, local) beyond 30 days. A time slightly in the
 * future (clock skew) counts as "just now"; further ahead it reads "in 3 min".
 */
export function relativeTime(iso: string | null, now: number = Date.now()): string {
  if (iso === null) return 'never';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const diff = now - t;
  if (diff < -10 * SECOND) return `in ${span(-diff)}`;
  if (diff < 10 * SECOND) return 'just now';
  if (diff >= 30 * DAY) return localDate(new Date(t));
  return `${span(diff)} ago`;
}

function span(ms: number): string {
  if (ms < MINUTE) return `${Math.floor(ms / SECOND)} s`;
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h`;
  const days = Math.floor(ms / DAY);
  return days === 1 ? '1 day' : `${days} days`;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function localDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `YYYY-MM-DD HH:MM:SS` in local time; the input unchanged if it does not parse. */
export function formatLocal(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t);
  return `${localDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The absolute time for tooltips: local time plus the stored UTC value. */
export function absoluteTitle(iso: string | null): string {
  if (iso === null) return 'no activity recorded';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toString()} (${iso})`;
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: SECOND, sec: SECOND, secs: SECOND, second: SECOND, seconds: SECOND,
  m: MINUTE, min: MINUTE, mins: MINUTE, minute: MINUTE, minutes: MINUTE,
  h: HOUR, hr: HOUR, hrs: HOUR, hour: HOUR, hours: HOUR,
  d: DAY, day: DAY, days: DAY,
  w: 7 * DAY, week: 7 * DAY, weeks: 7 * DAY,
};

/** Milliseconds of a duration like `30m`, `1h30m`, `2d`, `1h 30min`; null if it is not one. */
export function parseDuration(input: string): number | null {
  const text = input.trim();
  if (text === '') return null;
  const re = /(\d+)\s*([a-zA-Z]+)\s*/gy;
  let total = 0;
  let pos = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const unit = UNITS[m[2]!];
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
    pos = re.lastIndex;
  }
  return pos === text.length ? total : null;
}

const RFC3339 =
  /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * A `since`/`until` bound as epoch milliseconds: a duration back from `now`
 * or an RFC 3339 time (with an offset, as the core requires). Null when the
 * text is neither.
 */
export function parseWhen(input: string, now: number = Date.now()): number | null {
  const text = input.trim();
  if (RFC3339.test(text)) {
    const t = Date.parse(text);
    return Number.isNaN(t) ? null : t;
  }
  const d = parseDuration(text);
  return d === null ? null : now - d;
}
