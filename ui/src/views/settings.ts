// The Settings screen: how the daemon is doing (mode, socket, pid, counters,
// from `app_info` and the daemon's status file), where events go (the ledger
// mode and, when publishing, the broker), and whether the app starts on login.
// The daemon and broker data refresh every 2 s while the screen is shown.

import { formatCount, h } from '../components/dom';
import { api } from '../lib/api';
import { absoluteTitle, relativeTime } from '../lib/time';
import type { AppInfo, DaemonStatus, PublisherStatus } from '../lib/types';
import type { View, ViewContext } from './view';

/** How often the daemon's status is re-read while the screen is shown. */
export const REFRESH_MS = 2000;

const MODE_TEXT: Record<AppInfo['daemon']['mode'], string> = {
  own: 'own — the daemon runs inside the app',
  attached: 'attached — another hookd daemon owns the socket',
  unavailable: 'unavailable',
};

const LEDGER_TEXT: Record<string, string> = {
  local: 'local — each repository\u2019s .hookd/mutations.db',
  amqp: 'amqp — published to a broker',
  both: 'both — local ledgers and a broker',
};

function field(label: string, value: Node | string, testid?: string): HTMLElement[] {
  const dd = h('dd', testid ? { data: { testid } } : {});
  dd.append(value);
  return [h('dt', { text: label }), dd];
}

function time(iso: string | null): HTMLElement {
  return h('span', { attrs: { title: absoluteTitle(iso) }, text: iso ? relativeTime(iso) : '—' });
}

