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

  await test('the content security policy is enforced: no eval, no inline styles', async () => {
    const probe = await browser.execute(() => {
      let evalResult;
      try {
        evalResult = (0, eval)('1 + 1') === 2 ? 'allowed' : 'odd';
      } catch {
        evalResult = 'blocked';
      }
      const div = document.createElement('div');
      div.setAttribute('style', 'color: rgb(1, 2, 3)');
      document.body.appendChild(div);
      const color = getComputedStyle(div).color;
      div.remove();
      return { evalResult, inlineStyleApplied: color === 'rgb(1, 2, 3)' };
    });
    assert.equal(probe.evalResult, 'blocked', 'eval is refused by script-src');
    assert.equal(probe.inlineStyleApplied, false, 'style attributes are refused by style-src');
  });
}
