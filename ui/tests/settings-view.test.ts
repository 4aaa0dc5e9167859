// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createErrorBanner, type ErrorBanner } from '../src/components/error-banner';
import { setBackend } from '../src/lib/api';
import { createStub, type StubBackend } from '../src/stub';
import type { AppInfo } from '../src/lib/types';
import { createSettingsView, REFRESH_MS } from '../src/views/settings';
import type { View } from '../src/views/view';

let view: View | null = null;
let errors: ErrorBanner;

const INFO: AppInfo = {
  version: '0.1.0',
  daemon: { mode: 'own', socket: '/run/user/1000/hookd.sock', error: null },
  data_dir: '/home/dev/.local/share/hookd',
};

function mount(stub: StubBackend): void {
  setBackend(stub);
  errors = createErrorBanner();
  view = createSettingsView({ errors, navigate: () => {}, appInfo: Promise.resolve(INFO) });
  document.body.replaceChildren(errors.el, view.el);
}

const $ = (id: string): HTMLElement => document.getElementById(id)!;
const counter = (key: string): HTMLElement => document.querySelector<HTMLElement>(`[data-testid=counter-${key}]`)!;
const checkbox = (): HTMLInputElement => $('settings-launch-on-login') as HTMLInputElement;

afterEach(() => {
  view?.destroy();
  view = null;
  vi.useRealTimers();
  setBackend(null);
  document.body.replaceChildren();
});

describe('settings view', () => {
  it('shows the daemon, its counters and the local ledger mode', async () => {
    const stub = createStub({ rows: 40 });
    mount(stub);
    await vi.waitFor(() => expect(counter('stored')).not.toBeNull());
    expect($('settings-daemon-mode').textContent).toMatch(/^own/);
    expect($('settings-socket').textContent).toBe('/run/user/1000/hookd.sock');
    expect(counter('stored').dataset.value).toBe('40');
    expect(counter('accepted').querySelector('dd')!.textContent).toBe('50');
    expect(counter('rejected').dataset.value).toBe('2');
    expect(counter('spooled').dataset.value).toBe('0');
    expect(document.querySelector('[data-testid=daemon-pid]')!.textContent).toBe('31337');
    expect($('settings-ledger-mode').textContent).toMatch(/^local/);
    expect($('settings-broker').textContent).toBe('not publishing (local mode)');
  });

  it('shows the broker when publishing', async () => {
    const stub = createStub({ rows: 5 });
    stub.status!.ledger_mode = 'both';
    stub.status!.publisher = {
      state: 'disconnected',
      url: 'amqp://broker:5672/%2f',
      exchange: 'hookd.events',
      backlog: 7,
      published: 1200,
      last_error: 'connection refused',
      last_error_at: new Date().toISOString(),
      connected_since: null,
    };
    mount(stub);
    await vi.waitFor(() => expect($('settings-broker').dataset.state).toBe('disconnected'));
    const text = $('settings-broker').textContent!;
    expect(text).toContain('amqp://broker:5672/%2f');
    expect(text).toContain('hookd.events');
    expect(document.querySelector('[data-testid=broker-backlog]')!.textContent).toBe('7');
    expect(document.querySelector('[data-testid=broker-published]')!.textContent).toBe('1,200');
    expect(document.querySelector('[data-testid=broker-last-error]')!.textContent).toContain('connection refused');
    expect($('settings-ledger-mode').textContent).toMatch(/^both/);
  });

  it('refreshes every 2 s while shown and stops when destroyed', async () => {
    vi.useFakeTimers();
    const stub = createStub({ rows: 10 });
    mount(stub);
    await vi.advanceTimersByTimeAsync(10);
    expect(counter('stored').dataset.value).toBe('10');
    stub.addMutations(3);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(counter('stored').dataset.value).toBe('13');
    const before = stub.calls.get('daemon_status');
    view!.destroy();
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 3);
    expect(stub.calls.get('daemon_status')).toBe(before);
  });

  it('toggles launch on login through the API and shows the result', async () => {
    const stub = createStub({ rows: 5 });
    mount(stub);
    await vi.waitFor(() => expect(checkbox().disabled).toBe(false));
    expect(checkbox().checked).toBe(false);
    checkbox().click();
    await vi.waitFor(() => expect(stub.launchOnLogin).toBe(true));
    await vi.waitFor(() => expect($('settings-launch-status').textContent).toMatch(/^On/));
    expect(stub.calls.get('set_launch_on_login')).toBe(1);
    expect(checkbox().checked).toBe(true);

    stub.failNext('set_launch_on_login', { kind: 'io', message: 'launch on login: read-only file system' });
    await vi.waitFor(() => expect(checkbox().disabled).toBe(false));
    checkbox().click();
    await vi.waitFor(() => expect(errors.el.textContent).toContain('read-only file system'));
    expect(checkbox().checked).toBe(true);
    expect(stub.launchOnLogin).toBe(true);
  });

  it('follows launch on login changed elsewhere (the tray\u2019s check item) at the next refresh', async () => {
    vi.useFakeTimers();
    const stub = createStub({ rows: 5 });
    mount(stub);
    await vi.advanceTimersByTimeAsync(10);
    expect(checkbox().checked).toBe(false);
    stub.launchOnLogin = true;
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(checkbox().checked).toBe(true);
    expect($('settings-launch-status').textContent).toMatch(/^On/);
    stub.launchOnLogin = false;
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(checkbox().checked).toBe(false);
  });

  it('says when there is no status file', async () => {
    const stub = createStub({ rows: 5 });
    stub.status = null;
    mount(stub);
    await vi.waitFor(() => expect($('settings-daemon-note').hidden).toBe(false));
    expect($('settings-counters').children).toHaveLength(0);
  });
});
