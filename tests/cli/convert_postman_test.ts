/**
 * `flowrun convert postman` as a user runs it: every collection in
 * tests/fixtures/postman (all written here) converts, and what it writes passes `validate`; the
 * blog collection written here (legacy `tests[…]` checks, globals, `pm.*`),
 * converted, runs green against the in-memory server of tests/apps/conduit
 * with exactly the collection's 31 requests, and a server that breaks the
 * contract fails the translated check that guards it; the four collections
 * written for an echo service run against a small echo server of Postman Echo's shape.
 */
import assert from "node:assert/strict";
import { startConduit } from "../apps/conduit/server.ts";
import { runCli } from "../support/cli.ts";
import { ECHOED, echoEnv, startEcho } from "../support/postman_echo.ts";

const FIXTURES = "tests/fixtures/postman";
const BLOG = `${FIXTURES}/blog.postman_collection.json`;

/** Writes `dir/c.json`: a v2.1 collection named `name` with the rest of its keys. */
async function writeCollection(dir: string, name: string, rest: Record<string, unknown>) {
  const schema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify({ info: { name, schema }, ...rest }));
}

async function convert(collection: string, ...more: string[]) {
  const dir = await Deno.makeTempDir();
  const run = await runCli(["convert", "postman", collection, "-o", dir, ...more]);
  return { dir, run };
}

