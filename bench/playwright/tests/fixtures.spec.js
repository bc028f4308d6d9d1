// The dogfood suites (suites/*.acl) written for Playwright Test, one test per ACL scenario,
// with the same steps and checks, for bench/run-vs-playwright.sh.
const { test, expect } = require('@playwright/test');
const path = require('path');

const repo = path.resolve(__dirname, '../../..');

test.describe('forms', () => {
  test('submit-contact', async ({ page }) => {
    await page.goto('/forms.html');
    await page.getByLabel('Name', { exact: true }).fill('Ada');
    await page.getByPlaceholder('you@example.com').fill('ada@example.com');
    await page.getByLabel('Topic').selectOption('support');
    await page.getByLabel('I accept the terms').check();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.locator('body')).toContainText('Thanks, Ada! Topic: support', { timeout: 0 });
  });
  test('send-disabled-until-terms', async ({ page }) => {
    await page.goto('/forms.html');
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await page.getByLabel('I accept the terms').check();
    await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
    await expect(page.getByLabel('I accept the terms')).toBeChecked();
  });
  test('invalid-email', async ({ page }) => {
    await page.goto('/forms.html');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Topic').focus();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.locator('body')).toContainText('Please enter a valid email address');
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  });
  test('values', async ({ page }) => {
    await page.goto('/forms.html');
    await page.getByLabel('Name', { exact: true }).fill('Grace');
    await page.getByLabel('Name', { exact: true }).pressSequentially(' Hopper');
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Grace Hopper');
    await expect(page.getByLabel('Ticket id')).not.toBeEditable();
    await expect(page.getByLabel('Ticket id')).toHaveValue('T-1001');
  });
  test('multi-select', async ({ page }) => {
    await page.goto('/forms.html');
    await page.getByLabel('Channels').selectOption(['mail', 'chat']);
    await expect(page.getByLabel('Channels')).toHaveValues(['mail', 'chat']);
  });
  test('radio-priority', async ({ page }) => {
    await page.goto('/forms.html');
    await expect(page.getByLabel('Low')).toBeChecked();
    await page.getByLabel('High').click();
    await expect(page.getByLabel('High')).toBeChecked();
    await expect(page.getByLabel('Low')).not.toBeChecked();
    await page.getByLabel('Name', { exact: true }).fill('Edsger');
    await page.getByLabel('I accept the terms').check();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.locator('body')).toContainText('priority: high');
  });
  test('required-name', async ({ page }) => {
    await page.goto('/forms.html');
    await page.getByLabel('I accept the terms').check();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('result')).toHaveText('Name is required');
  });
  test('reset', async ({ page }) => {
    await page.goto('/forms.html');
    await page.getByLabel('Message').fill('Hello there');
    await page.getByLabel('I accept the terms').check();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page.getByLabel('Message')).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  });
});

test.describe('dialogs', () => {
  test('alert', async ({ page }) => {
    await page.goto('/dialogs.html');
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Show alert' }).click();
    await expect(page.locator('body')).toContainText('Alert closed');
  });
  test('confirm-dismiss', async ({ page }) => {
    await page.goto('/dialogs.html');
    page.once('dialog', (d) => d.dismiss());
    await page.getByRole('button', { name: 'Ask to confirm' }).click();
    await expect(page.locator('body')).toContainText('Draft kept');
  });
  test('confirm-accept', async ({ page }) => {
    await page.goto('/dialogs.html');
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Ask to confirm' }).click();
    await expect(page.locator('body')).toContainText('Draft deleted');
  });
  test('prompt', async ({ page }) => {
    await page.goto('/dialogs.html');
    page.once('dialog', (d) => d.accept('Ada'));
    await page.getByRole('button', { name: 'Ask for a name' }).click();
    await expect(page.locator('body')).toContainText('Hello, Ada');
  });
  test('modal', async ({ page }) => {
    await page.goto('/dialogs.html');
    await page.getByRole('button', { name: 'Open settings' }).click();
    await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
    await page.getByLabel('Dark mode').check();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('dialog', { name: 'Settings' })).toBeHidden();
    await expect(page.getByTestId('outcome')).toHaveText('Dark mode on');
  });
});

