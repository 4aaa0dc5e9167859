// tray: closing the window leaves the app recording in the tray and ends
// the window's WebKit web process; a second launch builds a new window on
// the screen the closed one showed, with the Hook editor's unsaved edits.
// It closes the session's window, so it runs after the other screens (the
// tray menu specs 96 and 99 follow). See run.mjs for the
// context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { appPid, environOf, processes, until } from '../tray-bus.mjs';

const CLOSE_WINDOW = fileURLToPath(new URL('../close-window.py', import.meta.url));

/** Opens the Hook editor's Claude Code · Project tab of `repo` from the Projects screen. */
async function openProjectTab(browser, repo) {
  await (await browser.$('#nav-projects')).click();
  const link = await browser.$(`[data-testid="project"][data-root="${repo}"] [data-testid="project-hooks"]`);
  await link.waitForExist({ timeout: 10000 });
  await link.click();
  const tab = await browser.$('#hooks-tab-agent-project');
  await tab.waitForExist({ timeout: 10000 });
  await tab.click();
  await (await browser.$('#hooks-add-command')).waitForExist({ timeout: 10000 });
}

const webProcesses = (app) => processes().filter((p) => p.ppid === app && p.name.startsWith('WebKitWeb'));

export default async function ({ browser, test, emit, repo, APP }) {
  await test('closing the window keeps the app recording in the tray; a second launch opens a new window where it was, unsaved hook edits kept', async () => {
    const app = appPid();
    // An unsaved edit in the Hook editor: a new hook, not saved.
    const settingsFile = path.join(repo, '.claude', 'settings.json');
    const onDisk = () => (fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : null);
    await openProjectTab(browser, repo);
    await (await browser.$('#hooks-add-matcher')).setValue('Write');
    await (await browser.$('#hooks-add-command')).setValue('./e2e-unsaved.sh');
    await (await browser.$('#hooks-add-submit')).click();
    await (await browser.$('#hooks-tab-agent-project[data-dirty="true"]')).waitForExist({ timeout: 10000 });
    const before = onDisk();

    await (await browser.$('#nav-settings')).click();
    await (await browser.$('#settings-daemon-mode')).waitForExist({ timeout: 10000 });
    assert.ok(webProcesses(app).length >= 1, 'the open window has a WebKit web process');

    // As a window manager does when the user clicks the close button. (Closing
    // it through WebDriver would end the session, and with it the app.)
    const close = spawnSync(CLOSE_WINDOW, [String(app)], { timeout: 10000 });
    assert.equal(close.status, 0, `close-window failed: ${close.stderr}`);
    await until(() => webProcesses(app).length === 0, 'the web process to end after the window closed');
    assert.ok(fs.existsSync(`/proc/${app}`), 'the app still runs (in the tray)');
    assert.equal(appPid(), app);

    // The daemon still records: an event goes through hookd-emit into the ledger.
    emit('PostToolUse', {
      session_id: 'e2e-tray',
      transcript_path: '/dev/null',
      cwd: repo,
      hook_event_name: 'PostToolUse',
      tool_name: 'Write',
      tool_input: { file_path: `${repo}/tray.txt`, content: 'written while the window was closed\n' },
      tool_response: { filePath: `${repo}/tray.txt`, success: true },
    });

    // A second launch, as the tray's "Open window" does, builds a new window
    // on the screen the closed one showed.
    const bus = environOf(app).get('DBUS_SESSION_BUS_ADDRESS');
    const second = spawnSync(APP, [], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus },
      timeout: 20000,
    });
    assert.equal(second.status, 0, `the second launch failed: ${second.stderr}`);
    await until(() => webProcesses(app).length >= 1, 'a web process for the new window');
    assert.equal(appPid(), app, 'the same app opened the window; no second app started');
    let handles = [];
    await until(async () => (handles = await browser.getWindowHandles()).length === 1, 'WebDriver to see the new window');
    await browser.switchToWindow(handles[0]);
    await (await browser.$('#settings-daemon-mode')).waitForExist({ timeout: 10000 });
    assert.match(await browser.execute(() => window.location.hash), /^#\/settings/);

    // The new window has the edit, still unsaved, and the file is as it was.
    await openProjectTab(browser, repo);
    await (await browser.$('#hooks-tab-agent-project[data-dirty="true"]')).waitForExist({
      timeout: 10000,
      timeoutMsg: 'the unsaved edit came back with the new window',
    });
    const values = await browser.execute(() => [...document.querySelectorAll('input')].map((i) => i.value));
    assert.ok(values.includes('./e2e-unsaved.sh'), `the unsaved hook is in the editor: ${JSON.stringify(values)}`);
    assert.equal(onDisk(), before, 'nothing was written');
  });
}
