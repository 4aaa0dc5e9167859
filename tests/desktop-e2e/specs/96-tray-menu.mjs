// tray menu: every item of the tray's menu, picked through a real
// StatusNotifier host's path (scripts/desktop-e2e runs a watcher and a tray
// in the app's D-Bus session; ../tray-bus.mjs reads the item and clicks over
// com.canonical.dbusmenu, or with the mouse in the visible tray's menu, for
// Resume), each checked by its effect: the window, the
// ledger, the daemon's counters, the autostart entry on disk, the icon.
// Quit is 99-tray-quit.mjs (it ends the app). See run.mjs for the context
// every spec receives.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TrayItem, appPid, clickUntil, hostClick, processes, trayShot, until } from '../tray-bus.mjs';

const CLOSE_WINDOW = fileURLToPath(new URL('../close-window.py', import.meta.url));
const STATUS_FILE = process.env.HOOKD_SOCKET.replace(/\.sock$/, '.status.json');

const webProcesses = (app) => processes().filter((p) => p.ppid === app && p.name.startsWith('WebKitWeb'));

/** The daemon's status file (rewritten every second). */
const status = () => JSON.parse(fs.readFileSync(STATUS_FILE, 'utf8'));

/** The daemon's counters, from a status file written after this call. */
async function stats() {
  const seen = status().updated_at;
  await until(() => status().updated_at !== seen, 'the status file to be rewritten', 5000);
  await until(() => status().updated_at !== seen, 'the status file to be rewritten', 5000);
  return status().stats;
}

/** The repository's recorded mutations, as `hookd query` prints them. */
export function recorded(hookd, repo) {
  const out = spawnSync(hookd, ['query', '--repo', repo, '--format', 'json'], { encoding: 'utf8', timeout: 20000 });
  assert.equal(out.status, 0, `hookd query failed: ${out.stderr}`);
  return JSON.parse(out.stdout).map((row) => row.file_path);
}

/** A PostToolUse Write of `file` in `repo` (spec 99 sends them too). */
export const write = (repo, file, session = 'e2e-tray-menu') => ({
  session_id: session,
  transcript_path: '/dev/null',
  cwd: repo,
  hook_event_name: 'PostToolUse',
  tool_name: 'Write',
  tool_input: { file_path: path.join(repo, file), content: `${file}\n` },
  tool_response: { filePath: path.join(repo, file), success: true },
});

