/**
 * A corpus of mistakes newcomers make, each with the one problem it must get:
 * its code, the position of the mistake, what the message says and the fix
 * the hint gives. The list only grows; a message may get better, never
 * vaguer. Also the mistakes that only show when the flow runs.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../lib/load.ts";
import { runFlows } from "../lib/run.ts";

/** A flow whose first step logs in and captures `token`; the mistake is in the step after it. */
const flow = (step: string) =>
  `name: f\nvars: {user: ann}\nsteps:\n  - name: login\n    request: {method: POST, url: "http://x.test/login"}\n    capture: {token: $.json.token}\n${step}`;

interface Mistake {
  /** The second step's YAML, or a whole file when it starts with "name:". */
  yaml: string;
  code: string;
  line: number;
  column: number;
  message: string;
  hint: string;
}

const MISTAKES: Record<string, Mistake> = {
  "captures: for capture:": {
    yaml: `  - name: s\n    request: {url: "http://x.test"}\n    captures: {id: $.json.id}\n`,
    code: "unknown-key",
    line: 9,
    column: 5,
    message: 'Unknown key "captures" in step "s".',
    hint: 'Did you mean "capture"?',
  },
  "status as a string": {
    yaml: `  - name: s\n    request: {url: "http://x.test"}\n    assert: {status: "200"}\n`,
    code: "wrong-type",
    line: 9,
    column: 22,
    message: 'got the string "200"',
    hint: "status: 200",
  },
  "sleep_ms with a unit": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    loop: {max_attempts: 3, sleep_ms: 1s, until: {status: 200}}\n`,
    code: "wrong-type",
    line: 9,
    column: 39,
    message: '"sleep_ms" of step "s" to be an integer',
    hint: "Write milliseconds as a number: 1000.",
  },
  "{{token}} from Postman": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test", headers: {authorization: "Bearer {{token}}"}}\n`,
    code: "foreign-expression",
    line: 8,
    column: 70,
    message: '"{{token}}" would be sent as it is',
    hint: "Write ${token}",
  },
  "{steps…} without $": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test", headers: {authorization: "Bearer {steps.login.capture.token}"}}\n`,
    code: "foreign-expression",
    line: 8,
    column: 70,
    message: '"{steps.login.capture.token}" would be sent as it is',
    hint: "Write ${steps.login.capture.token}.",
  },
  "spelling B path under assert.json": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    assert: {json: [{path: $.id, exists: true}]}\n`,
    code: "bad-path",
    line: 9,
    column: 29,
    message: 'Path "$.id" does not start at $.json',
    hint: 'e.g. "$.json.id"',
  },
  "misspelt step": {
    yaml: `  - name: s\n    request: {url: "http://x.test/\${steps.logn.capture.token}"}\n`,
    code: "unknown-step",
    line: 8,
    column: 35,
    message: 'Unknown step "logn"',
    hint: 'Did you mean "login"?',
  },
  "misspelt capture": {
    yaml: `  - name: s\n    request: {url: "http://x.test/\${steps.login.capture.tokn}"}\n`,
    code: "unknown-capture",
    line: 8,
    column: 35,
    message: 'captures no value "tokn"',
    hint: 'Did you mean "token"?',
  },
  "misspelt var": {
    yaml: `  - name: s\n    request: {url: "http://x.test/\${vars.usr}"}\n`,
    code: "unknown-var",
    line: 8,
    column: 35,
    message: 'Unknown var "usr"',
    hint: 'Did you mean "${vars.user}"?',
  },
  "method beside request": {
    yaml: `  - name: s\n    method: GET\n    request: {url: "http://x.test"}\n`,
    code: "unknown-key",
    line: 8,
    column: 5,
    message: 'Unknown key "method"',
    hint: 'The method belongs under "request:".',
  },
  "eq for equals": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    assert: {json: [{path: $.json.id, eq: 1}]}\n`,
    code: "unknown-key",
    line: 9,
    column: 39,
    message: 'Unknown key "eq"',
    hint: 'Did you mean "equals"?',
  },
  "type: str": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    assert: {json: [{path: $.json.id, type: str}]}\n`,
    code: "wrong-type",
    line: 9,
    column: 45,
    message: 'got the string "str"',
    hint: 'Did you mean "string"?',
  },
  "a step name twice": {
    yaml: `  - name: login\n    request: {url: "http://x.test"}\n`,
    code: "duplicate-step",
    line: 7,
    column: 11,
    message: 'Duplicate step name "login".',
    hint: 'the first "login" is at line 4',
  },
  "a GET with a body": {
    yaml: `  - name: s\n    request: {url: "http://x.test", body: {a: 1}}\n`,
    code: "bad-method",
    line: 8,
    column: 37,
    message: "A GET request cannot have a body",
    hint: "use POST",
  },
  "unquoted [ inside { }": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    assert: {json: [{path: $.json.items[0].id, exists: true}]}\n`,
    code: "yaml-syntax",
    line: 9,
    column: 40,
    message: "inside { } or [ ], a value holding",
    hint: 'Quote it: assert: {json: [{path: "$.json.items[0].id", exists: true}]}',
  },
  "unquoted ${…} inside { }": {
    yaml: `  - name: s\n    request: {url: \${ENV.BASE_URL}/x}\n`,
    code: "yaml-syntax",
    line: 8,
    column: 21,
    message: "must be quoted",
    hint: 'Quote it: request: {url: "${ENV.BASE_URL}/x"}',
  },
  "a capture of a later step": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test/\${steps.t.capture.x}"}\n  - name: t\n    request: {url: "http://x.test"}\n    capture: {x: $.json.x}\n`,
    code: "later-step",
    line: 8,
    column: 35,
    message: 'step "t" runs after it',
    hint: "add depends_on: [t]",
  },
  "no url": {
    yaml: `  - name: s\n    request: {method: GET}\n`,
    code: "missing-key",
    line: 8,
    column: 5,
    message: 'Missing key "url"',
    hint: "url: ${ENV.BASE_URL}/health",
  },
  "anyOf with one value": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    assert: {json: [{path: $.json.id, anyOf: 1}]}\n`,
    code: "wrong-type",
    line: 9,
    column: 46,
    message: 'Expected "anyOf" to be a list',
    hint: "anyOf: [a, b]",
  },
  "an unbounded loop": {
    yaml: `  - name: s\n    request: {url: "http://x.test"}\n    loop: {until: {status: 200}}\n`,
    code: "missing-key",
    line: 9,
    column: 5,
    message: 'Missing key "max_attempts"',
    hint: "Polling must be bounded",
  },
  "${env.X} in lower case": {
    yaml: `  - name: s\n    request: {url: "\${env.BASE_URL}/x"}\n`,
    code: "bad-expression",
    line: 8,
    column: 21,
    message: 'Unknown expression "${env.BASE_URL}"',
    hint: 'Did you mean "${ENV.BASE_URL}"?',
  },
  "a capture map with xpath": {
    yaml: `  - name: s\n    request: {url: "http://x.test"}\n    capture: {t: {xpath: //title}}\n`,
    code: "unknown-key",
    line: 9,
    column: 19,
    message: 'Unknown key "xpath"',
    hint: "use regex on the body text",
  },
};

