/**
 * Every hint is tested by following it: for each common mistake the flow is
 * loaded, the problem's hint must describe the edit (the replacement text
 * appears in it), the edit is applied mechanically, and the flow loads again
 * without a problem. A hint that sends a newcomer the wrong way (indent
 * "assert" like a capture's name) fails here, as does a problem with a
 * position but no fix. Also through the CLI: a setup file with load errors
 * gives its own problems, not "the run has none" for every `${setup.x}`.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

/** A flow whose first step logs in and captures `token`; the mistake is in what follows. */
const flow = (rest: string) =>
  `name: f\nvars: {user: ann}\nsteps:\n  - name: login\n    request: {method: POST, url: "http://x.test/login"}\n    capture: {token: $.json.token}\n${rest}`;

/** A second step `s` with `body` (indented keys of the step) after its request. */
const step = (body: string) => flow(`  - name: s\n    request: {url: "http://x.test"}\n${body}`);

interface Hinted {
  /** The whole flow file, with the mistake. */
  yaml: string;
  /** The code of the (first) problem the mistake gets. */
  code: string;
  /** The edit the hint describes: the text `from` (once in the file) becomes `to`. */
  from: string;
  to: string;
  /** What the hint says that names the edit; defaults to `to` trimmed. */
  says?: string[];
}