export default async function ({ browser, test, emit, makeRepo, env, EMIT, APP }) {
  const hookd = path.join(path.dirname(EMIT), 'hookd');
  const run = (args, what) => {
    const out = spawnSync(hookd, args, { encoding: 'utf8', timeout: 20000, input: '' });
    assert.equal(out.status, 0, `${what}: ${out.stderr}`);
    return out;
  };
  let tray;
  let app;
  let paused = false;
  const statusLine = () => tray.items()[0].label;
  const hash = async () => decodeURIComponent(await browser.execute(() => window.location.hash));
  // A project of its own: connected (locally) and with a managed guard that
  // blocks every Bash command, so a hook's answer is visible.
  const project = makeRepo('tray-menu');
  const guardSays = 'blocked by the e2e tray guard';

  await test('the tray is registered with the session StatusNotifier watcher and host, records, and has every item', async () => {
    app = appPid();
    tray = await TrayItem.of(app);
    assert.equal(tray.hostRegistered(), true, 'a StatusNotifier host (the visible tray) is registered');
    await until(() => tray.look() === 'recording', 'the recording icon');
    assert.equal(statusLine(), 'Recording');
    const labels = tray.items().filter((i) => i.type !== 'separator').map((i) => i.label);
    for (const label of ['Open window', 'Pause recording', 'Recent changes', 'Connected projects', 'Launch on login', 'Quit hookd']) {
      assert.ok(labels.includes(label), `the menu has ${label}: ${JSON.stringify(labels)}`);
    }
    const login = tray.find('Launch on login');
    assert.equal(login.toggleType, 'checkmark');
    assert.equal(login.toggleState, 0, 'off at first');
  });

  await test('Open window from the tray builds the window anew after it was closed', async () => {
    const close = spawnSync(CLOSE_WINDOW, [String(app)], { timeout: 10000 });
    assert.equal(close.status, 0, `close-window failed: ${close.stderr}`);
    await until(() => webProcesses(app).length === 0, 'the web process to end after the window closed');
    assert.equal(appPid(), app, 'the app runs on in the tray');
    await tray.click('Open window');
    await until(() => webProcesses(app).length >= 1, 'a web process for the window the tray opened');
    const handles = await until(async () => {
      const h = await browser.getWindowHandles();
      return h.length === 1 && h;
    }, 'WebDriver to see the new window');
    await browser.switchToWindow(handles[0]);
    await (await browser.$('#nav-projects')).waitForExist({ timeout: 10000 });
    assert.equal(appPid(), app, 'the same app; no second one');
  });

  await test('Pause recording: events are counted, not stored, hooks still answer, the icon turns paused; Resume stores again', async () => {
    run(['hooks', 'add', '--project', project, '--event', 'PreToolUse', '--matcher', 'Bash',
      '--command', `echo '${guardSays}' >&2; exit 2`], 'adding the managed guard');
    run(['trust', '--project', project], 'approving the managed guard');
    run(['connect', '--scope', 'local', '--project', project], 'connecting the project');
    emit('PostToolUse', write(project, 'before-pause.txt'));
    await until(() => recorded(hookd, project).includes('before-pause.txt'), 'the first change stored');
    const guard = () => spawnSync(EMIT, ['--wait', 'PreToolUse'], {
      input: JSON.stringify({
        session_id: 'e2e-tray-menu', transcript_path: '/dev/null', cwd: project, hook_event_name: 'PreToolUse',
        tool_name: 'Bash', tool_input: { command: 'rm -rf build' },
      }),
      encoding: 'utf8',
      timeout: 20000,
    });
    const answered = guard();
    assert.equal(answered.status, 2, `the guard blocks while recording: ${answered.stderr}`);
    const before = await stats();

    paused = true;
    await clickUntil(tray, 'Pause recording', () => tray.find('Resume recording'), 'the menu to offer Resume recording');
    assert.equal(statusLine(), 'Recording paused (hooks still answer)');
    await until(() => tray.look() === 'paused', 'the paused icon');
    await trayShot(tray, 'tray-paused');

    emit('PostToolUse', write(project, 'while-paused.txt'));
    const blocked = guard();
    assert.equal(blocked.status, 2, `the guard still answers while paused: ${blocked.stderr}`);
    assert.match(blocked.stderr, new RegExp(guardSays));
    const during = await stats();
    assert.equal(during.events_unrecorded, before.events_unrecorded + 2, 'both paused events are counted as unrecorded');
    assert.equal(during.events_stored, before.events_stored, 'nothing stored while paused');
    assert.ok(!recorded(hookd, project).includes('while-paused.txt'), 'the paused change is not in the ledger');

    // This one with the mouse in the visible tray's menu, the way a user picks it.
    await hostClick(tray, 'Resume recording');
    paused = false;
    await until(() => tray.find('Pause recording'), 'the menu to offer Pause recording again');
    await until(() => tray.look() === 'recording', 'the recording icon again');
    assert.equal(statusLine(), 'Recording');
    emit('PostToolUse', write(project, 'after-resume.txt'));
    await until(() => recorded(hookd, project).includes('after-resume.txt'), 'the change after Resume stored');
    assert.deepEqual(recorded(hookd, project), ['before-pause.txt', 'after-resume.txt']);
  });

  // A failure above must not leave the rest of the run paused.
  if (paused && tray.find('Resume recording')) await tray.click('Resume recording');

  await test('a recent change in the tray opens its file on the timeline', async () => {
    const item = await tray.waitFor(/after-resume\.txt/, 'the change after Resume among the recent changes');
    assert.match(item.label, /Write after-resume\.txt\s+\(tray-menu\)/);
    assert.ok(!tray.find(/while-paused\.txt/), 'the paused change is not listed');
    await trayShot(tray, 'tray-menu', { submenu: 'Recent changes' });
    await (await browser.$('#nav-settings')).click();
    await tray.click(item.label);
    await until(async () => (await hash()).startsWith('#/timeline'), 'the window to show the timeline');
    const route = await hash();
    assert.ok(route.includes(`repo=${project}`) && route.includes('file=after-resume.txt'), route);
    const row = await browser.$('[data-testid="timeline-row"]');
    await row.waitForExist({ timeout: 10000 });
    const rows = await browser.execute(() => [...document.querySelectorAll('[data-testid="timeline-row"]')].map((r) => r.textContent));
    assert.ok(rows.length >= 1 && rows.every((r) => r.includes('after-resume.txt')), `only that file's changes: ${JSON.stringify(rows)}`);
  });

  await test('a connected project in the tray opens its timeline', async () => {
    await (await browser.$('#nav-settings')).click();
    await tray.waitFor('tray-menu', 'the connected project in the menu');
    const parent = tray.items().find((i) => i.children.some((c) => c.label === 'tray-menu'));
    assert.equal(parent.label, 'Connected projects');
    await tray.click('tray-menu');
    await until(async () => (await hash()) === `#/timeline?repo=${project}`, 'the project timeline');
    await (await browser.$('[data-testid="timeline-row"]')).waitForExist({ timeout: 10000 });
  });

  await test('Launch on login from the tray writes the autostart entry under XDG_CONFIG_HOME; Settings agrees; again removes it', async () => {
    const entry = path.join(env('XDG_CONFIG_HOME'), 'autostart', 'hookd.desktop');
    const legacy = path.join(env('HOME'), '.config', 'autostart', 'hookd.desktop');
    assert.ok(!fs.existsSync(entry));
    await tray.click('Launch on login');
    await until(() => fs.existsSync(entry), `${entry} written`);
    assert.ok(!fs.existsSync(legacy), 'nothing under ~/.config: XDG_CONFIG_HOME points elsewhere');
    const text = fs.readFileSync(entry, 'utf8');
    assert.match(text, /^\[Desktop Entry\]\n/);
    assert.ok(text.includes(`\nExec=${APP} --hidden\n`), text);
    await until(() => tray.find('Launch on login').toggleState === 1, 'the check mark');
    await (await browser.$('#nav-projects')).click();
    await (await browser.$('#nav-settings')).click();
    const box = await browser.$('#settings-launch-on-login');
    await browser.waitUntil(async () => (await box.isEnabled()) && (await box.isSelected()), {
      timeout: 5000,
      timeoutMsg: 'the Settings screen shows launch on login on',
    });

    await tray.click('Launch on login');
    await until(() => !fs.existsSync(entry), `${entry} removed`);
    await until(() => tray.find('Launch on login').toggleState === 0, 'no check mark');
  });
}