export function createSettingsView(ctx: ViewContext): View {
  let destroyed = false;
  let timer: number | undefined;
  let inFlight = false;

  const mode = h('span', { id: 'settings-daemon-mode', class: 'settings-value', data: { mode: 'unknown' }, text: '…' });
  const socket = h('span', { id: 'settings-socket', class: 'mono settings-value', text: '…' });
  const daemonBase = [...field('mode', mode), ...field('socket', socket)];
  const daemonFields = h('dl', { id: 'settings-daemon', class: 'fields settings-fields' }, ...daemonBase);
  const counters = h('dl', { id: 'settings-counters', class: 'settings-counters', attrs: { 'aria-label': 'Counters since the daemon started' } });
  const daemonNote = h('p', { id: 'settings-daemon-note', class: 'muted settings-note', attrs: { hidden: true } });

  const ledgerMode = h('span', { id: 'settings-ledger-mode', class: 'settings-value', text: '…' });
  const broker = h('div', { id: 'settings-broker', class: 'settings-broker', attrs: { 'aria-live': 'polite' } });

  const launch = h('input', {
    id: 'settings-launch-on-login',
    attrs: { type: 'checkbox', disabled: true, 'aria-describedby': 'settings-launch-status' },
    on: { change: () => void toggleLaunch() },
  });
  const launchStatus = h('span', { id: 'settings-launch-status', class: 'muted settings-launch-status', attrs: { 'aria-live': 'polite' } });

  const el = h(
    'section',
    { id: 'view-settings', class: 'view view-settings', attrs: { 'aria-labelledby': 'settings-title' } },
    h('header', { class: 'view-header' }, h('h1', { id: 'settings-title', text: 'Settings' }), h('p', { class: 'muted', text: 'The daemon, where events go, and how the app starts.' })),
    h(
      'div',
      { class: 'view-scroll' },
      h(
        'section',
        { class: 'settings-section', attrs: { 'aria-labelledby': 'settings-daemon-title' } },
        h('h2', { id: 'settings-daemon-title', text: 'Daemon' }),
        daemonFields,
        counters,
        daemonNote,
      ),
      h(
        'section',
        { class: 'settings-section', attrs: { 'aria-labelledby': 'settings-ledger-title' } },
        h('h2', { id: 'settings-ledger-title', text: 'Ledger' }),
        h('dl', { class: 'fields settings-fields' }, ...field('mode', ledgerMode)),
        broker,
      ),
      h(
        'section',
        { class: 'settings-section', attrs: { 'aria-labelledby': 'settings-startup-title' } },
        h('h2', { id: 'settings-startup-title', text: 'Startup' }),
        h(
          'label',
          { class: 'settings-check', attrs: { for: 'settings-launch-on-login' } },
          launch,
          h('span', {}, h('strong', { text: 'Launch on login' }), h('span', { class: 'muted', text: ' — start hookd in the tray when you log in' })),
        ),
        launchStatus,
      ),
    ),
  );

  function counter(label: string, n: number, key: string): HTMLElement {
    return h('div', { class: 'settings-counter', data: { testid: `counter-${key}`, value: String(n) } }, h('dt', { text: label }), h('dd', { text: formatCount(n) }));
  }

  function renderPublisher(p: PublisherStatus | undefined): void {
    if (!p) {
      broker.dataset.state = 'none';
      broker.replaceChildren(h('p', { class: 'muted settings-note', text: 'not publishing (local mode)' }));
      return;
    }
    broker.dataset.state = p.state;
    const stateBadge = h('span', { class: `badge ${p.state === 'connected' ? 'badge-on' : 'badge-warn'}`, data: { testid: 'broker-state' }, text: p.state });
    const rows = [
      ...field('broker', stateBadge),
      ...field('url', h('span', { class: 'mono', text: p.url }), 'broker-url'),
      ...field('exchange', h('span', { class: 'mono', text: p.exchange }), 'broker-exchange'),
      ...field('backlog', formatCount(p.backlog), 'broker-backlog'),
      ...field('published', formatCount(p.published), 'broker-published'),
    ];
    if (p.connected_since) rows.push(...field('connected', time(p.connected_since)));
    if (p.last_error) {
      const err = h('span', { class: 'settings-error', text: p.last_error });
      const at = p.last_error_at ? h('span', { class: 'muted' }, ' · ', time(p.last_error_at)) : null;
      const dd = h('span', {}, err, at);
      rows.push(...field('last error', dd, 'broker-last-error'));
    }
    broker.replaceChildren(h('dl', { class: 'fields settings-fields' }, ...rows));
  }

  function renderStatus(status: DaemonStatus | null): void {
    if (!status) {
      daemonFields.replaceChildren(...daemonBase);
      counters.replaceChildren();
      daemonNote.hidden = false;
      daemonNote.textContent = 'No status file beside the socket: no daemon is running on it.';
      ledgerMode.textContent = 'unknown';
      broker.dataset.state = 'none';
      broker.replaceChildren(h('p', { class: 'muted settings-note', text: 'not publishing (no daemon)' }));
      return;
    }
    daemonNote.hidden = true;
    daemonFields.replaceChildren(
      ...daemonBase,
      ...field('pid', String(status.pid), 'daemon-pid'),
      ...field('started', time(status.started_at), 'daemon-started'),
      ...field('updated', time(status.updated_at), 'daemon-updated'),
      ...field('recording', status.recording_paused ? 'paused (events are answered, not recorded)' : 'on', 'daemon-recording'),
    );
    const s = status.stats;
    counters.replaceChildren(
      counter('accepted', s.lines_accepted, 'accepted'),
      counter('rejected', s.lines_rejected, 'rejected'),
      counter('stored', s.events_stored, 'stored'),
      counter('spooled', s.events_spooled, 'spooled'),
      counter('unrecorded', s.events_unrecorded, 'unrecorded'),
    );
    counters.dataset.stored = String(s.events_stored);
    ledgerMode.textContent = LEDGER_TEXT[status.ledger_mode] ?? status.ledger_mode;
    ledgerMode.dataset.mode = status.ledger_mode;
    renderPublisher(status.publisher);
  }

  async function refresh(): Promise<void> {
    if (destroyed || inFlight) return;
    inFlight = true;
    try {
      const status = await api.daemon_status();
      if (!destroyed) renderStatus(status);
    } catch (err) {
      if (!destroyed) ctx.errors.show(err, 'Could not read the daemon status');
    } finally {
      inFlight = false;
    }
  }

  // Launch on login is read again with each refresh: the tray's check item
  // (and anything else) changes it too. Not while a toggle is on its way.
  let toggling = false;
  let launchRead = false;

  function showLaunch(on: boolean): void {
    launch.checked = on;
    launchStatus.textContent = on ? 'On: hookd starts in the tray when you log in.' : 'Off: hookd does not start on login.';
  }

  async function rereadLaunch(): Promise<void> {
    if (!launchRead || toggling) return;
    try {
      const on = await api.launch_on_login();
      if (!destroyed && !toggling && on !== launch.checked) showLaunch(on);
    } catch {
      // Said once when the screen opened; a refresh stays quiet.
    }
  }

  async function toggleLaunch(): Promise<void> {
    const wanted = launch.checked;
    toggling = true;
    launch.disabled = true;
    launchStatus.textContent = wanted ? 'Turning on…' : 'Turning off…';
    try {
      const on = await api.set_launch_on_login({ enabled: wanted });
      if (destroyed) return;
      showLaunch(on);
    } catch (err) {
      if (destroyed) return;
      launch.checked = !wanted;
      launchStatus.textContent = '';
      ctx.errors.show(err, 'Could not change launch on login');
    } finally {
      toggling = false;
      if (!destroyed) launch.disabled = false;
    }
  }

  void ctx.appInfo.then((info) => {
    if (destroyed) return;
    const m = info?.daemon.mode ?? 'unavailable';
    mode.dataset.mode = info ? m : 'unknown';
    mode.textContent = info ? MODE_TEXT[m] : 'unknown';
    if (info?.daemon.error) mode.title = info.daemon.error;
    socket.textContent = info?.daemon.socket ?? '—';
  });

  api.launch_on_login().then(
    (on) => {
      if (destroyed) return;
      launch.checked = on;
      launch.disabled = false;
      launchRead = true;
    },
    (err: unknown) => {
      if (destroyed) return;
      launchStatus.textContent = 'Launch on login is not available.';
      ctx.errors.show(err, 'Could not read launch on login');
    },
  );

  void refresh();
  timer = window.setInterval(() => {
    void refresh();
    void rereadLaunch();
  }, REFRESH_MS);

  return {
    el,
    update() {
      void refresh();
    },
    destroy() {
      destroyed = true;
      if (timer !== undefined) window.clearInterval(timer);
      timer = undefined;
    },
  };
}
