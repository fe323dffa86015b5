/**
 * The app's own API is kept; third parties are dropped even when they get
 * many JSON calls: analytics and telemetry vendors by a maintained list, and
 * anything shaped like telemetry (collect endpoints, event batches, beacons,
 * pixels, Sentry envelopes, text/plain POSTs answered 204). Two ports on one
 * machine are two sites.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertHar } from "../../lib/convert/har.ts";

function entry(
  method: string,
  url: string,
  options: { status?: number; sent?: string; type?: string; body?: unknown } = {},
) {
  return {
    startedDateTime: "2026-11-21T10:00:00.000Z",
    request: {
      method,
      url,
      headers: options.type ? [{ name: "content-type", value: options.type }] : [],
      ...(options.sent !== undefined
        ? { postData: { mimeType: options.type ?? "application/json", text: options.sent } }
        : {}),
    },
    response: {
      status: options.status ?? 200,
      content: options.status === 204
        ? { mimeType: "" }
        : { mimeType: "application/json", text: JSON.stringify(options.body ?? { ok: true }) },
    },
    _resourceType: "fetch",
  };
}

const urls = (entries: unknown[]) =>
  (parse(convertHar(JSON.stringify({ log: { entries } })).yaml).steps as {
    request: { url: string };
  }[]).map((s) => s.request.url);

const app = [
  entry("GET", "https://shop.test/api/items", { body: [{ id: 1 }] }),
  entry("POST", "https://shop.test/api/cart", { sent: '{"id":1}', type: "application/json" }),
  entry("GET", "https://shop.test/api/cart"),
];

Deno.test("telemetry vendors are dropped even when they get more JSON calls than the app", () => {
  const vendors = [
    "https://api.segment.io/v1/t",
    "https://dataplane.rudderstack.com/v1/track",
    "https://us.i.posthog.com/e/",
    "https://api-js.mixpanel.com/track/",
    "https://api2.amplitude.com/2/httpapi",
    "https://o12345.ingest.sentry.io/api/42/envelope/",
    "https://browser-intake-datadoghq.com/api/v2/rum",
    "https://r.lr-ingest.io/i",
    "https://sessions.bugsnag.com/",
    "https://events.launchdarkly.com/events/bulk/abc",
  ];
  const noise = vendors.flatMap((url) =>
    [1, 2, 3, 4].map(() => entry("POST", url, { sent: '{"event":"x"}', type: "application/json" }))
  );
  assert.deepEqual(urls([...noise, ...app]), [
    "${vars.base_url}/api/items",
    "${vars.base_url}/api/cart",
    "${vars.base_url}/api/cart",
  ]);
});

Deno.test("telemetry is recognised by shape on any host, the app's own included", () => {
  const shaped = [
    entry("POST", "https://shop.test/g/collect?v=2&tid=G-1", { status: 204 }),
    entry("POST", "https://shop.test/ingest/batch", {
      sent: '{"batch":[]}',
      type: "application/json",
    }),
    entry("POST", "https://shop.test/api/42/envelope/", { sent: "{}", type: "text/plain" }),
    entry("GET", "https://shop.test/p.gif?e=view"),
    entry("POST", "https://shop.test/metrics", {
      sent: '{"t":1}',
      type: "text/plain;charset=UTF-8",
      status: 204,
    }),
  ];
  assert.deepEqual(urls([...app, ...shaped]), [
    "${vars.base_url}/api/items",
    "${vars.base_url}/api/cart",
    "${vars.base_url}/api/cart",
  ]);
});

Deno.test("two ports on one machine are two sites; the summary names the --include-host to keep one", () => {
  const local = [
    entry("GET", "http://127.0.0.1:3000/api/items"),
    entry("POST", "http://127.0.0.1:3000/api/cart", { sent: '{"id":1}', type: "application/json" }),
    entry("GET", "http://127.0.0.1:3000/api/cart"),
    entry("GET", "http://127.0.0.1:4000/widget/config"),
  ];
  const { yaml, summary } = convertHar(JSON.stringify({ log: { entries: local } }));
  assert.ok(!yaml.includes("4000"), yaml);
  assert.ok(
    summary.notes.some((n) => n.includes("--include-host 127.0.0.1:4000")),
    summary.notes.join("\n"),
  );
});

Deno.test("steps are named by their operation: a CSRF fetch and a logout are not logins", () => {
  const token = "tok_3f9a8b7c6d5e4f30";
  const csrf = "csrf_91ab82cd73ef6410";
  const entries = [
    entry("GET", "https://shop.test/api/csrf", { body: { csrfToken: csrf } }),
    {
      ...entry("POST", "https://shop.test/api/auth/login", {
        sent: '{"email":"ann@shop.test","password":"pw-123456"}',
        type: "application/json",
        body: { token },
      }),
    },
    entry(
      "GET",
      "https://shop.test/api/account/notification-preferences-for-all-devices-and-channels",
    ),
    entry("POST", "https://shop.test/api/auth/logout", { sent: "{}", type: "application/json" }),
  ];
  entries[1].request.headers.push({ name: "x-csrf-token", value: csrf });
  entries[2].request.headers.push({ name: "authorization", value: `Bearer ${token}` });
  entries[3].request.headers.push({ name: "authorization", value: `Bearer ${token}` });
  const names = (parse(convertHar(JSON.stringify({ log: { entries } })).yaml).steps as {
    name: string;
  }[]).map((s) => s.name);
  assert.deepEqual(names.map((n) => n.length <= 40), [true, true, true, true]);
  assert.equal(names[0], "get_csrf");
  assert.equal(names[1], "login");
  assert.equal(names[3], "logout");
});

Deno.test("polls of one URL stay one loop when a cosmetic header differs between them", () => {
  const poll = (i: number, state: string) => {
    const e = entry("GET", "https://shop.test/api/exports/exp_77", {
      body: { id: "exp_77", state },
    });
    e.request.headers.push(
      { name: "traceparent", value: `00-${String(i).repeat(32)}-${String(i).repeat(16)}-01` },
      { name: "sentry-trace", value: `${i}abc-${i}def-1` },
      { name: "x-request-id", value: `req-${i}` },
      { name: "baggage", value: `sentry-trace_id=${i}` },
      { name: "if-none-match", value: `W/"${i}"` },
      { name: "x-client-time", value: `2026-11-21T10:00:0${i}Z` },
    );
    return e;
  };
  const entries = [
    entry("POST", "https://shop.test/api/exports", {
      sent: "{}",
      type: "application/json",
      body: { id: "exp_77", state: "queued" },
    }),
    poll(1, "running"),
    poll(2, "running"),
    poll(3, "done"),
  ];
  const steps = parse(convertHar(JSON.stringify({ log: { entries } })).yaml).steps as {
    loop?: { until: { json: { equals: string }[] } };
  }[];
  assert.equal(steps.length, 2);
  assert.equal(steps[1].loop?.until.json[0].equals, "done");
});

Deno.test("a navigation that answered JSON (opened in a tab) or a download the server marked as one is kept; a page is not", () => {
  // Seen on json-server: GET /posts (JSON) opened in the browser was dropped "as HTML document";
  // on LoopBack's file page, the download of the file the listing named was dropped the same way.
  // A download is kept by the server's own word (`Content-Disposition: attachment`), never by a
  // file extension: a text file merely opened in a tab is a page.
  const nav = (url: string, mime: string, text: string, status = 200, headers: unknown[] = []) => ({
    startedDateTime: "2026-11-21T10:00:00.000Z",
    request: { method: "GET", url, headers: [] },
    response: { status, headers, content: { mimeType: mime, text } },
    _resourceType: "document",
  });
  const kept = urls([
    nav("http://127.0.0.1:3000/", "text/html", "<html><body>home</body></html>"),
    entry("GET", "http://127.0.0.1:3000/db"),
    nav("http://127.0.0.1:3000/posts", "application/json", '[{"id":"1"}]'),
    nav("http://127.0.0.1:3000/files/notes.txt", "text/plain", "hello", 200, [
      { name: "Content-Disposition", value: 'attachment; filename="notes.txt"' },
    ]),
    nav("http://127.0.0.1:3000/report.csv", "text/csv", "a,b", 200, [
      { name: "content-disposition", value: "attachment" },
    ]),
    nav("http://127.0.0.1:3000/robots.txt", "text/plain", "User-agent: *"),
    nav("http://127.0.0.1:3000/gone.csv", "text/csv", "", 404, [
      { name: "Content-Disposition", value: "attachment" },
    ]),
    nav("http://127.0.0.1:3000/old", "", "", 302),
  ]);
  assert.deepEqual(kept.map((u) => u.replace(/^\$\{[^}]+\}/, "")), [
    "/db",
    "/posts",
    "/files/notes.txt",
    "/report.csv",
  ]);
});
