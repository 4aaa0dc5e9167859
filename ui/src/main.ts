// The app shell: sidebar navigation, footer with the daemon's state, the
// error banner, and a hash router that mounts one view at a time.
//
// Routes: `#/projects`, `#/timeline?repo=...&file=...`, `#/settings` (see lib/route.ts).
// A hash change to the same screen updates the mounted view in place, so
// the timeline keeps its list and subscriptions while filters change.

import './styles.css';
import { h } from './components/dom';
import { createErrorBanner } from './components/error-banner';
import { api, getBackend, listen } from './lib/api';
import { markPainted } from './lib/perf';
import { formatHash, parseHash, type Route } from './lib/route';
import type { AppInfo } from './lib/types';
import { createBenchView } from './views/bench';
import { createHealthView } from './views/health';
import { createHooksView, hookDraftsSnapshot, restoreHookDrafts } from './views/hooks';
import { createProjectsView } from './views/projects';
import { createSettingsView } from './views/settings';
import { createTimelineView } from './views/timeline';
import type { View, ViewContext } from './views/view';

const DAEMON_TEXT: Record<AppInfo['daemon']['mode'], string> = {
  own: 'daemon running in the app',
  attached: 'attached to a running daemon',
  unavailable: 'daemon unavailable',
};

const TITLES: Record<Route['view'], string> = {
  projects: 'Projects',
  timeline: 'Timeline',
  hooks: 'Hooks',
  bench: 'Test bench',
  health: 'Health',
  settings: 'Settings',
};

/**
 * A path that wraps only after a `/` (a `<wbr>` there), never inside a
 * directory or file name: the sidebar is narrow, and a socket path broken
 * mid-word reads as two names.
 */
function pathBreaks(path: string): Node[] {
  const out: Node[] = [];
  for (const part of path.split(/(?<=\/)/)) {
    if (out.length > 0) out.push(document.createElement('wbr'));
    out.push(document.createTextNode(part));
  }
  return out;
}

