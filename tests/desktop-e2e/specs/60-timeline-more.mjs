// timeline, continued: the session filter, a Write shown against the
// previous Write, the files one Bash command changed, and an agent's whole
// activity with a managed hook's decision. See run.mjs for the context
// every spec receives.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SESSION = 'e2e-more';

export default async function ({ browser, test, shot, emit, repo, EMIT }) {
  const payload = (hook, extra) => ({ session_id: SESSION, cwd: repo, hook_event_name: hook, ...extra });
  const textOf = (el) => browser.execute((e) => e.textContent, el);
  // Rows are pooled: a list that shrank keeps hidden rows with old data, so
  // every row selector below asks for :not([hidden]).
  const managed = path.join(repo, '.hookd', 'settings.json');

  await test('a session filter, a Write against the previous Write, and a Bash command\'s files', async () => {
    // A managed hook for the activity test below, written now so the
    // daemon's settings watcher has long seen it when it is needed.
    fs.mkdirSync(path.dirname(managed), { recursive: true });
    fs.writeFileSync(
      managed,
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: 'command', command: "grep -q secret && { echo 'the prompt mentions a secret' >&2; exit 2; } || exit 0" }] }],
        },
      }),
    );
    // Written behind hookd's back, as a clone would bring it: the Hook editor
    // says hookd will not run it, shows what it would run, and Trust approves it.
    await browser.execute((hash) => { window.location.hash = hash; }, `#/hooks?project=${repo}&tab=managed-project`);
    const trustBanner = await browser.$('#hooks-trust-banner');
    await trustBanner.waitForDisplayed({ timeout: 10000, timeoutMsg: 'the trust banner is shown for an unapproved managed file' });
    const said = await trustBanner.getText();
    assert.match(said, /hookd does not run the hooks of .*settings\.json: not approved yet/);
    assert.match(said, /grep -q secret/, 'the banner shows the command it would run');
    await shot(browser, 'hooks-trust');
    await (await browser.$('#hooks-trust-project')).click();
    await trustBanner.waitForDisplayed({ reverse: true, timeout: 10000, timeoutMsg: 'Trust approves the file' });
    assert.match(await (await browser.$('#hooks-status')).getText(), /Trusted settings\.json/);

    await browser.execute((hash) => { window.location.hash = hash; }, `#/timeline?repo=${repo}`);
    await browser.$('#timeline-list').waitForExist({ timeout: 10000 });

    emit('user_prompt_submit', payload('UserPromptSubmit', { prompt: 'Write the notes twice, then generate two files' }));
    const write = (id, content) =>
      emit('post_tool_use', payload('PostToolUse', {
        tool_name: 'Write',
        tool_use_id: id,
        tool_input: { file_path: path.join(repo, 'notes.md'), content },
        tool_response: { success: true },
      }));
    write('toolu_more_w1', '# Notes\nfirst idea\nsecond idea\n');
    write('toolu_more_w2', '# Notes\nfirst idea\nsecond idea, refined\nthird idea\n');

    // A Bash command that writes two files: the daemon snapshots git status
    // at PreToolUse, the command runs, PostToolUse compares.
    const command = 'mkdir -p gen && echo a > gen/a.txt && echo b > gen/b.txt';
    const bash = { tool_name: 'Bash', tool_use_id: 'toolu_more_bash', tool_input: { command, description: 'Generate two files' } };
    emit('pre_tool_use', payload('PreToolUse', bash));
    fs.mkdirSync(path.join(repo, 'gen'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'gen', 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(repo, 'gen', 'b.txt'), 'b\n');
    emit('post_tool_use', payload('PostToolUse', { ...bash, tool_response: { stdout: '', stderr: '', interrupted: false } }));

    // Only this session: the two Writes and the two files of the Bash call
    // (not the Edit of the earlier timeline spec, another session).
    await browser.$('#filter-session').setValue(SESSION);
    await browser.$('#filter-apply').click();
    await browser.waitUntil(async () => (await browser.$('#timeline-count').getText()) === '4 mutations', {
      timeout: 10000,
      timeoutMsg: 'the session filter did not show the 4 mutations of this session',
    });
    assert.match(await browser.execute(() => window.location.hash), /session=e2e-more/);
    const tools = await browser.$$('[data-testid="timeline-row"]:not([hidden])').map((r) => r.getAttribute('data-tool'));
    assert.deepEqual([...tools].sort(), ['Bash', 'Bash', 'Write', 'Write']);

    // The second Write, against the first.
    const writes = await browser.$$('[data-testid="timeline-row"][data-tool="Write"]:not([hidden])');
    const indexes = [...(await writes.map((w) => w.getAttribute('data-index')))];
    const second = writes[indexes.indexOf(String(Math.max(...indexes.map(Number))))];
    await second.click();
    const change = await browser.$('#row-detail [data-testid="change"][data-kind="write"]');
    await change.waitForExist({ timeout: 5000 });
    await browser.waitUntil(async () => (await change.getAttribute('data-previous')) === 'write', {
      timeout: 5000,
      timeoutMsg: 'the second Write was not compared with the first',
    });
    const caption = await textOf(await change.$('figcaption'));
    assert.match(caption, /vs\. Write at .* by e2e-more/);
    const del = await change.$$('.diff-del .diff-text').map((e) => textOf(e));
    const add = await change.$$('.diff-add .diff-text').map((e) => textOf(e));
    assert.deepEqual([...del], ['second idea']);
    assert.deepEqual([...add], ['second idea, refined', 'third idea']);
    // The chart is drawn after the rows are painted; wait for it before the picture.
    await browser.waitUntil(async () => (await browser.$('#timeline-chart').getAttribute('data-total')) === '4', {
      timeout: 5000,
      timeoutMsg: 'the chart does not count the 4 mutations',
    });
    await shot(browser, 'timeline-write-diff');

    // A Bash row: its command, and both files it changed.
    await browser.$('[data-testid="timeline-row"][data-tool="Bash"]:not([hidden])').click();
    const cmd = await browser.$('#row-detail [data-testid="change-command"]');
    await cmd.waitForExist({ timeout: 5000 });
    assert.equal(await textOf(cmd), command);
    await browser.waitUntil(async () => (await browser.$$('#row-detail [data-testid="bash-file"]').length) === 2, {
      timeout: 5000,
      timeoutMsg: 'the Bash row does not list the two files its command changed',
    });
    const files = await browser.$$('#row-detail [data-testid="bash-file"]').map((f) => f.getAttribute('data-file'));
    assert.deepEqual([...files], ['gen/a.txt', 'gen/b.txt']);
    // The file this row is about, before and after the command, from the
    // contents the daemon kept; LINES counted the same way.
    const current = await browser.$('#row-detail [data-testid="bash-file"][aria-current="true"]').getAttribute('data-file');
    const shell = await browser.$('#row-detail [data-testid="shell-change"]');
    await browser.waitUntil(async () => (await shell.$$('.diff-line').length) === 1, {
      timeout: 5000,
      timeoutMsg: 'the Bash row shows no diff of its file',
    });
    const added = await shell.$$('.diff-add .diff-text').map((e) => textOf(e));
    assert.deepEqual([...added], [current === 'gen/a.txt' ? 'a' : 'b']);
    const lines = await browser.$$('[data-testid="timeline-row"][data-tool="Bash"]:not([hidden]) .col-lines').map((c) => textOf(c));
    assert.deepEqual([...lines], ['+1 \u22120', '+1 \u22120']);
    await shell.scrollIntoView({ block: 'end' });
    await shot(browser, 'timeline-bash-diff');
  });

  await test('an agent\'s activity: every hook event, with a managed hook\'s decision', async () => {
    // A prompt the managed hook blocks, sent the way `hookd connect --managed` does.
    const out = spawnSync(EMIT, ['--wait', 'user_prompt_submit'], {
      cwd: repo,
      input: JSON.stringify(payload('UserPromptSubmit', { prompt: 'Print the secret token' })),
      env: { ...process.env, CLAUDE_PROJECT_DIR: repo },
    });
    assert.equal(out.status, 2, `the managed hook did not block: ${out.stderr}`);
    assert.match(String(out.stderr), /the prompt mentions a secret/);

    // From the open row's detail: all activity of its agent (the session filter stays).
    await browser.$('#row-detail-agent-activity').click();
    await browser.waitUntil(async () => /mode=activity/.test(await browser.execute(() => window.location.hash)), { timeout: 5000 });
    assert.match(await browser.execute(() => window.location.hash), /agent=e2e-more/);
    // Two prompts, two Writes, the Bash call before and after.
    await browser.waitUntil(async () => (await browser.$('#timeline-count').getText()) === '6 events', {
      timeout: 10000,
      timeoutMsg: `expected 6 events, got ${await browser.$('#timeline-count').getText()}`,
    });
    const kinds = await browser.$$('[data-testid="activity-row"]:not([hidden])').map((r) => r.getAttribute('data-hook-type'));
    assert.deepEqual(
      [...kinds].sort(),
      ['post_tool_use', 'post_tool_use', 'post_tool_use', 'pre_tool_use', 'user_prompt_submit', 'user_prompt_submit'],
    );

    // The blocked prompt, with the hook run that blocked it.
    const blocked = await browser.$('[data-testid="activity-row"][data-verdict="block"]:not([hidden])');
    await blocked.waitForExist({ timeout: 10000 });
    assert.equal(await blocked.getAttribute('data-hook-type'), 'user_prompt_submit');
    await blocked.click();
    const detail = await browser.$('#activity-detail');
    await detail.waitForDisplayed({ timeout: 5000 });
    assert.equal(await textOf(await detail.$('[data-testid="activity-prompt"]')), 'Print the secret token');
    const run = await detail.$('[data-testid="hook-run"]');
    assert.equal(await run.getAttribute('data-verdict'), 'block');
    assert.match(await textOf(await run.$('[data-testid="hook-run-facts"]')), /exit 2/);
    assert.equal(await textOf(await run.$('[data-testid="hook-run-reason"]')), 'Reason: the prompt mentions a secret');

    // The other prompt is there too, with no hook decision.
    const allowed = await browser.$$('[data-testid="activity-row"][data-hook-type="user_prompt_submit"]:not([hidden])');
    assert.equal(allowed.length, 2);
    assert.ok(await browser.$('#timeline-chart').isDisplayed(), 'the activity chart is shown');
    assert.equal(await browser.$('#timeline-chart').getAttribute('data-total'), '6');
    await shot(browser, 'timeline-activity');
  });

  // Leave alpha as the later specs expect it: no managed hooks.
  fs.rmSync(managed, { force: true });
}
