/**
 * `flowrun convert har` end to end: the test records a realistic session
 * against the demo API into a HAR itself (as a browser's network panel would,
 * noise included), converts it with the CLI, and runs the converted flow
 * against a fresh demo API instance with only the environment variables the
 * conversion names. It must pass with no edits and hold no recorded secret.
 */
import assert from "node:assert/strict";
import { startDemoApi } from "../../examples/demo_api.ts";
import { runCli } from "../support/cli.ts";

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  _resourceType: string;
}

/** Records fetches as a Chrome DevTools export would, pseudo-headers and browser headers included. */
class Recorder {
  entries: HarEntry[] = [];
  #clock = Date.parse("2026-11-21T10:00:00.000Z");

  async fetch(
    method: string,
    url: string,
    options: { headers?: Record<string, string>; json?: unknown } = {},
  ) {
    const u = new URL(url);
    const headers: Record<string, string> = {
      accept: "application/json",
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36",
      "accept-language": "en-GB,en;q=0.9",
      "sec-fetch-mode": "cors",
      cookie: "_ga=GA1.1.123456789.1732180000; _gid=GA1.1.987654321.1732180000",
      ...options.headers,
    };
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    this.#push({
      method,
      url,
      headers: [
        { name: ":authority", value: u.host },
        { name: ":method", value: method },
        { name: ":path", value: u.pathname + u.search },
        { name: ":scheme", value: "http" },
        ...Object.entries(headers).map(([name, value]) => ({ name, value })),
      ],
      body,
      status: response.status,
      responseHeaders: [...response.headers].map(([name, value]) => ({ name, value })),
      text,
      mimeType: response.headers.get("content-type") ?? "",
      resourceType: "fetch",
    });
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  }

  /** Browser traffic that is not the API: assets, analytics, preflights. */
  noise(apiOrigin: string) {
    const fake = (
      url: string,
      mimeType: string,
      resourceType: string,
      method = "GET",
      status = 200,
      extra: { name: string; value: string }[] = [],
    ) =>
      this.#push({
        method,
        url,
        headers: extra,
        status,
        responseHeaders: [{ name: "content-type", value: mimeType }],
        text: "",
        mimeType,
        resourceType,
      });
    fake(`${apiOrigin}/`, "text/html", "document");
    fake("https://cdn.example-static.com/app.3f9c2.js", "application/javascript", "script");
    fake("https://cdn.example-static.com/app.css", "text/css", "stylesheet");
    fake("https://fonts.example-static.com/inter.woff2", "font/woff2", "font");
    fake(`${apiOrigin}/logo.png`, "image/png", "image");
    fake(
      "https://www.google-analytics.com/g/collect?v=2&tid=G-XXXX",
      "text/plain",
      "ping",
      "POST",
      204,
    );
    fake(`${apiOrigin}/items`, "text/plain", "preflight", "OPTIONS", 204, [
      { name: "access-control-request-method", value: "POST" },
      { name: "origin", value: "http://localhost:5173" },
    ]);
  }

  #push(e: {
    method: string;
    url: string;
    headers: { name: string; value: string }[];
    body?: string;
    status: number;
    responseHeaders: { name: string; value: string }[];
    text: string;
    mimeType: string;
    resourceType: string;
  }) {
    const u = new URL(e.url);
    this.#clock += 250;
    this.entries.push({
      startedDateTime: new Date(this.#clock).toISOString(),
      time: 12.5,
      request: {
        method: e.method,
        url: e.url,
        httpVersion: "h2",
        headers: e.headers,
        queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
        cookies: [],
        headersSize: -1,
        bodySize: e.body?.length ?? 0,
        ...(e.body === undefined
          ? {}
          : { postData: { mimeType: "application/json", text: e.body } }),
      },
      response: {
        status: e.status,
        statusText: "",
        httpVersion: "h2",
        headers: e.responseHeaders,
        cookies: [],
        content: { size: e.text.length, mimeType: e.mimeType, text: e.text },
        redirectURL: "",
        headersSize: -1,
        bodySize: e.text.length,
      },
      _resourceType: e.resourceType,
    });
  }

  har(): string {
    return JSON.stringify(
      {
        log: {
          version: "1.2",
          creator: { name: "WebInspector", version: "537.36" },
          pages: [],
          entries: this.entries,
        },
      },
      null,
      2,
    );
  }
}

