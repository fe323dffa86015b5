/**
 * `--verify` repairs the steps whose values were asked of the user when a
 * live response produces them: a single-page app's rotating CSRF token
 * (each response's `X-CSRF-Next` is the next request's `X-CSRF-Token`)
 * whose header name looks secret, and a signed download link whose `sig` the
 * flow asks for. The recording is made against one
 * instance the test starts; `--verify` runs against a fresh one; the flow it
 * writes then passes on a third, asking nothing of the user. A step it
 * cannot make pass never stops at a bare "0 tries": it says why.
 */
import assert from "node:assert/strict";
import { convertVerified, passesAsNewUser, runCli } from "../support/cli.ts";

/** An API that hands out a new single-use CSRF token with every response. */
function startCsrfApi() {
  let csrf = "";
  let sig = "";
  let made = 0;
  const refused: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    const next = () => (csrf = `c${crypto.randomUUID().replaceAll("-", "")}`);
    if (req.method !== "GET") {
      if (req.headers.get("x-csrf-token") !== csrf || csrf === "") {
        refused.push(`${req.method} ${url.pathname}`);
        return Response.json({ error: "bad csrf" }, { status: 403 });
      }
    }
    const headers = { "x-csrf-next": next() };
    if (url.pathname === "/api/session") return Response.json({ user: "ann" }, { headers });
    if (req.method === "POST" && url.pathname === "/api/exports") {
      sig = crypto.randomUUID().replaceAll("-", "");
      return Response.json({ download_url: `/files/export.csv?exp=1795571496&sig=${sig}` }, {
        status: 201,
        headers,
      });
    }
    if (url.pathname === "/files/export.csv") {
      // A signed link: only the signature the last export handed out opens it.
      const ok = url.searchParams.get("sig") === sig;
      if (!ok) refused.push(`GET ${url.pathname} (signature)`);
      return new Response(ok ? "id,text\n" : "bad signature", { status: ok ? 200 : 403, headers });
    }
    if (req.method === "POST" && url.pathname === "/api/notes") {
      const { text } = JSON.parse(body);
      return Response.json({ id: `note_${++made}x${Date.now()}`, text }, { status: 201, headers });
    }
    return Response.json({ ok: true }, { headers });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    close: () => server.shutdown(),
  };
}

/** Sends the journey to `origin` as a browser app would, and records it as a HAR. */
async function record(origin: string): Promise<string> {
  const entries: unknown[] = [];
  let token = "";
  const send = async (method: string, path: string, json?: unknown) => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (method !== "GET") headers["x-csrf-token"] = token;
    if (json !== undefined) headers["content-type"] = "application/json";
    const body = json === undefined ? undefined : JSON.stringify(json);
    const res = await fetch(`${origin}${path}`, { method, headers, body });
    const text = await res.text();
    const mimeType = res.headers.get("content-type") ?? "";
    token = res.headers.get("x-csrf-next") ?? token;
    entries.push({
      startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, entries.length)).toISOString(),
      request: {
        method,
        url: `${origin}${path}`,
        headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
        ...(body ? { postData: { mimeType: "application/json", text: body } } : {}),
      },
      response: {
        status: res.status,
        headers: [...res.headers].map(([name, value]) => ({ name, value })),
        content: { mimeType, text },
      },
      _resourceType: "fetch",
    });
    return mimeType.includes("json") ? JSON.parse(text) : {};
  };
  await send("GET", "/api/session");
  const a = await send("POST", "/api/notes", { text: "first" });
  await send("POST", "/api/notes", { text: "second" });
  await send("PUT", `/api/notes/${a.id}`, { text: "first, edited" });
  await send("DELETE", `/api/notes/${a.id}`);
  const { download_url } = await send("POST", "/api/exports", {});
  await send("GET", download_url);
  return JSON.stringify({ log: { entries } });
}

