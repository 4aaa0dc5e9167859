// shell: see run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, emit, env, repo }) {
  await test('the shell shows and the app runs its own daemon', async () => {
    await browser.$('#nav-projects').waitForExist({ timeout: 15000 });
    const footer = await browser.$('body').getText();
    assert.match(footer, /own|daemon/i, 'daemon mode shown');
    assert.ok(fs.existsSync(process.env.HOOKD_SOCKET), 'the app listens on HOOKD_SOCKET');
  });
}
