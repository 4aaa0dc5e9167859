// settings: see run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, emit, env, repo }) {
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

    // Where the XDG autostart specification has sessions look: under
    // $XDG_CONFIG_HOME (set to a temp dir here), not ~/.config.
    const entry = path.join(env('XDG_CONFIG_HOME'), 'autostart', 'hookd.desktop');
    const legacy = path.join(env('HOME'), '.config', 'autostart', 'hookd.desktop');
    const box = await browser.$('#settings-launch-on-login');
    await browser.waitUntil(async () => await box.isEnabled(), { timeout: 5000, timeoutMsg: 'launch on login readable' });
    assert.equal(await box.isSelected(), false, 'off at first');
    await box.click();
    await browser.waitUntil(async () => fs.existsSync(entry) && (await box.isSelected()) && (await box.isEnabled()), {
      timeout: 5000,
      timeoutMsg: `${entry} created`,
    });
    assert.match(await browser.$('#settings-launch-status').getText(), /^On/);
    assert.ok(!fs.existsSync(legacy), `nothing written to ${legacy}`);
    await shot(browser, 'settings');
    await box.click();
    await browser.waitUntil(async () => !fs.existsSync(entry) && !(await box.isSelected()) && (await box.isEnabled()), {
      timeout: 5000,
      timeoutMsg: `${entry} removed`,
    });
  });
}
