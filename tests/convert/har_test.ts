/**
 * `convert har` as a library: fixtures shaped like real Chrome and Firefox
 * exports, bad input, public HAR samples, a 100 MB recording, and a session
 * recorded against the demo API that must pass when run back.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { startDemoApi } from "../../examples/demo_api.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import {
  convertHar,
  type ConvertOptions,
  type ConvertResult,
  formatSummary,
} from "../../lib/convert/har.ts";
import { scalar } from "../../lib/convert/yaml_out.ts";
import "../support/engines.ts";
import { HANG_MS } from "../support/timing.ts";

const FIXTURES = new URL("../fixtures/har/", import.meta.url);
const fixture = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));

// Values recorded in chrome_shop.har that must never reach the output.
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJlLXNlY3JldC0xMjM0NTY";
const PASSWORD = "s3cret-Passw0rd!";
const CSRF = "csrf-4d8e2a9b7c61";
const ORDER = "ord_7f3a9c2e51b4";
const JOB = "5b0e7c4a-9d21-4f6e-8a3b-2c1d0e9f8a7b";
const CLIENT_REF = "0d6f1f4e-8b7a-4c3d-9e2f-1a2b3c4d5e6f";
// In firefox_crm.har.
const SESSION = "sess_Q2hhbmdlTWVQbGVhc2UxMjM0";
const API_KEY = "ak_live_9f8e7d6c5b4a3210";

/** Loads the output with exactly the variables the summary names set; returns the problems. */
function problems(result: ConvertResult) {
  const env = (name: string) => result.summary.env.includes(name) ? "set" : undefined;
  return loadFlow(result.yaml, "converted.yaml", { env }).problems;
}

/** Fails when a secret appears raw, percent-encoded, JSON-escaped or inside base64. */
function assertNoSecret(text: string, secret: string) {
  const forms = [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    btoa(secret).replace(/=+$/, ""),
  ];
  for (const form of forms) {
    assert.ok(!text.includes(form), `the output holds ${secret} (as ${form})`);
  }
}

/** The request and assertion lines, without comments. */
const codeLines = (yaml: string) => yaml.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");

/** The parsed flow, for looking at single steps. */
interface Parsed {
  name: string;
  vars?: Record<string, string>;
  steps: {
    name: string;
    depends_on?: string[];
    request: {
      method: string;
      url: string;
      headers?: Record<string, string>;
      body?: unknown;
      form?: unknown;
    };
    capture?: Record<string, string>;
    extract?: Record<string, string>;
    loop?: { max_attempts: number; sleep_ms: number; until: Record<string, unknown[]> };
    assert?: { status?: number; json?: Record<string, unknown>[]; jsonpath?: unknown[] };
  }[];
}
const parsed = (yaml: string) => parse(yaml) as Parsed;
const step = (flow: Parsed, name: string) => {
  const found = flow.steps.find((s) => s.name === name);
  assert.ok(found, `no step ${name} in ${flow.steps.map((s) => s.name).join(", ")}`);
  return found;
};