test.describe('frames', () => {
  test('act-inside-frame', async ({ page }) => {
    await page.goto('/iframes.html');
    const frame = page.frameLocator('#child');
    await frame.getByLabel('Greeting').fill('hi');
    await frame.getByRole('button', { name: 'Ping parent' }).click();
    await expect(frame.locator('body')).toContainText('Sent hi');
    await expect(page.locator('body')).toContainText('Child says: hi');
  });
  test('frame-isolation', async ({ page }) => {
    await page.goto('/iframes.html');
    await expect(page.locator('#parent-status')).toHaveText('Parent page');
    await expect(page.getByRole('button', { name: 'Ping parent' })).toHaveCount(0);
  });
});

test.describe('tabs', () => {
  test('new-tab', async ({ page, context }) => {
    await page.goto('/tabs.html');
    const report = await context.newPage();
    await report.goto('/tab-target.html?from=test');
    await expect(report.locator('body')).toContainText('Opened from test');
    await page.bringToFront();
    await expect(page.getByRole('link', { name: 'Open the report in a new tab' })).toBeVisible();
    expect(context.pages().length).toBe(2);
    await report.close();
  });
  test('link-target', async ({ page, baseURL }) => {
    await page.goto('/tabs.html');
    await expect(page.getByRole('link', { name: 'Open the report in a new tab' })).toBeVisible();
    await page.goto('/tab-target.html?from=link');
    await expect(page.getByRole('heading', { name: 'Quarterly report' })).toBeVisible();
    await expect(page).toHaveURL(`${baseURL}/tab-target.html?from=link`);
  });
});

test.describe('shadow', () => {
  test('follow', async ({ page }) => {
    await page.goto('/shadow.html');
    await page.getByRole('button', { name: 'Follow' }).click();
    await expect(page.getByTestId('shadow-status')).toHaveText('Following');
    await expect(page.getByRole('button', { name: 'Unfollow' })).toBeVisible();
  });
  test('note', async ({ page }) => {
    await page.goto('/shadow.html');
    await page.getByPlaceholder('Add a note').fill('met at a conference');
    await page.getByRole('button', { name: 'Follow' }).click();
    await expect(page.locator('body')).toContainText('Following (met at a conference)');
    await expect(page.getByTestId('card')).toBeVisible();
  });
});

// The bounding boxes of the elements with these test ids, read one after the other.
async function boxes(page, ...ids) {
  const found = [];
  for (const id of ids) {
    found.push(await page.getByTestId(id).boundingBox());
  }
  return found;
}

test.describe('layout', () => {
  test('header-above-main', async ({ page }) => {
    await page.goto('/layout.html');
    const [header, main, footer] = await boxes(page, 'header', 'main', 'footer');
    expect(header.y + header.height).toBeLessThanOrEqual(main.y);
    expect(footer.y).toBeGreaterThanOrEqual(main.y + main.height);
    expect(header.width).toBe(footer.width);
  });
  test('columns', async ({ page }) => {
    await page.goto('/layout.html');
    const [nav, main, aside] = await boxes(page, 'nav', 'main', 'aside');
    expect(nav.x + nav.width).toBeLessThanOrEqual(main.x);
    expect(aside.x).toBeGreaterThanOrEqual(main.x + main.width);
    expect(nav.y).toBe(aside.y);
  });
  test('tiles', async ({ page }) => {
    await page.goto('/layout.html');
    const [a, b, badge, main] = await boxes(page, 'tile-a', 'tile-b', 'badge', 'main');
    expect(a.x + a.width <= b.x || b.x + b.width <= a.x).toBe(true);
    expect(badge.x >= a.x && badge.x + badge.width <= a.x + a.width && badge.y >= a.y && badge.y + badge.height <= a.y + a.height).toBe(true);
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    expect(b.x >= main.x && b.x + b.width <= main.x + main.width).toBe(true);
  });
  test('viewport', async ({ page }) => {
    await page.goto('/layout.html');
    await expect(page.getByTestId('header')).toBeInViewport();
    await expect(page.getByTestId('below-fold')).toBeVisible();
    await page.setViewportSize({ width: 640, height: 480 });
    await expect(page.getByTestId('header')).toBeInViewport();
  });
  test('list', async ({ page }) => {
    await page.goto('/layout.html');
    await expect(page.locator('li.item')).toHaveCount(3);
    await expect(page.locator('li.item')).toHaveText(['Alpha', 'Beta', 'Gamma']);
  });
});

