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
import { createRequire } from 'node:module';
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
  await withRepaint(browser, () => browser.saveScreenshot(path.join(SHOTS, `${name}.png`)));
}

/**
 * The window as painted now, with the median relative luminance (0 black, 1
 * white) of each element `selector` matches (its background's): what a user sees, where the
 * computed style may not say it (a native widget painted by the toolkit).
 */
async function paintedLuminance(browser, selector) {
  const png = await withRepaint(browser, () => browser.takeScreenshot());
  return browser.executeAsync(
    (data, sel, done) => {
      const img = new Image();
      img.onerror = () => done({ error: 'the screenshot did not load' });
      img.onload = () => {
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const g = canvas.getContext('2d');
        g.drawImage(img, 0, 0);
        const scale = img.width / window.innerWidth;
        const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        const out = [...document.querySelectorAll(sel)]
          .filter((el) => {
            // Only what the screenshot shows: the window's viewport.
            const r = el.getBoundingClientRect();
            return r.width > 8 && r.height > 8 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
          })
          .map((el) => {
            const r = el.getBoundingClientRect();
            // The inside, off the border and the rounded corners.
            const x = Math.round((r.left + 4) * scale);
            const y = Math.round((r.top + 4) * scale);
            const w = Math.max(1, Math.round((r.width - 8) * scale));
            const h = Math.max(1, Math.round((r.height - 8) * scale));
            const px = g.getImageData(x, y, w, h).data;
            const lum = [];
            for (let i = 0; i < px.length; i += 4) lum.push(0.2126 * lin(px[i]) + 0.7152 * lin(px[i + 1]) + 0.0722 * lin(px[i + 2]));
            lum.sort((p, q) => p - q);
            // The median is the background's: text and arrows are fewer pixels.
            return { id: el.id, luminance: lum[lum.length >> 1] };
          });
        done({ elements: out });
      };
      img.src = `data:image/png;base64,${data}`;
    },
    png,
    selector,
  );
}

/** Runs `take` (a screenshot) while the page repaints, and returns what it returns. */
async function withRepaint(browser, take) {
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
    return await take();
  } finally {
    await browser.execute(() => {
      clearInterval(window.__e2eRepaint);
      document.getElementById('e2e-repaint')?.remove();
    });
  }
}

// axe-core (the npm package), run inside the app's real webview. The source is
// given to WebDriver's execute, which the page's CSP (script-src 'self') does
// not govern, so the app's CSP stays as it ships.
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Impact counts of every axe run, for the summary line at the end. */
const axeTotals = { critical: 0, serious: 0, moderate: 0, minor: 0 };

/**
 * Runs axe-core's WCAG 2.1 A/AA rules on the page as it is now (a screen, or
 * a screen with a dialog open) and throws, listing rule, impact, targets and
 * summary, when any violation is serious or critical. Prints the counts.
 */
async function axe(browser, screen) {
  await browser.setTimeout({ script: 120000 });
  await browser.execute(`if (!window.axe) { ${AXE_SOURCE}\n } return typeof window.axe;`);
  const result = await browser.executeAsync((tags, done) => {
    window.axe
      .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
      .then((r) =>
        done({
          violations: r.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target.join(' '), impact: n.impact, summary: n.failureSummary })),
          })),
        }),
      )
      .catch((err) => done({ error: String(err && err.stack ? err.stack : err) }));
  }, AXE_TAGS);
  if (result.error) throw new Error(`axe failed on ${screen}: ${result.error}`);
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of result.violations) for (const n of v.nodes) counts[n.impact ?? v.impact] = (counts[n.impact ?? v.impact] ?? 0) + 1;
  for (const k of Object.keys(counts)) axeTotals[k] = (axeTotals[k] ?? 0) + counts[k];
  console.log(`axe ${screen}: ${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ')}`);
  const lines = [];
  for (const v of result.violations) {
    for (const n of v.nodes) {
      const impact = n.impact ?? v.impact;
      const line = `  ${v.id} (${impact}) ${n.target}: ${v.help}; ${String(n.summary ?? '').replace(/\s+/g, ' ')}`;
      if (impact === 'serious' || impact === 'critical') lines.push(line);
      else console.log(line);
    }
  }
  if (lines.length) throw new Error(`axe: ${lines.length} serious or critical violation(s) on ${screen}:\n${lines.join('\n')}`);
}

/**
 * Shows the app in its dark (true) or light (false) theme. The theme follows
 * the OS's prefers-color-scheme, which a WebDriver session cannot switch, so
 * this copies the rules of every `@media (prefers-color-scheme: dark)` block
 * into one unconditional block at the end of the app's stylesheet (CSSOM, so
 * the CSP allows it), with color-scheme: dark, as the OS setting would.
 */
async function theme(browser, dark) {
  const switched = await browser.execute((on) => {
    const owner = [...document.styleSheets].find((s) => s.ownerNode && s.ownerNode.tagName === 'LINK') ?? document.styleSheets[0];
    const old = [...owner.cssRules].findIndex((r) => r.cssText.includes('--e2e-dark-theme'));
    if (old >= 0) owner.deleteRule(old);
    if (!on) return window.matchMedia('(prefers-color-scheme: dark)').matches;
    const rules = [':root { --e2e-dark-theme: 1; color-scheme: dark; }'];
    for (const sheet of document.styleSheets) {
      for (const rule of sheet.cssRules) {
        if (rule instanceof CSSMediaRule && /prefers-color-scheme:\s*dark/.test(rule.media.mediaText)) {
          for (const inner of rule.cssRules) rules.push(inner.cssText);
        }
      }
    }
    owner.insertRule(`@media all { ${rules.join('\n')} }`, owner.cssRules.length);
    return true;
  }, dark);
  // Colours change through CSS transitions (the drop zone's 120 ms one): axe
  // must see where they end, not a colour half way between the two themes
  // (endless animations, a spinner, are not waited for).
  await browser.executeAsync((done) => {
    requestAnimationFrame(() =>
      requestAnimationFrame(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getTiming().iterations !== Infinity)
            .map((a) => a.finished.catch(() => null)),
        ).then(() => done(true)),
      ),
    );
  });
  return switched;
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
const context = { browser, test, shot, axe, theme, paintedLuminance, emit, env, makeRepo, repo, WORK, EMIT, APP };
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
if (Object.values(axeTotals).some((n) => n > 0)) {
  console.log(`axe, all screens: ${Object.entries(axeTotals).map(([k, n]) => `${n} ${k}`).join(', ')}`);
}
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
