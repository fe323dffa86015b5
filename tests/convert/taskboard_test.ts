/**
 * Record in a real browser, convert, run, without the browser: Taskboard
 * (tests/support/taskboard_app.ts) clicked through in headless Chromium by
 * tests/apps/taskboard/record.ts, stored as Playwright HAR and as a chrome-har
 * export of the same session (re-recorded with `deno task record:apps
 * taskboard`), plus Firefox-, Safari- and mitmproxy-shaped copies made here
 * from the Playwright one. Each is converted and run against a fresh instance
 * (new state, new signing key, new id offsets, tags in another order) with
 * only the variables its header names. It must pass on the first run, and
 * again on a second (nothing pinned that the flow itself changes), with no
 * recorded secret anywhere in the flow.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { PASSWORD, startTaskboard } from "../support/taskboard_app.ts";
import { RECORDED_PORTS } from "../apps/taskboard/record.ts";
import { runTwice } from "../support/run_twice.ts";
import "../support/engines.ts";

const RECORDINGS = new URL("../apps/taskboard/recordings/", import.meta.url);
/** The analytics host the stored recordings name. */
const ANALYTICS = `127.0.0.1:${RECORDED_PORTS.analyticsPort}`;

/** Values of the recording that must not reach the flow: credentials, cookies, tokens. */
function recordedSecrets(har: string): string[] {
  const out = new Set<string>([PASSWORD, "wk_live_3f9a1c7e5b2d4f60"]);
  for (const entry of JSON.parse(har).log.entries) {
    for (const h of [...entry.request.headers, ...(entry.response?.headers ?? [])]) {
      const name = h.name.toLowerCase();
      if (name === "authorization") out.add(h.value.replace(/^Bearer /, ""));
      if (name === "cookie" || name === "set-cookie") {
        // tb_anon is the script's anonymous id: not a credential, sent as recorded.
        for (const m of h.value.matchAll(/(?:^|[;\n]\s*)([\w-]+)=([^;\n]{8,})/g)) {
          if (m[1] !== "tb_anon") out.add(m[2]);
        }
      }
      if (name === "x-xsrf-token" || name === "x-csrf-token") out.add(h.value);
    }
  }
  return [...out];
}

function assertNoSecret(yaml: string, secrets: string[]) {
  for (const secret of secrets) {
    for (
      const form of [secret, encodeURIComponent(secret), btoa(secret).replace(/=+$/, "")]
    ) {
      assert.ok(!yaml.includes(form), `the flow holds a recorded secret (${form.slice(0, 6)}…)`);
    }
  }
}

type Har = { log: Record<string, unknown> & { entries: Record<string, unknown>[] } };

/** Drops the Chrome-only `_…` fields of every entry, as other producers never write them. */
function withoutUnderscored(har: Har): Har {
  for (const entry of har.log.entries) {
    for (const key of Object.keys(entry)) if (key.startsWith("_")) delete entry[key];
  }
  return har;
}

/**
 * The same session in the shapes of other producers, built from
 * Playwright's: what each writes differently is what the converter must read.
 */
const VARIANTS: Record<string, (har: Har) => Har> = {
  // Firefox: no _resourceType, headers in sent case, cookies listed.
  firefox: (har) => {
    har.log.creator = { name: "Firefox", version: "140.0" };
    return withoutUnderscored(har);
  },
  // Safari (Web Inspector): no cookie lists, only the headers; its own _fetchType.
  safari: (har) => {
    har.log.creator = { name: "WebKit Web Inspector", version: "1.0" };
    withoutUnderscored(har);
    for (const entry of har.log.entries) {
      const e = entry as { request: Record<string, unknown>; response: Record<string, unknown> };
      delete e.request.cookies;
      delete e.response.cookies;
      entry._fetchType = "Network Load";
    }
    return har;
  },
  // mitmproxy: no pages, every body base64, times with an offset, lower-case header names.
  mitmproxy: (har) => {
    har.log.creator = { name: "mitmproxy", version: "11.0.2", comment: "mitmproxy savehar" };
    delete har.log.pages;
    withoutUnderscored(har);
    for (const entry of har.log.entries) {
      const e = entry as {
        startedDateTime: string;
        request: { headers: { name: string }[] };
        response: { headers: { name: string }[]; content: Record<string, unknown> };
      };
      e.startedDateTime = e.startedDateTime.replace("Z", "+00:00");
      for (const h of [...e.request.headers, ...e.response.headers]) h.name = h.name.toLowerCase();
      const text = e.response.content.text;
      if (typeof text === "string" && e.response.content.encoding !== "base64") {
        e.response.content.text = btoa(String.fromCharCode(...new TextEncoder().encode(text)));
        e.response.content.encoding = "base64";
      }
    }
    return har;
  },
};

