// bench: a real PreToolUse hook that refuses `rm -rf` (exit 2, reason on
// stderr), tried on the Test bench with the Bash sample. Other specs may have
// put more hooks into alpha; the assertions only need this one.
// See run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, repo, WORK }) {
  const script = path.join(WORK, 'bin', 'guard-rm.sh');
  const local = path.join(repo, '.claude', 'settings.local.json');

  await test('test bench: the Bash sample with rm -rf / is denied by the project\'s guard hook, with its reason', async () => {
    fs.mkdirSync(path.dirname(script), { recursive: true });
    fs.writeFileSync(script, "#!/bin/sh\npayload=$(cat)\ncase \"$payload\" in\n  *'rm -rf'*) echo 'refusing rm -rf' >&2; exit 2 ;;\nesac\nexit 0\n", { mode: 0o755 });
    const existing = fs.existsSync(local) ? JSON.parse(fs.readFileSync(local, 'utf8')) : {};
    const settings = {
      ...existing,
      hooks: {
        ...(existing.hooks ?? {}),
        PreToolUse: [...(existing.hooks?.PreToolUse ?? []), { matcher: 'Bash', hooks: [{ type: 'command', command: script, timeout: 10 }] }],
      },
    };
    fs.mkdirSync(path.dirname(local), { recursive: true });
    fs.writeFileSync(local, `${JSON.stringify(settings, null, 2)}\n`);

    await browser.$('#nav-bench').click();
    const project = await browser.$('#bench-project');
    await project.waitForExist({ timeout: 10000 });
    await browser.waitUntil(async () => (await browser.execute((el) => [...el.options].map((o) => o.value), project)).includes(repo), {
      timeout: 10000,
      timeoutMsg: 'alpha is in the project picker',
    });
    await project.selectByAttribute('value', repo);
    await browser.waitUntil(async () => (await browser.getUrl()).includes(`project=${repo}`), { timeout: 5000, timeoutMsg: 'the route names alpha' });
    const sample = await browser.$('#bench-sample');
    await browser.waitUntil(async () => (await browser.execute((el) => [...el.options].map((o) => o.value), sample)).includes('bash'), {
      timeout: 10000,
      timeoutMsg: 'the samples are loaded',
    });
    await sample.selectByAttribute('value', 'bash');
    assert.equal(await browser.$('#bench-event').getValue(), 'PreToolUse');

    // Set the command to rm -rf / in the payload editor (as typing would: an input event).
    const payload = await browser.$('#bench-payload');
    const cwd = await browser.execute((el) => {
      const value = JSON.parse(el.value);
      value.tool_input.command = 'rm -rf /';
      el.value = JSON.stringify(value, null, 2);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      return value.cwd;
    }, payload);
    assert.equal(cwd, repo, 'the sample runs in alpha');
    assert.equal(await browser.$('#bench-payload-error').isDisplayed(), false, 'the payload is valid JSON');

    // The match list shows the guard and why it runs.
    const guard = async () =>
      browser.execute((cmd) => {
        const row = [...document.querySelectorAll('[data-testid="bench-hook"]')].find((r) => r.querySelector('[data-testid="bench-hook-command"]')?.textContent === cmd);
        return row ? { outcome: row.dataset.outcome, scope: row.dataset.scope, kind: row.dataset.kind, reason: row.querySelector('[data-testid="bench-hook-reason"]').textContent } : null;
      }, script);
    await browser.waitUntil(async () => (await guard())?.outcome === 'runs', { timeout: 10000, timeoutMsg: 'the guard is listed as running' });
    assert.deepEqual(await guard(), { outcome: 'runs', scope: 'local', kind: 'agent', reason: 'exact name Bash' });

    await browser.$('#bench-run').click();
    const verdict = await browser.$('#bench-verdict');
    await verdict.waitForExist({ timeout: 20000 });
    assert.equal(await verdict.getAttribute('data-decision'), 'deny');
    assert.match(await browser.execute((el) => el.textContent, verdict), /refusing rm -rf/);
    assert.match(await browser.$('#bench-verdict-text').getText(), /^Denied/);
    const ours = await browser.execute((cmd) => {
      const run = [...document.querySelectorAll('[data-testid="bench-run"]')].find((r) => r.querySelector('.bench-run-command')?.textContent === cmd);
      return run ? { exit: run.dataset.exit, decision: run.dataset.decision, stderr: run.querySelector('[data-testid="bench-run-stderr"]').textContent } : null;
    }, script);
    assert.deepEqual(ours, { exit: '2', decision: 'deny', stderr: 'refusing rm -rf\n' });
    // The same deny as each coding agent gets it, from the core's translation.
    const agents = await browser.execute(() =>
      [...document.querySelectorAll('[data-testid="bench-agent"]')].map((row) => [
        row.dataset.agent,
        row.querySelector('td').textContent,
        row.querySelector('[data-testid="bench-agent-output"]')?.textContent ?? '',
      ]),
    );
    assert.deepEqual(agents.map(([agent, event]) => [agent, event]), [
      ['claude', 'PreToolUse'],
      ['codex', 'PreToolUse'],
      ['gemini', 'BeforeTool'],
      ['cursor', 'preToolUse'],
      ['copilot', 'preToolUse'],
    ]);
    assert.match(agents[2][2], /"decision":"deny"/);
    assert.match(agents[2][2], /refusing rm -rf/);
    assert.match(agents[3][2], /"permission":"deny"/);
    assert.match(agents[4][2], /"permissionDecision":"deny"/);
    // Show the verdict beside the payload; the painted frame can lag, so wait until it is in view.
    // The match list and the verdict together when they fit, else the verdict.
    await browser.execute(() => document.getElementById('bench-match-title')?.scrollIntoView({ block: 'start' }));
    if (!(await verdict.isDisplayed({ withinViewport: true }))) {
      await browser.execute(() => document.getElementById('bench-run-title')?.scrollIntoView({ block: 'start' }));
    }
    await browser.waitUntil(async () => verdict.isDisplayed({ withinViewport: true }), { timeout: 5000, timeoutMsg: 'the verdict is in view' });
    // A WebDriver screenshot is the last painted frame: let two frames paint first.
    await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    await shot(browser, 'bench');
    await browser.execute(() => document.getElementById('bench-agents-title')?.scrollIntoView({ block: 'start' }));
    await browser.executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    await shot(browser, 'bench-agents');
  });

  await test('test bench: Cancel stops a hook that hangs, and kills it', async () => {
    const hang = path.join(WORK, 'bin', 'hang.sh');
    const pidFile = path.join(WORK, 'hang.pid');
    fs.writeFileSync(hang, `#!/bin/sh\npayload=$(cat)\ncase "$payload" in\n  *hang-forever*) echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; sleep 60 ;;\nesac\nexit 0\n`, { mode: 0o755 });
    const before = fs.readFileSync(local, 'utf8');
    const settings = JSON.parse(before);
    settings.hooks.PreToolUse.push({ matcher: 'Bash', hooks: [{ type: 'command', command: hang, timeout: 120 }] });
    fs.writeFileSync(local, `${JSON.stringify(settings, null, 2)}\n`);
    try {
      const payload = await browser.$('#bench-payload');
      await browser.execute((el) => {
        const value = JSON.parse(el.value);
        value.tool_input.command = 'echo hang-forever';
        el.value = JSON.stringify(value, null, 2);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, payload);
      await browser.waitUntil(
        async () => browser.execute((cmd) => [...document.querySelectorAll('[data-testid="bench-hook-command"]')].some((c) => c.textContent === cmd), hang),
        { timeout: 10000, timeoutMsg: 'the hanging hook is listed' },
      );
      await browser.$('#bench-run').click();
      await browser.waitUntil(async () => fs.existsSync(pidFile), { timeout: 20000, timeoutMsg: 'the hanging hook started' });
      const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
      const cancel = await browser.$('#bench-cancel');
      assert.equal(await cancel.isDisplayed(), true, 'Cancel is offered while the run is in flight');
      await cancel.click();
      const cancelled = await browser.$('#bench-cancelled');
      await cancelled.waitForExist({ timeout: 10000, timeoutMsg: 'the run reports it was cancelled' });
      assert.match(await cancelled.getText(), /Run cancelled/);
      assert.equal(await browser.$('#bench-run').getText(), 'Run hooks');
      const exited = () => {
        try {
          return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop().trim().startsWith('Z');
        } catch {
          return true;
        }
      };
      await browser.waitUntil(async () => exited(), { timeout: 5000, timeoutMsg: `the hook's process ${pid} was killed` });
    } finally {
      fs.writeFileSync(local, before);
    }
  });
}