export function startApp(root: HTMLElement): void {
  const errors = createErrorBanner();
  const navProjects = h('a', { id: 'nav-projects', class: 'nav-link', attrs: { href: '#/projects' } }, h('span', { class: 'nav-icon', attrs: { 'aria-hidden': 'true' }, text: '▤' }), 'Projects');
  let lastTimelineHash = '#/timeline?all=true';
  const navTimeline = h('a', { id: 'nav-timeline', class: 'nav-link', attrs: { href: lastTimelineHash } }, h('span', { class: 'nav-icon', attrs: { 'aria-hidden': 'true' }, text: '≋' }), 'Timeline');

  let lastHooksHash = '#/hooks?tab=agent-project';
  const navHooks = h('a', { id: 'nav-hooks', class: 'nav-link', attrs: { href: lastHooksHash } }, h('span', { class: 'nav-icon', attrs: { 'aria-hidden': 'true' }, text: '⚓' }), 'Hooks');

  let lastBenchHash = '#/bench';
  const navBench = h('a', { id: 'nav-bench', class: 'nav-link', attrs: { href: lastBenchHash } }, h('span', { class: 'nav-icon', attrs: { 'aria-hidden': 'true' }, text: '▷' }), 'Test bench');

  let lastHealthHash = '#/health';
  const navHealth = h('a', { id: 'nav-health', class: 'nav-link', attrs: { href: lastHealthHash } }, h('span', { class: 'nav-icon', attrs: { 'aria-hidden': 'true' }, text: '♥' }), 'Health');

  const navSettings = h('a', { id: 'nav-settings', class: 'nav-link', attrs: { href: '#/settings' } }, h('span', { class: 'nav-icon', attrs: { 'aria-hidden': 'true' }, text: '⚙' }), 'Settings');

  const daemonStatus = h('div', { id: 'daemon-status', class: 'daemon-status', data: { mode: 'unknown' } }, h('span', { class: 'dot', attrs: { 'aria-hidden': 'true' } }), h('span', { class: 'daemon-text', text: 'daemon: …' }));
  const daemonSocket = h('div', { id: 'daemon-socket', class: 'mono daemon-socket' });
  const version = h('div', { id: 'app-version', class: 'muted' });
  const viewHost = h('div', { id: 'view', class: 'view-host' });

  root.replaceChildren(
    h(
      'div',
      { class: 'app' },
      h(
        'nav',
        { class: 'sidebar', attrs: { 'aria-label': 'Main' } },
        h('div', { class: 'brand' }, h('span', { class: 'brand-mark', attrs: { 'aria-hidden': 'true' }, text: '⌁' }), 'hookd'),
        h('ul', { class: 'nav' }, h('li', {}, navProjects), h('li', {}, navTimeline), h('li', {}, navHooks), h('li', {}, navBench), h('li', {}, navHealth), h('li', {}, navSettings)),
        h('footer', { id: 'app-footer', class: 'sidebar-footer' }, daemonStatus, daemonSocket, version),
      ),
      h('main', { id: 'main', class: 'main' }, errors.el, viewHost),
    ),
  );

  const appInfo: Promise<AppInfo | null> = api.app_info().then(
    (info) => info,
    (err: unknown) => {
      errors.show(err, 'Could not read the app state');
      return null;
    },
  );
  void Promise.all([appInfo, getBackend()]).then(([info, backend]) => {
    const text = daemonStatus.querySelector('.daemon-text')!;
    if (info) {
      daemonStatus.dataset.mode = info.daemon.mode;
      text.textContent = DAEMON_TEXT[info.daemon.mode];
      daemonStatus.title = info.daemon.error ?? `data: ${info.data_dir}`;
      daemonSocket.replaceChildren(...pathBreaks(info.daemon.socket));
      daemonSocket.title = `socket: ${info.daemon.socket}`;
      version.textContent = `v${info.version}${backend.kind === 'stub' ? ' · browser stub' : ''}`;
    } else {
      daemonStatus.dataset.mode = 'unknown';
      text.textContent = 'daemon state unknown';
    }
  });

  const ctx: ViewContext = {
    errors,
    appInfo,
    navigate(hash) {
      if (window.location.hash !== hash) window.location.hash = hash;
    },
  };

  let current: { route: Route; view: View } | null = null;

  function route(): void {
    const parsed = parseHash(window.location.hash);
    const canonical = formatHash(parsed);
    if (!window.location.hash || (parsed.view !== 'timeline' && window.location.hash !== canonical)) {
      // Unknown or empty hash: show projects without adding a history entry.
      history.replaceState(null, '', canonical);
    }
    if (parsed.view === 'timeline') {
      lastTimelineHash = canonical;
      navTimeline.setAttribute('href', lastTimelineHash);
    }
    if (parsed.view === 'bench') {
      lastBenchHash = canonical;
      navBench.setAttribute('href', lastBenchHash);
    }
    if (parsed.view === 'health') {
      lastHealthHash = canonical;
      navHealth.setAttribute('href', lastHealthHash);
    }
    if (parsed.view === 'hooks') {
      lastHooksHash = canonical;
      navHooks.setAttribute('href', lastHooksHash);
    }
    for (const [link, on] of [
      [navProjects, parsed.view === 'projects'],
      [navTimeline, parsed.view === 'timeline'],
      [navHooks, parsed.view === 'hooks'],
      [navBench, parsed.view === 'bench'],
      [navHealth, parsed.view === 'health'],
      [navSettings, parsed.view === 'settings'],
    ] as const) {
      if (on) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }

    if (current && current.route.view === parsed.view) {
      current.route = parsed;
      current.view.update(parsed);
      return;
    }
    const first = current === null;
    current?.view.destroy();
    const view =
      parsed.view === 'projects'
        ? createProjectsView(ctx)
        : parsed.view === 'settings'
          ? createSettingsView(ctx)
          : parsed.view === 'hooks'
            ? createHooksView(ctx, parsed)
            : parsed.view === 'bench'
              ? createBenchView(ctx, parsed)
              : parsed.view === 'health'
                ? createHealthView(ctx, parsed)
                : createTimelineView(ctx, parsed.filter);
    current = { route: parsed, view };
    viewHost.replaceChildren(view.el);
    document.title = `${TITLES[parsed.view]} · hookd`;
    if (!first) {
      // Move keyboard focus to the new screen's heading, as a page load would.
      const heading = view.el.querySelector<HTMLElement>('h1');
      if (heading) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
    }
  }

  window.addEventListener('hashchange', route);

  // In the app the window's native drop handler (the backend) gets dropped
  // folders. In a browser, keep a dropped file from replacing the page.
  window.addEventListener('dragover', (ev) => {
    ev.preventDefault();
    document.getElementById('drop-zone')?.classList.add('drag-over');
  });
  window.addEventListener('dragleave', (ev) => {
    if (ev.relatedTarget === null) document.getElementById('drop-zone')?.classList.remove('drag-over');
  });
  window.addEventListener('drop', (ev) => {
    ev.preventDefault();
    document.getElementById('drop-zone')?.classList.remove('drag-over');
    void getBackend().then((b) => {
      if (b.kind === 'stub') {
        errors.show({ kind: 'unsupported', message: 'Dropping folders works in the desktop app; here, type the folder path and press Add folder.' });
      }
    });
  });

  route();
  markPainted('shell', 0);
  // The tray's recent changes and projects, and `hookd-desktop --open ROUTE`
  // given to the running app, open their screen here.
  void listen('navigate', (target) => {
    if (typeof target === 'string' && target) window.location.hash = `#/${target.replace(/^#?\/?/, '')}`;
  }).catch((err: unknown) => errors.show(err, 'Could not follow the tray'));

  // Closing the window destroys this page: the Hook editor's unsaved edits
  // go to the backend first, and the next window takes them back.
  void listen('window-closing', () => {
    void api
      .stash_hook_drafts({ drafts: hookDraftsSnapshot() })
      .catch((err: unknown) => console.error('could not keep the unsaved hook edits', err))
      .finally(() => void api.finish_window_close().catch(() => undefined));
  }).catch((err: unknown) => errors.show(err, 'Could not prepare for the window closing'));
  void api.take_hook_drafts().then(
    (stash) => {
      if (restoreHookDrafts(stash) > 0 && current?.route.view === 'hooks') {
        // The editor opened before they came back: open it again over them.
        current.view.destroy();
        current = null;
        route();
      }
    },
    (err: unknown) => errors.show(err, 'Could not restore the unsaved hook edits'),
  );
}

const root = document.getElementById('app');
if (root) startApp(root);
