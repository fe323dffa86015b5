/**
 * What the workers of a run share, through the CLI: a secret one worker's
 * flow captures is masked in another worker's flow and in every artifact;
 * the setup flows' outputs (a secret among them) reach the flows of every
 * worker; one OAuth2 token request serves every worker; a `serial: true`
 * flow never runs beside another.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { notingServer, type Seen, sleep, suite } from "../../support/workers.ts";

/** Every file under `dir`, as text. */
async function allText(dir: string): Promise<string> {
  let text = "";
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    text += entry.isDirectory ? await allText(path) : await Deno.readTextFile(path);
  }
  return text;
}

/** Fails when `text` holds `secret` raw, JSON-escaped or in base64. */
function assertMasked(text: string, secret: string, where: string): void {
  for (const form of [secret, JSON.stringify(secret).slice(1, -1), btoa(secret)]) {
    assert.ok(!text.includes(form), `${where} holds the secret as ${form}`);
  }
}

Deno.test("a secret captured on one worker is masked in another worker's flow and every artifact", async () => {
  const secret = `tok-${crypto.randomUUID().replaceAll("-", "")}`;
  const { promise: capturedByA, resolve } = Promise.withResolvers<void>();
  const api = notingServer(async ({ path }) => {
    if (path === "/login") return Response.json({ api_token: secret });
    if (path === "/after-login") {
      resolve();
      return Response.json({ ok: true });
    }
    // Flow b's answer holds the token, once flow a (on the other worker) has captured it.
    await capturedByA;
    await sleep(300);
    return Response.json({ value: secret, state: "bad" });
  });
  // The main thread runs the first flow, each worker one of the other two.
  const dir = await suite({
    "flows/0.yaml": `name: main's own
steps:
  - name: get
    request: {url: "${api.base}/filler"}
`,
    "flows/a.yaml": `name: a logs in
steps:
  - name: login
    request: {method: POST, url: "${api.base}/login"}
    capture: {api_token: $.json.api_token}
  - name: next
    request: {url: "${api.base}/after-login"}
`,
    "flows/b.yaml": `name: b reads
steps:
  - name: read
    request: {url: "${api.base}/read"}
    capture: {seen: $.json.value}
    assert: {status: 200, json: [{path: $.json.state, equals: ok}, {path: $.json.value, equals: x}]}
`,
  });
  try {
    const run = await runCli(
      ["run", "flows", "--workers", "3", "--jobs", "3", "--out-dir", "out", "-v"],
      { cwd: dir },
    );
    assert.equal(run.code, 1, run.stderr);
    assertMasked(run.stdout + run.stderr, secret, "the console");
    const artifacts = await allText(`${dir}/out`);
    assertMasked(artifacts, secret, "an artifact");
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    const read = report.flows[2].steps[0];
    assert.equal(read.name, "read");
    assert.match(JSON.stringify(read), /\*\*\*/);
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("setup outputs, a secret one too, reach the flows of every worker", async () => {
  const token = `tok-${crypto.randomUUID().replaceAll("-", "")}`;
  const api = notingServer(({ path, query }) =>
    path === "/login"
      ? Response.json({ token })
      : Response.json({ echoed: query.get("t"), state: "bad" })
  );
  const files: Record<string, string> = {
    "setup.yaml": `name: log in once
steps:
  - name: login
    request: {method: POST, url: "${api.base}/login"}
    capture: {token: $.json.token}
outputs:
  token: "\${steps.login.capture.token}"
`,
  };
  for (let i = 0; i < 8; i++) {
    files[`flows/f${i}.yaml`] = `name: flow ${i}
steps:
  - name: use
    request: {url: "${api.base}/use?t=\${setup.token}&n=${i}", headers: {x-token: "\${setup.token}"}}
    assert: {status: 200, json: [{path: $.json.state, equals: ok}]}
`;
  }
  const dir = await suite(files);
  try {
    const run = await runCli(
      [
        "run",
        "flows",
        "--setup",
        "setup.yaml",
        "--workers",
        "3",
        "--jobs",
        "6",
        "--out-dir",
        "out",
      ],
      { cwd: dir },
    );
    assert.equal(run.code, 1, run.stderr);
    const uses = api.seen.filter((s) => s.path === "/use");
    assert.equal(uses.length, 8);
    for (const use of uses) {
      assert.equal(use.query.get("t"), token);
      assert.equal(use.headers.get("x-token"), token);
    }
    // Every flow failed on its check, so each kept its response, which echoes the token.
    assertMasked(await allText(`${dir}/out`) + run.stdout, token, "an output");
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("one OAuth2 token request serves the flows of the main thread and two workers", async () => {
  const api = notingServer(async ({ path, headers }) => {
    if (path === "/token") {
      // Slow, so that both workers ask for it while it is being fetched.
      await sleep(200);
      return Response.json({
        access_token: "at-1f2e3d4c5b6a",
        token_type: "Bearer",
        expires_in: 3600,
      });
    }
    return Response.json({ auth: headers.get("authorization") === "Bearer at-1f2e3d4c5b6a" });
  });
  const files: Record<string, string> = {
    "auth.yaml": `auth:
  oauth2:
    grant_type: client_credentials
    token_url: ${api.base}/token
    client_id: app
    client_secret: "\${ENV.CLIENT_SECRET}"
`,
  };
  for (let i = 0; i < 12; i++) {
    files[`flows/f${String(i).padStart(2, "0")}.yaml`] = `name: flow ${i}
steps:
  - name: get
    request: {url: "${api.base}/api?n=${i}"}
    assert: {status: 200, json: [{path: $.json.auth, equals: true}]}
`;
  }
  const dir = await suite(files);
  try {
    const run = await runCli(
      [
        "run",
        "flows",
        "--auth-file",
        "auth.yaml",
        "--workers",
        "3",
        "--jobs",
        "6",
        "--report-json",
        "r.json",
      ],
      { cwd: dir, env: { CLIENT_SECRET: "cl-s3cr3t-77" } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api.seen.filter((s) => s.path === "/token").length, 1);
    assert.equal(api.seen.filter((s) => s.path === "/api").length, 12);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const exchanges = report.flows.flatMap((f: { steps: { name: string }[] }) => f.steps)
      .filter((s: { name: string }) => s.name === "auth › oauth2 token");
    // Reported once, in the flow that fetched it, as on one thread.
    assert.equal(exchanges.length, 1);
    assertMasked(await Deno.readTextFile(`${dir}/r.json`), "at-1f2e3d4c5b6a", "the report");
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/** The requests of flow `n` (its `?f=`), and when they were in flight. */
function span(seen: readonly Seen[], n: string): { start: number; end: number } {
  const mine = seen.filter((s) => s.query.get("f") === n);
  return { start: Math.min(...mine.map((s) => s.start)), end: Math.max(...mine.map((s) => s.end)) };
}

Deno.test("a serial flow never runs beside another one, on any worker", async () => {
  const api = notingServer(async ({ query }) => {
    await sleep(20);
    return Response.json({ f: query.get("f") });
  });
  const files: Record<string, string> = {};
  const serial = ["03", "07"];
  for (let i = 0; i < 12; i++) {
    const n = String(i).padStart(2, "0");
    files[`flows/f${n}.yaml`] = `name: flow ${n}
${serial.includes(n) ? "serial: true\n" : ""}steps:
  - name: one
    request: {url: "${api.base}/x?f=${n}&s=1"}
  - name: two
    request: {url: "${api.base}/x?f=${n}&s=2"}
  - name: three
    request: {url: "${api.base}/x?f=${n}&s=3"}
`;
  }
  const dir = await suite(files);
  try {
    const run = await runCli(
      ["run", "flows", "--workers", "3", "--jobs", "6", "--report-json", "r.json"],
      { cwd: dir },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api.seen.length, 36);
    for (const s of serial) {
      const alone = span(api.seen, s);
      for (const other of api.seen.filter((x) => x.query.get("f") !== s)) {
        assert.ok(
          other.end <= alone.start || other.start >= alone.end,
          `flow ${other.query.get("f")} ran beside serial flow ${s}`,
        );
      }
    }
    // The other flows did run side by side (the check above can fail).
    const overlaps = api.seen.some((a) =>
      api.seen.some((b) => a !== b && a.start < b.end && b.start < a.end)
    );
    assert.ok(overlaps);
    // Reports keep the files' order.
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual(
      report.flows.map((f: { name: string }) => f.name),
      Object.keys(files).map((f) => `flow ${f.slice(7, 9)}`),
    );
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("OpenAPI coverage over three threads is that of one thread", async () => {
  const api = notingServer(({ path }) =>
    Response.json({ id: 1 }, { status: path.startsWith("/items/9") ? 404 : 200 })
  );
  const doc = JSON.stringify({
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    servers: [{ url: api.base }],
    paths: {
      "/items": { get: { responses: { "200": { description: "ok" } } } },
      "/items/{id}": {
        get: { responses: { "200": { description: "ok" }, "404": { description: "no" } } },
      },
      "/other": { get: { responses: { "200": { description: "ok" } } } },
    },
  });
  const files: Record<string, string> = { "api.json": doc };
  for (let i = 0; i < 12; i++) {
    files[`flows/f${String(i).padStart(2, "0")}.yaml`] = `name: flow ${i}
steps:
  - name: list
    request: {url: "${api.base}/items"}
    assert: {status: 200}
  - name: one
    request: {url: "${api.base}/items/${i}"}
  - name: nowhere
    request: {url: "${api.base}/unserved"}
`;
  }
  const dir = await suite(files);
  try {
    const coverage = async (workers: string) => {
      const run = await runCli(
        [
          "run",
          "flows",
          "--openapi",
          "api.json",
          "--workers",
          workers,
          "--jobs",
          "6",
          "--report-json",
          `r${workers}.json`,
        ],
        { cwd: dir },
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      return JSON.parse(await Deno.readTextFile(`${dir}/r${workers}.json`)).openapi_coverage;
    };
    const one = await coverage("1");
    const three = await coverage("3");
    assert.deepEqual(three, one);
    assert.equal(one[0].operations.exercised, 2);
    assert.ok(JSON.stringify(one).includes("/unserved"));
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
