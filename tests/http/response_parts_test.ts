/**
 * Every part of a response, in both spellings: headers (any case), cookies
 * with their attributes, status, the final URL, the response time and the
 * raw body, checked with spelling-neutral `headers`, `cookies` and
 * `duration` blocks or spelling A paths, and captured.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlow } from "../../lib/run/flows.ts";
import "../support/engines.ts";

function serve() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/go") return Response.redirect(new URL("/final?x=1", req.url), 302);
    if (url.pathname === "/slow") await new Promise((r) => setTimeout(r, 250));
    const headers = new Headers({ "content-type": "application/json", "X-Request-Id": "r-1" });
    headers.append(
      "set-cookie",
      "sid=s-5e1f; Path=/app; HttpOnly; Secure; SameSite=Lax; Max-Age=60",
    );
    headers.append("set-cookie", "theme=dark; Path=/");
    return new Response('{"ok": true, "n": 2}', { headers });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function run(text: string) {
  const { flow, problems } = loadFlow(text, "r.yaml");
  assert.deepEqual(problems, []);
  return await runFlow(flow!, { runId: "r" });
}

Deno.test("headers, cookies and response time in spelling B's assert; the rest by spelling A paths", async () => {
  const api = serve();
  try {
    const result = await run(`name: r
steps:
  - name: b
    options: {follow_redirects: true}
    request: {url: "${api.url}/go"}
    extract: {n: $.n}
    capture: {final: $.url, rid: {header: X-REQUEST-ID}, secure: $.cookies.sid.secure}
    assert:
      status: 200
      headers: {Content-Type: {matches: json}, x-request-id: r-1, x-missing: {exists: false}}
      cookies: {sid: {exists: true}, theme: dark}
      duration: {lt: 5s}
      jsonpath: [{path: $.ok, equals: true}]
      json:
        - {path: $.cookies.sid.http_only, equals: true}
        - {path: $.cookies.sid.path, equals: /app}
        - {path: $.cookies.sid.max_age, equals: 60}
        - {path: $.cookies.sid.same_site, equals: Lax}
        - {path: $.url, matches: "/final\\\\?x=1$"}
        - {path: $.body, matches: '"n": 2'}
  - name: use
    request: {url: "\${steps.b.capture.final}&rid=\${steps.b.rid}"}
    assert:
      json: [{path: $.url, matches: "rid=r-1$"}]
`);
    const [b, use] = result.steps;
    assert.equal(
      b.status,
      "passed",
      b.assertions.filter((a) => !a.passed).map((a) => a.message).join("; "),
    );
    assert.equal(use.status, "passed", use.message);
    assert.deepEqual(b.captures, ["final", "rid", "secure", "n"]);
    // The cookie's value is a secret in every output.
    assert.ok(!JSON.stringify(result).includes("s-5e1f"));
  } finally {
    await api.close();
  }
});

Deno.test("a response-time check fails with the time it took, in milliseconds", async () => {
  const api = serve();
  try {
    const result = await run(`name: r
steps:
  - name: slow
    request: {url: "${api.url}/slow"}
    assert:
      duration: {lt: 100ms, gte: 0}
`);
    const [lt, gte] = result.steps[0].assertions;
    assert.equal(lt.passed, false);
    assert.equal(lt.name, "response time");
    assert.equal(lt.path, "$.duration_ms");
    assert.equal(lt.expected, 100);
    assert.ok((lt.actual as number) >= 250, String(lt.actual));
    assert.match(lt.message, /^response time: \$\.duration_ms: expected a number < 100, got \d+/);
    assert.ok(gte.passed);
  } finally {
    await api.close();
  }
});

Deno.test("misused response blocks are positioned problems", () => {
  const step = (assert: string) =>
    `name: r\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert: ${assert}\n`;
  const cases: [string, string][] = [
    [
      "{duration: {equals: 5ms}}",
      '5:25 wrong-type: "duration" in "assert" of step "s" takes lt, lte, gt or gte, not "equals".',
    ],
    [
      "{duration: {lt: soon}}",
      '5:29 wrong-type: Expected "lt" to be a number, got the string "soon".',
    ],
    [
      "{headers: [content-type]}",
      '5:23 wrong-type: Expected "headers" in "assert" of step "s" to be a map of names to checks, got a list.',
    ],
    ["{cookies: {sid: {exsits: true}}}", '5:30 unknown-key: Unknown key "exsits" in cookie "sid".'],
  ];
  for (const [block, expected] of cases) {
    const problems = loadFlow(step(block), "r.yaml").problems;
    assert.deepEqual(problems.map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}`), [
      expected,
    ]);
  }
});
