// projects: see run.mjs for the context every spec receives.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ browser, test, shot, emit, env, repo }) {
  await test('adding a project folder lists it', async () => {
    await browser.$('#nav-projects').click();
    const input = await browser.$('#add-folder-path');
    await input.setValue(repo);
    await browser.$('#add-folder-submit').click();
    const item = await browser.$(`[data-testid="project"][data-root="${repo}"]`);
    await item.waitForExist({ timeout: 10000 });
    assert.match(await item.getText(), /alpha/);
    await shot(browser, 'projects');
  });
}
