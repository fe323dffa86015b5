import assert from "node:assert/strict";
import { type DemoApi, type DemoApiOptions, startDemoApi } from "../examples/demo_api.ts";
import { TIMING } from "./support/timing.ts";

/** Runs `fn` against a fresh server on an ephemeral port, closing it afterwards. */
async function withApi(
  fn: (api: DemoApi) => Promise<void>,
  options: DemoApiOptions = {},
): Promise<void> {
  const api = await startDemoApi({ port: 0, ...options });
  try {
    await fn(api);
  } finally {
    await api.close();
  }
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
  json: unknown;
}

/** Sends a request and always reads the whole body, so no response stays open. */
async function call(
  api: DemoApi,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) headers.set("authorization", `Bearer ${options.token}`);
  let body: string | undefined;
  if (typeof options.body === "string") body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await fetch(`${api.url}${path}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function login(api: DemoApi): Promise<string> {
  const reply = await call(api, "POST", "/login", {
    body: { username: "demo", password: "demo-password" },
  });
  assert.equal(reply.status, 200);
  return (reply.json as Json).token;
}

Deno.test("startDemoApi listens on an ephemeral port and reports its url", async () => {
  await withApi(async (api) => {
    assert.ok(api.port > 0);
    assert.equal(api.url, `http://127.0.0.1:${api.port}`);
    const reply = await call(api, "GET", "/health");
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get("content-type"), "application/json");
    assert.deepEqual(reply.json, { status: "ok" });
  });
});

Deno.test("close can be called twice", async () => {
  const api = await startDemoApi();
  await api.close();
  await api.close();
});

Deno.test("startDemoApi rejects a bad jobReadyAfter", async () => {
  await assert.rejects(startDemoApi({ jobReadyAfter: 0 }), RangeError);
});

Deno.test("login returns a bearer token for the demo account", async () => {
  await withApi(async (api) => {
    const reply = await call(api, "POST", "/login", {
      body: { username: "demo", password: "demo-password" },
    });
    assert.equal(reply.status, 200);
    const body = reply.json as Json;
    assert.match(body.token, /^[0-9a-f]{32}$/);
    assert.equal(body.token_type, "Bearer");
    assert.equal(body.expires_in, 3600);
    assert.deepEqual(body.user, { id: 1, username: "demo" });
    const again = await login(api);
    assert.notEqual(again, body.token, "each login issues a fresh token");
  });
});

Deno.test("login rejects wrong credentials with 401", async () => {
  await withApi(async (api) => {
    for (
      const credentials of [
        { username: "demo", password: "nope" },
        { username: "someone", password: "demo-password" },
      ]
    ) {
      const reply = await call(api, "POST", "/login", { body: credentials });
      assert.equal(reply.status, 401);
      assert.equal(typeof (reply.json as Json).error, "string");
    }
  });
});

Deno.test("login rejects a malformed body with 400", async () => {
  await withApi(async (api) => {
    for (const body of ["{not json", "", "[1, 2]", JSON.stringify({ username: "demo" })]) {
      const reply = await call(api, "POST", "/login", {
        body,
        headers: { "content-type": "application/json" },
      });
      assert.equal(reply.status, 400, `body ${JSON.stringify(body)}`);
      assert.equal(reply.headers.get("content-type"), "application/json");
      assert.equal(typeof (reply.json as Json).error, "string");
    }
  });
});

Deno.test("protected routes need a bearer token from this instance", async () => {
  await withApi(async (api) => {
    const token = await login(api);
    const other = await startDemoApi();
    let foreign: string;
    try {
      foreign = await login(other);
    } finally {
      await other.close();
    }
    const attempts: [string, Record<string, string>][] = [
      ["missing", {}],
      ["wrong token", { authorization: "Bearer 0123456789abcdef0123456789abcdef" }],
      ["token of another instance", { authorization: `Bearer ${foreign}` }],
      ["wrong scheme", { authorization: `Basic ${token}` }],
      ["no token", { authorization: "Bearer" }],
    ];
    for (const [what, headers] of attempts) {
      for (const path of ["/me", "/items", "/items/itm_000000000000", "/jobs/job_000000000000"]) {
        const reply = await call(api, "GET", path, { headers });
        assert.equal(reply.status, 401, `${what} on ${path}`);
        assert.equal(reply.headers.get("www-authenticate"), "Bearer");
        assert.equal(typeof (reply.json as Json).error, "string");
      }
    }
    const me = await call(api, "GET", "/me", { headers: { authorization: `bearer ${token}` } });
    assert.equal(me.status, 200, "the scheme is case-insensitive");
  });
});

Deno.test("GET /me describes the demo user", async () => {
  await withApi(async (api) => {
    const reply = await call(api, "GET", "/me", { token: await login(api) });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, {
      id: 1,
      username: "demo",
      roles: ["reader", "writer"],
      active: true,
    });
  });
});