for (const mode of ["--no-correlate", "--spelling=a"]) {
  Deno.test(`--verify (${mode}) repairs a rotating CSRF header asked of the user; the flow then passes`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-asked-" });
    const recorded = startCsrfApi();
    try {
      await Deno.writeTextFile(`${dir}/s.har`, await record(recorded.origin));
    } finally {
      await recorded.close();
    }
    assert.deepEqual(recorded.refused, [], "the recording itself was refused");
    const { verified, flow } = await convertVerified(
      startCsrfApi,
      `${dir}/s.har`,
      `${dir}/flow.yaml`,
      [mode],
    );
    try {
      assert.equal(verified.code, 0, `${verified.stderr}\n${flow}`);
      assert.match(verified.stderr, /^Verified 7 steps against .*: all pass/m);
      assert.doesNotMatch(verified.stderr, /0 tries\)/);
      await passesAsNewUser(startCsrfApi(), `${dir}/flow.yaml`, flow);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("--verify says why when it has nothing to try for a value asked of the user", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-asked-" });
  // A key the user holds: no response hands it out, so --verify has nothing to try.
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      req.headers.get("x-api-key") === "k3y-live-7a1b9c2d"
        ? Response.json({ ok: true })
        : Response.json({ error: "no key" }, { status: 401 }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    await Deno.writeTextFile(
      `${dir}/s.har`,
      JSON.stringify({
        log: {
          entries: [{
            startedDateTime: "2026-01-01T00:00:00.000Z",
            request: {
              method: "GET",
              url: `${origin}/api/me`,
              headers: [{ name: "x-api-key", value: "k3y-recorded-91ab7c" }],
            },
            response: {
              status: 200,
              headers: [],
              content: { mimeType: "application/json", text: '{"ok":true}' },
            },
          }],
        },
      }),
    );
    const verified = await runCli([
      "convert",
      "har",
      `${dir}/s.har`,
      "--verify",
      origin,
      "-o",
      `${dir}/flow.yaml`,
    ], { env: { API_KEY: "k3y-wrong-000000" } });
    assert.equal(verified.code, 1, verified.stderr);
    assert.match(
      verified.stderr,
      /^verify: could not make "\w+" pass \(0 tries: nothing to try: no earlier response handed out a value it sends\): status: expected 200, got 401/m,
    );
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.match(flow, /# verify: could not make this step pass \(0 tries: nothing to try/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

/** An API whose config hands out a key of its own, the same on every call to that instance. */
function startKeyedApi() {
  const key = `ak_${crypto.randomUUID().replaceAll("-", "")}`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/api/config") return Response.json({ app: { apiKey: key } });
    return req.headers.get("x-api-key") === key
      ? Response.json({ items: [] })
      : Response.json({ error: "bad key" }, { status: 401 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("--verify against the recorded instance captures a value asked of the user that did not change", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-asked-" });
  const api = startKeyedApi();
  try {
    const config = await (await fetch(`${api.origin}/api/config`)).json();
    const entry = (path: string, response: unknown, headers: [string, string][] = []) => ({
      startedDateTime: "2026-01-01T00:00:00.000Z",
      request: {
        method: "GET",
        url: `${api.origin}${path}`,
        headers: headers.map(([name, value]) => ({ name, value })),
      },
      response: {
        status: 200,
        headers: [{ name: "content-type", value: "application/json" }],
        content: { mimeType: "application/json", text: JSON.stringify(response) },
      },
    });
    await Deno.writeTextFile(
      `${dir}/s.har`,
      JSON.stringify({
        log: {
          entries: [
            entry("/api/config", config),
            entry("/api/items", { items: [] }, [["x-api-key", config.app.apiKey]]),
          ],
        },
      }),
    );
    // The same instance the recording was made on: the key handed out live is the recorded one.
    const verified = await runCli([
      "convert",
      "har",
      `${dir}/s.har`,
      "--no-correlate",
      "--verify",
      api.origin,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`).catch(() => "");
    assert.equal(verified.code, 0, `${verified.stderr}\n${flow}`);
    assert.doesNotMatch(flow, /\$\{ENV\.API_KEY/, flow);
    const fresh = startKeyedApi();
    try {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: fresh.origin } });
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}\n${flow}`);
    } finally {
      await fresh.close();
    }
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
