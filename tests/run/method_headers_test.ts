/**
 * Near-identical steps written once: the method may come from a variable
 * (checked when the request is made: a bad one is an error of the step), and
 * `omit_empty_headers` leaves out a header whose value renders empty
 * (issue 40, item 7c).
 */
import assert from "node:assert/strict";
import { runFlowText } from "../support/cli.ts";

function serve() {
  const seen: { method: string; ifMatch: string | null; trace: string | null }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({
      method: req.method,
      ifMatch: req.headers.get("if-match"),
      trace: req.headers.get("x-trace"),
    });
    if (new URL(req.url).pathname === "/verb") return Response.json({ verb: "GE T" });
    return Response.json({ ok: true });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

/** `text` run as a flow file, its JSON report read back (null when none was written). */
const run = (text: string) => runFlowText(text, {});

Deno.test("the method comes from a var, a data row or a capture", async () => {
  const api = serve();
  try {
    const r = await run(`name: verbs
vars: {verb: delete}
data:
  - {m: put}
  - {m: PATCH}
steps:
  - name: by var
    request: {method: "\${vars.verb}", url: "${api.url}/a"}
    assert: {status: 200}
  - name: by row
    request: {method: "\${vars.m}", url: "${api.url}/a", body: {x: 1}}
    assert: {status: 200}
`);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(api.seen.map((s) => s.method).sort(), ["DELETE", "DELETE", "PATCH", "PUT"]);
    const steps = r.report.flows.flatMap((f: { steps: { request: { method: string } }[] }) =>
      f.steps.map((s) => s.request.method)
    );
    assert.deepEqual(steps.sort(), ["DELETE", "DELETE", "PATCH", "PUT"]);
  } finally {
    await api.close();
  }
});

Deno.test("a method that resolves to no HTTP method is an error of the step, nothing sent", async () => {
  const api = serve();
  try {
    const r = await run(`name: bad verbs
steps:
  - name: get_verb
    request: {url: "${api.url}/verb"}
    capture: {verb: $.json.verb}
  - name: use verb
    request: {method: "\${steps.get_verb.capture.verb}", url: "${api.url}/b"}
`);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(api.seen.length, 1, "the bad method was not sent");
    const step = r.report.flows[0].steps[1];
    assert.equal(step.status, "error");
    assert.match(
      step.message,
      /^The method "\$\{steps\.get_verb\.capture\.verb\}" is "GE T": "GE T" is not an HTTP method\. Use GET/,
    );
    assert.doesNotMatch(
      r.stdout + r.stderr,
      /ExpressionError|at .*\.ts:\d+:\d+\)?$/m,
      "no stack trace",
    );
  } finally {
    await api.close();
  }
});

Deno.test("TRACE from a var, and a body on a GET from a var, are step errors", async () => {
  const api = serve();
  try {
    const r = await run(`name: refused verbs
vars: {a: trace, b: get}
steps:
  - name: trace
    always: true
    request: {method: "\${vars.a}", url: "${api.url}/c"}
  - name: get with body
    always: true
    request: {method: "\${vars.b}", url: "${api.url}/c", body: {x: 1}}
`);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(api.seen.length, 0);
    const [trace, get] = r.report.flows[0].steps;
    assert.match(trace.message, /"trace" requests cannot be sent by flowrun/);
    assert.match(get.message, /A GET request cannot have a body/);
  } finally {
    await api.close();
  }
});

Deno.test("omit_empty_headers leaves out a header whose value renders empty", async () => {
  const api = serve();
  try {
    const r = await run(`name: headers
vars: {etag: "", trace: t-1}
options: {omit_empty_headers: true}
steps:
  - name: omitted
    request:
      url: "${api.url}/d"
      headers: {If-Match: "\${vars.etag}", X-Trace: "\${vars.trace}"}
  - name: kept here
    options: {omit_empty_headers: false}
    request:
      url: "${api.url}/d"
      headers: {If-Match: "\${vars.etag}"}
`);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(api.seen, [
      { method: "GET", ifMatch: null, trace: "t-1" },
      { method: "GET", ifMatch: "", trace: null },
    ]);
  } finally {
    await api.close();
  }
});

Deno.test("omit_empty_headers leaves out a header reading an optional capture that found nothing", async () => {
  const api = serve();
  try {
    // /d answers no "tag": the capture is left unset, and X-Trace, which reads it, is not sent.
    const r = await run(`name: headers
options: {omit_empty_headers: true}
steps:
  - name: first
    request: {url: "${api.url}/d"}
    capture:
      tag: {path: $.json.tag, optional: true}
      ok: $.json.ok
  - name: without
    request:
      url: "${api.url}/d"
      headers: {X-Trace: "tag \${steps.first.capture.tag}", If-Match: "\${steps.first.ok}"}
`);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(api.seen.at(-1), { method: "GET", ifMatch: "true", trace: null });
  } finally {
    await api.close();
  }
});

Deno.test("omit_empty_headers leaves out a header whose every expression renders empty", async () => {
  const api = serve();
  try {
    // `tag ${vars.etag}` says nothing without its value (a bearer token left empty is not sent).
    const r = await run(`name: headers
vars: {etag: "", trace: t-1}
options: {omit_empty_headers: true}
steps:
  - name: words around empty
    request:
      url: "${api.url}/d"
      headers: {If-Match: "W/\${vars.etag}", X-Trace: "tag \${vars.trace}"}
  - name: words alone
    request:
      url: "${api.url}/d"
      headers: {X-Trace: "tag"}
`);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(api.seen, [
      { method: "GET", ifMatch: null, trace: "tag t-1" },
      { method: "GET", ifMatch: null, trace: "tag" },
    ]);
  } finally {
    await api.close();
  }
});

Deno.test("a constant bad method is still a load problem, and a bad switch value too", async () => {
  const r = await run(`name: x
steps:
  - name: s
    options: {omit_empty_headers: maybe}
    request: {method: "GE T", url: "http://127.0.0.1:9/"}
`);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr + r.stdout, /error\[bad-method\]: "GE T" is not an HTTP method/);
  assert.match(r.stderr + r.stdout, /omit_empty_headers/);
});