test.describe('delayed', () => {
  test('wait-for-content', async ({ page }) => {
    await page.goto('/delayed.html');
    await page.getByText('Report ready: 42 rows').waitFor();
    await expect(page.getByTestId('spinner')).toBeHidden();
  });
  test('wait-visible', async ({ page }) => {
    await page.goto('/delayed.html');
    await page.getByTestId('content').waitFor();
    await expect(page.getByTestId('content')).toBeVisible();
  });
  test('actions-wait-for-targets', async ({ page }) => {
    await page.goto('/delayed.html');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.locator('body')).toContainText('Continued');
  });
  test('transient-toast', async ({ page }) => {
    await page.goto('/delayed.html');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('toast')).toBeVisible();
    await page.getByTestId('toast').waitFor({ state: 'hidden' });
  });
  test('stable-content', async ({ page }) => {
    await page.goto('/delayed.html');
    await page.getByTestId('content').waitFor();
    // Five samples, 50 ms apart: the same window as `stable_for_ms = 200, sample_interval_ms = 50`.
    for (let i = 0; i < 5; i += 1) {
      expect(await page.getByTestId('content').isVisible()).toBe(true);
      if (i < 4) await page.waitForTimeout(50);
    }
  });
});

test.describe('network', () => {
  test('load-users', async ({ page }) => {
    await page.goto('/network.html');
    await page.getByRole('button', { name: 'Load users' }).click();
    await page.getByText('Loaded 3 users').waitFor();
    await expect(page.locator('#users li')).toHaveText(['Ada Lovelace', 'Grace Hopper', 'Edsger Dijkstra']);
  });
  test('stubbed-users', async ({ page }) => {
    await page.goto('/network.html');
    await page.route('**/api/users.json', (route) =>
      route.fulfill({ body: '[{"id": 9, "name": "Stub User"}]', contentType: 'application/json' }));
    await page.getByRole('button', { name: 'Load users' }).click();
    await page.getByText('Loaded 1 users').waitFor();
    await expect(page.locator('#users li')).toHaveText(['Stub User']);
  });
  test('aborted-request', async ({ page }) => {
    const messages = [];
    page.on('console', (m) => messages.push(m.text()));
    await page.goto('/network.html');
    await page.route('**/api/users.json', (route) => route.abort());
    await page.getByRole('button', { name: 'Load users' }).click();
    await page.getByText('Failed to load users').waitFor();
    expect(messages.length).toBeGreaterThan(0);
  });
  test('unroute', async ({ page }) => {
    await page.goto('/network.html');
    await page.route('**/api/users.json', (route) => route.abort());
    await page.unroute('**/api/users.json');
    await page.getByRole('button', { name: 'Load users' }).click();
    await page.getByText('Loaded 3 users').waitFor();
  });
});

test.describe('files', () => {
  test('upload', async ({ page }) => {
    await page.goto('/files.html');
    await page.getByLabel('Attachment').setInputFiles(path.join(repo, 'tests/fixtures/web/files/upload.txt'));
    await page.getByText('Uploaded upload.txt (hello from a3s-test)').waitFor();
  });
  test('download', async ({ page }, testInfo) => {
    await page.goto('/files.html');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the report' }).click(),
    ]);
    await download.saveAs(testInfo.outputPath('report.txt'));
  });
});