const playwright = await Deno.readTextFile(new URL("session.pw.har", RECORDINGS));
const all: [string, string][] = [
  ["playwright", playwright],
  ["chromeHar", await Deno.readTextFile(new URL("session.cdp.har", RECORDINGS))],
];
for (const [name, reshape] of Object.entries(VARIANTS)) {
  all.push([name, JSON.stringify(reshape(JSON.parse(playwright)))]);
}

for (const [producer, har] of all) {
  Deno.test(`Taskboard's ${producer} recording converts into a flow that passes on a fresh instance`, async () => {
    const { yaml, summary, files } = convertHar(har);
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], yaml);
    assertNoSecret(yaml, recordedSecrets(har));
    // Comments show a signed URL's signature as ***; request data never holds a mask.
    const code = yaml.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");
    assert.ok(!code.includes("***"), "nothing masked is sent as request data");
    assert.ok(!yaml.includes(ANALYTICS), "the analytics host is dropped");
    // The notifications long-poll the page aborted on logout is dropped, never `status: -1`.
    assert.ok(!yaml.includes("/api/notifications/wait"), "the aborted long-poll is dropped");
    assert.equal(
      summary.dropped["failed (no HTTP status)"],
      producer === "chromeHar" ? undefined : 1, // chrome-har leaves an aborted request out
      JSON.stringify(summary.dropped),
    );
    assert.ok(
      summary.notes.some((n) => n.startsWith(`Dropped 3 requests to ${ANALYTICS} as telemetry`)),
      summary.notes.join("\n"),
    );
    // chrome-har wrote `topics: ["ui"]` as one pair; the size sent and the echo restore the list.
    assert.equal(
      summary.notes.some((n) => n.includes('"topics" is a list again')),
      producer === "chromeHar",
      summary.notes.join("\n"),
    );
    assert.match(yaml, /\{ cookie: sid \}/);
    assert.match(yaml, /x-xsrf-token: \$\{steps\.login\.capture\.xsrf_token\}/);
    assert.match(yaml, /\[\?@\.name == 'Ruby'\]\.id", first: true/);
    assert.match(yaml, /idempotency-key: \$\{RANDOM\.UUID\}/);
    assert.match(yaml, /client_ref: \$\{RANDOM\.UUID\}/);
    assert.match(yaml, /loop:\n\s+max_attempts: \d+/);
    // The page is kept for the visitor cookie and the CSRF token in its <meta>.
    assert.match(yaml, /tb_visitor: \{ cookie: tb_visitor \}/);
    assert.match(yaml, /csrf_token: \{ regex: /);
    // If-Match from the ETag of the read before the write (class 6).
    assert.match(yaml, /if-match: \$\{steps\.get_task\.capture\.etag\}/);
    // The signed download URL from the job result, whole (class 7): no signature left.
    assert.match(yaml, /url: \$\{raw:steps\.get_export\.capture\.url\}/);
    // The hidden `next` path and the script's anonymous cookie are constants (class 5).
    assert.ok(!yaml.includes("RECORDED_SECRET"), yaml);
    assert.match(yaml, /next: \/projects\/overview/);
    // The upload, whose body Chromium's recordings omit whole, is a multipart body with a
    // placeholder file beside the flow, and one note says what to check (class 11).
    assert.match(yaml, /multipart:\n\s+file: \{ file: uploads\/upload\.bin \}/);
    assert.deepEqual(files.map((f) => f.path), ["uploads/upload.bin"]);
    assert.equal(summary.notes.filter((n) => /upload/i.test(n)).length, 1);
    // The project id inside the GraphQL GET's variables and the cursor are live (class 9).
    assert.match(
      yaml,
      /%22projectId%22%3A%22\$\{steps\.create_project\.capture\.project_id\}%22/,
    );
    assert.match(yaml, /%22after%22%3A%22\$\{steps\.\w+\.capture\.end_cursor\}%22/);

    const fresh = await startTaskboard();
    try {
      const env = (name: string) =>
        name === "LOGIN_PASSWORD" ? PASSWORD : name === "BASE_URL" ? fresh.origin : undefined;
      await runTwice(yaml, files, env, `${producer}.yaml`);
      assert.equal(fresh.events, 0, "no request reached the analytics host");
      assert.ok(fresh.calls.filter((c) => c === "PUT /api/account").length === 2);
      assert.equal(fresh.calls.filter((c) => /^PATCH .*\/tasks\//.test(c)).length, 2);
    } finally {
      await fresh.close();
    }
  });
}