Deno.test("items: create, get, list, delete", async () => {
  await withApi(async (api) => {
    const token = await login(api);
    const empty = await call(api, "GET", "/items", { token });
    assert.deepEqual(empty.json, { items: [], total: 0 });

    const created = await call(api, "POST", "/items", {
      token,
      body: { name: "widget", price: 12.5, tags: ["a", "b"] },
    });
    assert.equal(created.status, 201);
    const item = created.json as Json;
    assert.match(item.id, /^itm_[0-9a-f]{12}$/);
    assert.equal(created.headers.get("location"), `/items/${item.id}`);
    assert.equal(item.name, "widget");
    assert.equal(item.price, 12.5);
    assert.deepEqual(item.tags, ["a", "b"]);
    assert.equal(new Date(item.created_at).toISOString(), item.created_at);

    const untagged = await call(api, "POST", "/items", {
      token,
      body: { name: "gadget", price: 0 },
    });
    assert.equal(untagged.status, 201);
    assert.deepEqual((untagged.json as Json).tags, []);

    const fetched = await call(api, "GET", `/items/${item.id}`, { token });
    assert.equal(fetched.status, 200);
    assert.deepEqual(fetched.json, item);

    const list = await call(api, "GET", "/items", { token });
    assert.equal(list.status, 200);
    assert.equal((list.json as Json).total, 2);
    assert.deepEqual((list.json as Json).items.map((i: Json) => i.name), ["widget", "gadget"]);

    const deleted = await call(api, "DELETE", `/items/${item.id}`, { token });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, "");

    const gone = await call(api, "GET", `/items/${item.id}`, { token });
    assert.equal(gone.status, 404);
    assert.equal(typeof (gone.json as Json).error, "string");
    const deletedAgain = await call(api, "DELETE", `/items/${item.id}`, { token });
    assert.equal(deletedAgain.status, 404);
    assert.equal(((await call(api, "GET", "/items", { token })).json as Json).total, 1);
  });
});

Deno.test("items: invalid bodies are 422 naming the field, unparsable ones 400", async () => {
  await withApi(async (api) => {
    const token = await login(api);
    const cases: [unknown, string][] = [
      [{ price: 1 }, "name"],
      [{ name: "", price: 1 }, "name"],
      [{ name: 7, price: 1 }, "name"],
      [{ name: "x" }, "price"],
      [{ name: "x", price: "1" }, "price"],
      [{ name: "x", price: -1 }, "price"],
      [{ name: "x", price: 1, tags: "a" }, "tags"],
      [{ name: "x", price: 1, tags: [1] }, "tags"],
    ];
    for (const [body, field] of cases) {
      const reply = await call(api, "POST", "/items", { token, body });
      assert.equal(reply.status, 422, JSON.stringify(body));
      assert.equal((reply.json as Json).field, field);
      assert.equal(typeof (reply.json as Json).error, "string");
    }
    const broken = await call(api, "POST", "/items", {
      token,
      body: "{",
      headers: { "content-type": "application/json" },
    });
    assert.equal(broken.status, 400);
    const list = await call(api, "GET", "/items", { token });
    assert.equal((list.json as Json).total, 0, "nothing invalid was stored");
  });
});

Deno.test("jobs: pending, running, then ready at exactly the default third poll", async () => {
  await withApi(async (api) => {
    const token = await login(api);
    const created = await call(api, "POST", "/jobs", { token, body: {} });
    assert.equal(created.status, 202);
    const job = created.json as Json;
    assert.match(job.id, /^job_[0-9a-f]{12}$/);
    assert.deepEqual(job, { id: job.id, state: "pending", kind: "report" });

    const states: string[] = [];
    for (let poll = 1; poll <= 5; poll++) {
      const reply = await call(api, "GET", `/jobs/${job.id}`, { token });
      assert.equal(reply.status, 200);
      const body = reply.json as Json;
      assert.equal(body.polls, poll);
      states.push(body.state);
      if (body.state === "ready") {
        assert.deepEqual(body.result, { rows: 42, url: `/jobs/${job.id}/result` });
      } else {
        assert.equal(body.result, undefined);
      }
    }
    assert.deepEqual(states, ["pending", "running", "ready", "ready", "ready"]);

    const result = await call(api, "GET", `/jobs/${job.id}/result`, { token });
    assert.equal(result.status, 200);
    assert.equal((result.json as Json).rows, 42);

    assert.equal((await call(api, "DELETE", `/jobs/${job.id}`, { token })).status, 204);
    assert.equal((await call(api, "GET", `/jobs/${job.id}`, { token })).status, 404);
    assert.equal((await call(api, "DELETE", `/jobs/${job.id}`, { token })).status, 404);
  });
});

Deno.test("jobs: ready_after and jobReadyAfter move the ready poll", async () => {
  const statesOf = async (api: DemoApi, token: string, body: unknown, polls: number) => {
    const created = await call(api, "POST", "/jobs", { token, body });
    assert.equal(created.status, 202);
    const id = (created.json as Json).id;
    const states: string[] = [];
    for (let i = 0; i < polls; i++) {
      states.push(((await call(api, "GET", `/jobs/${id}`, { token })).json as Json).state);
    }
    return states;
  };
  await withApi(async (api) => {
    const token = await login(api);
    assert.deepEqual(await statesOf(api, token, { ready_after: 1 }, 2), ["ready", "ready"]);
    assert.deepEqual(await statesOf(api, token, { ready_after: 2 }, 3), [
      "pending",
      "ready",
      "ready",
    ]);
    assert.deepEqual(await statesOf(api, token, { ready_after: 5, kind: "export" }, 6), [
      "pending",
      "running",
      "running",
      "running",
      "ready",
      "ready",
    ]);
    const created = await call(api, "POST", "/jobs", { token, body: { kind: "export" } });
    assert.equal((created.json as Json).kind, "export");
    const pending = await call(api, "GET", `/jobs/${(created.json as Json).id}/result`, { token });
    assert.equal(pending.status, 409, "no result before the job is ready");
    for (const body of [{ ready_after: 0 }, { ready_after: 1.5 }, { ready_after: "2" }]) {
      const reply = await call(api, "POST", "/jobs", { token, body });
      assert.equal(reply.status, 422);
      assert.equal((reply.json as Json).field, "ready_after");
    }
  });
  await withApi(async (api) => {
    const token = await login(api);
    assert.deepEqual(await statesOf(api, token, undefined, 3), ["pending", "ready", "ready"]);
  }, { jobReadyAfter: 2 });
});