test.describe('widgets', () => {
  test('hover-tooltip', async ({ page }) => {
    await page.goto('/widgets.html');
    await expect(page.getByRole('tooltip')).toBeHidden();
    await page.getByText('Hover me', { exact: true }).hover();
    await expect(page.getByRole('tooltip')).toBeVisible();
  });
  test('toggle-button', async ({ page }) => {
    await page.goto('/widgets.html');
    await expect(page.getByRole('button', { name: 'Count 0' })).toHaveAttribute('aria-pressed', 'false');
    await page.getByRole('button', { name: 'Count 0' }).click();
    await expect(page.getByRole('button', { name: 'Count 1' })).toHaveAttribute('aria-pressed', 'true');
  });
  test('double-click', async ({ page }) => {
    await page.goto('/widgets.html');
    await page.getByRole('button', { name: 'Double click me' }).dblclick();
    await expect(page.locator('body')).toContainText('Double clicked');
  });
  test('context-menu', async ({ page }) => {
    await page.goto('/widgets.html');
    await page.getByTestId('menu-area').click({ button: 'right' });
    await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
  });
  test('keyboard', async ({ page }) => {
    await page.goto('/widgets.html');
    await page.getByLabel('Search').fill('chromium');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('key-result')).toHaveText('Searched for chromium');
    await expect(page.getByLabel('Search')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('key-result')).toHaveText('Cleared');
  });
  test('details', async ({ page }) => {
    await page.goto('/widgets.html');
    await expect(page.getByText('Hidden options', { exact: true })).toBeHidden();
    await page.getByText('More options', { exact: true }).click();
    await expect(page.getByText('Hidden options', { exact: true })).toBeVisible();
  });
  test('drag', async ({ page }) => {
    await page.goto('/widgets.html');
    await page.getByTestId('card').dragTo(page.getByTestId('target-box'));
    await expect(page.getByTestId('drop-result')).toHaveText('Dropped');
  });
  test('wheel', async ({ page }) => {
    await page.goto('/widgets.html');
    await page.getByTestId('scroller').hover();
    await page.mouse.wheel(0, 200);
    await page.getByText('Scrolled', { exact: true }).waitFor();
  });
});

test.describe('home', () => {
  test('index-links', async ({ page, baseURL }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'A3S Test fixture pages' })).toBeVisible();
    await expect(page.locator('nav li a')).toHaveCount(10);
    await page.getByRole('link', { name: 'Forms' }).click();
    await page.waitForURL(`${baseURL}/forms.html`);
    await expect(page.getByRole('heading', { name: 'Contact form' })).toBeVisible();
  });
  test('evidence', async ({ page }, testInfo) => {
    await page.goto('/');
    await page.waitForLoadState('domcontentloaded');
    await page.screenshot({ path: testInfo.outputPath('index.png') });
    const tree = await page.locator('body').ariaSnapshot();
    require('fs').writeFileSync(testInfo.outputPath('index-a11y.txt'), tree);
  });
});

