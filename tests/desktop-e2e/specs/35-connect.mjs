// connect: the Projects screen's Connect button previews the exact change to
// the project's Claude Code settings, applies it, and the badge follows;
// another agent's file too, and what an administrator switched off that
// keeps the agent from running the entries is said before Apply.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, repo, env }) {
  const file = path.join(repo, '.claude', 'settings.json');
  const card = (extra = '') => browser.$(`[data-testid="project"][data-root="${repo}"]${extra ? ` ${extra}` : ''}`);

  await test('connect alpha in the Project scope: review the diff, apply, the file calls hookd-emit', async () => {
    await browser.$('#nav-projects').click();
    const button = await card('[data-testid="project-connect"]');
    await button.waitForExist({ timeout: 10000 });
    assert.equal(await (await card('[data-testid="connected-project"]')).getAttribute('data-connected'), 'false');
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    await button.click();

    const dialog = await browser.$('#connect-dialog');
    await dialog.waitForExist({ timeout: 5000 });
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    // Preselected as `hookd connect` does: the user's own file.
    assert.equal(await browser.$('#connect-scope').getValue(), 'global');
    await browser.$('#connect-scope').selectByAttribute('value', 'project');
    await browser.$('#connect-mode').selectByAttribute('value', 'record');
    const diff = await browser.$('#connect-diff');
    await browser.waitUntil(
      async () => (await diff.isExisting()) && (await browser.$('#connect-apply').isEnabled()) && /hookd-emit/.test(await browser.execute((el) => el.textContent, diff)),
      { timeout: 10000, timeoutMsg: 'the diff shows the hookd-emit entries and Apply is enabled' },
    );
    const added = await browser.execute(() => [...document.querySelectorAll('#connect-diff .diff-add')].map((l) => l.textContent));
    assert.ok(added.some((t) => /hookd-emit\S* pre_tool_use/.test(t)), `the diff adds the PreToolUse entry: ${added.join('\n')}`);
    assert.match(await browser.$('#connect-summary').getText(), /hookd entry for \d+ events/);
    assert.equal(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null, before, 'nothing written before Apply');
    // A WebDriver screenshot is the last painted frame: let two frames paint first.
    await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    await shot(browser, 'connect');

    await browser.$('#connect-apply').click();
    await dialog.waitForExist({ timeout: 5000, reverse: true });
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    const commands = Object.values(settings.hooks ?? {})
      .flat()
      .flatMap((group) => group.hooks ?? [])
      .map((handler) => handler.command ?? '');
    // A committed file names hookd-emit from PATH, never this machine's install path.
    assert.ok(commands.includes('hookd-emit pre_tool_use'), `PreToolUse calls hookd-emit from PATH: ${commands.join(' | ')}`);
    assert.ok(commands.includes('hookd-emit stop'), 'Stop calls hookd-emit');
    await browser.waitUntil(async () => (await (await card('[data-testid="connected-project"]')).getAttribute('data-connected')) === 'true', {
      timeout: 5000,
      timeoutMsg: 'the project badge says connected',
    });
    assert.equal(await (await card('[data-testid="project-connect"]')).getText(), 'Connected');
    assert.match(await browser.$('#connect-notice').getText(), /Connected: .*settings\.json was (created|updated)/);
  });

  await test('connect Codex CLI in the Project scope: its own file, its trust note, a Codex badge', async () => {
    const codexFile = path.join(repo, '.codex', 'hooks.json');
    const button = await card('[data-testid="project-connect"]');
    await button.click();
    const dialog = await browser.$('#connect-dialog');
    await dialog.waitForExist({ timeout: 5000 });
    await browser.$('#connect-agent').selectByAttribute('value', 'codex');
    const scopes = await browser.execute(() => [...document.querySelectorAll('#connect-scope option')].map((o) => o.value));
    assert.deepEqual(scopes, ['project', 'global'], 'Codex has no local file');
    await browser.$('#connect-scope').selectByAttribute('value', 'project');
    await browser.$('#connect-mode').selectByAttribute('value', 'record');
    await browser.waitUntil(
      async () => (await browser.$('#connect-apply').isEnabled()) && /--agent codex PreToolUse/.test(await browser.execute(() => document.querySelector('#connect-diff')?.textContent ?? '')),
      { timeout: 10000, timeoutMsg: 'the diff shows Codex entries and Apply is enabled' },
    );
    assert.match(await browser.execute(() => document.querySelector('#connect-diff figcaption')?.textContent ?? ''), /\.codex\/hooks\.json \(new file\)/);
    const notes = await browser.execute(() => [...document.querySelectorAll('[data-testid="connect-note"]')].map((n) => n.textContent));
    assert.ok(notes.some((n) => /only once you trust it/.test(n)), `Codex's trust note is shown: ${notes.join(' | ')}`);
    assert.ok(!fs.existsSync(codexFile), 'nothing written before Apply');
    await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    await shot(browser, 'connect-codex');

    await browser.$('#connect-apply').click();
    await dialog.waitForExist({ timeout: 5000, reverse: true });
    const hooks = JSON.parse(fs.readFileSync(codexFile, 'utf8'));
    assert.deepEqual(Object.keys(hooks), ['hooks'], 'nothing Codex would drop at the top level');
    assert.equal(hooks.hooks.PreToolUse[0].hooks[0].command, 'hookd-emit --agent codex PreToolUse');
    await browser.waitUntil(async () => (await (await card('[data-testid="connected-agent"][data-agent="codex"]')).isExisting()), {
      timeout: 5000,
      timeoutMsg: 'the project shows Codex calling hookd',
    });
    await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    await shot(browser, 'projects-codex');
  });
  await test("Codex CLI's administrator switched hooks off: the dialog says so before Apply, and no more once lifted", async () => {
    // The run's own /etc/codex (scripts/desktop-e2e's HOOKD_CODEX_SYSTEM_DIR), removed again for the later specs.
    const requirements = path.join(env('HOOKD_CODEX_SYSTEM_DIR'), 'requirements.toml');
    const userFile = path.join(env('HOME'), '.codex', 'hooks.json');
    fs.mkdirSync(path.dirname(requirements), { recursive: true });
    fs.writeFileSync(requirements, '[features]\nhooks = false\n');
    const warningsShown = () => browser.execute(() => [...document.querySelectorAll('#connect-agent-warnings [data-testid="connect-agent-warning"]')].map((w) => w.textContent));
    try {
      await (await card('[data-testid="project-connect"]')).click();
      const dialog = await browser.$('#connect-dialog');
      await dialog.waitForExist({ timeout: 5000 });
      await browser.$('#connect-agent').selectByAttribute('value', 'codex');
      await browser.$('#connect-scope').selectByAttribute('value', 'global');
      await browser.$('#connect-mode').selectByAttribute('value', 'record');
      await browser.waitUntil(async () => (await browser.$('#connect-apply').isEnabled()) && (await warningsShown()).length > 0, {
        timeout: 10000,
        timeoutMsg: 'the preview of ~/.codex/hooks.json warns and Apply is enabled',
      });
      const said = await warningsShown();
      assert.equal(said.length, 1, said.join(' | '));
      assert.ok(said[0].includes(requirements) && said[0].includes('[features] hooks = false') && said[0].includes('Codex CLI runs no hook'), said[0]);
      const block = await browser.$('#connect-agent-warnings');
      assert.equal(await block.getAttribute('role'), 'alert');
      assert.match(await block.getAttribute('class'), /\bconnect-warning\b/);
      assert.ok(await block.isDisplayed({ withinViewport: true }), 'the warning is on screen before Apply');
      assert.equal(await browser.$('#connect-apply').getAttribute('aria-describedby'), 'connect-agent-warnings');
      assert.ok(!fs.existsSync(userFile), 'nothing written before Apply');
      await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
      await shot(browser, 'connect-codex-warning');

      // The project's file, connected already: said all the same.
      await browser.$('#connect-scope').selectByAttribute('value', 'project');
      await browser.waitUntil(async () => /^Already connected/.test(await browser.$('#connect-summary').getText()), { timeout: 10000, timeoutMsg: 'the project file is connected already' });
      assert.equal((await warningsShown()).length, 1, 'also when nothing changes');

      // Lifted: the next preview says nothing.
      fs.rmSync(requirements);
      await browser.$('#connect-scope').selectByAttribute('value', 'global');
      await browser.waitUntil(async () => await browser.$('#connect-apply').isEnabled(), { timeout: 10000, timeoutMsg: 'the global preview is back' });
      assert.equal(await browser.$('#connect-agent-warnings').isExisting(), false);
      await browser.$('#connect-cancel').click();
      await dialog.waitForExist({ timeout: 5000, reverse: true });
      assert.ok(!fs.existsSync(userFile), 'Cancel writes nothing');
    } finally {
      fs.rmSync(requirements, { force: true });
    }
  });
}