for (const [name, m] of Object.entries(MISTAKES)) {
  Deno.test(`mistake: ${name} → one problem with the fix`, () => {
    const text = m.yaml.startsWith("name:") ? m.yaml : flow(m.yaml);
    const { problems } = loadFlow(text, "t.yaml", {
      env: (n) => n === "BASE_URL" ? "http://x.test" : undefined,
    });
    assert.equal(problems.length, 1, JSON.stringify(problems, null, 2));
    const [p] = problems;
    assert.equal(p.code, m.code);
    assert.deepEqual([p.line, p.column], [m.line, m.column], p.message);
    assert.ok(p.message.includes(m.message), p.message);
    assert.ok(p.hint?.includes(m.hint), `${p.hint}`);
  });
}

Deno.test("mistakes that only show at run time say what to write instead", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ id: 7 }, { headers: { "X-Request-Id": "r-1" } }),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const { flow: loaded, problems } = loadFlow(
      `name: f\nsteps:\n  - name: s\n    request: {url: "${url}"}\n` +
        `    capture: {rid: $.headers.X-Request-Id}\n` +
        `    assert:\n      json: [{path: $.headers.Content-Type, matches: json}]\n` +
        `      jsonpath: [{path: $.json.id, equals: 7}]\n`,
      "t.yaml",
    );
    assert.deepEqual(problems, []);
    const result = await runFlows([loaded!], { runId: "r" });
    const step = result.flows[0].steps[0];
    // Header names in paths compare case-insensitively, as in HTTP.
    assert.deepEqual(step.captures, ["rid"]);
    assert.ok(step.assertions[0].passed, step.assertions[0].message);
    // A spelling A path under spelling B's jsonpath gets the fix.
    assert.equal(
      step.assertions[1].message,
      '$.json.id: nothing matched (under "jsonpath" and "extract" the body is $: did you mean $.id?)',
    );
  } finally {
    await server.shutdown();
  }
});