Deno.test("a recorded session converts into a flow that passes against a fresh API with only the named variables", async () => {
  const recorded = await startDemoApi();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-" });
  const rec = new Recorder();
  let token = "";
  try {
    rec.noise(recorded.url);
    const login = await rec.fetch("POST", `${recorded.url}/login`, {
      json: { username: "demo", password: "demo-password" },
    });
    token = login.json.token;
    const auth = { authorization: `Bearer ${token}` };
    await rec.fetch("GET", `${recorded.url}/me`, { headers: auth });
    const item = await rec.fetch("POST", `${recorded.url}/items`, {
      headers: auth,
      json: { name: "Widget 1732", price: 9.5, tags: ["blue"] },
    });
    const itemId = item.json.id;
    await rec.fetch("GET", `${recorded.url}/items/${itemId}`, { headers: auth });
    const job = await rec.fetch("POST", `${recorded.url}/jobs`, {
      headers: auth,
      json: { kind: "export", ready_after: 3 },
    });
    for (let i = 0; i < 3; i++) {
      await rec.fetch("GET", `${recorded.url}/jobs/${job.json.id}`, { headers: auth });
    }
    await rec.fetch("DELETE", `${recorded.url}/jobs/${job.json.id}`, { headers: auth });
    await rec.fetch("DELETE", `${recorded.url}/items/${itemId}`, { headers: auth });
  } finally {
    await recorded.close();
  }
  const fresh = await startDemoApi();
  try {
    await Deno.writeTextFile(`${dir}/session.har`, rec.har());
    const converted = await runCli([
      "convert",
      "har",
      `${dir}/session.har`,
      "-o",
      `${dir}/session.yaml`,
      "--name",
      "Recorded session",
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/session.yaml`);
    assert.equal(
      (await runCli(["convert", "har", `${dir}/session.har`, "--name", "Recorded session"])).stdout,
      flow,
      "the same HAR gives the same bytes",
    );

    // No recorded secret anywhere: not the token, not the password, not the analytics cookie.
    for (const secret of [token, "demo-password", "GA1.1.123456789"]) {
      assert.ok(!flow.includes(secret), `the flow contains ${secret}`);
      assert.ok(!converted.stderr.includes(secret), `the summary contains ${secret}`);
    }
    // No noise left.
    for (
      const noise of [
        "cdn.example-static.com",
        "google-analytics",
        "user-agent",
        ":authority",
        "OPTIONS",
        "logo.png",
        "_ga",
      ]
    ) {
      assert.ok(!flow.includes(noise), `the flow still holds ${noise}`);
    }

    // The header comment names the variables to set; set exactly those.
    const names = [
      ...new Set([...flow.matchAll(/\$\{ENV\.([A-Z0-9_]+)(?::-[^}]*)?\}/g)].map((m) => m[1])),
    ];
    const env: Record<string, string> = {};
    for (const name of names) {
      if (/BASE_URL/.test(name)) env[name] = fresh.url;
      else if (/PASSWORD|PASS/.test(name)) env[name] = "demo-password";
      else if (/USER/.test(name)) env[name] = "demo";
      else assert.fail(`the converted flow needs an unexpected variable ${name}`);
    }
    const run = await runCli(["run", `${dir}/session.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${flow}`);
    assert.match(run.stdout, /1 flow: 1 passed/);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har reports bad input clearly, with exit 2 and no stack trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-" });
  try {
    await Deno.writeTextFile(`${dir}/not.json`, "<html>not a HAR</html>");
    await Deno.writeTextFile(`${dir}/empty.har`, JSON.stringify({ log: { entries: [] } }));
    await Deno.writeTextFile(`${dir}/nolog.har`, JSON.stringify({ hello: 1 }));
    for (const file of ["not.json", "empty.har", "nolog.har"]) {
      const run = await runCli(["convert", "har", `${dir}/${file}`, "-o", `${dir}/out.yaml`]);
      assert.equal(run.code, 2, file);
      assert.match(run.stderr, /^error\[bad-har\]: /, file);
      assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
      await assert.rejects(
        Deno.stat(`${dir}/out.yaml`),
        Deno.errors.NotFound,
        "no half-written file",
      );
    }
    const missing = await runCli(["convert", "har", `${dir}/missing.har`]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^error\[no-such-path\]/);
    const badFormat = await runCli(["convert", "postman", `${dir}/x.json`]);
    assert.equal(badFormat.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convertPlan reads convert har's arguments without a process", async () => {
  const { convertPlan } = await import("../../cli/convert.ts");
  const plan = convertPlan([
    "a.har",
    "b.har",
    "--include-host",
    "api.test",
    "--exclude-url",
    "/health$",
    "--no-correlate",
    "--verify",
    "http://127.0.0.1:8080",
  ]);
  assert.deepEqual(plan?.paths, ["a.har", "b.har"]);
  assert.equal(plan?.verify, "http://127.0.0.1:8080");
  assert.equal(plan?.output, undefined);
  assert.deepEqual(plan?.options.includeHosts, ["api.test"]);
  assert.ok(plan?.options.excludeUrls?.[0].test("/api/health"));
  assert.equal(plan?.options.spelling, "a");
  assert.equal(plan?.options.noCorrelate, true);
  assert.equal(convertPlan(["-h"]), undefined);
  const code = (args: string[]) => {
    try {
      convertPlan(args);
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };
  assert.equal(code([]), "no-paths");
  assert.equal(code(["a", "b", "c"]), "no-paths");
  assert.equal(code(["a.har", "--spelling", "c"]), "bad-spelling");
  assert.equal(code(["a.har", "--exclude-url", "("]), "bad-regex");
});
