// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setBackend } from '../src/lib/api';
import { createStub } from '../src/stub';

describe('app shell', () => {
  beforeAll(async () => {
    setBackend(createStub({ rows: 200 }));
    window.history.replaceState(null, '', '/');
    document.body.innerHTML = '<div id="app"></div>';
    await import('../src/main');
  });
  afterAll(() => setBackend(null));

  it('starts on the projects screen with nav, footer and daemon state', async () => {
    expect(window.location.hash).toBe('#/projects');
    expect(document.getElementById('nav-projects')!.getAttribute('aria-current')).toBe('page');
    expect(document.getElementById('nav-timeline')!.hasAttribute('aria-current')).toBe(false);
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid=project]').length).toBe(4));
    await vi.waitFor(() => expect(document.getElementById('daemon-status')!.dataset.mode).toBe('own'));
    expect(document.getElementById('daemon-status')!.textContent).toContain('daemon running in the app');
    expect(document.getElementById('daemon-socket')!.textContent).toBe('/run/user/1000/hookd.sock');
    // It may wrap only after a slash: a <wbr> after each one, and nowhere else.
    const socket = document.getElementById('daemon-socket')!;
    expect([...socket.childNodes].map((n) => (n.nodeName === 'WBR' ? '|' : n.textContent)).join('')).toBe('/|run/|user/|1000/|hookd.sock');
    expect(document.getElementById('app-version')!.textContent).toContain('browser stub');
  });

  it('routes to the timeline and updates it in place when the filters change', async () => {
    window.location.hash = '#/timeline?repo=/home/dev/src/hookd';
    await vi.waitFor(() => expect(document.getElementById('view-timeline')).not.toBeNull());
    const viewEl = document.getElementById('view-timeline');
    expect(document.getElementById('nav-timeline')!.getAttribute('aria-current')).toBe('page');
    await vi.waitFor(() => expect(document.querySelectorAll('[data-testid=timeline-row]').length).toBeGreaterThan(0));
    window.location.hash = '#/timeline?repo=/home/dev/src/hookd&tool=Write';
    await vi.waitFor(() => {
      const tools = [...document.querySelectorAll<HTMLElement>('[data-testid=timeline-row]:not([hidden])')].map((r) => r.dataset.tool);
      expect(tools.length).toBeGreaterThan(0);
      expect(new Set(tools)).toEqual(new Set(['Write']));
    });
    expect(document.getElementById('view-timeline')).toBe(viewEl); // same view, updated
    expect((document.getElementById('filter-tool') as HTMLInputElement).value).toBe('Write');
    // The nav link reopens the last timeline view.
    expect(document.getElementById('nav-timeline')!.getAttribute('href')).toBe('#/timeline?repo=/home/dev/src/hookd&tool=Write');
  });

  it('goes back to projects for an unknown route', async () => {
    window.location.hash = '#/whatever';
    await vi.waitFor(() => expect(document.getElementById('view-projects')).not.toBeNull());
    expect(window.location.hash).toBe('#/projects');
  });
});
