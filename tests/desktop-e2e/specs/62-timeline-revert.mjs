// timeline, revert: a Write recorded with its before (the daemon read the
// file at the PreToolUse), reverted from its row through the preview
// dialog, the file on disk given back, then the revert undone. See run.mjs
// for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const SESSION = 'e2e-revert';

export default async function ({ browser, test, shot, emit, repo }) {
  const payload = (hook, extra) => ({ session_id: SESSION, cwd: repo, hook_event_name: hook, ...extra });
  const file = path.join(repo, 'revert-me.txt');

  await test('a change is reverted from its row after a preview, and the revert is undone', async () => {
    fs.writeFileSync(file, 'as the user wrote it\n');
    const write = { tool_name: 'Write', tool_use_id: 'toolu_revert_1', tool_input: { file_path: file, content: 'as the agent wrote it\n' } };
    // hookd-emit returns from the PreToolUse once the daemon has read the file.
    emit('pre_tool_use', payload('PreToolUse', write));
    fs.writeFileSync(file, 'as the agent wrote it\n');
    emit('post_tool_use', payload('PostToolUse', { ...write, tool_response: { success: true } }));

    await browser.execute((hash) => { window.location.hash = hash; }, `#/timeline?repo=${repo}&session=${SESSION}`);
    const row = await browser.$('[data-testid="timeline-row"][data-tool="Write"]:not([hidden])');
    await row.waitForExist({ timeout: 10000, timeoutMsg: 'the Write did not reach the timeline' });
    await row.click();
    const revert = await browser.$('#row-detail-revert-call');
    await revert.waitForDisplayed({ timeout: 5000, timeoutMsg: 'the row detail offers no "Revert this change"' });
    await revert.click();

    const dialog = await browser.$('#rewind-dialog');
    await dialog.waitForDisplayed({ timeout: 5000 });
    const entry = await browser.$('#rewind-dialog [data-testid="rewind-file"][data-path="revert-me.txt"]');
    await entry.waitForExist({ timeout: 5000, timeoutMsg: 'the preview does not list the file' });
    assert.equal(await entry.getAttribute('data-kind'), 'modify');
    const diff = await browser.execute((el) => el.textContent, entry);
    assert.match(diff, /as the user wrote it/, 'the preview shows what the file goes back to');
    assert.equal(fs.readFileSync(file, 'utf8'), 'as the agent wrote it\n', 'a preview writes nothing');
    await shot(browser, 'timeline-revert-preview');

    const apply = await browser.$('#rewind-apply');
    await browser.waitUntil(async () => await apply.isEnabled(), { timeout: 5000, timeoutMsg: 'Apply stays disabled' });
    await apply.click();
    const notice = await browser.$('#rewind-notice');
    await notice.waitForDisplayed({ timeout: 10000, timeoutMsg: 'no notice after the revert' });
    assert.equal(fs.readFileSync(file, 'utf8'), 'as the user wrote it\n', 'the revert gave the file back');

    // Undo: the same dialog, on the revert's own recorded change.
    await (await browser.$('#rewind-notice-undo')).click();
    await (await browser.$('#rewind-dialog')).waitForDisplayed({ timeout: 5000 });
    const undoApply = await browser.$('#rewind-apply');
    await browser.waitUntil(async () => await undoApply.isEnabled(), { timeout: 5000, timeoutMsg: 'the undo cannot be applied' });
    await undoApply.click();
    await browser.waitUntil(() => fs.readFileSync(file, 'utf8') === 'as the agent wrote it\n', {
      timeout: 10000,
      timeoutMsg: 'the undo did not put back what the revert replaced',
    });
    // Dismissed: the notice takes room the later specs measure.
    await (await browser.$('#rewind-notice-dismiss')).click();
    await browser.waitUntil(async () => !(await (await browser.$('#rewind-notice')).isDisplayed()), {
      timeout: 5000,
      timeoutMsg: 'the notice stays after it was dismissed',
    });
  });
}
