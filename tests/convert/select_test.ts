/**
 * Which traffic of a recording is the app's API, and what the recording
 * lost: the page's own site and the hosts that get its credentials are the
 * API, a host that served the page a script and gets no credential is
 * telemetry whatever its paths; chrome-har's flattened JSON bodies and
 * misplaced redirect cookies are repaired from the recording's own evidence
 * or named in the summary; failed entries are dropped and counted.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertHar, formatSummary } from "../../lib/convert/har.ts";
import { runCli } from "../support/cli.ts";

type Entry = Record<string, unknown>;

/** One HAR entry; `type` is Chrome's `_resourceType`, left out when undefined. */
function entry(
  method: string,
  url: string,
  options: {
    status?: number;
    type?: string;
    mime?: string;
    body?: unknown;
    headers?: [string, string][];
    post?: Record<string, unknown>;
    response?: [string, string][];
  } = {},
): Entry {
  const mime = options.mime ?? "application/json";
  return {
    startedDateTime: "2026-11-21T10:00:00.000Z",
    request: {
      method,
      url,
      headers: (options.headers ?? []).map(([name, value]) => ({ name, value })),
      ...(options.post ? { postData: options.post } : {}),
    },
    response: {
      status: options.status ?? 200,
      headers: (options.response ?? []).map(([name, value]) => ({ name, value })),
      content: {
        mimeType: mime,
        ...(options.body === undefined ? {} : {
          text: typeof options.body === "string" ? options.body : JSON.stringify(options.body),
        }),
      },
    },
    ...(options.type === undefined ? {} : { _resourceType: options.type }),
  };
}

const har = (entries: Entry[]) => JSON.stringify({ log: { entries } });
const steps = (
  yaml: string,
) => (parse(yaml).steps as { request: { url: string; body?: unknown } }[]);

const APP = "https://app.example.org";
const PAGE = entry("GET", `${APP}/`, { type: "document", mime: "text/html", body: "<html>" });
const BEARER: [string, string] = ["authorization", "Bearer eyJhbGciOi.payload-123.sig-456"];
const login = entry("POST", `${APP}/api/login`, {
  type: "fetch",
  body: { token: "eyJhbGciOi.payload-123.sig-456" },
});

/** A script from `origin` that then posts JSON events to `path` there, `n` times. */
function telemetry(origin: string, path: string, n: number, headers: [string, string][] = []) {
  return [
    entry("GET", `${origin}/sdk.js`, { type: "script", mime: "text/javascript", body: "1" }),
    ...Array.from({ length: n }, () =>
      entry("POST", `${origin}${path}`, {
        type: "fetch",
        headers: [["content-type", "application/json"], ...headers],
        post: { mimeType: "application/json", text: '{"event":"view"}' },
        body: { ok: true },
      })),
  ];
}

Deno.test("a host that served a script and gets no credential is telemetry, whatever its paths", () => {
  for (const path of ["/v2/ux", "/api/projects", "/graphql"]) {
    const { yaml, summary } = convertHar(har([
      PAGE,
      ...telemetry("https://cdn.insights-vendor.net", path, 4),
      login,
      entry("GET", `${APP}/api/me`, { type: "fetch", headers: [BEARER], body: { id: 1 } }),
    ]));
    assert.deepEqual(steps(yaml).map((s) => s.request.url), [
      "${vars.base_url}/api/login",
      "${vars.base_url}/api/me",
    ]);
    assert.match(yaml, /BASE_URL:-https:\/\/app\.example\.org/);
    assert.equal(summary.dropped["telemetry host"], 4);
    assert.ok(
      formatSummary(summary).includes(
        "note: Dropped 4 requests to cdn.insights-vendor.net as telemetry: it served the page a script (/sdk.js) and received no cookie or credential of the app; keep them with --include-host cdn.insights-vendor.net (and the app's own host).",
      ),
      formatSummary(summary),
    );
  }
});

Deno.test("a host of another site that gets the app's credentials is the app's API, script or not", () => {
  const api = "https://api.partner-cloud.io";
  const { yaml, summary } = convertHar(har([
    PAGE,
    ...telemetry(api, "/v1/boards", 3, [BEARER]),
    login,
    entry("GET", `${APP}/api/me`, { type: "fetch", headers: [BEARER], body: { id: 1 } }),
  ]));
  assert.equal(steps(yaml).filter((s) => s.request.url.endsWith("/v1/boards")).length, 3);
  assert.equal(summary.dropped["telemetry host"], undefined);
  // The page's own scripts never make its site telemetry.
  const own = convertHar(har([PAGE, ...telemetry(APP, "/api/events", 2)]));
  assert.equal(steps(own.yaml).length, 2);
  // --include-host decides alone.
  const given = convertHar(har([PAGE, ...telemetry("https://t.vendor.net", "/e2", 2)]), {
    includeHosts: ["t.vendor.net"],
  });
  assert.equal(steps(given.yaml).length, 2);
});