const HINTED: Record<string, Hinted> = {
  "captures: for capture:": {
    yaml: step("    captures: {id: $.json.id}\n"),
    code: "unknown-key",
    from: "captures:",
    to: "capture:",
    says: ['"capture"'],
  },
  "expect: for assert:": {
    yaml: step("    expect: {status: 200}\n"),
    code: "unknown-key",
    from: "expect:",
    to: "assert:",
    says: ['"assert"'],
  },
  "status as a string": {
    yaml: step('    assert: {status: "200"}\n'),
    code: "wrong-type",
    from: 'status: "200"',
    to: "status: 200",
  },
  "status as a reason phrase": {
    yaml: step("    assert: {status: OK}\n"),
    code: "wrong-type",
    from: "status: OK",
    to: "status: 200",
  },
  "{{token}} from Postman": {
    yaml: flow(
      '  - name: s\n    request: {url: "http://x.test", headers: {authorization: "Bearer {{token}}"}}\n',
    ),
    code: "foreign-expression",
    from: "{{token}}",
    to: "${steps.login.capture.token}",
  },
  "{steps…} without $": {
    yaml: flow('  - name: s\n    request: {url: "http://x.test/{steps.login.capture.token}"}\n'),
    code: "foreign-expression",
    from: "{steps.login.capture.token}",
    to: "${steps.login.capture.token}",
  },
  "spelling B path under assert.json": {
    yaml: step("    assert: {json: [{path: $.id, exists: true}]}\n"),
    code: "bad-path",
    from: "$.id",
    to: "$.json.id",
  },
  "equal for equals": {
    yaml: step("    assert:\n      json:\n        - {path: $.json.id, equal: 1}\n"),
    code: "unknown-key",
    from: "equal:",
    to: "equals:",
    says: ['"equals"'],
  },
  "exists: yes": {
    yaml: step("    assert:\n      json:\n        - {path: $.json.id, exists: yes}\n"),
    code: "wrong-type",
    from: "exists: yes",
    to: "exists: true",
  },
  "length as a string": {
    yaml: step('    assert:\n      json:\n        - {path: $.json.items, length: "3"}\n'),
    code: "wrong-type",
    from: 'length: "3"',
    to: "length: 3",
  },
  "an unquoted bracket path in { }": {
    yaml: step("    assert:\n      json:\n        - {path: $.json.items[0], equals: 1}\n"),
    code: "yaml-syntax",
    from: "- {path: $.json.items[0], equals: 1}",
    to: '- {path: "$.json.items[0]", equals: 1}',
  },
  "a step without its dash": {
    yaml: flow(
      '  - name: s\n    request: {url: "http://x.test"}\n    name: t\n    request: {url: "http://x.test"}\n',
    ),
    code: "yaml-syntax",
    from: "    name: t\n",
    to: "  - name: t\n",
    says: ['"  - name:"'],
  },
  "a step key one space too far": {
    yaml: flow('  - name: s\n     request: {url: "http://x.test"}\n'),
    code: "yaml-syntax",
    from: '     request: {url: "http://x.test"}',
    to: '    request: {url: "http://x.test"}',
    says: ['indent "request" 4 spaces'],
  },
  "assert indented under capture, like its names": {
    yaml: flow(
      '  - name: s\n    request: {url: "http://x.test"}\n    capture:\n      id: $.json.id\n      assert:\n        status: 200\n',
    ),
    code: "unknown-key",
    from: "      assert:\n        status: 200\n",
    to: "    assert:\n      status: 200\n",
    says: ['Indent "assert:" 4 spaces'],
  },
  "assert indented deeper than a capture": {
    yaml: flow(
      '  - name: s\n    request: {url: "http://x.test"}\n    capture:\n      id: $.json.id\n        assert:\n          status: 200\n',
    ),
    code: "yaml-syntax",
    from: "        assert:\n          status: 200\n",
    to: "    assert:\n      status: 200\n",
    says: ['indent "assert" 4 spaces'],
  },
  "assert outdented below the step": {
    yaml: flow(
      '  - name: s\n    request: {url: "http://x.test"}\n    capture:\n      id: $.json.id\n  assert:\n    status: 200\n',
    ),
    code: "yaml-syntax",
    from: "  assert:\n    status: 200\n",
    to: "    assert:\n      status: 200\n",
    says: ['indent "assert" 4 spaces'],
  },
  "assert written as a list": {
    yaml: step("    assert:\n      - status: 200\n"),
    code: "wrong-type",
    from: "      - status: 200",
    to: "      status: 200",
    says: ['Drop the "- "', "status: 200"],
  },
  "assert written as a [ ] list": {
    yaml: step("    assert: [{status: 200}]\n"),
    code: "wrong-type",
    from: "[{status: 200}]",
    to: "{status: 200}",
  },
  "a header name with a space": {
    yaml: flow(
      '  - name: s\n    request: {url: "http://x.test", headers: {"x request id": abc}}\n',
    ),
    code: "bad-header",
    from: '"x request id"',
    to: '"x-request-id"',
  },
  "a header name with its colon": {
    yaml: flow(
      '  - name: s\n    request: {url: "http://x.test", headers: {"Accept:": text/plain}}\n',
    ),
    code: "bad-header",
    from: '"Accept:"',
    to: '"Accept"',
  },
  "a tag YAML reads as a number": {
    yaml: 'name: f\ntags: [1.10]\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "bad-name",
    from: "[1.10]",
    to: '["1.10"]',
    says: ['"1.10"'],
  },
  "a step name YAML reads as a number": {
    yaml: 'name: f\nsteps:\n  - name: 2.0\n    request: {url: "http://x.test"}\n',
    code: "wrong-type",
    from: "name: 2.0",
    to: 'name: "2.0"',
  },
  "a pattern YAML reads as a number": {
    yaml: step("    assert:\n      json:\n        - {path: $.json.v, matches: 1.0}\n"),
    code: "wrong-type",
    from: "matches: 1.0",
    to: 'matches: "1.0"',
  },
  "a query value YAML reads as a number": {
    yaml: flow('  - name: s\n    request: {url: "http://x.test", query: {v: 1.10}}\n'),
    code: "wrong-type",
    from: "v: 1.10",
    to: 'v: "1.10"',
  },
  "a data row value YAML reads as a number": {
    yaml:
      'name: f\ndata:\n  - {version: 1.10}\nsteps:\n  - name: s\n    request: {url: "http://x.test/${version}"}\n',
    code: "wrong-type",
    from: "version: 1.10",
    to: 'version: "1.10"',
  },
  "a misspelt var": {
    yaml: flow('  - name: s\n    request: {url: "http://x.test/${usr}"}\n'),
    code: "unknown-name",
    from: "${usr}",
    to: "${user}",
  },
  "a misspelt capture": {
    yaml: flow('  - name: s\n    request: {url: "http://x.test/${steps.login.capture.tokn}"}\n'),
    code: "unknown-capture",
    from: "capture.tokn}",
    to: "capture.token}",
    says: ['"token"'],
  },
  "a misspelt step in depends_on": {
    yaml: step("    depends_on: [logn]\n"),
    code: "unknown-step",
    from: "[logn]",
    to: "[login]",
    says: ['"login"'],
  },
  "a step used before it runs": {
    yaml: flow(
      '  - name: s\n    request: {url: "http://x.test/${steps.t.capture.id}"}\n  - name: t\n    request: {url: "http://x.test"}\n    capture: {id: $.json.id}\n',
    ),
    code: "later-step",
    from: '  - name: s\n    request: {url: "http://x.test/${steps.t.capture.id}"}\n',
    to:
      '  - name: s\n    request: {url: "http://x.test/${steps.t.capture.id}"}\n    depends_on: [t]\n',
    says: ["depends_on: [t]"],
  },
  "an unclosed expression": {
    yaml: flow('  - name: s\n    request: {url: "http://x.test/${user"}\n'),
    code: "bad-expression",
    from: "${user",
    to: "${user}",
    says: ['Close it with "}"'],
  },
  "a duration in words": {
    yaml: step("    options: {timeout: 5 seconds}\n"),
    code: "wrong-type",
    from: "5 seconds",
    to: "5s",
  },
  "max_attempts: 0": {
    yaml: step("    loop: {max_attempts: 0, sleep_ms: 1s, until: {status: 200}}\n"),
    code: "wrong-type",
    from: "max_attempts: 0",
    to: "max_attempts: 10",
  },
  "always: yes": {
    yaml: step('    always: "yes"\n'),
    code: "wrong-type",
    from: 'always: "yes"',
    to: "always: true",
  },
  "a flow without a name": {
    yaml: 'steps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "missing-key",
    from: "steps:",
    to: "name: checkout\nsteps:",
    says: ["name: checkout"],
  },
  "a name YAML reads as a number": {
    yaml: 'name: 1.10\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "wrong-type",
    from: "name: 1.10",
    to: 'name: "1.10"',
  },
  "a version var YAML reads as 1.1": {
    yaml:
      'name: f\nvars:\n  version: 1.10\nsteps:\n  - name: s\n    request: {url: "http://x.test/${version}"}\n',
    code: "wrong-type",
    from: "version: 1.10",
    to: 'version: "1.10"',
  },
  "a var with a leading zero": {
    yaml:
      'name: f\nvars: {zip: 01234}\nsteps:\n  - name: s\n    request: {url: "http://x.test/${zip}"}\n',
    code: "wrong-type",
    from: "zip: 01234",
    to: 'zip: "01234"',
  },
  "a header YAML reads as a number": {
    yaml: flow('  - name: s\n    request: {url: "http://x.test", headers: {x-api-version: 2.0}}\n'),
    code: "wrong-type",
    from: "x-api-version: 2.0",
    to: 'x-api-version: "2.0"',
  },
  "a url YAML reads as a number": {
    yaml: "name: f\nsteps:\n  - name: s\n    request: {url: 0123}\n",
    code: "wrong-type",
    from: "url: 0123",
    to: 'url: "0123"',
    // Quoted, the url is still not a URL: what matters is that "0123" is no longer a number.
  },
  "an unset environment variable in another case": {
    yaml: flow('  - name: s\n    request: {url: "http://x.test/${ENV.home}"}\n'),
    code: "unset-env",
    from: "${ENV.home}",
    to: "${ENV.HOME}",
  },
};