Deno.test("echo reflects method, path, query, headers and a JSON body", async () => {
  await withApi(async (api) => {
    const reply = await call(api, "PATCH", "/echo/a/b?x=1&y=two&x=3", {
      body: { hello: ["world"] },
      headers: { "X-Trace": "abc" },
    });
    assert.equal(reply.status, 200);
    const body = reply.json as Json;
    assert.equal(body.method, "PATCH");
    assert.equal(body.path, "/echo/a/b");
    assert.deepEqual(body.query, { x: "3", y: "two" });
    assert.equal(body.headers["x-trace"], "abc");
    assert.equal(body.headers["content-type"], "application/json");
    assert.deepEqual(body.body, { hello: ["world"] });
    assert.equal(body.content_type, "application/json");
  });
});

Deno.test("echo returns text bodies as text and no body as null", async () => {
  await withApi(async (api) => {
    const text = await call(api, "POST", "/echo", {
      body: "plain words",
      headers: { "content-type": "text/plain" },
    });
    assert.equal((text.json as Json).body, "plain words");
    assert.equal((text.json as Json).content_type, "text/plain");

    const badJson = await call(api, "PUT", "/echo", {
      body: "{oops",
      headers: { "content-type": "application/vnd.api+json" },
    });
    assert.equal((badJson.json as Json).body, "{oops");

    const empty = await call(api, "GET", "/echo?only=1");
    const body = empty.json as Json;
    assert.equal(body.method, "GET");
    assert.equal(body.path, "/echo");
    assert.deepEqual(body.query, { only: "1" });
    assert.equal(body.body, null);
    assert.equal(body.content_type, null);

    assert.equal((await call(api, "GET", "/echoes")).status, 404);
  });
});

Deno.test("status answers with the requested code", async () => {
  await withApi(async (api) => {
    for (const code of [200, 201, 404, 418, 500, 503, 599]) {
      const reply = await call(api, "GET", `/status/${code}`);
      assert.equal(reply.status, code);
      assert.deepEqual(reply.json, { status: code });
    }
    for (const code of [204, 304]) {
      const reply = await call(api, "GET", `/status/${code}`);
      assert.equal(reply.status, code);
      assert.equal(reply.text, "");
    }
    for (const code of ["100", "199", "600", "abc", "2000"]) {
      const reply = await call(api, "GET", `/status/${code}`);
      assert.equal(reply.status, 400, code);
    }
  });
});

Deno.test("text, html and slow helpers", async () => {
  await withApi(async (api) => {
    const text = await call(api, "GET", "/text");
    assert.equal(text.status, 200);
    assert.match(text.headers.get("content-type")!, /^text\/plain/);
    assert.equal(text.text, "hello from the demo API");

    const html = await call(api, "GET", "/html");
    assert.match(html.headers.get("content-type")!, /^text\/html/);
    assert.match(html.text, /<html/);

    const started = performance.now();
    const slow = await call(api, "GET", "/slow?ms=60");
    assert.ok(performance.now() - started >= 50);
    assert.deepEqual(slow.json, { waited: 60 });
    assert.equal((await call(api, "GET", "/slow?ms=-1")).status, 400);
  });
});

Deno.test(`close ends a pending slow response early ${TIMING}`, async () => {
  const api = await startDemoApi();
  const started = performance.now();
  const pending = call(api, "GET", "/slow?ms=10000");
  await new Promise((resolve) => setTimeout(resolve, 50));
  await api.close();
  const reply = await pending;
  assert.equal(reply.status, 200);
  assert.ok(performance.now() - started < 5000);
});

Deno.test("a wrong method is 405 with an allow header; unknown routes are 404", async () => {
  await withApi(async (api) => {
    const cases: [string, string, string][] = [
      ["PUT", "/items", "GET, POST, HEAD"],
      ["POST", "/health", "GET, HEAD"],
      ["GET", "/login", "POST"],
      ["PATCH", "/items/itm_000000000000", "GET, DELETE, HEAD"],
      ["GET", "/jobs", "POST"],
    ];
    for (const [method, path, allow] of cases) {
      const reply = await call(api, method, path);
      assert.equal(reply.status, 405, `${method} ${path}`);
      assert.equal(reply.headers.get("allow"), allow);
      assert.equal(typeof (reply.json as Json).error, "string");
    }
    const head = await call(api, "HEAD", "/health");
    assert.equal(head.status, 200, "HEAD is served by GET");
    assert.equal(head.text, "");

    for (const path of ["/nope", "/items/a/b", "/", "/health/"]) {
      const reply = await call(api, "GET", path);
      assert.equal(reply.status, 404, path);
      assert.equal(reply.headers.get("content-type"), "application/json");
      assert.equal(typeof (reply.json as Json).error, "string");
    }
  });
});

