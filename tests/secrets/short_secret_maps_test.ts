/**
 * A map, header name, field name or method a request takes from an expression
 * (`headers: "${vars.h}"`, `method: "${vars.m}"`) that cannot be sent says why in flowrun's words
 * around what the expression gave:
 * `The map "${vars.h}" cannot be sent: header name "wrong name" is not an HTTP token.`,
 * `The headers "${ENV.PASSWORD_7}" are the string "***", not a map of names to values.` With short
 * secrets that are those very words (passwords `cannot`, `sent`, `header`, `token`, `string`,
 * `values`, `method`) and values of the map (`wrong`, also base64 and percent-encoded, `tags`,
 * `1234`), each value a message quotes is masked where the message is made and its words are not,
 * in every artifact; a secret of 8 characters or more is masked anywhere.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowText, saidEverywhere, sendsPasswords } from "./short_secret_artifacts.ts";

/** Sends every password; then hands a request maps that cannot be sent. */
const MAPS = `name: maps
vars:
  bad: {wrong name: "1"}
  twice: {x-a: "1", X-A: "2"}
  nested: {tags: {a: 1}}
  n: 1234
  sp: wrong name
  cut: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa wrongs tail"
  coded: {x-d3Jvbmc: {a: 1}}
  pct: {"wr%6Fng": {a: 1}}
steps:
${sendsPasswords("send", 11)}
  - name: name
    always: true
    request: {url: "\${BASE_URL}/items", headers: "\${vars.bad}"}
  - name: twice
    always: true
    request: {url: "\${BASE_URL}/items", headers: "\${vars.twice}"}
  - name: nested
    always: true
    request: {url: "\${BASE_URL}/items", query: "\${vars.nested}"}
  - name: string
    always: true
    request: {url: "\${BASE_URL}/items", headers: "\${ENV.PASSWORD_7}"}
  - name: header
    always: true
    request: {url: "\${BASE_URL}/items", headers: {"x-\${vars.sp}": "1"}}
  - name: field
    always: true
    request:
      method: POST
      url: "\${BASE_URL}/items"
      form: {"\${ENV.PASSWORD_6}": a, values: b}
  - name: number
    always: true
    request: {url: "\${BASE_URL}/items", query: "\${vars.n}"}
  - name: coded
    always: true
    request: {url: "\${BASE_URL}/items", headers: "\${vars.coded}"}
  - name: encoded
    always: true
    request: {url: "\${BASE_URL}/items", query: "\${vars.pct}"}
  - name: method
    always: true
    request: {method: "\${vars.sp}", url: "\${BASE_URL}/items"}
  - name: cut
    always: true
    request: {url: "\${BASE_URL}/items", headers: "\${vars.cut}"}
  - name: long
    always: true
    request: {url: "\${BASE_URL}/items", query: "\${ENV.API_TOKEN}"}
`;

const ENV = {
  PASSWORD_1: "cannot",
  PASSWORD_2: "sent",
  PASSWORD_3: "header",
  PASSWORD_4: "token",
  PASSWORD_5: "string",
  PASSWORD_6: "values",
  PASSWORD_7: "wrong",
  PASSWORD_8: "tags",
  PASSWORD_9: "1234",
  PASSWORD_10: "method",
  PASSWORD_11: "wrongs",
  API_TOKEN: "tok-9f8e7d6c5b",
};

Deno.test("a map that cannot be sent masks the values it quotes, never its words", async () => {
  const w = await runFlowText(MAPS, ENV);
  assert.equal(w.code, 1, w.console);
  const steps = w.report.flows[0].steps;
  const said = [
    'The map "${vars.bad}" cannot be sent: header name "*** name" is not an HTTP token.',
    'The map "${vars.twice}" cannot be sent: header "X-A" is given twice.',
    'The map "${vars.nested}" cannot be sent: parameter "***" is a map: ' +
    "a parameter is a value or a list of values.",
    'The headers "${ENV.PASSWORD_7}" are the string "***", not a map of names to values.',
    'The header name "x-${vars.sp}" gives "x-*** name", which is not an HTTP token ' +
    "(letters, digits and !#$%&'*+.^_`|~-).",
    'The field name "${ENV.PASSWORD_6}" gives "***", the name of another field of the body: ' +
    "write one field, or a list to repeat it.",
    'The query parameters "${vars.n}" are number ***, not a map of names to values.',
    'The map "${vars.coded}" cannot be sent: header "x***" is a map, not a single value.',
    'The map "${vars.pct}" cannot be sent: parameter "***" is a map: ' +
    "a parameter is a value or a list of values.",
    'The method "${vars.sp}" is "*** name": "*** name" is not an HTTP method. ' +
    "Use GET, POST, PUT, PATCH, DELETE, …",
    'The headers "${vars.cut}" are the string "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ***…", not a map of names to values.',
    'The query parameters "${ENV.API_TOKEN}" are the string "***", not a map of names to values.',
  ];
  assert.deepEqual(steps.slice(1).map((s) => s.message), said);

  // Every artifact says the same: the console, JUnit, the log, the HTML report's data.
  saidEverywhere(w, said);

  // No value a password or the token stood in is shown, in any artifact.
  const leaks = [
    "q=cannot",
    "wrong name",
    '"wrong"',
    "d3Jvbmc",
    "wron…",
    "wr%6Fng",
    "tok-9f8e7d6c5b",
    "tok-9f8e",
  ];
  noLeak(w, leaks, /\*\*\* be \*\*\*|HTTP \*\*\*|The \*\*\*|the \*\*\* "|of names to \*\*\*/);
});
