/**
 * Capture sources against a real server: JSONPath (with `first`), headers,
 * cookies the response sets (several Set-Cookie lines, dates with commas,
 * quoted values) and regular expressions over HTML, in both spellings; what
 * a missing value says; and load problems for bad capture maps.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { Redactor } from "../../lib/secrets/mod.ts";
import { toJsonReport } from "../../lib/report/json.ts";
import "../support/engines.ts";

const SESSION = "sess-9c2f7e61b0d84a3f";
const CSRF = "csrf-51f0e2d9a7c3b8e4";

function serve() {
  const received: { path: string; cookie: string | null; csrf: string | null; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    received.push({
      path: url.pathname,
      cookie: req.headers.get("cookie"),
      csrf: req.headers.get("x-csrf-token"),
      body: await req.text(),
    });
    if (url.pathname === "/login") {
      const headers = new Headers({ "content-type": "application/json", "x-request-id": "r-77" });
      headers.append("set-cookie", "theme=dark; Path=/");
      headers.append(
        "set-cookie",
        `sid=${SESSION}; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/; HttpOnly; SameSite=Lax`,
      );
      headers.append("set-cookie", `pref="a b"; Path=/`);
      return new Response(JSON.stringify({ ok: true }), { headers });
    }
    if (url.pathname === "/settings") {
      return new Response(
        `<html><head><meta name="csrf-token" content="${CSRF}"></head><body>Settings</body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    }
    if (url.pathname === "/items") {
      return Response.json({ items: [{ name: "Tea", id: 4 }, { name: "Ruby", id: 9 }] });
    }
    return Response.json({ saved: true });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, received, close: () => server.shutdown() };
}

function load(text: string) {
  const result = loadFlow(text, "t.yaml");
  assert.deepEqual(result.problems, []);
  return result.flow!;
}

for (const spelling of ["a", "b"] as const) {
  Deno.test(`spelling ${spelling}: cookie, header, regex and first-match captures carry a form session`, async () => {
    const api = serve();
    const ref = (step: string, key: string) =>
      spelling === "a" ? `\${steps.${step}.capture.${key}}` : `\${steps.${step}.${key}}`;
    const key = spelling === "a" ? "capture" : "extract";
    const root = spelling === "a" ? "$.json" : "$";
    try {
      const flow = load(`name: form session
steps:
  - name: login
    request: {method: POST, url: "${api.url}/login", body: {user: ann}}
    ${key}:
      sid: {cookie: sid}
      pref: {cookie: pref}
      request_id: {header: X-Request-ID}
  - name: settings
    request: {url: "${api.url}/settings", headers: {cookie: "sid=${ref("login", "sid")}"}}
    ${key}:
      csrf: {regex: 'name="csrf-token" content="([^"]+)"'}
  - name: items
    request: {url: "${api.url}/items"}
    ${key}:
      ruby: {path: "${root}.items[?@.name == 'Ruby'].id", first: true}
      all_ruby: "${root}.items[?@.name == 'Ruby'].id"
  - name: save
    request:
      method: PUT
      url: "${api.url}/settings/${ref("items", "ruby")}"
      headers: {cookie: "sid=${ref("login", "sid")}", x-csrf-token: "${ref("settings", "csrf")}"}
      body: {pref: "${ref("login", "pref")}", rid: "${ref("login", "request_id")}", all: "${
        ref("items", "all_ruby")
      }"}
    assert: {status: 200}
`);
      const redactor = new Redactor();
      const result = await runFlows([flow], { runId: "r", redactor });
      assert.equal(result.status, "passed", JSON.stringify(result.flows[0].steps));
      const save = api.received.at(-1)!;
      assert.equal(save.path, "/settings/9");
      assert.equal(save.cookie, `sid=${SESSION}`);
      assert.equal(save.csrf, CSRF);
      assert.deepEqual(JSON.parse(save.body), { pref: "a b", rid: "r-77", all: [9] });
      // A cookie's value is a credential whatever its capture is called.
      const report = JSON.stringify(toJsonReport(result));
      assert.ok(!report.includes(SESSION), "the session cookie reached the JSON report");
    } finally {
      await api.close();
    }
  });
}

Deno.test("a capture with nothing to take says which source came up empty", async () => {
  const api = serve();
  try {
    const flow = load(`name: empty
steps:
  - name: login
    request: {method: POST, url: "${api.url}/login", body: {}}
    capture:
      a: {cookie: SID}
      b: {header: x-missing}
      c: {regex: 'nothing-(here)'}
      d: {path: "$.json.items[?@.name == 'Nope'].id", first: true}
`);
    const result = await runFlows([flow], { runId: "r" });
    const step = result.flows[0].steps[0];
    assert.equal(step.status, "failed");
    assert.equal(step.failure_kind, "capture");
    assert.equal(
      step.message,
      'capture "a": the response sets no cookie "SID"; capture "b": the response has no "x-missing" header; ' +
        `capture "c": /nothing-(here)/ matched nothing in the body; ` +
        `capture "d": $.json.items[?@.name == 'Nope'].id matched nothing.`,
    );
  } finally {
    await api.close();
  }
});

Deno.test("bad capture maps are positioned problems with a fix", () => {
  // [the capture's value, code, part of the message, the text the problem points at]
  const cases: [string, string, string, string][] = [
    ["{}", "missing-key", 'Expected capture "x" of step "s" to name its source.', "{}"],
    ["{cookie: a, header: b}", "wrong-type", "to have one source, got header and cookie", "cookie"],
    [
      "{cookie: sid, first: true}",
      "unknown-key",
      '"first" applies to a path, not to cookie',
      "first",
    ],
    ["{path: $.json.a, first: yes}", "wrong-type", 'Expected "first"', "yes"],
    ["{regex: '('}", "bad-regex", 'Invalid regular expression "("', "'('"],
    ["{header: 'a b'}", "bad-header", 'Header name "a b"', "'a b'"],
    ["{cookie: ''}", "wrong-type", "to be a non-empty string", "''"],
    [
      "{xpath: //a, first: true}",
      "unknown-key",
      '"first" applies to a path, not to xpath',
      "first",
    ],
    ["{path: $.nope}", "bad-path", "does not start at $.json", ".nope"],
  ];
  for (const [value, code, message, anchor] of cases) {
    const column = "      x: ".length + 1 + value.indexOf(anchor);
    const text =
      `name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    capture:\n      x: ${value}\n`;
    const { problems } = loadFlow(text, "t.yaml");
    assert.ok(problems.length >= 1, value);
    const p = problems[0];
    assert.equal(p.code, code, `${value}: ${JSON.stringify(p)}`);
    assert.ok(p.message.includes(message), `${value}: ${p.message}`);
    assert.equal(p.line, 6, value);
    assert.equal(p.column, column, `${value}: ${JSON.stringify(p)}`);
    assert.ok(p.hint, value);
  }
});

Deno.test("expressions inside paths are resolved when the step runs, quotes and all", async () => {
  const items: { id: number; name: string }[] = [{ id: 1, name: "Widget old" }];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "POST") {
      const { name } = await req.json();
      items.push({ id: items.length + 1, name });
      return Response.json({ ok: true }, { status: 201 });
    }
    return Response.json({ items });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    // The same flow twice, but for the value the check's path compares ids with.
    const flowText = (id: string) =>
      `name: paths with expressions
vars: {label: "it's \\"new\\""}
steps:
  - name: create
    request: {method: POST, url: "${url}", body: {name: "Widget \${RUN_ID} \${vars.label}"}}
  - name: list
    request: {url: "${url}"}
    capture:
      id: {path: "$.json.items[?@.name == 'Widget \${RUN_ID} \${vars.label}'].id", first: true}
    extract:
      same: {path: '$.items[?@.name == "Widget \${RUN_ID} \${vars.label}"].id', first: true}
    assert:
      json:
        - {path: "$.json.items[?@.id == ${id}].name", length: 1}
`;
    const { flow, problems } = loadFlow(flowText("${steps.create.capture.none}"), "t.yaml");
    // A capture that does not exist is a load problem even inside a path.
    assert.deepEqual(problems.map((p) => p.code), ["unknown-capture"]);
    const fixed = loadFlow(
      flowText("${vars.two}"),
      "t.yaml",
      { params: new Map([["two", "2"]]) },
    );
    assert.deepEqual(fixed.problems, []);
    const result = await runFlows([fixed.flow!], {
      runId: "r-77",
      params: new Map([["two", "2"]]),
    });
    assert.equal(result.status, "passed", JSON.stringify(result.flows[0].steps[1], null, 2));
    assert.equal(items[1].name, `Widget r-77 it's "new"`);
    assert.equal(flow, undefined);
  } finally {
    await server.shutdown();
  }
});
