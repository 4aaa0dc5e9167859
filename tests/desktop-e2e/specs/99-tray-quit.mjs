// tray quit: the tray menu's Quit, picked through the session's
// StatusNotifier host path (../tray-bus.mjs), ends the app the way a user
// ends it: the daemon drains, every event hookd-emit delivered just before
// is in the ledger, and the socket and status file are gone. It ends the
// app, so it runs last of all. See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { TrayItem, appPid, appPids, until } from '../tray-bus.mjs';
import { recorded, write } from './96-tray-menu.mjs';

export default async function ({ test, emit, makeRepo, EMIT }) {
  await test('Quit from the tray: the daemon drains, nothing delivered is lost, the socket is removed', async () => {
    const hookd = path.join(path.dirname(EMIT), 'hookd');
    const app = appPid();
    const tray = await TrayItem.of(app);
    const repo = makeRepo('tray-quit');
    const files = Array.from({ length: 25 }, (_, i) => `quit-${String(i).padStart(2, '0')}.txt`);
    for (const file of files) {
      emit('PostToolUse', write(repo, file, 'e2e-tray-quit'));
    }
    await tray.click('Quit hookd');
    await until(() => !fs.existsSync(`/proc/${app}`), 'the app to end', 20000);
    assert.deepEqual(appPids(), [], 'no hookd-desktop left on the socket');
    const socket = process.env.HOOKD_SOCKET;
    assert.ok(!fs.existsSync(socket), 'the socket is removed');
    assert.ok(!fs.existsSync(socket.replace(/\.sock$/, '.status.json')), 'the status file is removed');
    assert.deepEqual(recorded(hookd, repo), files, 'every event delivered before Quit is in the ledger');
  });
}
