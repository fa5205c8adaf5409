// The command palette as a person uses it, shared by the page tests.

/** Runs a command from the palette (F1), retrying while the workbench is still registering commands. */
export async function runCommand(page, title, timeout = 20_000) {
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
  for (const deadline = Date.now() + timeout; ;) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill(`>${title}`);
    if (
      await row.waitFor({ timeout: 2_000 }).then(
        () => true,
        () => Date.now() > deadline,
      )
    )
      break;
  }
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout });
}