Deno.test("two instances share no state", async () => {
  await withApi(async (a) => {
    await withApi(async (b) => {
      assert.notEqual(a.port, b.port);
      const tokenA = await login(a);
      const tokenB = await login(b);
      const created = await call(a, "POST", "/items", {
        token: tokenA,
        body: { name: "x", price: 1 },
      });
      const id = (created.json as Json).id;
      const job = await call(a, "POST", "/jobs", { token: tokenA, body: {} });
      const jobId = (job.json as Json).id;

      assert.deepEqual((await call(b, "GET", "/items", { token: tokenB })).json, {
        items: [],
        total: 0,
      });
      assert.equal((await call(b, "GET", `/items/${id}`, { token: tokenB })).status, 404);
      assert.equal((await call(b, "GET", `/jobs/${jobId}`, { token: tokenB })).status, 404);
      assert.equal((await call(b, "GET", "/me", { token: tokenA })).status, 401);
      assert.equal((await call(a, "GET", "/me", { token: tokenB })).status, 401);
      assert.equal(((await call(a, "GET", "/items", { token: tokenA })).json as Json).total, 1);
    });
  });
});

// ---- tracing

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

function traceparent(traceId = TRACE, parent = PARENT, flags = "01"): Record<string, string> {
  return { traceparent: `00-${traceId}-${parent}-${flags}` };
}

/** A fresh random trace id, so traces of one test never mix. */
function newTraceId(): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

/** The Jaeger spans of a trace, which must be visible (use `traceArrivalQueries: 1`). */
async function jaegerSpans(api: DemoApi, traceId: string): Promise<Json[]> {
  const reply = await call(api, "GET", `/jaeger/api/traces/${traceId}`);
  assert.equal(reply.status, 200, reply.text);
  return (reply.json as Json).data[0].spans;
}

/** A Jaeger span's tags as an object, for comparing without caring about order. */
function tagsOf(span: Json): Record<string, unknown> {
  return Object.fromEntries(span.tags.map((t: Json) => [t.key, t.value]));
}

const immediately: DemoApiOptions = { traceArrivalQueries: 1 };

