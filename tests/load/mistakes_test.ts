/**
 * A corpus of 80 mistakes newcomers make, each with the one problem it must get:
 * its code, the position of the mistake, what the message says and the fix
 * the hint gives. The list only grows; a message may get better, never
 * vaguer. Also the mistakes that only show when the flow runs, and those that
 * need files or the environment (includes, ENV variables), through the CLI.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

/** A flow whose first step logs in and captures `token`; the mistake is in the step after it. */
const flow = (step: string) =>
  `name: f\nvars: {user: ann}\nsteps:\n  - name: login\n    request: {method: POST, url: "http://x.test/login"}\n    capture: {token: $.json.token}\n${step}`;

interface Mistake {
  /** The second step's YAML (indented), or a whole file (starting at column 1). */
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
  "sleep_ms with a spelled-out unit": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    loop: {max_attempts: 3, sleep_ms: 1 second, until: {status: 200}}\n`,
    code: "wrong-type",
    line: 9,
    column: 39,
    message: 'Expected "sleep_ms" of step "s" to be a duration, got the string "1 second"',
    hint: "a number with a unit: 500ms, 5s, 2m",
  },
  "{{token}} from Postman": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test", headers: {authorization: "Bearer {{token}}"}}\n`,
    code: "foreign-expression",
    line: 8,
    column: 70,
    message: '"{{token}}" would be sent as it is',
    hint: "Write ${steps.login.capture.token}",
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
  "a capture map with a CSS selector": {
    yaml: `  - name: s\n    request: {url: "http://x.test"}\n    capture: {t: {selector: h1}}\n`,
    code: "unknown-key",
    line: 9,
    column: 19,
    message: 'Unknown key "selector"',
    hint: "use xpath",
  },
  "a key indented one space too far": {
    yaml: '  - name: s\n     request: {url: "http://x.test"}\n',
    code: "yaml-syntax",
    line: 8,
    column: 6,
    message:
      'YAML syntax error: "request" on line 8 is indented 5 spaces, but "name" (line 7) is indented 4',
    hint: 'indent "request" 4 spaces, like "name" on line 7',
  },
  "a tab for indentation": {
    yaml: '  - name: s\n\trequest: {url: "http://x.test"}\n',
    code: "yaml-syntax",
    line: 8,
    column: 1,
    message: "YAML syntax error: line 8 is indented with a tab; YAML indents with spaces only",
    hint: "Indent with spaces, not tabs: replace the indentation of line 8 with 4 spaces",
  },
  "steps as a map": {
    yaml: 'name: f\nsteps:\n  login:\n    request: {url: "http://x.test"}\n',
    code: "wrong-type",
    line: 3,
    column: 3,
    message: 'Expected "steps" to be a non-empty list, got a map',
    hint: 'Write each step as a list item: "- name: login".',
  },
  "a step without its dash": {
    yaml: '    name: s\n    request: {url: "http://x.test"}\n',
    code: "yaml-syntax",
    line: 7,
    column: 5,
    message: 'YAML syntax error: the step on line 7 has no "- ", so its keys repeat',
    hint: 'A new step starts with "- ": write "  - name:" her',
  },
  "json checks as a map": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    assert: {json: {path: $.json.id, exists: true}}\n',
    code: "wrong-type",
    line: 9,
    column: 20,
    message: 'Expected "json" in "assert" of step "s" to be a li',
    hint: 'Write each check as a list item: "- {path: $.json.',
  },
  "a check that is only a path": {
    yaml: '  - name: s\n    request: {url: "http://x.test"}\n    assert: {json: [$.json.id]}\n',
    code: "wrong-type",
    line: 9,
    column: 21,
    message: 'Expected a check in "assert" of step "s" to be a m',
    hint: 'Write it as "key: value" lines indented under its ',
  },
  "a path without $": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n        - {path: json.id, exists: true}\n',
    code: "bad-path",
    line: 11,
    column: 18,
    message: "Invalid JSONPath \"json.id\": expected '$', found 'j",
    hint: 'Paths start at "$", e.g. "$.json.id".',
  },
  "depends_on in a cycle": {
    yaml:
      '  - name: a\n    depends_on: b\n    request: {url: "http://x.test"}\n  - name: b\n    depends_on: a\n    request: {url: "http://x.test"}\n',
    code: "dependency-cycle",
    line: 8,
    column: 17,
    message: "The depends_on of these steps form a cycle: a → b ",
    hint: "Remove one of these dependencies so the steps can ",
  },
  "max_attempts: 0": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    loop: {max_attempts: 0, until: {status: 200}}\n',
    code: "wrong-type",
    line: 9,
    column: 26,
    message: 'Expected "max_attempts" of step "s" to be an integ',
    hint: "It counts the requests sent, at least 1: e.g. max_",
  },
  "max_attempts beyond the bound": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    loop: {max_attempts: 100000, until: {status: 200}}\n',
    code: "out-of-range",
    line: 9,
    column: 26,
    message: 'Expected "max_attempts" of step "s" to be at most ',
    hint: "Polling is bounded so a run always ends; a longer ",
  },
  "a relative url": {
    yaml: "  - name: s\n    request: {url: /items}\n",
    code: "bad-url",
    line: 8,
    column: 20,
    message: '"/items" is not an absolute http or https URL.',
    hint: "Write the full URL, e.g. ${ENV.BASE_URL}/items or ",
  },
  "a url without scheme": {
    yaml: '  - name: s\n    request: {url: "localhost:8080/x"}\n',
    code: "bad-url",
    line: 8,
    column: 20,
    message: '"localhost:8080/x" is not an absolute http or http',
    hint: "Write the full URL, e.g. ${ENV.BASE_URL}/items or ",
  },
  "headers as a list": {
    yaml:
      '  - name: s\n    request:\n      url: "http://x.test"\n      headers:\n        - accept: json\n',
    code: "wrong-type",
    line: 11,
    column: 9,
    message: 'Expected the headers of step "s" to be a map, got ',
    hint: "Write one header per line under it, e.g. headers: ",
  },
  "a HEAD with a body": {
    yaml: '  - name: s\n    request: {method: HEAD, url: "http://x.test", body: x}\n',
    code: "bad-method",
    line: 8,
    column: 51,
    message: "A HEAD request cannot have a body: the HTTP client",
    hint: "Send the data in the URL's query, or use POST.",
  },
  "a flow without name": {
    yaml: 'steps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "missing-key",
    line: 1,
    column: 1,
    message: 'Missing key "name" in the flow.',
    hint: 'Add "name: …", e.g. name: checkout.',
  },
  "an empty steps list": {
    yaml: "name: f\nsteps: []\n",
    code: "wrong-type",
    line: 2,
    column: 8,
    message: 'Expected "steps" to be a non-empty list, got an em',
    hint: 'Write each step as a list item: "- name: login".',
  },
  "capture as a single path": {
    yaml: '  - name: s\n    request: {url: "http://x.test"}\n    capture: $.json.token\n',
    code: "wrong-type",
    line: 9,
    column: 14,
    message: 'Expected "capture" of step "s" to be a map of name',
    hint: "For example: capture: {token: $.json.token}",
  },
  "a var used before it is defined": {
    yaml:
      'name: f\nvars:\n  a: "${vars.b}"\n  b: 1\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "unknown-var",
    line: 3,
    column: 7,
    message: 'Var "b" is used before it is defined (in "${vars.b',
    hint: "Vars are evaluated in order; move it above the var",
  },
  "${ENV.x} in the wrong case": {
    yaml: '  - name: s\n    request: {url: "${ENV.base_url}/x"}\n',
    code: "unset-env",
    line: 8,
    column: 21,
    message: 'Environment variable "base_url" is not set (used i',
    hint: "Did you mean ${ENV.BASE_URL}? BASE_URL is set; env",
  },
  "${RANDOM.uuid} in lower case": {
    yaml: '  - name: s\n    request: {url: "http://x.test/${RANDOM.uuid}"}\n',
    code: "bad-expression",
    line: 8,
    column: 35,
    message: 'Unknown random value "${RANDOM.uuid}".',
    hint: "Did you mean ${RANDOM.UUID}? Use ${RANDOM.UUID}, ${RANDOM.HEX_<n>}",
  },
  "${run_id} in lower case": {
    yaml: '  - name: s\n    request: {url: "http://x.test/${run_id}"}\n',
    code: "unknown-name",
    line: 8,
    column: 35,
    message: '"run_id" is not a flow var, run parameter or envir',
    hint: 'Did you mean "${RUN_ID}"?',
  },
  "status: 2xx": {
    yaml: '  - name: s\n    request: {url: "http://x.test"}\n    assert: {status: 2xx}\n',
    code: "wrong-type",
    line: 9,
    column: 22,
    message: 'Expected "status" to be a status code from 100 to 599 or {anyOf: [',
    hint: "Any 2xx is written with bounds: status: {gte: 200, lt: 300}.",
  },
  "status anyOf with one code": {
    yaml: '  - name: s\n    request: {url: "http://x.test"}\n    assert: {status: {anyOf: 200}}\n',
    code: "wrong-type",
    line: 9,
    column: 30,
    message: 'Expected "anyOf" to be a non-empty list of status ',
    hint: "For example: status: {anyOf: [200, 201]}.",
  },
  "type: int": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n        - {path: $.json.id, type: int}\n',
    code: "wrong-type",
    line: 11,
    column: 35,
    message: 'Expected "type" to be one of string, number, integ',
    hint: 'Did you mean "integer"?',
  },
  "exists: yes": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n        - {path: $.json.id, exists: yes}\n',
    code: "wrong-type",
    line: 11,
    column: 37,
    message: 'Expected "exists" to be true or false, got the str',
    hint: "Write exists: true (it must be there) or exists: f",
  },
  "length as a string": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n        - {path: $.json.id, length: "3"}\n',
    code: "wrong-type",
    line: 11,
    column: 37,
    message: 'Expected "length" to be a non-negative integer, go',
    hint: "Write the size as a number, unquoted: length: 3.",
  },
  "a negative sleep_ms": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    loop: {max_attempts: 3, sleep_ms: -1, until: {status: 200}}\n',
    code: "out-of-range",
    line: 9,
    column: 39,
    message: 'Expected "sleep_ms" of step "s" to be from 0 ms to 1 h',
    hint: "Write at least 0 for none.",
  },
  "a loop without until": {
    yaml: '  - name: s\n    request: {url: "http://x.test"}\n    loop: {max_attempts: 3}\n',
    code: "missing-key",
    line: 9,
    column: 5,
    message: 'Missing key "until" in "loop" of step "s".',
    hint: "Add the condition to wait for, e.g. until: {json: ",
  },
  "a spelling B path in loop.until.json": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    loop:\n      max_attempts: 3\n      until:\n        json:\n          - {path: $.state, equals: done}\n',
    code: "bad-path",
    line: 13,
    column: 21,
    message: 'Path "$.state" does not start at $.json, $.status ',
    hint: 'Under "capture", "assert.json" and "loop.until.jso',
  },
  "a description key": {
    yaml: 'name: f\ndescription: hi\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "unknown-key",
    line: 2,
    column: 1,
    message: 'Unknown key "description" in the flow.',
    hint: 'A flow has "name", "vars" and "steps"; use a YAML ',
  },
  "vars as a list": {
    yaml: 'name: f\nvars: [a, b]\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "wrong-type",
    line: 2,
    column: 7,
    message: 'Expected "vars" to be a map of names to values, go',
    hint: "For example: vars: {user: demo}",
  },
  "a var name with a space": {
    yaml: 'name: f\nvars: {my var: 1}\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "bad-name",
    line: 2,
    column: 8,
    message: 'Var name "my var" cannot be referenced.',
    hint: 'Use letters, digits, "_" and "-", starting with a ',
  },
  "an empty flow name": {
    yaml: 'name:\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n',
    code: "wrong-type",
    line: 1,
    column: 6,
    message: 'Expected "name" to be a non-empty string, got null',
    hint: "Name the flow, e.g. name: checkout.",
  },
  "request as a URL string": {
    yaml: '  - name: s\n    request: "http://x.test"\n',
    code: "wrong-type",
    line: 8,
    column: 14,
    message: 'Expected "request" of step "s" to be a map, got th',
    hint: 'Write it as "key: value" lines indented under its ',
  },
  "a header set twice in different case": {
    yaml:
      '  - name: s\n    request:\n      url: "http://x.test"\n      headers: {Content-Type: a, content-type: b}\n',
    code: "duplicate-header",
    line: 10,
    column: 34,
    message: 'Header "content-type" is set twice in step "s" (al',
    hint: "Header names are case-insensitive; keep one.",
  },
  "assert as a list": {
    yaml: '  - name: s\n    request: {url: "http://x.test"}\n    assert: [{status: 200}]\n',
    code: "wrong-type",
    line: 9,
    column: 13,
    message: 'Expected "assert" of step "s" to be a map, got a l',
    hint: "Drop the [ ]: write the map itself, e.g. {status: 200}",
  },
  "an alias never defined": {
    yaml: '  - name: s\n    request: {<<: *defaults, url: "http://x.test"}\n',
    code: "yaml-syntax",
    line: 8,
    column: 19,
    message: 'Unknown alias "*defaults".',
    hint: 'Define it first with "&defaults".',
  },
  "a step that depends on itself": {
    yaml: '  - name: s\n    depends_on: s\n    request: {url: "http://x.test"}\n',
    code: "dependency-cycle",
    line: 8,
    column: 17,
    message: 'Step "s" depends on itself.',
    hint: 'Remove "s" from its depends_on.',
  },
  "a step using its own capture": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test/${steps.s.capture.id}"}\n    capture: {id: $.json.id}\n',
    code: "later-step",
    line: 8,
    column: 35,
    message: 'Step "s" uses its own captured value in "${steps.s',
    hint: "Values are captured after the response arrives; us",
  },
  "a key given twice": {
    yaml: '  - name: s\n    request: {url: "http://x.test"}\n    request: {url: "http://y.test"}\n',
    code: "yaml-syntax",
    line: 9,
    column: 5,
    message: 'YAML syntax error: "request" is given twice in one map, on line 8 and line 9',
    hint: "Each key may appear once in a map; remove or renam",
  },
  "value: instead of an operator": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n        - {path: $.json.id, value: 3}\n',
    code: "unknown-key",
    line: 11,
    column: 29,
    message: 'Unknown key "value" in a check in "assert" of step',
    hint: 'Name the operator, e.g. "equals: <value>".',
  },
  "timeout in request": {
    yaml: '  - name: s\n    request: {url: "http://x.test", timeout: 5000}\n',
    code: "unknown-key",
    line: 8,
    column: 37,
    message: 'Unknown key "timeout" in "request" of step "s".',
    hint: 'A step\'s timeout goes under its "options": options: {timeout: 5s}.',
  },
  "params (from other tools) for query": {
    yaml: '  - name: s\n    request: {url: "http://x.test", params: {a: 1}}\n',
    code: "unknown-key",
    line: 8,
    column: 37,
    message: 'Unknown key "params" in "request" of step "s".',
    hint: 'Did you mean "query"?',
  },
  "expect for assert": {
    yaml: '  - name: s\n    request: {url: "http://x.test"}\n    expect: {status: 200}\n',
    code: "unknown-key",
    line: 9,
    column: 5,
    message: 'Unknown key "expect" in step "s".',
    hint: 'Did you mean "assert"?',
  },
  "capture and extract of one name": {
    yaml:
      '  - name: s\n    request: {url: "http://x.test"}\n    capture: {id: $.json.id}\n    extract: {id: $.id}\n',
    code: "duplicate-capture",
    line: 10,
    column: 15,
    message: 'step "s" captures "id" twice.',
    hint: "Give each captured value its own name.",
  },
  "an unclosed ${": {
    yaml: '  - name: s\n    request: {url: "http://x.test/${vars.user"}\n',
    code: "bad-expression",
    line: 8,
    column: 35,
    message: 'Unclosed expression "${vars.user": "${" has no mat',
    hint: 'Close it with "}", or write "$${" for a literal "$',
  },
  "a misspelt capture in spelling B": {
    yaml: '  - name: s\n    request: {url: "http://x.test/${steps.login.tokn}"}\n',
    code: "unknown-capture",
    line: 8,
    column: 35,
    message: 'Step "login" captures no value "tokn" (in "${steps',
    hint: 'Did you mean "token"?',
  },
  "a step without request": {
    yaml: "  - name: s\n    assert: {status: 200}\n",
    code: "missing-key",
    line: 7,
    column: 5,
    message: 'Missing key "request" in step "s".',
    hint: 'Add "request: {method: GET, url: …}".',
  },
  "a mistake inside an anchor, reported at each alias": {
    yaml:
      'name: f\nx-req: &req {url: /relative}\nsteps:\n  - name: a\n    request: {method: GET, url: "http://x.test"}\n  - name: b\n    request: *req\n',
    code: "bad-url",
    line: 7,
    column: 14,
    message: '(in the anchor "&req" at line 2:19)',
    hint: "Write the full URL",
  },
  "a misspelt capture inside an anchor of headers": {
    yaml:
      'name: f\nx-auth: &auth {authorization: "Bearer ${steps.login.capture.tokn}"}\nsteps:\n  - name: login\n    request: {url: "http://x.test/login"}\n    capture: {token: $.json.token}\n  - name: a\n    request: {url: "http://x.test", headers: *auth}\n',
    code: "unknown-capture",
    line: 8,
    column: 46,
    message: 'in the anchor "&auth" at line 2:39',
    hint: 'Did you mean "token"?',
  },
  "use: from other tools for include": {
    yaml: `  - name: s\n    use: shared/login.yaml\n`,
    code: "unknown-key",
    line: 8,
    column: 5,
    message: 'Unknown key "use" in step "s".',
    hint: 'Did you mean "include"?',
  },
  "with: on a step that sends a request": {
    yaml: `  - name: s\n    request: {url: "http://x.test"}\n    with: {user: bob}\n`,
    code: "unknown-key",
    line: 9,
    column: 5,
    message: 'Unknown key "with" in step "s".',
    hint: 'add "include: shared/file.yaml"',
  },
  "else in a check group without if": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n        - checks: [{path: $.json.n, gt: 0}]\n          else: [{path: $.json.n, equals: 0}]\n`,
    code: "missing-key",
    line: 12,
    column: 11,
    message: 'The "else" checks of a check group',
    hint: "Add the condition",
  },
  "then: for a group's checks": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n        - if: {path: $.json.items, notEquals: []}\n          then: [{path: $.json.n, gt: 0}]\n`,
    code: "unknown-key",
    line: 12,
    column: 11,
    message: 'Unknown key "then" in a check group',
    hint: 'The checks of a group go under "checks"',
  },
  "an unquoted filter as a group's at": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n        - {at: $.json.items[?@.id == 1], checks: [{path: $.n, exists: true}]}\n`,
    code: "yaml-syntax",
    line: 11,
    column: 28,
    message: "must be quoted",
    hint: 'Quote it: - {at: "$.json.items[?@.id == 1]"',
  },
  // Issue 40, item 5: one mistake is one problem, at the place to fix.
  "a misspelt key in a shared check list, read by three aliases": {
    yaml: "name: f\nx-article: &article\n  - {path: $.title, type: string}\n" +
      "  - {path: $.slug, tpye: string}\nsteps:\n" +
      ["a", "b", "c"].map((s) =>
        `  - name: ${s}\n    request: {url: "http://x.test/${s}"}\n` +
        "    assert: {json: [{at: $.json.article, checks: *article}]}\n"
      ).join(""),
    code: "unknown-key",
    line: 8,
    column: 50,
    message:
      'Unknown key "tpye" in a check in "assert" of step "a" (in the anchor "&article" at line 4:20)',
    hint: 'Did you mean "type"?',
  },
  "an unquoted bracket path inside { }, with steps after it": {
    yaml: `  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n` +
      `        - {path: $.json.items[0].id, equals: 1}\n    capture:\n      first: $.json.items[0].id\n` +
      `  - name: t\n    request: {url: "http://x.test/\${steps.s.capture.first}"}\n`,
    code: "yaml-syntax",
    line: 11,
    column: 30,
    message: "must be quoted",
    hint: 'Quote it: - {path: "$.json.items[0].id", equals: 1}',
  },
  "a spelling B path under a capture, then used twice": {
    yaml: `  - name: s\n    request: {url: "http://x.test"}\n    capture: {id: $.id}\n` +
      `  - name: t\n    request: {url: "http://x.test/\${steps.s.capture.id}"}\n` +
      `    assert: {json: [{path: $.json.id, equals: "\${steps.s.capture.id}"}]}\n`,
    code: "bad-path",
    line: 9,
    column: 20,
    message: 'Path "$.id" does not start at $.json',
    hint: 'e.g. "$.json.id"',
  },
  // Issue 40, item 1: a timeout from a var was refused as "not a duration", with no word of why.
  "an expression in a timeout": {
    yaml:
      `  - name: s\n    request: {url: "http://x.test"}\n    options: {timeout: "\${vars.user}"}\n`,
    code: "expression-not-allowed",
    line: 9,
    column: 25,
    message: '"timeout" of step "s" cannot hold an expression ("${vars.user}")',
    hint: "No option takes an expression: options are read when the flow loads. Write the value",
  },
};

for (const [name, m] of Object.entries(MISTAKES)) {
  Deno.test(`mistake: ${name} → one problem with the fix`, () => {
    const text = /^\s/.test(m.yaml) ? flow(m.yaml) : m.yaml;
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

Deno.test("a misspelt --var is a warning with the name it probably meant; the run goes on", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-var-" });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ ok: true }),
  );
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f\nvars: {user: ann}\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:${server.addr.port}/\${vars.user}"}\n`,
    );
    const run = await runCli(["run", dir, "--var", "usr=bo", "--var", "user=cy"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stderr,
      /warning\[unused-var\]: --var usr is not used by any of the 1 flow .*\n {2}hint: Did you mean --var user=…\?/,
    );
    assert.doesNotMatch(run.stderr, /--var user is not used/);
    // With a filter the set is partial: no warning.
    const filtered = await runCli(["run", dir, "--var", "usr=bo", "--filter", "f"]);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.doesNotMatch(filtered.stderr, /unused-var/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 40, item 6: "did you mean" where it helps most, through the CLI as a user meets it.
Deno.test("validate says what a misspelt capture, include file or environment name meant", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-near-" });
  try {
    await Deno.mkdir(`${dir}/shared`);
    await Deno.writeTextFile(
      `${dir}/shared/login.yaml`,
      `name: login\nsteps:\n  - name: p\n    request: {url: "http://x.test"}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f\nsteps:\n  - name: login\n    request: {url: "\${ENV.API_BASE_ULR}"}\n` +
        `    capture: {token: $.json.token}\n` +
        `  - name: me\n    request:\n      url: "http://x.test/me"\n` +
        `      headers: {authorization: "Bearer \${steps.login.capture.tokn}"}\n` +
        `  - name: shared\n    include: shared/login.yml\n`,
    );
    const secret = "s3cr3t-base-url-value";
    const run = await runCli(["validate", `${dir}/f.yaml`], { env: { API_BASE_URL: secret } });
    assert.equal(run.code, 2, run.stderr);
    const out = (run.stdout + run.stderr).replaceAll(`${dir}/`, "");
    const problems = out.split("\n").filter((l) => / error\[/.test(l));
    assert.deepEqual(problems.map((l) => l.replace(/ error\[([a-z-]+)\].*/, " $1")), [
      "f.yaml:4:21 unset-env",
      "f.yaml:9:40 unknown-capture",
      "f.yaml:11:14 file-read",
    ]);
    assert.match(out, /hint: Did you mean \$\{ENV\.API_BASE_URL\}\? API_BASE_URL is set\./);
    assert.match(out, /hint: Did you mean "token"\?/);
    assert.match(out, /hint: Did you mean "shared\/login\.yaml"\?/);
    // Only the name is shown: never the value of the variable it meant.
    assert.ok(!out.includes(secret), out);
    // A spelling B ${NAME} that is no var gets the set environment variable it nearly spells.
    await Deno.writeTextFile(
      `${dir}/b.yaml`,
      `name: b\nsteps:\n  - name: s\n    request: {url: "\${API_BASE_ULR}/x"}\n`,
    );
    const b = await runCli(["validate", `${dir}/b.yaml`], { env: { API_BASE_URL: secret } });
    assert.equal(b.code, 2, b.stderr);
    assert.match(
      b.stdout + b.stderr,
      /error\[unknown-name\].*\n.*\n.*\n {2}hint: Did you mean "\$\{API_BASE_URL\}"\?/,
    );
    assert.ok(!(b.stdout + b.stderr).includes(secret));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 40, item 5: an include cycle was one problem per file on it.
Deno.test("mistake: an include cycle → one problem, at the include that closes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-cycle-" });
  try {
    await Deno.mkdir(`${dir}/shared`);
    const includes = (name: string, path: string) =>
      `name: ${name}\nsteps:\n  - name: s\n    include: ${path}\n`;
    await Deno.writeTextFile(`${dir}/f.yaml`, includes("f", "shared/a.yaml"));
    await Deno.writeTextFile(`${dir}/shared/a.yaml`, includes("a", "b.yaml"));
    await Deno.writeTextFile(`${dir}/shared/b.yaml`, includes("b", "a.yaml"));
    for (const args of [["validate", dir], ["validate", `${dir}/f.yaml`], ["run", dir]]) {
      const run = await runCli(args);
      assert.equal(run.code, 2, run.stderr);
      const out = (run.stdout + run.stderr).replaceAll(`${dir}/`, "");
      const problems = out.split("\n").filter((l) => / error\[/.test(l));
      assert.deepEqual(problems, [
        'shared/b.yaml:4:14 error[include-cycle]: Including "a.yaml" makes a cycle: ' +
        "shared/a.yaml → shared/b.yaml → shared/a.yaml.",
      ], args.join(" "));
      assert.match(out, /hint: A flow cannot include itself, directly or through another/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 40, item 5: a misspelt check key in a shared login flow gave 9 problems, 1 + 1 per includer.
Deno.test("mistake: a misspelt key in a file eight flows include → one problem, in that file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-shared-" });
  try {
    await Deno.mkdir(`${dir}/common`);
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeTextFile(
      `${dir}/common/login.yaml`,
      `name: login\nsteps:\n  - name: p\n    request: {url: "http://x.test"}\n` +
        `    assert:\n      json:\n        - {path: $.json.token, exits: true}\n`,
    );
    for (let i = 1; i <= 8; i++) {
      await Deno.writeTextFile(
        `${dir}/flows/f${i}.yaml`,
        `name: f${i}\nsteps:\n  - name: login\n    include: ../common/login.yaml\n`,
      );
    }
    for (const command of ["validate", "run"]) {
      const run = await runCli([command, `${dir}/flows`]);
      assert.equal(run.code, 2, run.stderr);
      const out = (run.stdout + run.stderr).replaceAll(`${dir}/`, "");
      const problems = out.split("\n").filter((l) => / error\[/.test(l));
      assert.deepEqual(problems, [
        'common/login.yaml:7:32 error[unknown-key]: Unknown key "exits" in a check in "assert" of step "p".',
      ], command);
      assert.match(out, /hint: Did you mean "exists"\?/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 40, item 6a: a path that finds nothing names the key of the response it nearly spells,
// in both spellings, in a check and a capture, in the console and the JSON report.
Deno.test("mistake at run time: a path one letter off a key of the response says which key", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-near-key-" });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ article: { slug: "hi", favorited: true, favoritesCount: 1 } }),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const step = (name: string, rest: string) =>
      Deno.writeTextFile(
        `${dir}/flows/${name}.yaml`,
        `name: ${name}\nsteps:\n  - name: s\n    request: {url: "${url}"}\n    ${rest}\n`,
      );
    await Deno.mkdir(`${dir}/flows`);
    await step("a", "assert: {json: [{path: $.json.article.favourited, equals: true}]}");
    await step("b", "assert: {jsonpath: [{path: $.article.favoritesCont, equals: 1}]}");
    await step("c", "extract: {slug: $.article.slgu}");
    const run = await runCli(
      ["run", `${dir}/flows`, "--report-json", `${dir}/r.json`, "--no-color"],
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const flows = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).flows;
    type Step = { assertions: { passed: boolean; message: string }[]; message?: string };
    const messages = flows.map(({ steps: [s] }: { steps: Step[] }) =>
      s.assertions.find((a) => !a.passed)?.message ?? s.message
    );
    assert.match(messages[0], /did you mean "\$\.json\.article\.favorited"\?/);
    assert.match(messages[1], /did you mean "\$\.article\.favoritesCount"\?/);
    assert.match(messages[2], /did you mean "\$\.article\.slug"\?/);
    for (const m of messages) assert.ok(run.stdout.includes(m), `${m}\n${run.stdout}`);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 40, item 5, the same classes where a suite meets them: in a shared file, a setup file.
Deno.test("mistake: a spelling B capture path in a shared login, an include of itself, a setup cycle → one problem each", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-one-each-" });
  const write = (path: string, text: string) => Deno.writeTextFile(`${dir}/${path}`, text);
  try {
    await Deno.mkdir(`${dir}/flows`);
    await Deno.mkdir(`${dir}/common`);
    await write(
      "common/login.yaml",
      `name: login\nsteps:\n  - name: p\n    request: {url: "http://x.test"}\n` +
        `    capture: {token: $.token}\noutputs: {token: "\${steps.p.capture.token}"}\n`,
    );
    for (const n of [1, 2, 3]) {
      await write(
        `flows/f${n}.yaml`,
        `name: f${n}\nsteps:\n  - name: login\n    include: ../common/login.yaml\n` +
          `  - name: me\n    request:\n      url: "http://x.test/me"\n` +
          `      headers: {authorization: "Bearer \${steps.login.capture.token}"}\n`,
      );
    }
    await write("self.yaml", "name: self\nsteps:\n  - name: again\n    include: self.yaml\n");
    await write(
      "setup.yaml",
      `name: setup\nsteps:\n  - name: s\n    include: common/login.yaml\n  - name: t\n    include: setup.yaml\n` +
        `outputs: {token: "\${steps.s.capture.token}"}\n`,
    );
    const cases: [string[], string[]][] = [
      [["validate", "flows"], ["common/login.yaml:5:23 bad-path"]],
      [["run", "flows"], ["common/login.yaml:5:23 bad-path"]],
      [["validate", "self.yaml"], ["self.yaml:4:14 include-cycle"]],
      [
        ["run", "--setup", "setup.yaml", "self.yaml"],
        [
          "common/login.yaml:5:23 bad-path",
          "self.yaml:4:14 include-cycle",
          "setup.yaml:6:14 include-cycle",
        ],
      ],
    ];
    for (const [args, expected] of cases) {
      const run = await runCli(args, { cwd: dir });
      assert.equal(run.code, 2, run.stdout + run.stderr);
      const problems = (run.stdout + run.stderr).split("\n").filter((l) => / error\[/.test(l));
      assert.deepEqual(
        problems.map((l) => l.replace(/ error\[([a-z-]+)\].*/, " $1")),
        expected,
        args.join(" "),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 40, item 5: after a line that breaks { }, a next line that breaks one too is its own
// mistake, pointed at its own value (it was pointed at the start of its line).
Deno.test("mistake: two lines with unquoted bracket paths → two problems, each at its value", () => {
  const { problems } = loadFlow(
    flow(
      `  - name: s\n    request: {url: "http://x.test"}\n` +
        `    assert: {json: [{path: $.json.items[0].id, equals: 1}]}\n` +
        `    capture: {first: $.json.items[0].id, n: $.json.n}\n`,
    ),
    "t.yaml",
  );
  assert.deepEqual(
    problems.map((p) => [p.code, p.line, p.column, p.hint]),
    [
      ["yaml-syntax", 9, 40, 'Quote it: assert: {json: [{path: "$.json.items[0].id", equals: 1}]}'],
      ["yaml-syntax", 10, 34, 'Quote it: capture: {first: "$.json.items[0].id", n: $.json.n}'],
    ],
  );
});

// Issue 40, item 5, as a user meets it: `flowrun validate` on an unquoted bracket path inside
// { } (the corpus's mistake, whose later lines the parser, out of step, trips on too) prints one
// problem at the value to quote, not one per line after it; quoted, the file validates.
Deno.test("mistake: validate on an unquoted bracket path inside { } prints one problem, at its value", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bracket-" });
  try {
    const corpus = MISTAKES["an unquoted bracket path inside { }, with steps after it"];
    const cases = [
      {
        text: flow(corpus.yaml),
        at: `${corpus.line}:${corpus.column}`,
        from: "{path: $.json.items[0].id",
        to: '{path: "$.json.items[0].id"',
      },
      {
        text: flow(
          `  - name: s\n    request: {url: "http://x.test"}\n    capture: {first: $.json.items[0].id}\n` +
            `  - name: t\n    request: {url: "http://x.test/\${steps.s.capture.first}"}\n`,
        ),
        at: "9:34",
        from: "{first: $.json.items[0].id}",
        to: '{first: "$.json.items[0].id"}',
      },
    ];
    for (const { text, at, from, to } of cases) {
      const file = `${dir}/f.yaml`;
      await Deno.writeTextFile(file, text);
      const run = await runCli(["validate", file]);
      const out = (run.stdout + run.stderr).replaceAll(`${dir}/`, "");
      assert.equal(run.code, 2, out);
      const problems = out.split("\n").filter((l) => / error\[/.test(l));
      assert.deepEqual(problems.map((l) => l.replace(/ error\[([a-z-]+)\].*/, " $1")), [
        `f.yaml:${at} yaml-syntax`,
      ]);
      assert.match(out, /must be quoted/);
      const hint = out.split("\n").find((l) => l.startsWith("  hint: "));
      assert.ok(hint?.startsWith("  hint: Quote it: ") && hint.includes(to), out);
      assert.match(out, /^1 problem in 1 file; 1 file checked\.$/m);
      // Quoted as the hint says, nothing is left.
      assert.equal(text.split(from).length, 2, `"${from}" is not once in the file`);
      await Deno.writeTextFile(file, text.replace(from, () => to));
      const fixed = await runCli(["validate", file]);
      assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
      assert.doesNotMatch(fixed.stdout + fixed.stderr, /error\[/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
