// The Effective tab says, for the other coding agents too, which hooks run:
// a project's Codex CLI file whose entries nobody trusted in Codex's /hooks
// (hookd's own recording entry included) runs nothing, and says why; a
// Cursor project hook runs if Cursor trusts the workspace, said as such.
// In a repository of its own. See run.mjs for the context every spec
// receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, makeRepo }) {
  const repo = makeRepo('agent-runs');
  const codexFile = path.join(repo, '.codex', 'hooks.json');
  const cursorFile = path.join(repo, '.cursor', 'hooks.json');

  await test('the Effective tab says which of the other agents\u2019 hooks run, and why not', async () => {
    fs.mkdirSync(path.dirname(codexFile), { recursive: true });
    fs.writeFileSync(
      codexFile,
      `${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'hookd-emit --agent codex Stop', timeout: 10 }] }] } }, null, 2)}\n`,
    );
    fs.mkdirSync(path.dirname(cursorFile), { recursive: true });
    fs.writeFileSync(cursorFile, `${JSON.stringify({ version: 1, hooks: { stop: [{ command: './notify.sh' }] } }, null, 2)}\n`);

    await browser.execute((hash) => { window.location.hash = hash; }, `#/hooks?project=${repo}&tab=effective`);
    const table = await browser.$('#hooks-effective-agents');
    await table.waitForExist({ timeout: 15000, timeoutMsg: 'the Effective tab lists the other agents\u2019 hooks' });
    const rows = await browser.execute(() =>
      // This project's files only: the user's own (another spec's) are listed too.
      [...document.querySelectorAll('#hooks-effective-agents tbody tr[data-testid="effective-agent-hook"][data-scope="project"]')].map((r) => ({
        agent: r.dataset.agent,
        runs: r.dataset.runs,
        provided: r.dataset.provided,
        why: r.nextElementSibling?.dataset.testid === 'effective-agent-why' ? r.nextElementSibling.textContent : null,
      })),
    );
    const codex = rows.filter((r) => r.agent === 'codex');
    assert.equal(codex.length, 1, JSON.stringify(rows));
    assert.equal(codex[0].runs, 'false');
    assert.match(codex[0].why, /^Does not run: .*only in a trusted project.*only once you trust it: open \/hooks in Codex/);
    const cursor = rows.filter((r) => r.agent === 'cursor');
    assert.equal(cursor[0].runs, 'true');
    assert.equal(cursor[0].provided, 'true');
    assert.equal(cursor[0].why, 'Runs only if: Cursor trusts this workspace (it runs a project\u2019s hooks only then)'.replace('\u2019', "'"));
    // The summary counts every row listed (the user's files too).
    const listed = await browser.execute(() => document.querySelectorAll('#hooks-effective-agents tbody tr[data-testid="effective-agent-hook"]').length);
    assert.match(await browser.$('#hooks-effective-agents-summary').getText(), new RegExp(`^${listed} hooks in their files: `));
    await browser.execute(() => document.querySelector('#hooks-effective-agents-title')?.scrollIntoView({ block: 'start' }));
    await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    await shot(browser, 'hooks-effective-agents');
  });
}
