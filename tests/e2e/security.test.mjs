// The page keeps the learner's text on their machine: a Content-Security-Policy
// forbids every connection beyond the page's own origin, and the harness fails
// any test in which the page requests anything from elsewhere.
import { e2e, assert, byTestId } from './harness.mjs';

e2e('the page carries a policy that allows only its own origin', async ({ page }) => {
  const policy = await page.evaluate(
    () => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null,
  );
  assert.ok(policy, 'no Content-Security-Policy meta element');
  for (const directive of ["default-src 'none'", "connect-src 'self'", "object-src 'none'", "base-uri 'none'"]) {
    assert.ok(policy.includes(directive), `the policy lacks ${directive}: ${policy}`);
  }
  assert.ok(!policy.includes("'unsafe-eval'"), 'the policy allows eval');
  assert.ok(!/script-src[^;]*'unsafe-inline'/.test(policy), 'the policy allows any inline script');
});

e2e(
  'a request to another origin is refused by the policy, and the harness catches it',
  async ({ page }) => {
    const outcome = await page.evaluate(async () => {
      const violations = [];
      // The violation's event, waited for (within 5 s) rather than slept on.
      const seen = new Promise((r) => {
        document.addEventListener('securitypolicyviolation', (e) => {
          violations.push(e.violatedDirective);
          r();
        });
        setTimeout(r, 5000);
      });
      let fetched = false;
      try {
        // Another port on the loopback address is another origin.
        await fetch('http://127.0.0.1:9/chunks', { method: 'POST', body: 'secret text' });
        fetched = true;
      } catch {
        fetched = false;
      }
      await seen;
      return { fetched, violations };
    });
    assert.equal(outcome.fetched, false, 'the cross-origin request went through');
    assert.deepEqual(outcome.violations, ['connect-src'], 'the page saw one connect-src violation');
    // The harness must have caught the same violation itself, by both of its
    // detectors (options.expect below fails the test otherwise): the
    // document's event and Chromium's two console lines about it.
  },
  {
    expect: {
      policyViolations: [
        /^event: connect-src http:\/\/127\.0\.0\.1:9/,
        /^console: .*127\.0\.0\.1:9\/chunks.*connect-src/,
        /^console: Fetch API cannot load http:\/\/127\.0\.0\.1:9\/chunks\. Refused to connect/,
      ],
    },
  },
);

e2e(
  'a page the app opens elsewhere is caught as a request outside the site',
  async ({ page }) => {
    // A popup is another page of the same browser context: only listeners on
    // the context see its requests. The navigation itself is not the policy's
    // to stop, so the harness's own detector is what must catch it.
    const popup = page.waitForEvent('popup');
    await page.evaluate(() => window.open('http://127.0.0.1:9/elsewhere', '_blank'));
    await (await popup).waitForLoadState('domcontentloaded').catch(() => {});
  },
  { expect: { offsite: [/^GET http:\/\/127\.0\.0\.1:9\/elsewhere$/] } },
);

e2e(
  'an error logged to the console fails a test unless it is expected',
  async ({ page }) => {
    await page.evaluate(() => console.error('chunkscope e2e: a deliberate console error'));
  },
  { expect: { consoleErrors: [/^chunkscope e2e: a deliberate console error$/] } },
);

e2e('splitting, comparing, exporting and sharing stay on the page', async ({ page }) => {
  await byTestId(page, 'size-input').fill('25');
  await byTestId(page, 'strategy-select').selectOption('compare');
  await byTestId(page, 'pane-fixed').locator('[data-testid=chunk]').first().waitFor();
  const download = page.waitForEvent('download');
  await byTestId(page, 'export-json').click();
  await download;
  await byTestId(page, 'share-link').click();
  // The harness fails this test if any of it reached beyond the page's origin.
});