/** Loads `yaml` as the tests' file, with HOME the one environment variable set. */
const load = (yaml: string) =>
  loadFlow(yaml, "f.yaml", { env: (n) => (n === "HOME" ? "/home/ann" : undefined) });

for (const [name, m] of Object.entries(HINTED)) {
  Deno.test(`hint: ${name} → following it, the flow loads`, () => {
    const before = load(m.yaml).problems;
    const p = before[0];
    assert.ok(p, "the mistake gets no problem");
    assert.equal(p.code, m.code, `${p.code}: ${p.message}`);
    assert.ok(p.hint, `"${p.message}" gives a position but no fix`);
    for (const text of m.says ?? [m.to.trim()]) {
      assert.ok(p.hint.includes(text), `the hint does not say ${JSON.stringify(text)}: ${p.hint}`);
    }
    assert.equal(m.yaml.split(m.from).length, 2, `"${m.from}" is not once in the file`);
    const after = load(m.yaml.replace(m.from, () => m.to)).problems;
    const left = name === "a url YAML reads as a number"
      ? after.filter((q) => q.code === "wrong-type")
      : after;
    assert.deepEqual(left.map((q) => `${q.line}:${q.column} ${q.code}: ${q.message}`), []);
  });
}

Deno.test("the corpus holds at least 25 mistakes, each with its own edit", () => {
  assert.ok(Object.keys(HINTED).length >= 25);
  assert.equal(new Set(Object.values(HINTED).map((m) => m.yaml)).size, Object.keys(HINTED).length);
});

