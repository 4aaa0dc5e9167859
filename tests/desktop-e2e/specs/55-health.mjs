// health: a project whose Claude Code hook runs a Python script that is not
// there (CPython exits 2, which the agent reads as a block) shows that as a
// serious finding with its hook in the Health view, from the nav link's
// route; the managed hooks' evidence table is there.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, makeRepo }) {
  const dir = makeRepo('health-missing-script');
  const local = path.join(dir, '.claude', 'settings.local.json');
  const script = path.join(dir, '.claude', 'hooks', 'gone.py');

  await test('health: a missing hook script is a serious finding with its hook and message', async () => {
    fs.mkdirSync(path.dirname(local), { recursive: true });
    const settings = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `python3 ${script}` }] }] } };
    fs.writeFileSync(local, `${JSON.stringify(settings, null, 2)}\n`);
    await browser.execute((h) => { window.location.hash = h; }, `#/health?project=${dir}`);
    assert.equal(await browser.$('#nav-health').getAttribute('aria-current'), 'page');
    const finding = await browser.$('[data-testid="health-group"][data-severity="serious"] [data-testid="health-finding"][data-code="missing_script"]');
    await finding.waitForExist({ timeout: 20000, timeoutMsg: 'the missing script is a serious finding' });
    assert.match(await finding.$('[data-testid="health-hook"]').getText(), /^PreToolUse \[Bash\]: python3 .*gone\.py$/);
    assert.match(await finding.$('[data-testid="health-message"]').getText(), /gone\.py/);
    assert.ok(await browser.$('#health-evidence, #health-evidence-empty').isExisting(), 'the evidence section is shown');
    await shot(browser, 'health');
  });
}