Deno.test("tracing: a traced request records a server span and echoes it in traceparent", async () => {
  await withApi(async (api) => {
    const reply = await call(api, "POST", "/login", {
      body: { username: "demo", password: "demo-password" },
      headers: traceparent(),
    });
    assert.equal(reply.status, 200);
    const echoed = reply.headers.get("traceparent")!;
    assert.match(echoed, new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    const serverSpanId = echoed.split("-")[2];
    assert.notEqual(serverSpanId, PARENT, "the server span is a new span");

    const [server, child, ...rest] = await jaegerSpans(api, TRACE);
    assert.deepEqual(rest, []);
    assert.equal(server.traceID, TRACE);
    assert.equal(server.spanID, serverSpanId);
    assert.equal(server.operationName, "POST /login");
    assert.deepEqual(server.references, [{ refType: "CHILD_OF", traceID: TRACE, spanID: PARENT }]);
    assert.deepEqual(tagsOf(server), {
      "http.request.method": "POST",
      "http.route": "/login",
      "url.path": "/login",
      "http.response.status_code": 200,
      "service.name": "demo-api",
      "span.kind": "server",
    });

    assert.equal(child.operationName, "auth.verify_password");
    assert.match(child.spanID, /^[0-9a-f]{16}$/);
    assert.notEqual(child.spanID, server.spanID);
    assert.deepEqual(child.references, [
      { refType: "CHILD_OF", traceID: TRACE, spanID: server.spanID },
    ]);
    assert.deepEqual(tagsOf(child), { "service.name": "demo-api", "span.kind": "internal" });
    assert.ok(child.startTime >= server.startTime, "the child starts within its parent");
    assert.ok(
      child.startTime + child.duration <= server.startTime + server.duration,
      "the child ends within its parent",
    );
  }, immediately);
});

Deno.test("tracing: spans are named by method and route pattern, with child spans for storage", async () => {
  await withApi(async (api) => {
    const headers = traceparent();
    const token = await login(api);
    const auth = { ...headers, authorization: `Bearer ${token}` };
    const item = await call(api, "POST", "/items", {
      headers: auth,
      body: { name: "traced", price: 1 },
    });
    const itemId = (item.json as Json).id;
    await call(api, "GET", `/items/${itemId}`, { headers: auth });
    await call(api, "GET", "/items", { headers: auth });
    await call(api, "DELETE", `/items/${itemId}`, { headers: auth });
    const job = await call(api, "POST", "/jobs", { headers: auth, body: {} });
    const jobId = (job.json as Json).id;
    await call(api, "GET", `/jobs/${jobId}`, { headers: auth });
    await call(api, "GET", `/jobs/${jobId}/result`, { headers: auth });
    await call(api, "DELETE", `/jobs/${jobId}`, { headers: auth });
    await call(api, "GET", "/me", { headers }); // 401: the handler, and its child spans, never run
    await call(api, "PUT", "/items", { headers: auth }); // 405
    await call(api, "GET", "/no/such/path", { headers }); // 404 without a route
    await call(api, "HEAD", "/health", { headers });
    await call(api, "PATCH", "/echo/deep/path", { headers });
    await call(api, "GET", "/status/503", { headers });

    const spans = await jaegerSpans(api, TRACE);
    assert.deepEqual(
      spans.map((s: Json) => [s.operationName, tagsOf(s)["http.response.status_code"]]),
      [
        ["POST /items", 201],
        ["db.insert items", undefined],
        ["GET /items/:id", 200],
        ["db.select items", undefined],
        ["GET /items", 200],
        ["db.select items", undefined],
        ["DELETE /items/:id", 204],
        ["db.delete items", undefined],
        ["POST /jobs", 202],
        ["db.insert jobs", undefined],
        ["GET /jobs/:id", 200],
        ["db.select jobs", undefined],
        ["GET /jobs/:id/result", 409],
        ["DELETE /jobs/:id", 204],
        ["db.delete jobs", undefined],
        ["GET /me", 401],
        ["PUT /items", 405],
        ["GET", 404],
        ["HEAD /health", 200],
        ["PATCH /echo/*", 200],
        ["GET /status/:code", 503],
      ],
    );
    const byName = (name: string) => spans.filter((s: Json) => s.operationName === name);
    const [pollSpan] = byName("GET /jobs/:id");
    assert.deepEqual(tagsOf(pollSpan), {
      "http.request.method": "GET",
      "http.route": "/jobs/:id",
      "url.path": `/jobs/${jobId}`,
      "http.response.status_code": 200,
      "service.name": "demo-api",
      "span.kind": "server",
    });
    const [dbSelect] = byName("db.select jobs");
    assert.equal(dbSelect.references[0].spanID, pollSpan.spanID);
    assert.deepEqual(tagsOf(dbSelect), {
      "db.operation.name": "select",
      "db.collection.name": "jobs",
      "service.name": "demo-api",
      "span.kind": "internal",
    });
    // Without a route there is no http.route, and the name is just the method.
    const [unknown] = byName("GET");
    assert.equal(tagsOf(unknown)["http.route"], undefined);
    assert.equal(tagsOf(unknown)["url.path"], "/no/such/path");
    // Only 5xx marks a server span as failed, as OpenTelemetry asks.
    const [failed] = byName("GET /status/:code");
    assert.deepEqual(failed.tags.slice(-4), [
      { key: "error.type", type: "string", value: "503" },
      { key: "span.kind", type: "string", value: "server" },
      { key: "otel.status_code", type: "string", value: "ERROR" },
      { key: "error", type: "bool", value: true },
    ]);
    assert.equal(tagsOf(byName("GET /me")[0]).error, undefined);
    // Each request of the trace is a child of the caller's span, named in the header.
    for (const span of spans.filter((s: Json) => tagsOf(s)["span.kind"] === "server")) {
      assert.equal(span.references[0].spanID, PARENT);
    }
  }, immediately);
});

Deno.test("tracing: the echoed traceparent keeps the flags, and Jaeger reports them", async () => {
  await withApi(async (api) => {
    const reply = await call(api, "GET", "/health", { headers: traceparent(TRACE, PARENT, "00") });
    assert.match(reply.headers.get("traceparent")!, new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
    const [span] = await jaegerSpans(api, TRACE);
    assert.equal(span.flags, 0);
  }, immediately);
});

Deno.test("tracing: an invalid traceparent is ignored like a missing one", async () => {
  await withApi(async (api) => {
    const invalid = [
      `01-${TRACE}-${PARENT}-01`, // only version 00 is understood
      `ff-${TRACE}-${PARENT}-01`,
      `00-${TRACE.toUpperCase()}-${PARENT}-01`, // W3C ids are lowercase
      `00-${TRACE}-${PARENT.toUpperCase()}-01`,
      `00-${"0".repeat(32)}-${PARENT}-01`, // all-zero ids are invalid
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `00-${TRACE.slice(1)}-${PARENT}-01`,
      `00-${TRACE}-${PARENT}-1`,
      `00-${TRACE}-${PARENT}-01-extra`,
      `00_${TRACE}_${PARENT}_01`,
      "garbage",
      "",
    ];
    for (const header of invalid) {
      const reply = await call(api, "GET", "/health", { headers: { traceparent: header } });
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.get("traceparent"), null, header);
    }
    // Two traceparent headers are as invalid as a malformed one.
    const headers = new Headers();
    headers.append("traceparent", `00-${TRACE}-${PARENT}-01`);
    headers.append("traceparent", `00-${TRACE}-${PARENT}-01`);
    const twice = await fetch(`${api.url}/health`, { headers });
    await twice.body?.cancel();
    assert.equal(twice.headers.get("traceparent"), null);

    const lookup = await call(api, "GET", `/jaeger/api/traces/${TRACE}`);
    assert.equal(lookup.status, 404, "nothing was recorded under the trace id");
  }, immediately);
});

Deno.test("tracing: requests without a valid traceparent record nothing at all", async () => {
  // With room for one span, anything recorded after it would evict it.
  await withApi(async (api) => {
    await call(api, "GET", "/health", { headers: traceparent() });
    const token = await login(api);
    await call(api, "POST", "/items", { token, body: { name: "x", price: 1 } });
    await call(api, "GET", "/nope");
    await call(api, "GET", "/health", { headers: { traceparent: "garbage" } });
    const reply = await call(api, "GET", "/health");
    assert.equal(reply.headers.get("traceparent"), null);
    const spans = await jaegerSpans(api, TRACE);
    assert.deepEqual(spans.map((s: Json) => s.operationName), ["GET /health"]);
  }, { ...immediately, traceSpanLimit: 1 });
});

Deno.test("tracing: Jaeger query API answers the exact Jaeger shape", async () => {
  await withApi(async (api) => {
    const sent = await call(api, "GET", "/health", { headers: traceparent() });
    const spanId = sent.headers.get("traceparent")!.split("-")[2];
    const reply = await call(api, "GET", `/jaeger/api/traces/${TRACE}`);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get("content-type"), "application/json");
    const body = reply.json as Json;
    const span = body.data[0].spans[0];
    assert.ok(Number.isInteger(span.startTime) && Number.isInteger(span.duration));
    assert.ok(span.duration >= 0);
    const nowUs = Date.now() * 1000;
    assert.ok(
      // performance.now() and Date.now() may disagree by a fraction of a millisecond.
      span.startTime <= nowUs + 5_000 && span.startTime > nowUs - 60e6,
      "microseconds since the epoch",
    );
    assert.deepEqual(body, {
      data: [{
        traceID: TRACE,
        spans: [{
          traceID: TRACE,
          spanID: spanId,
          flags: 1,
          operationName: "GET /health",
          references: [{ refType: "CHILD_OF", traceID: TRACE, spanID: PARENT }],
          startTime: span.startTime,
          duration: span.duration,
          tags: [
            { key: "http.request.method", type: "string", value: "GET" },
            { key: "http.route", type: "string", value: "/health" },
            { key: "url.path", type: "string", value: "/health" },
            { key: "http.response.status_code", type: "int64", value: 200 },
            { key: "service.name", type: "string", value: "demo-api" },
            { key: "span.kind", type: "string", value: "server" },
          ],
          logs: [],
          processID: "p1",
          warnings: null,
        }],
        processes: { p1: { serviceName: "demo-api", tags: [] } },
        warnings: null,
      }],
      total: 0,
      limit: 0,
      offset: 0,
      errors: null,
    });
  }, immediately);
});

