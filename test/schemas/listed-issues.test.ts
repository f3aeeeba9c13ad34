import { MAX_ISSUE_TEXT, MAX_LISTED_ISSUES, clipText, describeProblems, jsonPathSegments, listIssues, toJsonPath, type Issue } from '../../src/schemas';

// What an answer, a journal entry or a scenario file's error lists of many issues (docs/fidelity.md row 96).

const issue = (index: number): Issue => ({ path: `$.k${index}`, code: 'unknown_field', message: `"k${index}" is not a known field here` });

test('listIssues keeps the first MAX_LISTED_ISSUES in order and counts the others, with those already left out', () => {
  const issues = Array.from({ length: 250 }, (_, index) => issue(index));
  expect(listIssues(issues)).toEqual({ issues: issues.slice(0, MAX_LISTED_ISSUES), omitted: 150 });
  expect(listIssues(issues.slice(0, 3), 7)).toEqual({ issues: issues.slice(0, 3), omitted: 7 });
});

test('clipText keeps text up to the limit as it is and ends longer text with its length, in the limit, never splitting a surrogate pair', () => {
  expect(clipText('x'.repeat(MAX_ISSUE_TEXT))).toBe('x'.repeat(MAX_ISSUE_TEXT));
  const clipped = clipText('x'.repeat(5_000));
  expect(clipped).toMatch(/^x+… \(5000 characters in all\)$/);
  expect(clipped).toHaveLength(MAX_ISSUE_TEXT);
  const emoji = clipText('😀'.repeat(2_000), 41);
  expect(emoji).toMatch(/^(😀)+… \(4000 characters in all\)$/);
  expect(emoji.length).toBeLessThanOrEqual(41);
});

test('describeProblems counts every issue and names the first MAX_LISTED_ISSUES', () => {
  const issues = Array.from({ length: 102 }, (_, index) => issue(index));
  const message = describeProblems(issues, 'scenario');
  expect(message).toMatch(
    /^The scenario has 102 problems: \$\.k0: "k0" is not a known field here; .*\$\.k99: "k99" is not a known field here; and 2 more \(the first 100 are listed\)$/,
  );
  expect(describeProblems([issue(0)], 'form', 4)).toBe('The form has 5 problems: $.k0: "k0" is not a known field here; and 4 more (the first 1 is listed)');
});

test.each([[['entity', 'partners', 1, 'tin']], [['odd.key', 'quo"te', 'a\\b', 'ünï', '0', '']], [['__proto__', 'x y', 7]]])(
  'jsonPathSegments reads back what toJsonPath writes: %j',
  (keys) => {
    expect(jsonPathSegments(toJsonPath(keys))).toEqual(keys);
  },
);
