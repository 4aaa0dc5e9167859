// templates: the Hook editor's Templates tab installs the shell guard into
// the project's Claude Code settings with one click (script copied, one
// handler added, every other key intact), the installed script really
// denies a dangerous command, and Uninstall puts the file back; a settings
// file that stops parsing is named above the catalogue, never rewritten.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, repo }) {
  const file = path.join(repo, '.claude', 'settings.json');

  await test('templates: install the shell guard with one click, see it deny, uninstall it', async () => {
    // Open the editor on the project (the hooks spec left it there, but do not rely on it).
    await browser.$('#nav-projects').click();
    const link = await browser.$(`[data-testid="project"][data-root="${repo}"] [data-testid="project-hooks"]`);
    await link.waitForExist({ timeout: 10000 });
    await link.click();
    await browser.$('#hooks-tab-templates').waitForExist({ timeout: 10000 });
    await browser.$('#hooks-tab-templates').click();
    const card = await browser.$('[data-testid="template"][data-name="block-dangerous-shell"]');
    await card.waitForExist({ timeout: 10000 });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file)) fs.writeFileSync(file, '{\n  "model": "opus"\n}\n');
    const before = fs.readFileSync(file, 'utf8');
    const beforeJson = JSON.parse(before);

    assert.equal(await card.$('[data-testid="template-target"]').getValue(), 'agent-project');
    await card.$('[data-testid="template-install"]').click();
    const placed = await card.$('[data-testid="template-installed"][data-kind="agent"][data-scope="project"]');
    await placed.waitForExist({ timeout: 10000, timeoutMsg: 'the card shows the template installed in Claude Code · Project' });
    assert.equal(await placed.getAttribute('data-complete'), 'true');
    const status = await browser.$('#hooks-status').getText();
    assert.match(status, /Installed block-dangerous-shell into Claude Code · Project .*added PreToolUse \(Bash\)/);

    // On disk: one more handler in PreToolUse (Bash), everything else as it was.
    const after = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const key of Object.keys(beforeJson).filter((k) => k !== 'hooks')) assert.deepEqual(after[key], beforeJson[key], `${key} unchanged`);
    for (const event of Object.keys(beforeJson.hooks ?? {}).filter((e) => e !== 'PreToolUse')) {
      assert.deepEqual(after.hooks[event], beforeJson.hooks[event], `hooks.${event} unchanged`);
    }
    const commands = after.hooks.PreToolUse.filter((g) => g.matcher === 'Bash').flatMap((g) => g.hooks.map((x) => x.command));
    const command = commands.find((c) => c.endsWith('block-dangerous-shell.py'));
    assert.ok(command, `the guard is a Bash handler: ${JSON.stringify(commands)}`);
    // Project scope names the script relative to the project, so the
    // committed file works in every teammate's checkout.
    assert.equal(command, '"$CLAUDE_PROJECT_DIR"/.hookd/hooks/block-dangerous-shell.py');
    const script = path.join(repo, '.hookd', 'hooks', 'block-dangerous-shell.py');
    assert.ok((fs.statSync(script).mode & 0o111) !== 0, 'the script is executable');

    // The installed script is the real guard: it denies rm -rf / and allows ls.
    const run = (command) =>
      spawnSync(script, [], {
        input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: repo }),
        encoding: 'utf8',
        env: { ...process.env, CLAUDE_PROJECT_DIR: repo },
      });
    const denied = run('rm -rf /');
    assert.equal(denied.status, 0, denied.stderr);
    assert.equal(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, 'deny');
    const allowed = run('ls -la');
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.equal(allowed.stdout.trim(), '', 'a harmless command gets no decision');

    await browser.execute(() => {
      const scroller = document.querySelector('.hooks-scroll');
      if (scroller) scroller.scrollTop = 0;
    });
    await shot(browser, 'hooks-templates');

    // Uninstall: the file is what it was before the install.
    await placed.$('[data-testid="template-uninstall"]').click();
    await browser.waitUntil(async () => !(await placed.isExisting()), { timeout: 10000, timeoutMsg: 'the placement disappears' });
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), beforeJson, 'uninstall removes exactly what was installed');
    assert.equal(fs.existsSync(script), false, 'the script is removed');
  });

  await test('templates: a local settings file that does not parse is named, the rest still shows, nothing is written', async () => {
    const local = path.join(repo, '.claude', 'settings.local.json');
    const had = fs.existsSync(local) ? fs.readFileSync(local, 'utf8') : null;
    const broken = '{\n  "hooks": oops\n}\n';
    fs.writeFileSync(local, broken);
    try {
      const warning = await browser.$('[data-testid="templates-unreadable"]');
      await warning.waitForExist({ timeout: 10000, timeoutMsg: 'the watcher reports the change and the tab names the broken file' });
      const item = await warning.$('li[data-kind="agent"][data-scope="local"]');
      assert.match(await item.getText(), /Claude Code · Local \.claude\/settings\.local\.json — not valid JSON: .*line 2/);
      assert.ok((await browser.$$('[data-testid="template"]')).length >= 10, 'the catalogue still shows');
      await browser.execute(() => {
        const scroller = document.querySelector('.hooks-scroll');
        if (scroller) scroller.scrollTop = 0;
      });
      await shot(browser, 'hooks-templates-unreadable');
      assert.equal(fs.readFileSync(local, 'utf8'), broken, 'the broken file is left as it was');
    } finally {
      if (had === null) fs.rmSync(local, { force: true });
      else fs.writeFileSync(local, had);
    }
    await browser.waitUntil(async () => !(await browser.$('[data-testid="templates-unreadable"]').isExisting()), {
      timeout: 10000,
      timeoutMsg: 'the warning goes once the file is fixed',
    });
  });
}