Deno.test("tracing: Tempo query APIs answer OTLP JSON, v1 in batches and v2 in resourceSpans", async () => {
  await withApi(async (api) => {
    const token = await login(api);
    const sent = await call(api, "POST", "/items", {
      token,
      headers: traceparent(),
      body: { name: "x", price: 1 },
    });
    const serverId = sent.headers.get("traceparent")!.split("-")[2];
    const v1 = await call(api, "GET", `/tempo/api/traces/${TRACE}`);
    assert.equal(v1.status, 200);
    assert.equal(v1.headers.get("content-type"), "application/json");
    const batches = (v1.json as Json).batches;
    const [server, child] = batches[0].scopeSpans[0].spans;
    for (const span of [server, child]) {
      assert.match(span.startTimeUnixNano, /^\d{19}$/, "nanoseconds, as a string");
      assert.match(span.endTimeUnixNano, /^\d{19}$/);
      assert.ok(BigInt(span.endTimeUnixNano) >= BigInt(span.startTimeUnixNano));
    }
    assert.deepEqual(batches, [{
      resource: { attributes: [{ key: "service.name", value: { stringValue: "demo-api" } }] },
      scopeSpans: [{
        scope: { name: "demo-api" },
        spans: [{
          traceId: TRACE,
          spanId: serverId,
          parentSpanId: PARENT,
          name: "POST /items",
          kind: "SPAN_KIND_SERVER",
          startTimeUnixNano: server.startTimeUnixNano,
          endTimeUnixNano: server.endTimeUnixNano,
          attributes: [
            { key: "http.request.method", value: { stringValue: "POST" } },
            { key: "http.route", value: { stringValue: "/items" } },
            { key: "url.path", value: { stringValue: "/items" } },
            { key: "http.response.status_code", value: { intValue: "201" } },
            { key: "service.name", value: { stringValue: "demo-api" } },
          ],
          status: {},
        }, {
          traceId: TRACE,
          spanId: child.spanId,
          parentSpanId: serverId,
          name: "db.insert items",
          kind: "SPAN_KIND_INTERNAL",
          startTimeUnixNano: child.startTimeUnixNano,
          endTimeUnixNano: child.endTimeUnixNano,
          attributes: [
            { key: "db.operation.name", value: { stringValue: "insert" } },
            { key: "db.collection.name", value: { stringValue: "items" } },
            { key: "service.name", value: { stringValue: "demo-api" } },
          ],
          status: {},
        }],
      }],
    }]);

    const v2 = await call(api, "GET", `/tempo/api/v2/traces/${TRACE}`);
    assert.equal(v2.status, 200);
    assert.deepEqual(v2.json, { trace: { resourceSpans: batches } });

    // Both query APIs describe the same spans with the same times.
    const [jaeger] = await jaegerSpans(api, TRACE);
    assert.equal(BigInt(jaeger.startTime) * 1000n, BigInt(server.startTimeUnixNano));
    assert.equal(
      BigInt(jaeger.startTime + jaeger.duration) * 1000n,
      BigInt(server.endTimeUnixNano),
    );

    // A 5xx server span has an error status.
    await call(api, "GET", "/status/500", { headers: traceparent(TRACE, PARENT) });
    const again = await call(api, "GET", `/tempo/api/traces/${TRACE}`);
    const failed = (again.json as Json).batches[0].scopeSpans[0].spans.at(-1);
    assert.equal(failed.name, "GET /status/:code");
    assert.deepEqual(failed.status, { code: "STATUS_CODE_ERROR" });
    assert.deepEqual(failed.attributes.at(-1), {
      key: "error.type",
      value: { stringValue: "500" },
    });
  }, immediately);
});