Deno.test("a setup file with load errors gives its own problems, not one per ${setup.x}", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/setup.yaml`,
      'name: setup\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    captur: {base: $.json.base}\noutputs: {a: x}\n',
    );
    await Deno.writeTextFile(
      `${dir}/uses.yaml`,
      'name: u\nsteps:\n  - name: s\n    request: {url: "http://x.test/${setup.a}/${setup.b}"}\n',
    );
    for (const command of ["validate", "run"]) {
      const r = await runCli([command, "--setup", `${dir}/setup.yaml`, `${dir}/uses.yaml`]);
      assert.equal(r.code, 2, r.stderr);
      const out = r.stdout + r.stderr;
      assert.match(out, /setup\.yaml:5:5 error\[unknown-key\]: Unknown key "captur"/);
      assert.doesNotMatch(out, /unknown-output|the run has none/, out);
    }
    // Fixed as the hint says, the setup loads and ${setup.b}, which it does not hand out, is named.
    const text = await Deno.readTextFile(`${dir}/setup.yaml`);
    await Deno.writeTextFile(`${dir}/setup.yaml`, text.replace("captur:", "capture:"));
    const r = await runCli(["validate", "--setup", `${dir}/setup.yaml`, `${dir}/uses.yaml`]);
    assert.equal(r.code, 2);
    assert.match(r.stdout + r.stderr, /No setup flow hands out "b"/);
    assert.doesNotMatch(r.stdout + r.stderr, /"a"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("through validate: the hint for a mis-indented assert, followed, gives no new error", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/login.yaml`;
  try {
    const lines = [
      "name: f",
      "steps:",
      "  - name: login",
      '    request: {method: POST, url: "http://x.test/login"}',
      "    capture:",
      "      token: $.json.token",
      "      assert:",
      "        status: 200",
    ];
    await Deno.writeTextFile(file, lines.join("\n") + "\n");
    const first = await runCli(["validate", file]);
    assert.equal(first.code, 2);
    const hint = /hint: Indent "assert:" (\d+) spaces, like "capture:" on line 5\./.exec(
      first.stdout + first.stderr,
    );
    assert.ok(hint, first.stdout + first.stderr);
    // Applied as written: "assert:" moves to the hint's column, its block with it.
    const shift = 6 - Number(hint[1]);
    const fixed = lines.map((l, i) => (i >= 6 ? l.slice(shift) : l));
    await Deno.writeTextFile(file, fixed.join("\n") + "\n");
    const second = await runCli(["validate", file]);
    assert.equal(second.code, 0, second.stdout + second.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 40, item 10, as a user meets it: a var, header or query value YAML reads as a number is
// one wrong-type problem from `flowrun validate`, at the value, whose hint says "Quote it";
// quoted as it says, the file validates.
Deno.test("through validate: a value YAML reads as a number is one problem; quoted, none", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/f.yaml`;
  const at: Record<string, string> = {
    "a version var YAML reads as 1.1": "3:12",
    "a var with a leading zero": "2:13",
    "a header YAML reads as a number": "8:62",
    "a query value YAML reads as a number": "8:48",
  };
  try {
    for (const [name, position] of Object.entries(at)) {
      const m = HINTED[name];
      await Deno.writeTextFile(file, m.yaml);
      const first = await runCli(["validate", file]);
      const out = (first.stdout + first.stderr).replaceAll(`${dir}/`, "");
      assert.equal(first.code, 2, `${name}: ${out}`);
      const problems = out.split("\n").filter((l) => / error\[/.test(l));
      assert.deepEqual(problems.map((l) => l.replace(/ error\[([a-z-]+)\].*/, " $1")), [
        `f.yaml:${position} wrong-type`,
      ], name);
      assert.ok(out.includes(`  hint: Quote it: ${m.to}.`), `${name}: ${out}`);
      assert.match(out, /^1 problem in 1 file; 1 file checked\.$/m);
      await Deno.writeTextFile(file, m.yaml.replace(m.from, () => m.to));
      const second = await runCli(["validate", file]);
      assert.equal(second.code, 0, `${name}: ${second.stdout}${second.stderr}`);
      assert.doesNotMatch(second.stdout + second.stderr, /error\[|warning\[/, name);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
