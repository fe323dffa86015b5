/**
 * A step's `foreach` as the flow loads (lib/load/foreach.ts): the list is one
 * expression or a written list, `as` a usable name that is not a flow var,
 * the bound within its cap, its list and `if` unable to read the element,
 * and a misspelt key one problem with a did-you-mean. Checked through
 * `flowrun validate --format json`, as a user meets them.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

interface Problem {
  code: string;
  message: string;
  line: number;
  column: number;
  hint?: string;
}

const HEAD = (vars: string) =>
  `name: f
vars: ${vars}
steps:
  - name: list
    request: {url: "\${vars.base}/list"}
    capture: {ids: $.json.ids}
`;

/** The problems `validate` finds in a flow of HEAD and `step` (indented as a list item). */
async function problemsOf(
  step: string,
  vars = '{base: "http://x.test", id: 1}',
): Promise<Problem[]> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-foreach-load-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, HEAD(vars) + step);
    const run = await runCli(["validate", "--format", "json", `${dir}/f.yaml`]);
    const problems = run.stdout.trim() === "" ? [] : JSON.parse(run.stdout) as Problem[];
    assert.equal(run.code, problems.length === 0 ? 0 : 2, run.stdout + run.stderr);
    return problems;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const brief = (ps: Problem[]) => ps.map((p) => `${p.line}:${p.column} ${p.code}`);

Deno.test("a foreach over a capture, a written list, and the element in both spellings loads", async () => {
  const problems = await problemsOf(`  - name: each
    foreach: "\${steps.list.capture.ids}"
    as: item_id
    max_iterations: 50
    request: {url: "\${vars.base}/items/\${vars.item_id}?i=\${item_id_index}", headers: {x-id: "\${item_id}"}}
  - name: fixed
    foreach: [a, "\${vars.base}"]
    request: {url: "\${vars.base}/\${vars.item}/\${vars.item_index}"}
  - name: after
    request: {url: "\${vars.base}/\${steps.each.capture.missing}"}
`);
  // The element is the step's own: a later step reading it, or a capture it lacks, is a problem.
  assert.deepEqual(brief(problems), ["16:34 unknown-capture"]);
});

Deno.test("foreach's value must be one expression or a list", async () => {
  for (const value of ['"ids: ${steps.list.capture.ids}"', "{a: 1}", "3", "plain"]) {
    const [p, ...rest] = await problemsOf(`  - name: each
    foreach: ${value}
    request: {url: "\${vars.base}/x"}
`);
    assert.equal(rest.length, 0, value);
    assert.equal(p.code, "wrong-type", value);
    assert.equal(`${p.line}:${p.column}`, "8:14", value);
    assert.match(
      p.message,
      /^Expected "foreach" of step "each" to be one expression that gives a list, or a list, got /,
    );
    assert.match(p.hint!, /foreach: "\$\{steps\.list\.capture\.ids\}"/);
  }
});

Deno.test("an element named like a flow var is one problem at its name", async () => {
  const named = await problemsOf(`  - name: each
    foreach: [1, 2]
    as: id
    request: {url: "\${vars.base}/\${vars.id}"}
`);
  assert.deepEqual(brief(named), ["9:9 bad-name"]);
  assert.equal(
    named[0].message,
    'The foreach of step "each" names its element "id", which is a flow var too.',
  );
  // The default name conflicts too, reported at "foreach"; so does the index's name.
  const byDefault = await problemsOf(
    `  - name: each
    foreach: [1, 2]
    request: {url: "\${vars.base}/\${vars.item}"}
`,
    '{base: "http://x.test", item: 1}',
  );
  assert.deepEqual(brief(byDefault), ["8:5 bad-name"]);
  assert.match(byDefault[0].hint!, /^Name the element with "as", e\.g\. as: item_value/);
  const index = await problemsOf(
    `  - name: each
    foreach: [1, 2]
    as: n
    request: {url: "\${vars.base}/\${vars.n}"}
`,
    '{base: "http://x.test", n_index: 0}',
  );
  assert.deepEqual(brief(index), ["9:9 bad-name"]);
  assert.equal(
    index[0].message,
    'The foreach of step "each" names its index "n_index", which is a flow var too.',
  );
});

Deno.test("as must be a name expressions can read, not a reserved one", async () => {
  for (
    const [as, message] of [
      ['"2x"', '"2x" cannot name the element of a foreach: expressions could not read it.'],
      ["RUN_ID", '"RUN_ID" is reserved and cannot name the element of a foreach.'],
      ["steps", '"steps" is reserved and cannot name the element of a foreach.'],
    ]
  ) {
    const problems = await problemsOf(`  - name: each
    foreach: [1, 2]
    as: ${as}
    request: {url: "http://x.test/"}
`);
    assert.deepEqual(brief(problems), ["9:9 bad-name"], as);
    assert.equal(problems[0].message, message);
  }
});