Deno.test("tracing: a trace arrives with its second query by default: 404 first, then 200", async () => {
  await withApi(async (api) => {
    await call(api, "GET", "/health", { headers: traceparent() });
    const first = await call(api, "GET", `/jaeger/api/traces/${TRACE}`);
    assert.equal(first.status, 404);
    assert.equal(first.headers.get("content-type"), "application/json");
    assert.deepEqual(first.json, {
      data: null,
      total: 0,
      limit: 0,
      offset: 0,
      errors: [{ code: 404, msg: "trace not found" }],
    });
    for (let i = 0; i < 3; i++) {
      assert.equal((await call(api, "GET", `/jaeger/api/traces/${TRACE}`)).status, 200);
    }

    // Tempo answers 404 in plain text, like the real one; the count is per trace id.
    const other = newTraceId();
    await call(api, "GET", "/health", { headers: traceparent(other) });
    const tempoFirst = await call(api, "GET", `/tempo/api/traces/${other}`);
    assert.equal(tempoFirst.status, 404);
    assert.match(tempoFirst.headers.get("content-type")!, /^text\/plain/);
    assert.equal(tempoFirst.text, "trace not found\n");
    // One backend behind both APIs: a query through either counts.
    assert.equal((await call(api, "GET", `/tempo/api/v2/traces/${other}`)).status, 200);
    assert.equal((await call(api, "GET", `/jaeger/api/traces/${other}`)).status, 200);

    // A trace that was never recorded stays unknown however often it is asked for.
    const unknown = newTraceId();
    for (let i = 0; i < 4; i++) {
      assert.equal((await call(api, "GET", `/jaeger/api/traces/${unknown}`)).status, 404);
    }
  });
});

Deno.test("tracing: traceArrivalQueries moves the arrival; spans recorded later join the trace", async () => {
  await withApi(async (api) => {
    await call(api, "GET", "/health", { headers: traceparent() });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await call(api, "GET", `/jaeger/api/traces/${TRACE}`)).status);
    }
    assert.deepEqual(statuses, [404, 404, 200, 200]);
    // Queries counted before a span exists still count: the trace is found once it has spans.
    const later = newTraceId();
    for (let i = 0; i < 3; i++) {
      assert.equal((await call(api, "GET", `/tempo/api/traces/${later}`)).status, 404);
    }
    await call(api, "GET", "/health", { headers: traceparent(later) });
    assert.equal((await call(api, "GET", `/tempo/api/traces/${later}`)).status, 200);
    await call(api, "GET", "/text", { headers: traceparent(later) });
    const spans = await jaegerSpans(api, later);
    assert.deepEqual(spans.map((s: Json) => s.operationName), ["GET /health", "GET /text"]);
  }, { traceArrivalQueries: 3 });
});

Deno.test("tracing: query APIs take short or upper-case ids and reject malformed ones", async () => {
  await withApi(async (api) => {
    const short = "00000000000000000000000000abcdef";
    await call(api, "GET", "/health", { headers: traceparent(short) });
    assert.equal((await call(api, "GET", "/jaeger/api/traces/ABCDEF")).status, 200);
    assert.equal((await call(api, "GET", "/tempo/api/traces/abcdef")).status, 200);
    for (const id of ["xyz", "0".repeat(33), "abc-def"]) {
      const jaeger = await call(api, "GET", `/jaeger/api/traces/${id}`);
      assert.equal(jaeger.status, 400, id);
      assert.equal((jaeger.json as Json).data, null);
      assert.equal((jaeger.json as Json).errors[0].code, 400);
      assert.equal((await call(api, "GET", `/tempo/api/traces/${id}`)).status, 400, id);
      assert.equal((await call(api, "GET", `/tempo/api/v2/traces/${id}`)).status, 400, id);
    }
    const post = await call(api, "POST", `/jaeger/api/traces/${TRACE}`);
    assert.equal(post.status, 405);
    assert.equal(post.headers.get("allow"), "GET, HEAD");
  }, immediately);
});

Deno.test("tracing: query requests can be traced too", async () => {
  await withApi(async (api) => {
    await call(api, "GET", "/health", { headers: traceparent() });
    const query = await call(api, "GET", `/jaeger/api/traces/${TRACE}`, { headers: traceparent() });
    assert.deepEqual(
      (query.json as Json).data[0].spans.map((s: Json) => s.operationName),
      ["GET /health"],
      "a query's own span is recorded after it answered",
    );
    const spans = await jaegerSpans(api, TRACE);
    assert.deepEqual(spans.map((s: Json) => s.operationName), [
      "GET /health",
      "GET /jaeger/api/traces/:traceId",
    ]);
  }, immediately);
});

Deno.test("tracing: only the last traceSpanLimit spans are kept, oldest dropped first", async () => {
  await withApi(async (api) => {
    const [a, b, c, d] = [newTraceId(), newTraceId(), newTraceId(), newTraceId()];
    const names = async (id: string) => {
      const reply = await call(api, "GET", `/jaeger/api/traces/${id}`);
      return reply.status === 404
        ? null
        : (reply.json as Json).data[0].spans.map((s: Json) => s.operationName);
    };
    await call(api, "POST", "/login", {
      headers: traceparent(a),
      body: { username: "demo", password: "demo-password" },
    }); // 2 spans
    await call(api, "GET", "/health", { headers: traceparent(b) }); // 1 span: 3 in all
    assert.deepEqual(await names(a), ["POST /login", "auth.verify_password"]);
    await call(api, "GET", "/health", { headers: traceparent(c) }); // evicts the oldest
    assert.deepEqual(await names(a), ["auth.verify_password"]);
    await call(api, "GET", "/text", { headers: traceparent(d) });
    assert.equal(await names(a), null, "a trace whose spans were all dropped is unknown");
    assert.deepEqual(await names(b), ["GET /health"]);
    assert.deepEqual(await names(c), ["GET /health"]);
    assert.deepEqual(await names(d), ["GET /text"]);
  }, { ...immediately, traceSpanLimit: 3 });
});