/** A JSON body as chrome-har writes it: only params, one pair per list item, with the size sent. */
function chromeHarPost(url: string, sent: unknown, response: unknown): Entry {
  const text = JSON.stringify(sent);
  const params = Object.entries(sent as Record<string, unknown>).flatMap(([name, value]) =>
    Array.isArray(value) ? value.map((v) => ({ name, value: v })) : [{ name, value }]
  );
  const e = entry("POST", url, {
    type: "fetch",
    headers: [["content-type", "application/json"], ["Content-Length", String(text.length)]],
    post: { mimeType: "application/json", params },
    body: response,
    status: 201,
  });
  (e.request as Record<string, unknown>).bodySize = text.length;
  return e;
}

const sentBody = (yaml: string, i = 0) => steps(yaml)[i].request.body;

Deno.test("a one-item list chrome-har flattened is a list again when the size sent and the response agree", () => {
  const sent = { name: "Plan", tags: ["q3"], owners: ["ann", "bob"], meta: { a: [1] } };
  const { yaml, summary } = convertHar(har([
    chromeHarPost(`${APP}/api/projects`, sent, { id: "prj_4f9a2e", ...sent }),
  ]));
  // The typed name of a project the journey keeps is the run's own (har_kept_name_test.ts).
  assert.deepEqual(sentBody(yaml), { ...sent, name: "${vars.project_name}" });
  assert.ok(
    summary.notes.includes(
      '1 JSON request body was recorded only as name/value pairs (chrome-har), which turn a one-item list into its item: "tags" is a list again, as the size sent and the response show.',
    ),
    summary.notes.join("\n"),
  );
});

Deno.test("what chrome-har lost is said when the evidence cannot restore it; sizes that agree say nothing", () => {
  // No echo of the list in the response, and an empty list that left no pair at all.
  for (const [sent, reply] of [[{ tags: ["q3"] }, { ok: true }], [{ a: "x", tags: [] }, {}]]) {
    const { yaml, summary } = convertHar(har([chromeHarPost(`${APP}/api/p`, sent, reply)]));
    const rebuilt = JSON.stringify(sentBody(yaml));
    assert.notEqual(rebuilt, JSON.stringify(sent));
    assert.ok(
      summary.notes.includes(
        `The request body of POST ${APP}/api/p was recorded only as name/value pairs (chrome-har), which lose JSON lists: ${
          JSON.stringify(sent).length
        } bytes were sent and ${rebuilt.length} could be rebuilt. A one-item list is written as its item and an empty list is missing: check the step's body.`,
      ),
      summary.notes.join("\n"),
    );
  }
  const plain = convertHar(har([
    chromeHarPost(`${APP}/api/p`, { a: "x", n: 2 }, { a: ["x"] }),
  ]));
  assert.deepEqual(sentBody(plain.yaml), { a: "x", n: 2 });
  assert.ok(!plain.summary.notes.some((n) => n.includes("chrome-har")), plain.summary.notes.join());
});

Deno.test("postData.text wins when present and consistent; an empty or broken text gives way to params", () => {
  const params = [{ name: "tags", value: "a" }, { name: "tags", value: "b" }];
  const post = (text?: string) => ({
    mimeType: "application/json",
    params,
    ...(text === undefined ? {} : { text }),
  });
  const body = (text?: string) =>
    sentBody(
      convertHar(har([entry("POST", `${APP}/api/x`, { type: "fetch", post: post(text) })]))
        .yaml,
    );
  assert.deepEqual(body('{"tags":["c"]}'), { tags: ["c"] });
  assert.deepEqual(body(""), { tags: ["a", "b"] });
  assert.deepEqual(body('{"tags":["a",'), { tags: ["a", "b"] });
  assert.deepEqual(body(), { tags: ["a", "b"] });
});

Deno.test("requests cut off by navigation are dropped and counted, never written as status -1", async () => {
  const failed = (url: string, status: number, extra: Record<string, unknown>) => {
    const e = entry("GET", url, { type: "fetch", status, mime: "x-unknown" });
    Object.assign(e.response as Record<string, unknown>, extra);
    return e;
  };
  const { yaml, summary } = convertHar(har([
    login,
    // Playwright: a long-poll the next navigation aborted.
    failed(`${APP}/api/notifications/wait?since=42`, -1, { _failureText: "net::ERR_ABORTED" }),
    // chrome-har: an event stream cut off, status 0 with Chrome's _error.
    failed(`${APP}/api/events/stream`, 0, { _error: "net::ERR_ABORTED" }),
    // A producer's garbage status: no HTTP response either.
    failed(`${APP}/api/ping`, 999, {}),
    entry("GET", `${APP}/api/me`, { type: "fetch", headers: [BEARER], body: { id: 1 } }),
  ]));
  assert.ok(!/status: -?\d{0,2}\n|status: 999/.test(yaml), yaml);
  assert.deepEqual(steps(yaml).map((s) => s.request.url), [
    "${vars.base_url}/api/login",
    "${vars.base_url}/api/me",
  ]);
  assert.equal(summary.dropped["failed (no HTTP status)"], 3);
  assert.match(formatSummary(summary), /Dropped 3: failed \(no HTTP status\) 3\./);
  // The flow loads: every status it asserts is one the loader accepts.
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, yaml);
    const check = await runCli(["validate", `${dir}/f.yaml`]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
