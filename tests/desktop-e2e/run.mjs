// End-to-end tests of the real hookd-desktop app through its real webview.
// Started by scripts/desktop-e2e, which provides Xvfb, tauri-driver on
// 127.0.0.1:4444 and these environment variables:
//   HOOKD_E2E_APP          the hookd-desktop binary
//   HOOKD_E2E_EMIT         the hookd-emit binary
//   HOOKD_E2E_WORK         a temp dir for repositories
//   HOOKD_E2E_SCREENSHOTS  where to save a screenshot of every screen
//   HOOKD_SOCKET           the socket the app's daemon listens on
// Prints one "e2e: N passed, N failed" line at the end; exits 1 on failure.

import { execFileSync, spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { remote } from 'webdriverio';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through scripts/desktop-e2e`);
  return value;
};
const APP = env('HOOKD_E2E_APP');
const EMIT = env('HOOKD_E2E_EMIT');
const WORK = env('HOOKD_E2E_WORK');
const SHOTS = env('HOOKD_E2E_SCREENSHOTS');

/** A real git repository with one commit. */
function makeRepo(name) {
  const dir = path.join(WORK, name);
  fs.mkdirSync(dir, { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '--quiet', '--initial-branch=main');
  fs.writeFileSync(path.join(dir, 'README.md'), 'hello\n');
  git('add', 'README.md');
  git('-c', 'user.name=e2e', '-c', 'user.email=e2e@hookd.invalid', 'commit', '--quiet', '-m', 'init');
  return fs.realpathSync(dir);
}

/** Sends one hook event through the real hookd-emit, as Claude Code would. */
function emit(eventType, payload) {
  const out = spawnSync(EMIT, [eventType], { input: JSON.stringify(payload), env: { ...process.env, HOOKD_DEBUG: '1' } });
  assert.equal(out.status, 0, `hookd-emit failed: ${out.stderr}`);
  assert.match(String(out.stderr), /delivered/, `hookd-emit did not deliver: ${out.stderr}`);
}

async function shot(browser, name) {
  await browser.pause(500); // a WebDriver screenshot shows the last painted frame
  await browser.saveScreenshot(path.join(SHOTS, `${name}.png`));
}

const results = [];
async function test(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push({ name, ok: true });
    console.log(`PASS ${name} (${Date.now() - started} ms)`);
  } catch (err) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${err && err.stack ? err.stack : err}`);
  }
}

const browser = await remote({
  hostname: '127.0.0.1',
  port: 4444,
  logLevel: 'warn',
  capabilities: { 'tauri:options': { application: APP }, 'wdio:enforceWebDriverClassic': true },
});

const repo = makeRepo('alpha');

try {
  await test('the shell shows and the app runs its own daemon', async () => {
    await browser.$('#nav-projects').waitForExist({ timeout: 15000 });
    const footer = await browser.$('body').getText();
    assert.match(footer, /own|daemon/i, 'daemon mode shown');
    assert.ok(fs.existsSync(process.env.HOOKD_SOCKET), 'the app listens on HOOKD_SOCKET');
  });

  await test('adding a project folder lists it', async () => {
    await browser.$('#nav-projects').click();
    const input = await browser.$('#add-folder-path');
    await input.setValue(repo);
    await browser.$('#add-folder-submit').click();
    const item = await browser.$(`[data-testid="project"][data-root="${repo}"]`);
    await item.waitForExist({ timeout: 10000 });
    assert.match(await item.getText(), /alpha/);
    await shot(browser, 'projects');
  });

  await test('an Edit piped through hookd-emit appears live in the timeline with its diff', async () => {
    await browser.$(`[data-testid="project"][data-root="${repo}"]`).click();
    await browser.$('#timeline-list').waitForExist({ timeout: 10000 });
    emit('post_tool_use', {
      session_id: 'e2e-session',
      cwd: repo,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_use_id: 'toolu_e2e_1',
      tool_input: { file_path: path.join(repo, 'README.md'), old_string: 'hello', new_string: 'hello, hookd' },
      tool_response: { success: true },
    });
    const row = await browser.$('[data-testid="timeline-row"]');
    await row.waitForExist({ timeout: 10000 });
    // textContent, not the rendered text: narrow columns may clip what is painted.
    const rowText = await browser.execute((el) => el.textContent, row);
    assert.match(rowText, /README\.md/);
    assert.equal(await row.getAttribute('data-tool'), 'Edit');
    await row.click();
    const detail = await browser.$('#row-detail');
    await detail.waitForExist({ timeout: 5000 });
    const text = await browser.execute((el) => el.textContent, detail);
    assert.match(text, /hello, hookd/, 'the new text is shown');
    await shot(browser, 'timeline');
  });

  await test('settings shows the own daemon with its counters and toggles launch on login', async () => {
    await browser.$('#nav-settings').click();
    const mode = await browser.$('#settings-daemon-mode');
    await mode.waitForExist({ timeout: 10000 });
    await browser.waitUntil(async () => /\bown\b/.test(await mode.getText()), { timeout: 5000, timeoutMsg: 'daemon mode says own' });
    assert.equal(await mode.getAttribute('data-mode'), 'own');
    // The status file is rewritten every second and the screen re-reads it every 2 s.
    const counters = await browser.$('#settings-counters');
    await browser.waitUntil(async () => Number(await counters.getAttribute('data-stored')) >= 1, {
      timeout: 5000,
      timeoutMsg: 'at least one stored event in the counters',
    });
    assert.match(await browser.execute((el) => el.textContent, counters), /stored\s*[1-9]/);
    assert.equal(await browser.$('#settings-socket').getText(), process.env.HOOKD_SOCKET);
    assert.match(await browser.$('#settings-broker').getText(), /not publishing \(local mode\)/);

    const entry = path.join(env('HOME'), '.config', 'autostart', 'hookd.desktop');
    const box = await browser.$('#settings-launch-on-login');
    await browser.waitUntil(async () => await box.isEnabled(), { timeout: 5000, timeoutMsg: 'launch on login readable' });
    assert.equal(await box.isSelected(), false, 'off at first');
    await box.click();
    await browser.waitUntil(async () => fs.existsSync(entry) && (await box.isSelected()) && (await box.isEnabled()), {
      timeout: 5000,
      timeoutMsg: `${entry} created`,
    });
    assert.match(await browser.$('#settings-launch-status').getText(), /^On/);
    await shot(browser, 'settings');
    await box.click();
    await browser.waitUntil(async () => !fs.existsSync(entry) && !(await box.isSelected()) && (await box.isEnabled()), {
      timeout: 5000,
      timeoutMsg: `${entry} removed`,
    });
  });
} finally {
  await browser.deleteSession().catch(() => {});
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
