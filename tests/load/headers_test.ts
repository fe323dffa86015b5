/** A request's `headers` and `cookies` (lib/load/headers.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import "../support/engines.ts";

const load = (more: string) =>
  loadFlow(
    `name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test", ${more}}\n`,
    "t.yaml",
  );
const codes = (more: string) => load(more).problems.map((p) => p.code);

Deno.test("headers: a token name once, a one-line Latin-1 value", () => {
  assert.deepEqual(codes("headers: {accept: application/json, x-n: 5}"), []);
  assert.deepEqual(codes('headers: {"a b": x}'), ["bad-header"]);
  assert.deepEqual(codes("headers: {Accept: x, accept: y}"), ["duplicate-header"]);
  assert.deepEqual(codes("headers: {a: [x]}"), ["wrong-type"]);
  assert.deepEqual(codes('headers: {a: "x\\ny"}'), ["bad-header"]);
  const [wide] = load('headers: {a: "caf€"}').problems;
  assert.match(wide.message, /holds "€" \(U\+20AC\)/);
  assert.deepEqual(codes("headers: [a]"), ["wrong-type"]);
});

Deno.test("a number as a header or cookie value is its text, not a template", () => {
  const { flow } = load('headers: {x-n: 5}, cookies: {n: 7, sid: "${ENV.SID:-s}"}');
  const request = flow?.steps[0].request;
  assert.deepEqual(request?.headers[0][1].parts, ["5"]);
  assert.deepEqual(request?.cookies?.map(([name]) => name), ["n", "sid"]);
  assert.deepEqual(codes("cookies: {sid: {a: 1}}"), ["wrong-type"]);
  assert.deepEqual(codes("cookies: [sid]"), ["wrong-type"]);
});

Deno.test("a header name may hold an expression: its written parts a token's, its value checked when sent", () => {
  // Syncthing names its anti-CSRF header after the instance: x-csrf-token-<device>.
  const { flow, problems } = loadFlow(
    'name: f\nvars: {device: 2EWQW}\nsteps:\n  - name: s\n    request: {url: "http://x.test", ' +
      'headers: {"x-csrf-token-${vars.device}": "${ENV.TOKEN:-t}"}}\n',
    "t.yaml",
  );
  assert.deepEqual(problems, []);
  const [name, , nameFrom] = flow!.steps[0].request!.headers[0];
  assert.equal(name, "x-csrf-token-${vars.device}");
  assert.equal(nameFrom?.source, "x-csrf-token-${vars.device}");
  assert.equal(flow!.steps[0].request!.headers.length, 1);
  // Around the expression, the name is still a token; the expression itself must be valid.
  assert.deepEqual(codes('headers: {"x token-${ENV.D:-d}": a}'), ["bad-header"]);
  assert.deepEqual(codes('headers: {"x-${vars.nowhere}": a}'), ["unknown-var"]);
  assert.equal(codes('headers: {"x-${vars.}": a}').length, 1);
  // An escaped "$${" is text, and braces are no token's.
  assert.deepEqual(codes('headers: {"x-$${a}": a}'), ["bad-header"]);
  // A plain name has no template.
  assert.equal(load("headers: {accept: x}").flow!.steps[0].request!.headers[0][2], undefined);
});