Deno.test("a Chrome export converts into a flow that loads with only the named variables set", () => {
  const result = convertHar(fixture("chrome_shop.har"));
  assert.deepEqual(problems(result), []);
  assert.deepEqual(result.summary.env, ["LOGIN_PASSWORD", "CSRF_TOKEN"]);
  // With nothing set, the only problems are the variables the summary names.
  const unset = loadFlow(result.yaml, "x.yaml", { env: () => undefined }).problems;
  assert.deepEqual(
    unset.map((p) => p.code),
    result.summary.env.map(() => "unset-env"),
  );
  assert.match(
    result.yaml,
    /^# Converted by flowrun convert har from a HAR recording of 25 entries: 9 steps\./,
  );
  assert.match(result.yaml, /^#\s+LOGIN_PASSWORD\s+the "password" field/m);
});

Deno.test("the same HAR gives byte-identical output", () => {
  for (const file of ["chrome_shop.har", "firefox_crm.har", "encoded_bodies.har"]) {
    for (const spelling of ["a", "b"] as const) {
      const text = fixture(file);
      assert.equal(convertHar(text, { spelling }).yaml, convertHar(text, { spelling }).yaml);
    }
  }
});

Deno.test("no recorded secret appears anywhere in the output or the summary", () => {
  for (const spelling of ["a", "b"] as const) {
    const result = convertHar(fixture("chrome_shop.har"), { spelling });
    const summary = formatSummary(result.summary) + JSON.stringify(result.summary);
    for (const secret of [TOKEN, PASSWORD, CSRF, "GA1.1.1843527790", "1843527790.1732180000"]) {
      assertNoSecret(result.yaml, secret);
      assertNoSecret(summary, secret);
    }
    const firefox = convertHar(fixture("firefox_crm.har"), { spelling });
    for (const secret of [SESSION, API_KEY, "eyJpZCI6ImFiYyJ9"]) {
      assertNoSecret(firefox.yaml, secret);
      assertNoSecret(formatSummary(firefox.summary), secret);
    }
  }
});

Deno.test("noise is dropped and counted by reason", () => {
  const { yaml, summary } = convertHar(fixture("chrome_shop.har"));
  assert.equal(summary.entries, 25);
  assert.equal(summary.kept, 9);
  assert.deepEqual(summary.dropped, {
    "static asset": 6,
    "duplicate poll": 3,
    "analytics/third-party host": 3,
    "CORS preflight": 1,
    "HTML document": 1,
    "failed (no HTTP status)": 1,
    "websocket": 1,
  });
  const kept = summary.kept + Object.values(summary.dropped).reduce((a, b) => a + b, 0);
  assert.equal(kept, summary.entries, "every entry is kept or dropped for a reason");
  for (
    const noise of [
      ":authority",
      ":path",
      "user-agent",
      "accept-encoding",
      "accept-language",
      "sec-ch-ua",
      "sec-fetch",
      "referer",
      "origin:",
      "priority",
      "traceparent",
      "x-request-id",
      "cookie",
      "_ga",
      "google-analytics",
      "googletagmanager",
      "example-chat.io",
      "OPTIONS",
      "wss:",
      "/live",
      "notifications",
      "logo.png",
      "inter-var.woff2",
      "app.4f2c1a",
      "empty-cart.svg",
      "/app/orders",
    ]
  ) {
    assert.ok(!yaml.includes(noise), `the flow still holds ${noise}`);
  }
  // Application headers stay.
  assert.match(yaml, /x-client-version: web-4\.12\.0/);
  assert.match(yaml, /accept: application\/json/);
});

Deno.test("steps are named after the method and path", () => {
  const flow = parsed(convertHar(fixture("chrome_shop.har")).yaml);
  assert.deepEqual(flow.steps.map((s) => s.name), [
    "login",
    "get_me",
    "create_order",
    "get_order",
    "update_order",
    "export_order",
    "get_job",
    "list_orders",
    "delete_order",
  ]);
  assert.equal(flow.name, "Recorded session on shop.example.com");
  assert.equal(
    parsed(convertHar(fixture("chrome_shop.har"), { name: "Orders" }).yaml).name,
    "Orders",
  );
});

Deno.test("the base URL is a var reading BASE_URL with the recorded origin as fallback", () => {
  const flow = parsed(convertHar(fixture("chrome_shop.har")).yaml);
  assert.deepEqual(flow.vars, { base_url: "${ENV.BASE_URL:-https://shop.example.com}" });
  for (const s of flow.steps) assert.match(s.request.url, /^\$\{vars\.base_url\}\/api\//);
});

Deno.test("the login token is captured and replaces the recorded bearer token", () => {
  const { yaml, summary } = convertHar(fixture("chrome_shop.har"));
  const flow = parsed(yaml);
  const login = step(flow, "login");
  assert.deepEqual(login.capture, { token: "$.json.token" });
  assert.deepEqual(login.request.body, {
    email: "ann@example.com",
    password: "${ENV.LOGIN_PASSWORD}",
  });
  for (const s of flow.steps.slice(1)) {
    assert.equal(s.request.headers?.authorization, "Bearer ${steps.login.capture.token}", s.name);
  }
  assert.equal(step(flow, "create_order").request.headers?.["x-csrf-token"], "${ENV.CSRF_TOKEN}");
  assert.ok(summary.replaced.tokens >= 8);
  assert.equal(summary.replaced.secrets, 2);
});

Deno.test("ids from responses become captures used by later requests", () => {
  const { yaml, summary } = convertHar(fixture("chrome_shop.har"));
  const flow = parsed(yaml);
  assert.deepEqual(step(flow, "create_order").capture, { order_id: "$.json.id" });
  const byOrder = "${vars.base_url}/api/orders/${steps.create_order.capture.order_id}";
  assert.equal(step(flow, "get_order").request.url, byOrder);
  assert.equal(step(flow, "update_order").request.url, byOrder);
  assert.equal(step(flow, "delete_order").request.url, byOrder);
  assert.equal(step(flow, "export_order").request.url, `${byOrder}/export?format=csv`);
  assert.deepEqual(step(flow, "export_order").capture, { job_id: "$.json.job_id" });
  assert.equal(
    step(flow, "get_job").request.url,
    "${vars.base_url}/api/jobs/${steps.export_order.capture.job_id}",
  );
  // The recorded ids are only left in the comments, which show the recorded URLs.
  for (const id of [ORDER, JOB]) assert.ok(!codeLines(yaml).includes(id), id);
  assert.match(yaml, /# GET https:\/\/shop\.example\.com\/api\/orders\/ord_7f3a9c2e51b4 → 200/);
  assert.equal(summary.captures, 3);
  assert.equal(summary.replaced.ids, 5);
});

Deno.test("client-generated UUIDs become RANDOM.UUID and unique test data gets RUN_ID", () => {
  const flow = parsed(convertHar(fixture("chrome_shop.har")).yaml);
  const create = step(flow, "create_order");
  assert.deepEqual(create.request.body, {
    sku: "TEA-GREEN-250",
    quantity: 2,
    title: "Test order ${RUN_ID}",
    client_ref: "${RANDOM.UUID}",
    // Seen in an earlier response (the login's user): existing data, kept.
    contact: "ann@example.com",
    gift_to: "bo-${RUN_ID}@example.com",
    gift: false,
  });
  const checks = create.assert?.json ?? [];
  assert.deepEqual(checks.find((c) => c.path === "$.json.title"), {
    path: "$.json.title",
    equals: "Test order ${RUN_ID}",
  });
  assert.ok(!JSON.stringify(flow).includes(CLIENT_REF));
});

Deno.test("assertions: the recorded status, types, and equals only on stable values", () => {
  const flow = parsed(convertHar(fixture("chrome_shop.har")).yaml);
  const create = step(flow, "create_order");
  assert.equal(create.assert?.status, 201);
  const checks = Object.fromEntries(
    (create.assert?.json ?? []).map((c) => [c.path, Object.entries(c)[1]]),
  );
  assert.deepEqual(checks, {
    "$.json.id": ["type", "string"],
    "$.json.status": ["equals", "pending"],
    "$.json.sku": ["equals", "TEA-GREEN-250"],
    "$.json.quantity": ["equals", 2],
    "$.json.title": ["equals", "Test order ${RUN_ID}"],
    "$.json.gift_to": ["equals", "bo-${RUN_ID}@example.com"],
    "$.json.total": ["type", "number"],
    "$.json.currency": ["equals", "eur"],
    "$.json.created_at": ["type", "string"],
  });
  const login = step(flow, "login").assert?.json ?? [];
  assert.deepEqual(login[0], { path: "$.json.token", type: "string" });
  assert.equal(step(flow, "delete_order").assert?.status, 204);
  assert.equal(step(flow, "delete_order").assert?.json, undefined);
  assert.deepEqual(step(flow, "list_orders").assert?.json, [{ path: "$.json", type: "array" }]);
});

Deno.test("consecutive polls of a job become one step with a bounded loop", () => {
  const { yaml, summary } = convertHar(fixture("chrome_shop.har"));
  const job = step(parsed(yaml), "get_job");
  assert.deepEqual(job.loop, {
    max_attempts: 6,
    sleep_ms: 500,
    until: { json: [{ path: "$.json.state", equals: "ready" }] },
  });
  assert.match(yaml, /polled 3 times \(pending → running → ready\)/);
  assert.equal(summary.polls, 1);
  // The repeated GET /api/me (no changing state) is one plain step.
  assert.equal(step(parsed(yaml), "get_me").loop, undefined);
});

Deno.test("spelling B writes extract, jsonpath, ${steps.s.k} and depends_on, and loads", () => {
  const result = convertHar(fixture("chrome_shop.har"), { spelling: "b" });
  assert.deepEqual(problems(result), []);
  const { yaml } = result;
  for (const a of ["capture:", "$.json", "${ENV.", "${vars.", ".capture."]) {
    assert.ok(!yaml.includes(a), `spelling B output holds ${a}`);
  }
  const flow = parsed(yaml);
  assert.deepEqual(flow.vars, { base_url: "${BASE_URL:-https://shop.example.com}" });
  assert.deepEqual(step(flow, "login").extract, { token: "$.token" });
  assert.deepEqual(step(flow, "login").request.body, {
    email: "ann@example.com",
    password: "${LOGIN_PASSWORD}",
  });
  const get = step(flow, "get_order");
  assert.deepEqual(get.depends_on, ["login", "create_order"]);
  assert.equal(get.request.url, "${base_url}/api/orders/${steps.create_order.order_id}");
  assert.equal(get.request.headers?.authorization, "Bearer ${steps.login.token}");
  assert.equal(step(flow, "login").depends_on, undefined);
  assert.deepEqual(step(flow, "get_job").loop?.until, {
    jsonpath: [{ path: "$.state", equals: "ready" }],
  });
});

Deno.test("a Firefox export: session cookie, API key, a 304 and a form body", () => {
  const result = convertHar(fixture("firefox_crm.har"));
  assert.deepEqual(problems(result), []);
  const { yaml, summary } = result;
  assert.deepEqual(summary.env, ["API_KEY", "SESSION_COOKIE"]);
  assert.deepEqual(summary.dropped, { "HTML document": 1, "static asset": 1 });
  const flow = parsed(yaml);
  assert.equal(flow.name, "CRM");
  const list = step(flow, "list_contacts");
  assert.equal(
    list.request.url,
    "${vars.base_url}/api/v2/contacts?limit=20&api_key=${ENV.API_KEY}",
  );
  // A preference cookie is sent as recorded; only the session is a variable.
  assert.deepEqual(list.request.headers, {
    accept: "application/json, text/plain, */*",
    cookie: "theme=dark; ${ENV.SESSION_COOKIE}",
    "x-api-key": "${ENV.API_KEY}",
  });
  assert.match(
    yaml,
    /# GET https:\/\/crm\.example\.org\/api\/v2\/contacts\?limit=20&api_key=\*\*\* → 200/,
  );
  // A recorded 304 answered a conditional request; without If-None-Match the server sends 200.
  assert.equal(step(flow, "list_settings").assert?.status, 200);
  assert.ok(!yaml.includes("if-none-match") && !yaml.includes("pragma") && !yaml.includes("dnt"));
  const note = step(flow, "create_contact_note");
  assert.equal(
    note.request.url,
    "${vars.base_url}/api/v2/contacts/${steps.list_contacts.capture.contact_id}/notes",
  );
  // A urlencoded body becomes `form:` fields, decoded: the runner encodes each one again.
  assert.deepEqual(note.request.form, { body: "Called back", pinned: "false" });
  assert.equal(
    step(flow, "get_note").request.url,
    "${vars.base_url}/api/v2/contacts/${steps.list_contacts.capture.contact_id}/notes/${steps.create_contact_note.capture.note_id}",
  );
});

Deno.test("base64, binary, missing, truncated and non-UTF-8 bodies are handled and noted", () => {
  const result = convertHar(fixture("encoded_bodies.har"));
  assert.deepEqual(problems(result), []);
  const flow = parsed(result.yaml);
  // The base64 JSON body was decoded and asserted on.
  assert.deepEqual(step(flow, "get_report").assert?.json, [
    { path: "$.json.status", equals: "complete" },
    { path: "$.json.rows", type: "number" },
    { path: "$.json.owner", equals: "team-a" },
  ]);
  assert.deepEqual(step(flow, "get_report_pdf").assert, { status: 200 });
  // Recorded at 50 MB, past the runner's default cap: replayed it could only fail, so dropped.
  assert.ok(!flow.steps.some((s) => s.request?.url?.endsWith("/v1/big")));
  assert.equal(result.summary.dropped["larger than the runner reads (--max-body)"], 1);
  assert.deepEqual(step(flow, "get_truncated").assert, { status: 200 });
  // No response: no status assertion at all.
  assert.equal(step(flow, "ping").assert, undefined);
  // A literal "${" in recorded data is escaped, not turned into an expression.
  assert.deepEqual(step(flow, "ping").request.body, { echo: "$${not_an_expression}" });
  const notes = result.summary.notes.join("\n");
  assert.match(notes, /report\.pdf is binary \(base64\)/);
  assert.match(notes, /v1\/legacy holds bytes that were not valid UTF-8/);
  assert.match(notes, /v1\/truncated is not valid JSON \(truncated\?\)/);
  assert.match(notes, /v1\/ping has no recorded response/);
  assert.match(formatSummary(result.summary), /^note: .*report\.pdf is binary/m);
});

Deno.test("bad input gives a UsageError with a clear sentence, never another exception", () => {
  const cases: [string, RegExp][] = [
    [fixture("not_json.har"), /^The HAR file is not JSON: /],
    ["", /^The HAR file is not JSON: /],
    [fixture("not_a_har.har"), /^The file is JSON but not a HAR: it has no "log\.entries" list\.$/],
    ["null", /not a HAR/],
    ["[]", /not a HAR/],
    [JSON.stringify({ log: { entries: "x" } }), /not a HAR/],
    [
      JSON.stringify({ log: { entries: [] } }),
      /^The HAR has no API requests: its log\.entries list is empty\.$/,
    ],
    [
      fixture("static_only.har"),
      /^The HAR has no API requests: 8 entries, all dropped as static asset \(5\), analytics\/third-party host \(2\), HTML document \(1\)\.$/,
    ],
    [
      JSON.stringify({ log: { entries: [1, null, {}, { request: { url: "/relative" } }] } }),
      /all dropped as no valid URL \(4\)/,
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => convertHar(text),
      (error: unknown) => {
        assert.ok(error instanceof UsageError, String(error));
        assert.equal(error.code, "bad-har");
        assert.match(error.message, message);
        assert.ok(error.hint);
        return true;
      },
    );
  }
});

Deno.test("includeHosts, excludeUrls and includeHtml change what is kept", () => {
  const text = fixture("chrome_shop.har");
  const only = convertHar(text, { includeHosts: ["widgets.example-chat.io"] });
  assert.equal(only.summary.kept, 1);
  assert.equal(only.summary.dropped["not in --include-host"], 12);
  const excluded = convertHar(text, { excludeUrls: [/\/api\/me$/] });
  assert.equal(excluded.summary.dropped["excluded by --exclude-url"], 2);
  assert.ok(!parsed(excluded.yaml).steps.some((s) => s.name === "get_me"));
  const html = convertHar(text, { includeHtml: true });
  assert.equal(html.summary.dropped["HTML document"], undefined);
  assert.equal(parsed(html.yaml).steps[0].request.url, "${vars.base_url}/app/orders");
});

Deno.test("formatSummary counts kept, dropped by reason, replaced and captured", () => {
  const text = formatSummary(convertHar(fixture("chrome_shop.har")).summary);
  assert.equal(
    text,
    [
      "Converted 9 of 25 HAR entries into 9 steps.",
      "Dropped 16: static asset 6, analytics/third-party host 3, duplicate poll 3, CORS preflight 1, HTML document 1, failed (no HTTP status) 1, websocket 1.",
      "Dropped as HTML document on the app's hosts (1): GET /app/orders.",
      "Dropped as failed (no HTTP status) on the app's hosts (1): GET /api/notifications.",
      "Dropped as websocket on the app's hosts (1): GET /live.",
      "Replaced 8 tokens, 2 secrets, 5 ids and 3 generated values; 3 captures, 1 polling loop.",
      "Set before running: LOGIN_PASSWORD, CSRF_TOKEN.",
      "note: Dropped 1 API-like request to widgets.example-chat.io as another site's; keep it with --include-host widgets.example-chat.io (and the app's own host).",
      "",
    ].join("\n"),
  );
});

Deno.test("scalars are written so that YAML reads back the same value", () => {
  const tricky = [
    "",
    " lead",
    "trail ",
    "true",
    "False",
    "null",
    "~",
    "yes",
    "123",
    "1.5",
    "-1",
    ".5",
    "0x1F",
    "1e3",
    "- item",
    "key: value",
    "a #comment",
    "#hash",
    "@at",
    "`tick",
    "*star",
    "&amp",
    "!bang",
    "%pct",
    "|pipe",
    ">gt",
    "'single'",
    '"double"',
    "{brace}",
    "[list]",
    "a, b",
    "line\nbreak",
    "tab\there",
    "ctrl\u0001",
    "del\u007f",
    "nel\u0085",
    "ls\u2028",
    "bom\ufeff",
    "ünïcødé ✓",
    "emoji 🎉",
    "back\\slash",
    "${vars.x}",
    "ends with colon:",
    "<<",
    "=",
    "?q",
  ];
  for (const value of tricky) {
    for (const flow of [false, true]) {
      const text = flow ? `{ v: ${scalar(value, true)} }` : `v: ${scalar(value, false)}`;
      assert.equal((parse(text) as { v: string }).v, value, `${JSON.stringify(value)} as ${text}`);
    }
  }
});

// ---- every recording shape in the fixtures

/** The fixtures that are HAR files (not_a_har and not_json have tests of their own). */
const recordings = [...Deno.readDirSync(FIXTURES)]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".har") && !n.startsWith("not_"))
  .sort();

Deno.test("every HAR fixture converts into a loadable flow, or says it has no API requests", () => {
  assert.ok(recordings.length >= 6, recordings.join());
  for (const name of recordings) {
    const text = fixture(name);
    for (const spelling of ["a", "b"] as const) {
      let result: ConvertResult;
      try {
        result = convertHar(text, { spelling });
      } catch (error) {
        assert.ok(error instanceof UsageError, `${name}: ${error}`);
        assert.match(error.message, /^The HAR has no API requests: /, name);
        continue;
      }
      assert.deepEqual(problems(result), [], `${name}\n${result.yaml}`);
      assert.equal(convertHar(text, { spelling }).yaml, result.yaml, name);
    }
  }
});

Deno.test("auth variants and a recording without responses: secrets become env, placeholders too", () => {
  // Bearer, Basic, an API key header and a cookie session, in a HAR without version or creator.
  const auth = convertHar(fixture("auth_variants.har"));
  assert.deepEqual(auth.summary.env, ["API_TOKEN", "BASIC_PASSWORD", "API_KEY", "SESSION_COOKIE"]);
  // Basic credentials become the step's auth: the user as recorded, the password a variable.
  assert.match(
    auth.yaml,
    /auth:\n\s+basic:\n\s+username: ops\n\s+password: \$\{ENV\.BASIC_PASSWORD\}/,
  );
  for (
    const secret of [
      "inv-bearer-7731",
      "b3BzOnN0b2NrLXB3",
      "stock-pw",
      "inv-apikey-5520",
      "inv-sid-4410",
    ]
  ) {
    assertNoSecret(auth.yaml, secret);
  }
  assertNoSecret(auth.yaml, "inv-xsrf-9902");
  // Not valid HAR 1.2 (no responses), with a tool's ${placeholder} where the token went.
  const placeholder = convertHar(fixture("login_no_responses.har"));
  assert.deepEqual(placeholder.summary.env, ["LOGIN_PASSWORD", "API_TOKEN"]);
  assertNoSecret(placeholder.yaml, "wh-pass-31");
  assert.match(placeholder.summary.notes.join("\n"), /has no recorded response/);
  assert.throws(() => convertHar(fixture("static_only.har")), /all dropped as static asset/);
});

// ---- size

Deno.test("a 100 MB recording converts in reasonable time", () => {
  const body = "A".repeat(50_000);
  const asset = (i: number) =>
    JSON.stringify({
      startedDateTime: "2026-11-21T10:00:00.000Z",
      _resourceType: "image",
      request: { method: "GET", url: `https://app.example.com/img/${i}.png`, headers: [] },
      response: {
        status: 200,
        content: { mimeType: "image/png", encoding: "base64", text: body },
      },
    });
  const api = (i: number) =>
    JSON.stringify({
      startedDateTime: "2026-11-21T10:00:01.000Z",
      _resourceType: "fetch",
      request: { method: "GET", url: `https://app.example.com/api/things/${i}`, headers: [] },
      response: {
        status: 200,
        content: { mimeType: "application/json", text: JSON.stringify({ id: i, ok: true }) },
      },
    });
  const parts: string[] = [];
  for (let i = 0; i < 2100; i++) parts.push(i % 500 === 0 ? api(i) : asset(i));
  const text = `{"log":{"version":"1.2","entries":[${parts.join(",")}]}}`;
  assert.ok(text.length > 100_000_000, String(text.length));
  const started = performance.now();
  const result = convertHar(text);
  const seconds = (performance.now() - started) / 1000;
  // A hang guard, not a speed test (bench/convert.ts times it): quadratic on 100 MB is hours.
  assert.ok(seconds < HANG_MS / 1000, `took ${seconds} s`);
  assert.equal(result.summary.kept, 5);
  assert.equal(result.summary.dropped["static asset"], 2095);
  assert.match(result.summary.notes.join("\n"), /The HAR is large \(\d+ MB\)/);
});

// ---- round trip against the demo API

/** Records fetches the way a Chrome export does, with browser noise. */
class Recorder {
  entries: unknown[] = [];
  #clock = Date.parse("2026-11-21T10:00:00.000Z");

  async fetch(method: string, url: string, options: { auth?: string; json?: unknown } = {}) {
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": "Mozilla/5.0 Chrome/131.0",
      cookie: "_ga=GA1.1.55555.1732180000; _gid=GA1.1.66666.1732180000",
      ...(options.auth ? { authorization: `Bearer ${options.auth}` } : {}),
      ...(options.json === undefined ? {} : { "content-type": "application/json" }),
    };
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    const u = new URL(url);
    this.#clock += 200;
    this.entries.push({
      startedDateTime: new Date(this.#clock).toISOString(),
      _resourceType: "fetch",
      request: {
        method,
        url,
        httpVersion: "h2",
        headers: [
          { name: ":authority", value: u.host },
          { name: ":path", value: u.pathname },
          ...Object.entries(headers).map(([name, value]) => ({ name, value })),
        ],
        ...(body === undefined ? {} : { postData: { mimeType: "application/json", text: body } }),
      },
      response: {
        status: response.status,
        headers: [...response.headers].map(([name, value]) => ({ name, value })),
        content: { mimeType: response.headers.get("content-type") ?? "", text },
      },
    });
    return text ? JSON.parse(text) : undefined;
  }

  har(): string {
    return JSON.stringify({ log: { version: "1.2", entries: this.entries } });
  }
}

async function recordSession(): Promise<string> {
  const api = await startDemoApi();
  const rec = new Recorder();
  try {
    const { token } = await rec.fetch("POST", `${api.url}/login`, {
      json: { username: "demo", password: "demo-password" },
    });
    await rec.fetch("GET", `${api.url}/me`, { auth: token });
    const item = await rec.fetch("POST", `${api.url}/items`, {
      auth: token,
      json: { name: "Widget 1732", price: 9.5, tags: ["blue"] },
    });
    await rec.fetch("GET", `${api.url}/items/${item.id}`, { auth: token });
    const job = await rec.fetch("POST", `${api.url}/jobs`, {
      auth: token,
      json: { kind: "export", ready_after: 3 },
    });
    for (let i = 0; i < 3; i++) {
      await rec.fetch("GET", `${api.url}/jobs/${job.id}`, { auth: token });
    }
    await rec.fetch("DELETE", `${api.url}/jobs/${job.id}`, { auth: token });
    await rec.fetch("DELETE", `${api.url}/items/${item.id}`, { auth: token });
  } finally {
    await api.close();
  }
  return rec.har();
}

Deno.test("a session recorded against the demo API passes when run against a fresh instance", async () => {
  const har = await recordSession();
  for (const spelling of ["a", "b"] as const) {
    const options: ConvertOptions = { spelling, name: "Recorded" };
    const { yaml, summary } = convertHar(har, options);
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"]);
    assertNoSecret(yaml, "demo-password");
    assert.match(yaml, /name: Widget \$\{RUN_ID\}/);
    const fresh = await startDemoApi();
    try {
      const env = (name: string) =>
        name === "LOGIN_PASSWORD" ? "demo-password" : name === "BASE_URL" ? fresh.url : undefined;
      const loaded = loadFlow(yaml, "recorded.yaml", { env });
      assert.deepEqual(loaded.problems, [], yaml);
      const result = await runFlows([loaded.flow!], { env, runId: "r1", jobs: 1 });
      const failed = result.flows[0].steps.filter((s) => s.status !== "passed");
      assert.equal(result.status, "passed", `${JSON.stringify(failed, null, 2)}\n${yaml}`);
      assert.deepEqual(
        result.flows[0].steps.map((s) => [s.name, s.attempts]),
        [
          ["login", 1],
          ["get_me", 1],
          ["create_item", 1],
          ["get_item", 1],
          ["create_job", 1],
          ["get_job", 3],
          ["delete_job", 1],
          ["delete_item", 1],
        ],
      );
    } finally {
      await fresh.close();
    }
  }
});

Deno.test("lib/convert is pure: no Deno APIs", () => {
  // Its subfolders too (correlate/).
  const check = (folder: string) => {
    for (const entry of Deno.readDirSync(new URL(`../../lib/convert/${folder}`, import.meta.url))) {
      const name = `${folder}${entry.name}`;
      if (entry.isDirectory) {
        check(`${name}/`);
        continue;
      }
      const source = Deno.readTextFileSync(new URL(`../../lib/convert/${name}`, import.meta.url));
      assert.ok(!/\bDeno\./.test(source), `${name} uses Deno.*`);
    }
  };
  check("");
});

/** A minimal fetch entry for hand-made HARs. */
function apiEntry(
  method: string,
  url: string,
  o: {
    headers?: [string, string][];
    body?: string;
    mime?: string;
    status?: number;
    json?: unknown;
  } = {},
) {
  return {
    _resourceType: "fetch",
    request: {
      method,
      url,
      headers: (o.headers ?? []).map(([name, value]) => ({ name, value })),
      ...(o.body === undefined
        ? {}
        : { postData: { mimeType: o.mime ?? "application/json", text: o.body } }),
    },
    response: {
      status: o.status ?? 200,
      content: o.json === undefined
        ? { mimeType: "", size: 0 }
        : { mimeType: "application/json", text: JSON.stringify(o.json) },
    },
  };
}

Deno.test("a login token sent in a cookie, a query parameter or a custom header uses the capture", () => {
  const token = "tok_5d9e8f7a6b5c4d3e";
  const har = JSON.stringify({
    log: {
      entries: [
        apiEntry("POST", "https://api.test/oauth/token", {
          headers: [["content-type", "application/x-www-form-urlencoded"]],
          mime: "application/x-www-form-urlencoded",
          body:
            "grant_type=password&username=ann&password=pa%24%24word-99&client_secret=cs-77aa88bb",
          json: { access_token: token, token_type: "bearer" },
        }),
        apiEntry("GET", `https://api.test/files?access_token=${token}`, { json: { files: [] } }),
        apiEntry("GET", "https://api.test/me", {
          headers: [["cookie", `_ga=GA1.2.3; auth=${token}`], ["x-auth-token", token]],
          json: { ok: true },
        }),
        apiEntry("POST", "https://api.test/graphql", {
          body: JSON.stringify({ operationName: "ListProjects", query: "{ projects { id } }" }),
          headers: [["authorization", `Bearer ${token}`]],
          json: { data: { projects: [] } },
        }),
      ],
    },
  });
  const result = convertHar(har);
  assert.deepEqual(problems(result), []);
  assert.deepEqual(result.summary.env, ["LOGIN_PASSWORD", "LOGIN_CLIENT_SECRET"]);
  for (const secret of [token, "pa$$word-99", "cs-77aa88bb"]) assertNoSecret(result.yaml, secret);
  const flow = parsed(result.yaml);
  const ref = "${steps.login.capture.access_token}";
  assert.deepEqual(step(flow, "login").request.form, {
    grant_type: "password",
    username: "ann",
    password: "${ENV.LOGIN_PASSWORD}",
    client_secret: "${ENV.LOGIN_CLIENT_SECRET}",
  });
  assert.equal(step(flow, "list_files").request.url, `\${vars.base_url}/files?access_token=${ref}`);
  assert.deepEqual(step(flow, "get_me").request.headers, {
    cookie: `auth=${ref}`,
    "x-auth-token": ref,
  });
  assert.equal(step(flow, "list_projects").request.headers?.authorization, `Bearer ${ref}`);
});
