// accessibility: axe-core's WCAG 2.1 A and AA rules (contrast, labels, roles,
// focus order...) on every screen and dialog of the real app, in the light
// and the dark theme; a serious or critical violation fails the screen's
// test. Runs before the tray specs, which close the window.
// See run.mjs for the context every spec receives (axe, theme).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, axe, theme, paintedLuminance, emit, repo }) {
  const go = (hash) => browser.execute((h) => { window.location.hash = h; }, hash);
  const settle = () => browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
  // The violations check() found in the running test: axeTest fails with all
  // of them at its end, so one screen's violations do not hide the next one's.
  let found = [];
  /** A test that runs axe on screens: fails with every violation found, after the rest of its checks. */
  const axeTest = (name, body) =>
    test(name, async () => {
      found = [];
      try {
        await body();
      } catch (err) {
        found.push(err.stack ?? String(err));
      }
      const all = found;
      found = [];
      if (all.length) throw new Error(all.join('\n'));
    });
  /** axe on the page as it is, in both themes (light last, as the app starts). */
  async function check(screen) {
    await settle();
    const errors = found;
    for (const dark of [true, false]) {
      await theme(browser, dark);
      await settle();
      try {
        await axe(browser, `${screen} (${dark ? 'dark' : 'light'})`);
      } catch (err) {
        errors.push(err.message);
      }
    }
    await theme(browser, false);
  }
  const session = 'e2e-a11y';
  const payload = (name, extra) => ({ session_id: session, cwd: repo, hook_event_name: name, ...extra });

  /**
   * Tabs from the focused element until `selector` has focus (at most 12
   * times), then checks ArrowDown and PageDown scroll it. The box is made
   * short first, so it scrolls whatever the diff's length.
   */
  async function keyboardScroll(selector, what) {
    await browser.execute((sel) => {
      const box = document.querySelector(sel);
      box.style.maxHeight = '90px';
      box.scrollTop = 0;
    }, selector);
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await browser.keys('Tab');
      reached = await browser.execute((sel) => document.activeElement === document.querySelector(sel), selector);
    }
    const active = await browser.execute(() => { const a = document.activeElement; return a ? `${a.tagName}#${a.id}.${a.className}` : null; });
    assert.ok(reached, `Tab reaches ${what}'s diff box (focus is on ${active})`);
    const name = await browser.execute((sel) => [document.querySelector(sel).getAttribute('role'), document.querySelector(sel).getAttribute('aria-label')], selector);
    assert.equal(name[0], 'region', `${what}'s diff box is a region`);
    assert.ok(name[1], `${what}'s diff box has a name`);
    const top = () => browser.execute((sel) => document.querySelector(sel).scrollTop, selector);
    await browser.keys('ArrowDown');
    await browser.waitUntil(async () => (await top()) > 0, { timeout: 3000, timeoutMsg: `ArrowDown scrolls ${what}'s diff` });
    const afterArrow = await top();
    await browser.keys('PageDown');
    await browser.waitUntil(async () => (await top()) > afterArrow, { timeout: 3000, timeoutMsg: `PageDown scrolls ${what}'s diff further` });
  }

  await axeTest('axe: Projects', async () => {
    await go('#/projects');
    await browser.$(`[data-testid="project"][data-root="${repo}"]`).waitForExist({ timeout: 10000 });
    await check('Projects');
  });

  await axeTest('axe: the Connect dialog', async () => {
    await go('#/projects');
    const button = await browser.$(`[data-testid="project"][data-root="${repo}"] [data-testid="project-connect"]`);
    await button.waitForExist({ timeout: 10000 });
    await button.click();
    await browser.$('#connect-dialog').waitForExist({ timeout: 5000 });
    await browser.waitUntil(async () => (await browser.$('#connect-diff').isExisting()) || (await browser.$('#connect-summary').isExisting()), { timeout: 10000 });
    try {
      await check('Connect dialog');
      await browser.execute(() => document.querySelector('#connect-dialog select')?.focus());
      await keyboardScroll('#connect-diff .diff-body', 'the Connect dialog');
    } finally {
      await browser.keys('Escape');
      await browser.$('#connect-dialog').waitForExist({ timeout: 5000, reverse: true });
    }
  });

  await axeTest('axe: Timeline (changes, activity, row detail, rewind dialog)', async () => {
    const file = path.join(repo, 'a11y.txt');
    const write = { tool_name: 'Write', tool_use_id: 'toolu_a11y_1', tool_input: { file_path: file, content: 'written\n' } };
    emit('pre_tool_use', payload('PreToolUse', write));
    emit('post_tool_use', payload('PostToolUse', { ...write, tool_response: { success: true } }));
    await go(`#/timeline?repo=${repo}&session=${session}`);
    const row = await browser.$('[data-testid="timeline-row"]:not([hidden])');
    await row.waitForExist({ timeout: 10000 });
    await check('Timeline');
    await row.click();
    await browser.$('#row-detail').waitForExist({ timeout: 5000 });
    await check('Timeline row detail');
    const revert = await browser.$('#row-detail-revert-call');
    if (await revert.isDisplayed().catch(() => false)) {
      await revert.click();
      await browser.$('#rewind-dialog').waitForDisplayed({ timeout: 5000 });
      try {
        await check('Rewind dialog');
      } finally {
        await browser.keys('Escape');
      }
    }
    await go(`#/timeline?repo=${repo}&mode=activity`);
    await browser.$('#timeline-list').waitForExist({ timeout: 10000 });
    await check('Timeline activity');
  });

  await axeTest('axe: Hooks (file tab, save review, Effective, templates)', async () => {
    await go(`#/hooks?project=${repo}&tab=agent-project`);
    await browser.$('#hooks-add').waitForExist({ timeout: 10000 });
    await check('Hooks, Project file');
    await browser.$('#hooks-add-event').selectByAttribute('value', 'PreToolUse');
    await browser.$('#hooks-add-matcher').setValue('Bash');
    await browser.$('#hooks-add-command').setValue('./a11y.sh');
    await browser.$('#hooks-add-submit').click();
    await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'true', { timeout: 5000 });
    await browser.$('#hooks-review').click();
    await browser.$('[data-testid="hooks-diff"]').waitForExist({ timeout: 10000 });
    await check('Hooks, save review');
    await browser.execute(() => document.getElementById('hooks-review-panel')?.focus());
    await keyboardScroll('[data-testid="hooks-diff"] .diff-body', 'the save review');
    await browser.$('#hooks-save').click();
    await browser.waitUntil(async () => (await browser.$('#hooks-dirty').getAttribute('data-dirty')) === 'false', { timeout: 10000, timeoutMsg: 'saved' });
    await browser.waitUntil(async () => /Saved/.test(await browser.$('#hooks-status').getText()), { timeout: 5000 });
    const focused = await browser.execute(() => (document.activeElement === document.body ? 'BODY' : document.activeElement?.id ?? document.activeElement?.tagName));
    assert.equal(focused, 'hooks-tab-agent-project', 'after Save, focus is on the saved file\u2019s tab, not <body>');
    await go(`#/hooks?project=${repo}&tab=effective`);
    await browser.$('[data-testid="effective-hook"]').waitForExist({ timeout: 10000 }).catch(() => {});
    await check('Hooks, Effective');
    await go(`#/hooks?project=${repo}&tab=templates`);
    await browser.$('[data-testid="template"]').waitForExist({ timeout: 10000 });
    await check('Hooks, templates');
  });

  await axeTest('axe: the Hooks dialogs (Move to…, Copy to…, another agent\u2019s Add hook)', async () => {
    // The Project file has a saved hook (the save above): move and copy it.
    await go(`#/hooks?project=${repo}&tab=agent-project`);
    const move = await browser.$('[data-testid="handler-move"]:not([disabled])');
    await move.waitForExist({ timeout: 10000 });
    await move.click();
    await browser.$('#hooks-move-dialog').waitForDisplayed({ timeout: 5000 });
    try {
      await check('Hooks, Move to… dialog');
    } finally {
      await browser.keys('Escape');
      await browser.$('#hooks-move-dialog').waitForExist({ timeout: 5000, reverse: true });
    }
    await browser.$('[data-testid="handler-copy"]').click();
    await browser.$('#copy-dialog').waitForDisplayed({ timeout: 5000 });
    try {
      await check('Hooks, Copy to… dialog');
    } finally {
      await browser.keys('Escape');
      await browser.$('#copy-dialog').waitForExist({ timeout: 5000, reverse: true });
    }

    // Another coding agent's file (Codex CLI's user file; kept if a spec wrote one).
    const codexFile = path.join(process.env.CODEX_HOME || path.join(process.env.HOME, '.codex'), 'hooks.json');
    if (!fs.existsSync(codexFile)) {
      fs.mkdirSync(path.dirname(codexFile), { recursive: true });
      fs.writeFileSync(codexFile, `${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './a11y-stop.sh' }] }] } }, null, 2)}\n`);
    }
    await go(`#/hooks?project=${repo}&tab=agent-project`);
    const tab = await browser.$('.hooks-agent-tab[data-agent-file="codex-global"]');
    await tab.waitForExist({ timeout: 15000 });
    await tab.click();
    await browser.$('#hooks-agent-add').waitForExist({ timeout: 10000 });
    await check('Hooks, Codex CLI file');
    await browser.$('#hooks-agent-add').click();
    await browser.waitUntil(async () => (await browser.$$('#agent-hook-event option').length) > 1, { timeout: 10000, timeoutMsg: 'the agent hook form' });
    try {
      await check('Hooks, Add hook to another agent\u2019s file');
      await browser.$('#agent-hook-event').selectByAttribute('value', 'Stop');
      await browser.$('#agent-hook-command').setValue('./a11y-check.sh');
      await browser.$('#agent-hook-review').click();
      await browser.waitUntil(async () => browser.$('#agent-hook-apply').isEnabled(), { timeout: 10000, timeoutMsg: 'the change is previewed' });
      await check('Hooks, Add hook review (another agent)');
    } finally {
      await browser.keys('Escape');
      await browser.$('#agent-hook-dialog').waitForExist({ timeout: 5000, reverse: true });
    }
  });

  await axeTest('axe: Test bench', async () => {
    await go(`#/bench?project=${repo}&event=PreToolUse`);
    await browser.$('#bench-event').waitForExist({ timeout: 10000 });
    await check('Test bench');
  });

  await axeTest('axe: Health', async () => {
    await go(`#/health?project=${repo}`);
    await browser.$('#health-project').waitForExist({ timeout: 10000 });
    await check('Health');
  });

  await axeTest('axe: Settings', async () => {
    await go('#/settings');
    await browser.$('h1').waitForExist({ timeout: 10000 });
    await settle();
    await check('Settings');
  });

  await test('the sidebar wraps the socket path only after a slash, never mid-name', async () => {
    await go('#/projects');
    await browser.waitUntil(async () => (await browser.execute(() => document.getElementById('daemon-socket')?.textContent ?? '')).length > 0, { timeout: 5000 });
    const lines = await browser.execute(() => {
      const app = document.querySelector('.app');
      const before = app.style.gridTemplateColumns;
      // A narrow sidebar, so the path has to wrap somewhere.
      app.style.gridTemplateColumns = '160px minmax(0, 1fr)';
      try {
        const el = document.getElementById('daemon-socket');
        const text = el.textContent;
        const out = [];
        let line = '';
        let top = null;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < node.data.length; i++) {
            const r = document.createRange();
            r.setStart(node, i);
            r.setEnd(node, i + 1);
            const rect = r.getClientRects()[0];
            if (!rect) continue;
            if (top !== null && rect.top > top + 2) {
              out.push(line);
              line = '';
            }
            top = rect.top;
            line += node.data[i];
          }
        }
        out.push(line);
        return { text, lines: out, width: el.clientWidth, scroll: el.scrollWidth };
      } finally {
        app.style.gridTemplateColumns = before;
      }
    });
    assert.ok(lines.lines.length > 1, `the path wraps in a narrow sidebar: ${JSON.stringify(lines)}`);
    for (const l of lines.lines.slice(0, -1)) assert.ok(l.endsWith('/'), `each line but the last ends at a slash: ${JSON.stringify(lines.lines)}`);
    assert.equal(lines.lines.join(''), lines.text);
  });

  await test('dark theme: every <select> is drawn in the theme\u2019s colours, not the light native look', async () => {
    /** Colours of the visible selects, with the contrast of text on background. */
    const selects = () =>
      browser.execute(() => {
        const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
        const lum = ([r, g, b]) => {
          const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
          return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
        };
        return [...document.querySelectorAll('select')]
          .filter((s) => s.getClientRects().length > 0)
          .map((s) => {
            const cs = getComputedStyle(s);
            const bg = rgb(cs.backgroundColor);
            const fg = rgb(cs.color);
            const [hi, lo] = [lum(bg), lum(fg)].sort((a, b) => b - a);
            return { id: s.id, bg: cs.backgroundColor, fg: cs.color, alpha: bg.length > 3 ? bg[3] : 1, bgLum: lum(bg), contrast: (hi + 0.05) / (lo + 0.05) };
          });
      });
    await theme(browser, true);
    try {
      for (const hash of [`#/bench?project=${repo}&event=PreToolUse`, `#/hooks?project=${repo}&tab=agent-project`, `#/health?project=${repo}`]) {
        await go(hash);
        await browser.$('select').waitForExist({ timeout: 10000 });
        await settle();
        const found = await selects();
        assert.ok(found.length > 0, `${hash} shows a select`);
        for (const s of found) {
          assert.equal(s.alpha, 1, `#${s.id} has a background of its own: ${JSON.stringify(s)}`);
          assert.ok(s.bgLum < 0.05, `#${s.id} is dark in the dark theme: ${JSON.stringify(s)}`);
          assert.ok(s.contrast >= 4.5, `#${s.id}'s text reads on it: ${JSON.stringify(s)}`);
        }
        // As painted: the toolkit draws a native <select> itself.
        const painted = await paintedLuminance(browser, 'select');
        assert.ok(!painted.error && painted.elements.length > 0, JSON.stringify(painted));
        // The toolkit's own dark grey is not the theme's: the box must be painted as the text fields are (--panel).
        const panel = await browser.execute(() => {
          const hex = getComputedStyle(document.documentElement).getPropertyValue('--panel').trim().replace('#', '');
          const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
          const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
          return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
        });
        for (const p of painted.elements) {
          assert.ok(Math.abs(p.luminance - panel) < 0.006, `#${p.id} is painted in the theme's field colour (luminance ${panel.toFixed(4)}): ${JSON.stringify(painted.elements)}`);
        }
      }
    } finally {
      await theme(browser, false);
    }
  });
}