/** A value for every environment variable the summary says to set. */
function envFor(summary: string, overrides: Record<string, string> = {}): Record<string, string> {
  const line = summary.split("\n").find((l) => l.startsWith("Set before running: ")) ?? "";
  const env: Record<string, string> = {};
  for (const m of line.matchAll(/\b([A-Z][A-Z0-9_]*) \(/g)) env[m[1]] = "http://127.0.0.1:9";
  return { ...env, ...overrides };
}

Deno.test("convert postman: every collection of the corpus converts, and validate passes on what it wrote", async () => {
  const files = [...Deno.readDirSync(FIXTURES)].map((e) => e.name)
    .filter((n) => n.endsWith(".postman_collection.json")).sort();
  assert.ok(files.length >= 6, files.join());
  for (const name of files) {
    const { dir, run } = await convert(`${FIXTURES}/${name}`);
    try {
      assert.equal(run.code, 0, `${name}: ${run.stderr}`);
      assert.match(run.stderr, /^Converted \d+ requests? of the Postman collection/);
      const check = await runCli(["validate", dir], { env: envFor(run.stderr) });
      assert.equal(check.code, 0, `${name}: ${check.stdout}${check.stderr}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("convert postman: the output is the same bytes each time", async () => {
  const a = await convert(BLOG);
  const b = await convert(BLOG);
  try {
    const names = [...Deno.readDirSync(a.dir)].map((e) => e.name).sort();
    assert.deepEqual(names, [...Deno.readDirSync(b.dir)].map((e) => e.name).sort());
    for (const n of names) {
      assert.equal(
        await Deno.readTextFile(`${a.dir}/${n}`),
        await Deno.readTextFile(`${b.dir}/${n}`),
      );
    }
    assert.equal(a.run.stderr.replaceAll(a.dir, "D"), b.run.stderr.replaceAll(b.dir, "D"));
  } finally {
    await Deno.remove(a.dir, { recursive: true });
    await Deno.remove(b.dir, { recursive: true });
  }
});

/** Converts the blog collection with an environment, runs it against the server, returns the run and the JSON report. */
async function runBlog(breakFavoritesCount: boolean) {
  const conduit = await startConduit({ breakFavoritesCount });
  const envDir = await Deno.makeTempDir();
  const envFile = `${envDir}/blog.postman_environment.json`;
  await Deno.writeTextFile(
    envFile,
    JSON.stringify({
      name: "Blog local",
      values: [
        { key: "apiRoot", value: `${conduit.origin}/api`, enabled: true },
        { key: "writer", value: "marta", enabled: true },
        { key: "writerEmail", value: "marta@bakery.test", enabled: true },
        { key: "writerPassword", value: "rye-and-salt-9", enabled: true },
      ],
    }),
  );
  const { dir, run } = await convert(BLOG, "--environment", envFile);
  try {
    assert.equal(run.code, 0, run.stderr);
    // The secret stays out of every file written.
    for (const e of Deno.readDirSync(dir)) {
      if (e.isFile) {
        assert.ok(!(await Deno.readTextFile(`${dir}/${e.name}`)).includes("rye-and-salt"), e.name);
      }
    }
    // The secret (the password the sign-in sends) is to be set, not written; the e-mail address
    // the sign-in sends is the user's name, not a secret, so it is in the vars file like the name.
    assert.match(
      run.stderr,
      /Set before running: .*WRITER_PASSWORD \(\{\{writerPassword\}\}, a secret\)/,
    );
    assert.doesNotMatch(run.stderr, /EMAIL[^,]*a secret/i);
    assert.equal(
      JSON.parse(await Deno.readTextFile(`${dir}/blog_local.vars.json`)).writerEmail,
      "marta@bakery.test",
    );
    const report = `${envDir}/report.json`;
    const result = await runCli([
      "run",
      dir,
      "--jobs",
      "1",
      "--vars-file",
      `${dir}/blog_local.vars.json`,
      "--env-file",
      `${dir}/blog_local.env`,
      "--report-json",
      report,
    ], { env: { WRITER_PASSWORD: "rye-and-salt-9" } });
    const json = JSON.parse(await Deno.readTextFile(report));
    return { run, result, json, calls: [...conduit.calls] };
  } finally {
    await conduit.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(envDir, { recursive: true });
  }
}

interface Check {
  passed: boolean;
  name?: string;
  message: string;
  skipped?: boolean;
}
type Report = { flows: { steps: { name: string; assertions: Check[] }[] }[] };
const checksOf = (json: Report) => json.flows.flatMap((f) => f.steps.flatMap((s) => s.assertions));

Deno.test("convert postman: the blog collection runs green with its 31 requests, its translated checks checked", async () => {
  const { run, result, json, calls } = await runBlog(false);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.equal(calls.length, 31, calls.join("\n"));
  const translated = Number(run.stderr.match(/Assertions: (\d+) translated/)?.[1]);
  assert.ok(translated >= 330, run.stderr);
  const checks = checksOf(json as Report);
  // Newman runs 278 of the collection's assertions; the other branches' checks are skipped.
  assert.ok(checks.filter((c) => !c.skipped).length >= 270, `${checks.length} checks`);
  assert.ok(checks.every((c) => c.passed), JSON.stringify(checks.filter((c) => !c.passed)));
});

Deno.test("convert postman: a server that sends favoritesCount as text fails the translated integer check", async () => {
  const { result, json } = await runBlog(true);
  assert.equal(result.code, 1, result.stdout);
  const failed = checksOf(json as Report).filter((c) => !c.passed);
  assert.ok(failed.length > 0);
  assert.ok(
    failed.every((c) => /favoritesCount/.test(`${c.name} ${c.message}`)),
    JSON.stringify(failed),
  );
});

Deno.test("convert postman: the four collections written for an echo service run green against one, with their request counts", async () => {
  const echo = startEcho();
  const origin = await echo.origin;
  try {
    for (const [name, requests] of ECHOED) {
      const { dir, run } = await convert(`${FIXTURES}/${name}.postman_collection.json`);
      const before = echo.calls.length;
      const result = await runCli(["run", dir, "--jobs", "1"], {
        // The echo host's URL, the passwords of the Basic and Digest auth, and the URL a
        // collection variable holds.
        env: { ECHO_FLOWRUN_TEST_URL: origin, ...echoEnv(origin) },
      });
      await Deno.remove(dir, { recursive: true });
      assert.equal(result.code, 0, `${name}: ${run.stderr}${result.stdout}`);
      assert.equal(echo.calls.length - before, requests, name);
    }
  } finally {
    await echo.server.shutdown();
  }
});

Deno.test("convert postman: an echo server whose Basic auth lets anyone in fails the translated 401 check", async () => {
  const echo = startEcho(true);
  const origin = await echo.origin;
  const { dir } = await convert(`${FIXTURES}/inherited-auth.postman_collection.json`);
  try {
    const result = await runCli(["run", dir, "--jobs", "1"], {
      env: { ECHO_FLOWRUN_TEST_URL: origin, ...echoEnv(origin) },
    });
    assert.equal(result.code, 1, result.stdout);
    assert.match(
      result.stdout,
      /noauth on the request turns the collection login off: \$\.status: expected 401, got 200/,
    );
  } finally {
    await echo.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: bad input is one sentence with the fix, exit 2, nothing written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [string, string, RegExp][] = [
      ["not.json", "{ nope", /is not JSON/],
      ["array.json", "[1, 2]", /not a Postman collection/],
      ["v1.json", JSON.stringify({ id: "x", name: "old", order: [], requests: [] }), /v1 format/],
      ["env.json", JSON.stringify({ name: "dev", values: [] }), /environment, not a collection/],
      [
        "empty.json",
        JSON.stringify({ info: { name: "e" }, item: [{ name: "f", item: [] }] }),
        /has no requests/,
      ],
    ];
    for (const [file, text, message] of cases) {
      await Deno.writeTextFile(`${dir}/${file}`, text);
      const run = await runCli(["convert", "postman", `${dir}/${file}`, "-o", `${dir}/out`]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /\n\s+at /);
      assert.throws(() => Deno.statSync(`${dir}/out`));
    }
    // Binary input is named by its path and never echoed.
    await Deno.writeFile(`${dir}/bin.json`, new Uint8Array([1, 2, 0x1b, 0x5b, 0x33, 0x31, 0x6d]));
    const binary = await runCli(["convert", "postman", `${dir}/bin.json`, "-o", `${dir}/out`]);
    assert.equal(binary.code, 2);
    assert.match(
      binary.stderr,
      /bin\.json: The collection is not JSON: Unexpected token '\\u0001'\./,
    );
    assert.ok(
      ![1, 2, 0x1b].some((c) => binary.stderr.includes(String.fromCharCode(c))),
      binary.stderr,
    );
    // A bad environment is named as the environment, with its own path.
    await Deno.writeTextFile(
      `${dir}/ok.json`,
      JSON.stringify({ info: { name: "x" }, item: [{ name: "r", request: "https://a.test" }] }),
    );
    const env = await runCli([
      "convert",
      "postman",
      `${dir}/ok.json`,
      "-e",
      `${dir}/array.json`,
      "-o",
      `${dir}/out`,
    ]);
    assert.equal(env.code, 2);
    assert.match(env.stderr, /array\.json: The --environment file is not a Postman environment/);
    const globals = await runCli([
      "convert",
      "postman",
      `${dir}/ok.json`,
      "--globals",
      `${dir}/bin.json`,
      "-o",
      `${dir}/out`,
    ]);
    assert.equal(globals.code, 2);
    assert.match(globals.stderr, /bin\.json: The globals file is not JSON/);
    const noOutput = await runCli(["convert", "postman", `${dir}/ok.json`]);
    assert.equal(noOutput.code, 2);
    assert.match(noOutput.stderr, /error\[no-output\]: Missing the output folder \(-o DIR\)\./);
    const missing = await runCli(["convert", "postman", `${dir}/none.json`, "-o", `${dir}/out`]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: docs/converting.md's table of the corpus's collections matches what the converter says", async () => {
  const doc = await Deno.readTextFile("docs/converting.md");
  const table =
    doc.split("<!-- postman-counts:start -->")[1].split("<!-- postman-counts:end -->")[0];
  const rows = table.split("\n").filter((l) => /^\| [A-Z]/.test(l) && !l.startsWith("| collection"))
    .map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
  const files: Record<string, string> = {
    "Blog": "blog",
    "Library API walkthrough": "library-api",
    "Pantry echo (v2.0)": "echo-v2",
    "Inherited auth and variables": "inherited-auth",
    "Nested folders": "nested-folders",
    "Chained variables": "chained",
    "Small sample": "small-sample",
    "Warehouse products (200)": "warehouse-200",
    "Contract suite (Portman style)": "contract-suite",
  };
  assert.deepEqual(rows.map((r) => r[0]).sort(), Object.keys(files).sort());
  for (const [name, requests, flows, translated, untranslated] of rows) {
    const { dir, run } = await convert(`${FIXTURES}/${files[name]}.postman_collection.json`);
    await Deno.remove(dir, { recursive: true });
    const said = run.stderr.match(/^Converted (\d+) requests? .* into (\d+) flows? /m);
    const counts = run.stderr.match(/^Assertions: (\d+) translated, (\d+) untranslated/m);
    assert.deepEqual([said?.[1], said?.[2], counts?.[1], counts?.[2]], [
      requests,
      flows,
      translated,
      untranslated,
    ], name);
  }
});

Deno.test("convert postman: a poll by setNextRequest and an OAuth2 client-credentials grant run against a server", async () => {
  const calls: string[] = [];
  let polls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    calls.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/token") {
      const form = new URLSearchParams(await req.text());
      const ok = form.get("client_id") === "cid" && form.get("client_secret") === "csecret";
      return ok ? Response.json({ access_token: "tok-1" }) : new Response(null, { status: 401 });
    }
    if (req.headers.get("authorization") !== "Bearer tok-1") {
      return new Response(null, { status: 401 });
    }
    return Response.json({ done: ++polls >= 3 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir();
  try {
    await writeCollection(dir, "Jobs", {
      auth: {
        type: "oauth2",
        oauth2: [
          { key: "grant_type", value: "client_credentials" },
          { key: "accessTokenUrl", value: "{{baseUrl}}/token" },
          { key: "clientId", value: "cid" },
          { key: "clientSecret", value: "csecret" },
          { key: "client_authentication", value: "body" },
        ],
      },
      item: [{
        name: "Poll the job",
        request: { method: "GET", url: "{{baseUrl}}/job" },
        event: [{
          listen: "test",
          script: {
            exec: [
              "pm.test('ok', () => pm.response.to.have.status(200));",
              "if (!pm.response.json().done) { postman.setNextRequest(pm.info.requestName); }",
            ],
          },
        }],
      }],
    });
    const conversion = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
    assert.equal(conversion.code, 0, conversion.stderr);
    assert.match(conversion.stderr, /OAuth2: flowrun fetches 1 token itself/);
    const result = await runCli(["run", `${dir}/out`], {
      env: {
        BASE_URL: origin,
        OAUTH2_CLIENT_SECRET: "csecret",
      },
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    // Newman would poll three times too (plus the token request the Postman app makes).
    assert.deepEqual(calls, ["POST /token", "GET /job", "GET /job", "GET /job"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: a translated JSON schema check is checked: green on a matching body, red on another", async () => {
  let id: unknown = 1;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ id }),
  );
  const dir = await Deno.makeTempDir();
  try {
    await writeCollection(dir, "Schema", {
      item: [{
        name: "Item",
        request: { method: "GET", url: "{{baseUrl}}/item" },
        event: [{
          listen: "test",
          script: {
            exec: [
              "var schema = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };",
              "pm.test('matches the schema', () => pm.response.to.have.jsonSchema(schema));",
            ],
          },
        }],
      }],
    });
    const conversion = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
    assert.equal(conversion.code, 0, conversion.stderr);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const green = await runCli(["run", `${dir}/out`], { env });
    assert.equal(green.code, 0, green.stdout + green.stderr);
    id = "not-an-integer";
    const red = await runCli(["run", `${dir}/out`], { env });
    assert.equal(red.code, 1, red.stdout);
    assert.match(red.stdout, /\/id must be integer/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: checks in a forEach over a list run on every element; a wrong element fails its check", async () => {
  let items: unknown[] = [{ id: 1 }, { id: 2 }];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json({ items }),
  );
  const dir = await Deno.makeTempDir();
  try {
    await writeCollection(dir, "Items", {
      item: [{
        name: "Items",
        request: { method: "GET", url: "{{baseUrl}}/items" },
        event: [{
          listen: "test",
          script: {
            exec: [
              "const json = pm.response.json();",
              "pm.test('ids are numbers', () => { json.items.forEach((item) => pm.expect(item.id).to.be.a('number')); });",
            ],
          },
        }],
      }],
    });
    const conversion = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
    assert.equal(conversion.code, 0, conversion.stderr);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const green = await runCli(["run", `${dir}/out`], { env });
    assert.equal(green.code, 0, green.stdout + green.stderr);
    items = [{ id: 1 }, { id: "two" }];
    const red = await runCli(["run", `${dir}/out`], { env });
    assert.equal(red.code, 1, red.stdout);
    assert.match(red.stdout, /value 2 of 2/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: the flows do what Newman does by default: follow redirects (unless told not to) and keep cookies", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/login") {
      return new Response(null, {
        status: 302,
        headers: { location: "/home", "set-cookie": "sid=s1; Path=/" },
      });
    }
    if (path === "/home" || path === "/me") {
      const ok = (req.headers.get("cookie") ?? "").includes("sid=s1");
      return Response.json({ ok }, { status: ok ? 200 : 401 });
    }
    return new Response(null, { status: 404 });
  });
  const dir = await Deno.makeTempDir();
  const test = (line: string) => [{ listen: "test", script: { exec: [line] } }];
  try {
    await writeCollection(dir, "Session", {
      item: [
        {
          name: "Login",
          request: "{{baseUrl}}/login",
          event: test("pm.response.to.have.status(200);"),
        },
        {
          name: "Me",
          request: "{{baseUrl}}/me",
          event: test("pm.expect(pm.response.json().ok).to.be.true;"),
        },
        {
          name: "Login, not followed",
          request: "{{baseUrl}}/login",
          protocolProfileBehavior: { followRedirects: false },
          event: test("pm.response.to.have.status(302);"),
        },
      ],
    });
    const conversion = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
    assert.equal(conversion.code, 0, conversion.stderr);
    const result = await runCli(["run", `${dir}/out`], {
      env: { BASE_URL: `http://127.0.0.1:${server.addr.port}` },
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: a jump on a status sends what Newman sends, whether the jump is taken or not", async () => {
  let found = false;
  const calls: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    calls.push(`${req.method} ${path}`);
    if (path === "/item") return new Response(null, { status: found ? 200 : 404 });
    return Response.json({ ok: true }, { status: req.method === "POST" ? 201 : 200 });
  });
  const dir = await Deno.makeTempDir();
  try {
    await writeCollection(dir, "Jump", {
      item: [
        {
          name: "Find",
          request: "{{baseUrl}}/item",
          event: [{
            listen: "test",
            script: {
              exec: ["if (pm.response.code === 200) { postman.setNextRequest('Use'); }"],
            },
          }],
        },
        { name: "Create", request: { method: "POST", url: "{{baseUrl}}/items" } },
        { name: "Use", request: "{{baseUrl}}/use" },
      ],
    });
    const conversion = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
    assert.equal(conversion.code, 0, conversion.stderr);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const missing = await runCli(["run", `${dir}/out`], { env });
    assert.equal(missing.code, 0, missing.stdout + missing.stderr);
    assert.deepEqual(calls.splice(0), ["GET /item", "POST /items", "GET /use"]);
    found = true;
    const present = await runCli(["run", `${dir}/out`], { env });
    assert.equal(present.code, 0, present.stdout + present.stderr);
    assert.deepEqual(calls.splice(0), ["GET /item", "GET /use"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: a length compared on a string (a body, a token, a header) passes when it holds and fails when not", async () => {
  // Seen converting held-out collections: `tests["Body is not empty"] = responseBody.length > 0`
  // became `$.body[0] exists`, which no string has, so it failed on every response.
  let token = "abcdefghijklmnop";
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response(JSON.stringify({ token, items: [1, 2, 3] }), {
        headers: { "content-type": "application/json", "x-id": "abcd" },
      }),
  );
  const dir = await Deno.makeTempDir();
  try {
    await writeCollection(dir, "L", {
      item: [{
        name: "A",
        request: { method: "GET", url: "{{baseUrl}}/a" },
        event: [{
          listen: "test",
          script: {
            exec: [
              "tests['body'] = responseBody.length > 0;",
              "var d = JSON.parse(responseBody);",
              "tests['token'] = d.token.length > 10;",
              "tests['items'] = d.items.length >= 2;",
              "pm.test('text', () => pm.expect(pm.response.text()).to.have.length.above(5));",
              "pm.test('at least', () => pm.expect(d.token).to.have.lengthOf.at.least(5));",
              "tests['short id'] = postman.getResponseHeader('X-Id').length < 5;",
            ],
          },
        }],
      }],
    });
    const conversion = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
    assert.equal(conversion.code, 0, conversion.stderr);
    assert.match(conversion.stderr, /A: 6 translated, 0 untranslated/);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const green = await runCli(["run", `${dir}/out`], { env });
    assert.equal(green.code, 0, green.stdout + green.stderr);
    token = "abc";
    const red = await runCli(["run", `${dir}/out`], { env });
    assert.equal(red.code, 1, red.stdout + red.stderr);
    assert.match(red.stdout + red.stderr, /token/);
    assert.doesNotMatch(red.stdout + red.stderr, /✘[^\n]*\$\.(body|json\.items|headers)/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