Deno.test("max_iterations is bounded, and as or max_iterations without foreach is one problem", async () => {
  const over = await problemsOf(`  - name: each
    foreach: [1, 2]
    max_iterations: 10001
    request: {url: "http://x.test/"}
`);
  assert.deepEqual(brief(over), ["9:21 out-of-range"]);
  assert.match(over[0].hint!, /at most 10000/);
  const stray = await problemsOf(`  - name: each
    as: id2
    request: {url: "http://x.test/"}
`);
  assert.deepEqual(brief(stray), ["8:5 missing-key"]);
  assert.equal(
    stray[0].message,
    '"as" of step "each" belongs to a "foreach", but the step has none.',
  );
});

Deno.test("the list and if of a foreach cannot read its element: one problem each, saying why", async () => {
  const problems = await problemsOf(`  - name: each
    foreach: "\${steps.list.capture.ids}"
    if: {value: "\${vars.item}", exists: true}
    request: {url: "http://x.test/\${vars.item}"}
  - name: self
    foreach: "\${item}"
    request: {url: "http://x.test/\${item}"}
`);
  assert.deepEqual(brief(problems), ["9:18 unknown-var", "12:15 unknown-var"]);
  for (const p of problems) {
    assert.match(p.message, /reads the foreach element "item" before it exists/);
  }
});

Deno.test("a misspelt foreach is one problem with a did-you-mean, its element's uses none", async () => {
  for (const key of ["for_each", "forEach", "range", "foreach_", "each"]) {
    const problems = await problemsOf(`  - name: each
    ${key}: "\${steps.list.capture.ids}"
    as: item_id
    request: {url: "http://x.test/\${vars.item_id}"}
`);
    assert.deepEqual(brief(problems), ["8:5 unknown-key"], key);
    assert.match(problems[0].hint!, /Did you mean "foreach"\?/, key);
  }
  const max = await problemsOf(`  - name: each
    foreach: [1]
    max_iteration: 3
    request: {url: "http://x.test/"}
`);
  assert.deepEqual(brief(max), ["9:5 unknown-key"]);
  assert.equal(max[0].hint, 'Did you mean "max_iterations"?');
});

Deno.test("an include step takes foreach; its with reads the element", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-foreach-load-" });
  try {
    await Deno.writeTextFile(
      `${dir}/del.yaml`,
      'name: del\nvars: {id: 0}\nsteps:\n  - name: delete\n    request: {method: DELETE, url: "http://x.test/${vars.id}"}\n',
    );
    const flow = (value: string) =>
      `name: f\nsteps:\n  - name: drop\n    foreach: [1, 2]\n    as: n\n    include: del.yaml\n    with: {id: "${value}"}\n`;
    await Deno.writeTextFile(`${dir}/f.yaml`, flow("${vars.n}-${n_index}"));
    const ok = await runCli(["validate", `${dir}/f.yaml`]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    await Deno.writeTextFile(`${dir}/f.yaml`, flow("${vars.m}"));
    const run = await runCli(["validate", "--format", "json", `${dir}/f.yaml`]);
    const problems = JSON.parse(run.stdout) as Problem[];
    assert.deepEqual(brief(problems), ["7:17 unknown-var"], run.stdout);
    assert.equal(problems[0].hint, 'Did you mean "${vars.n}"?');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runn's loop count, or foreach inside a loop, is one problem pointing at foreach", async () => {
  for (const loop of ["{count: 3}", '{foreach: "${steps.list.capture.ids}"}']) {
    const problems = await problemsOf(`  - name: each
    request: {url: "http://x.test/"}
    loop: ${loop}
`);
    assert.deepEqual(brief(problems), ["9:12 unknown-key"], loop);
    assert.match(problems[0].hint!, /"foreach"/);
  }
});

Deno.test("as and max_iterations are read as the flow loads: an expression there is refused", async () => {
  for (
    const [key, value, column] of [["as", '"${vars.base}"', 10], [
      "max_iterations",
      '"${vars.id}"',
      22,
    ]] as const
  ) {
    const problems = await problemsOf(`  - name: each
    foreach: [1, 2]
    ${key}: ${value}
    request: {url: "http://x.test/"}
`);
    assert.deepEqual(brief(problems), [`9:${column} expression-not-allowed`], key);
  }
});