Deno.test("tracing: eviction keeps exactly the newest spans over many requests", async () => {
  // Over a thousand evictions, so the store also compacts its queue along the way.
  await withApi(async (api) => {
    const ids = Array.from({ length: 1100 }, newTraceId);
    for (const id of ids) await call(api, "GET", "/health", { headers: traceparent(id) });
    const found = [];
    for (const id of ids.slice(-40)) {
      found.push((await call(api, "GET", `/jaeger/api/traces/${id}`)).status === 200);
    }
    assert.deepEqual(found, Array.from({ length: 40 }, (_, i) => i >= 15));
  }, { ...immediately, traceSpanLimit: 25 });
});

Deno.test("tracing: two instances share no spans and no query counts", async () => {
  await withApi(async (a) => {
    await withApi(async (b) => {
      await call(a, "GET", "/health", { headers: traceparent() });
      for (let i = 0; i < 3; i++) {
        assert.equal((await call(b, "GET", `/jaeger/api/traces/${TRACE}`)).status, 404);
      }
      // b's queries did not count for a: a's first query is still too early.
      assert.equal((await call(a, "GET", `/jaeger/api/traces/${TRACE}`)).status, 404);
      assert.equal((await call(a, "GET", `/jaeger/api/traces/${TRACE}`)).status, 200);
      await call(b, "GET", "/text", { headers: traceparent() });
      const spansOf = async (api: DemoApi) =>
        ((await call(api, "GET", `/jaeger/api/traces/${TRACE}`)).json as Json).data[0].spans
          .map((s: Json) => s.operationName);
      assert.deepEqual(await spansOf(a), ["GET /health"]);
      assert.deepEqual(await spansOf(b), ["GET /text"]);
    });
  });
});

Deno.test("startDemoApi rejects a bad traceArrivalQueries or traceSpanLimit", async () => {
  for (
    const options of [
      { traceArrivalQueries: 0 },
      { traceArrivalQueries: 1.5 },
      { traceSpanLimit: 0 },
      { traceSpanLimit: -1 },
    ]
  ) {
    await assert.rejects(startDemoApi(options), RangeError, JSON.stringify(options));
  }
});

Deno.test("oauth2 device code: slow_down when polled early, pending, approved, denied, expired", async () => {
  await withApi(async (api) => {
    const post = async (path: string, fields: Record<string, string>) => {
      const body = new URLSearchParams({
        client_id: "demo-client",
        client_secret: "demo secret+/=:",
        ...fields,
      });
      const response = await fetch(`${api.url}${path}`, { method: "POST", body });
      return { status: response.status, json: await response.json() };
    };
    const grant = "urn:ietf:params:oauth:grant-type:device_code";
    const poll = (device_code: string) => post("/oauth2/token", { grant_type: grant, device_code });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    const device = await post("/oauth2/device_authorization", { interval: "1", scope: "s" });
    assert.equal(device.status, 200);
    const code = device.json.device_code;
    assert.match(code, /^dc-/);
    assert.match(device.json.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(device.json.verification_uri, `${api.url}/oauth2/device`);
    assert.deepEqual([device.json.interval, device.json.expires_in], [1, 300]);
    // Too soon: slow_down, and the interval is now 6 s.
    assert.equal((await poll(code)).json.error, "slow_down");
    const quick = await post("/oauth2/device_authorization", { interval: "1", approve_after: "1" });
    await sleep(1000);
    assert.equal((await poll(quick.json.device_code)).json.error, "authorization_pending");
    await sleep(1000);
    const token = await poll(quick.json.device_code);
    assert.equal(token.status, 200);
    const me = await fetch(`${api.url}/oauth2/me`, {
      headers: { authorization: `Bearer ${token.json.access_token}` },
    });
    assert.equal(me.status, 200);
    await me.body?.cancel();
    // A code is used once.
    assert.equal((await poll(quick.json.device_code)).json.error, "invalid_grant");

    const denied = await post("/oauth2/device_authorization", {
      interval: "1",
      approve_after: "0",
      deny: "true",
    });
    const expired = await post("/oauth2/device_authorization", {
      interval: "1",
      device_expires_in: "1",
    });
    await sleep(1000);
    assert.equal((await poll(denied.json.device_code)).json.error, "access_denied");
    await sleep(100);
    assert.equal((await poll(expired.json.device_code)).json.error, "expired_token");
    const stranger = await fetch(`${api.url}/oauth2/device_authorization`, {
      method: "POST",
      body: new URLSearchParams({ client_id: "nobody" }),
    });
    assert.equal(stranger.status, 401);
    await stranger.body?.cancel();
    const page = await fetch(`${api.url}/oauth2/device?user_code=${device.json.user_code}`);
    assert.match(await page.text(), /waiting/);
  });
});