test.describe('late', () => {
  test('arrives', async ({ page }) => {
    await page.goto('/late.html');
    await expect(page.locator('body')).toContainText('Report ready');
    await expect(page.locator('#items li')).toHaveCount(3);
    await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await expect(page.getByRole('dialog', { name: 'Loading' })).toBeHidden();
    await expect(page.getByLabel('City')).toHaveValue('Lisbon');
    await expect(page).toHaveURL(/\/late\.html\?step=done$/);
    await expect(page.getByLabel('I agree')).toBeChecked();
    await expect(page.locator('body')).toContainText('All done');
  });
  test('negative', async ({ page }) => {
    await page.goto('/late.html');
    await expect(page.getByRole('dialog', { name: 'Loading' })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Loading' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });
});

test.describe('pointer', () => {
  test('cover-goes', async ({ page }) => {
    await page.goto('/covered.html');
    await page.getByRole('button', { name: 'Under' }).click();
    await expect(page.locator('body')).toContainText('under clicked');
    await expect(page.getByText('cover clicked')).toHaveCount(0);
  });
  test('new-tab', async ({ page, context }) => {
    await page.goto('/covered.html');
    const opened = context.waitForEvent('page');
    await page.getByRole('link', { name: 'Open the next page' }).click({ modifiers: ['Control'] });
    await expect(page.getByRole('heading', { name: 'Covered controls' })).toBeVisible();
    const next = await opened;
    await expect(next.locator('body')).toContainText('Quarterly report');
  });
  test('buttons-and-modifiers', async ({ page }) => {
    await page.goto('/covered.html');
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click({ button: 'right' });
    await expect(page.locator('body')).toContainText('menu contextmenu (none)');
    await menu.click({ button: 'middle', modifiers: ['Shift'] });
    await expect(page.locator('body')).toContainText('menu auxclick button 1 (shift)');
    await menu.click({ modifiers: ['Control', 'Alt'] });
    await expect(page.locator('body')).toContainText('menu click (ctrl+alt)');
  });
  test('position', async ({ page }) => {
    await page.goto('/covered.html');
    await page.getByRole('button', { name: 'Wide' }).click({ position: { x: 10, y: 5 } });
    await expect(page.locator('body')).toContainText('wide click at 10,5');
  });
  test('label-forwards', async ({ page }) => {
    await page.goto('/covered.html');
    // Playwright refuses the click when the label's styled box is on top of the input ("<span>
    // intercepts pointer events"), although the click toggles it through the label; A3S Test
    // follows the label. `force` is the Playwright user's way around it.
    await page.getByLabel('Terms').check({ force: true });
    await expect(page.locator('body')).toContainText('terms checked');
  });
});

test.describe('locators', () => {
  test('within-a-row', async ({ page }) => {
    await page.goto('/rows.html');
    await page.getByTestId('row-bob').getByRole('button', { name: 'Delete' }).click();
    await expect(page.locator('body')).toContainText('deleted Bob');
    await page.getByRole('list', { name: 'Team' }).getByTestId('row-carol').getByRole('button').click();
    await expect(page.locator('body')).toContainText('deleted Carol');
  });
  test('by-row-text', async ({ page }) => {
    await page.goto('/rows.html');
    await expect(page.getByRole('listitem').filter({ hasNotText: /alice/i })).toHaveCount(5);
    await expect(page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Delete' }) })).toHaveCount(6);
    await expect(page.getByRole('listitem').filter({ hasNot: page.getByRole('button') })).toHaveCount(0);
    await page.getByRole('listitem').filter({ hasText: 'Gemini' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.locator('body')).toContainText('deleted project Gemini');
    await expect(page.getByRole('listitem').filter({ hasNot: page.getByRole('button') })).toBeVisible();
  });
  test('positions', async ({ page }) => {
    await page.goto('/rows.html#reversed');
    await page.getByRole('list', { name: 'Team' }).getByRole('button', { name: 'Delete' }).first().click();
    await page.getByRole('list', { name: 'Projects' }).getByRole('button', { name: 'Delete' }).last().click();
    await page.getByRole('button', { name: 'Delete' }).nth(-2).click();
    await expect(page.getByRole('list', { name: 'Log' }).getByRole('listitem')).toHaveText([
      'deleted Carol', 'deleted project Apollo', 'deleted project Gemini',
    ]);
  });
  test('matching', async ({ page }) => {
    await page.goto('/rows.html');
    await page.getByRole('button', { name: 'click' }).click();
    await expect(page.locator('body')).toContainText('clicked the click me button');
    await expect(page.getByRole('button', { name: 'Click', exact: true })).toBeHidden();
    await expect(page.getByText(/total: \d+ items/i)).toBeVisible();
    await expect(page.getByText('total: 42')).toBeVisible();
  });
  test('shadow-css', async ({ page }) => {
    await page.goto('/rows.html');
    await page.locator('button.save').click();
    await expect(page.locator('body')).toContainText('saved in the shadow');
  });
});
