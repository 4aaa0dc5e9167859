// End-to-end tests of the real hookd-desktop app through its real webview.
// Started by scripts/desktop-e2e, which provides Xvfb, tauri-driver on
// 127.0.0.1:$HOOKD_E2E_PORT (4444 unless set) and these environment variables:
//   HOOKD_E2E_APP          the hookd-desktop binary
//   HOOKD_E2E_EMIT         the hookd-emit binary
//   HOOKD_E2E_WORK         a temp dir for repositories
//   HOOKD_E2E_SCREENSHOTS  where to save a screenshot of every screen
//   HOOKD_SOCKET           the socket the app's daemon listens on
// The tests themselves live in specs/*.mjs; each exports a default async
// function receiving the context object built below.
// Prints one "e2e: N passed, N failed" line at the end; exits 1 on failure.

import { execFileSync, spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
  // WebKitWebDriver takes a screenshot after the page's next rendering
  // update. The app renders on the CPU (src-tauri/src/render.rs), and there a
  // page where nothing changes (Projects) never has one: the request hangs
  // until it times out. So a 1-px, all but transparent square flickers while
  // the screenshot is taken; nothing a user sees depends on it.
  await browser.execute(() => {
    const tick = document.createElement('div');
    tick.id = 'e2e-repaint';
    tick.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;opacity:0.01';
    document.body.append(tick);
    let n = 0;
    window.__e2eRepaint = setInterval(() => {
      tick.style.opacity = n++ % 2 ? '0.01' : '0.02';
    }, 50);
  });
  try {
    await browser.saveScreenshot(path.join(SHOTS, `${name}.png`));
  } finally {
    await browser.execute(() => {
      clearInterval(window.__e2eRepaint);
      document.getElementById('e2e-repaint')?.remove();
    });
  }
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
  port: Number(process.env.HOOKD_E2E_PORT || 4444),
  logLevel: 'warn',
  capabilities: { 'tauri:options': { application: APP }, 'wdio:enforceWebDriverClassic': true },
});

const repo = makeRepo('alpha');

// Every spec in specs/, in file-name order (they share one app session, so
// a later spec may rely on what an earlier one added, such as the project).
const context = { browser, test, shot, emit, env, makeRepo, repo, WORK, EMIT, APP };
const specDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'specs');
const only = process.env.HOOKD_E2E_ONLY; // e.g. "hooks": run only specs whose name contains it
try {
  for (const file of fs.readdirSync(specDir).filter((f) => f.endsWith('.mjs')).sort()) {
    if (only && !file.includes(only) && !/^(10|20)-/.test(file)) continue;
    const spec = await import(pathToFileURL(path.join(specDir, file)).href);
    await spec.default(context);
  }
} finally {
  await browser.deleteSession().catch(() => {});
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
