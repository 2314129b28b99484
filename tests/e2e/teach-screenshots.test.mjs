// Screenshots of the teaching views for human review (1400 and 420 px, light and
// dark), and no horizontal overflow at 420 px.
import { e2e, assert, byTestId } from './harness.mjs';

async function shoot(page, shot, name) {
  const problems = [];
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [1400, 420]) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await shot(`teach-${name}-${width}-${colorScheme}`);
      const wide = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
      if (width === 420 && wide > 1) problems.push(`${name} ${colorScheme}: ${wide}px too wide`);
    }
  }
  return problems;
}

e2e(
  'bug gallery and lessons: screenshots, no overflow at 420 px',
  async ({ page, shot }) => {
    await byTestId(page, 'lesson-select').selectOption('refund');
    let problems = await shoot(page, shot, 'lesson');
    await byTestId(page, 'mode-select').selectOption('bugs');
    await byTestId(page, 'bug-select').selectOption('seed-001');
    problems = problems.concat(await shoot(page, shot, 'bugs'));
    assert.deepEqual(problems, []);
  },
  { finalShot: false, timeout: 90000 },
);
