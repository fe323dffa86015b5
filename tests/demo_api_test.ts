import assert from "node:assert/strict";
import { type DemoApi, type DemoApiOptions, startDemoApi } from "../examples/demo_api.ts";

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

Deno.test("close ends a pending slow response early", async () => {
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
