import assert from "node:assert/strict";
import { attempt } from "../../lib/run/attempt.ts";
import { makeContext } from "../../lib/run/make_context.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { CookieJar } from "../../lib/http/cookie_jar.ts";
import type { AttemptInfo, RequestInfo } from "../../lib/model/events.ts";
import type { RunOptions } from "../../lib/run/options.ts";
import "../support/engines.ts";

const inputs = {
  literals: new Set<string>(),
  vars: new Set<string>(),
  env: new Set<string>(),
  captures: new Set<string>(),
};

/** The first step of a one-step flow, and a fresh flow-run scope for it. */
function stepInput(yaml: string) {
  const { flow, problems } = loadFlow(yaml, "f.yaml");
  assert.deepEqual(problems, []);
  const scope = {
    env: () => undefined,
    vars: new Map(),
    steps: new Map(),
    runId: "r",
    traceId: "0af7651916cd43dd8448eb211c80319c",
    jar: new CookieJar(),
  };
  return {
    ref: { file: "f.yaml", name: "f" },
    step: flow!.steps[0],
    scope,
    captured: new Map(),
    flowStarted: 0,
    inputs,
  };
}

async function withServer(handler: (r: Request) => Response, body: (url: string) => Promise<void>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  try {
    await body(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

function context(options: RunOptions) {
  const ctx = makeContext({ runId: "r", timeoutMs: 5000, ...options });
  return ctx;
}

Deno.test("one attempt tells the reporter before and after, and adds a traceparent when tracing", async () => {
  const told: (RequestInfo | AttemptInfo)[] = [];
  const seen: (string | null)[] = [];
  await withServer((request) => {
    seen.push(request.headers.get("traceparent"));
    return new Response("ok", { status: 202 });
  }, async (url) => {
    const ctx = context({
      trace: true,
      reporter: { onRequest: (_, i) => void told.push(i), onAttempt: (_, i) => void told.push(i) },
    });
    const a = await attempt(
      stepInput(`name: f\nsteps:\n  - name: s\n    request: {url: "${url}/x"}\n`),
      ctx,
      1,
    );
    ctx.deadlines?.close();
    assert.equal(a.response?.status, 202);
    a.response?.close();
    assert.match(seen[0]!, /^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    assert.equal(a.trace?.trace_id, "0af7651916cd43dd8448eb211c80319c");
    assert.equal(told.length, 2);
    assert.equal((told[1] as AttemptInfo).status, 202);
  });
});

Deno.test("a network failure is an outcome, reported with its error", async () => {
  const told: AttemptInfo[] = [];
  const ctx = context({ reporter: { onAttempt: (_, i) => void told.push(i) } });
  const a = await attempt(
    stepInput(`name: f\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:9/"}\n`),
    ctx,
    3,
  );
  ctx.deadlines?.close();
  assert.equal(a.response, undefined);
  assert.equal(a.error?.code, "network");
  assert.equal(told[0].attempt, 3);
  assert.match(told[0].error!, /^Request failed: /);
});

Deno.test("with a cookie jar, a followed redirect's cookies are sent on the next hop", async () => {
  await withServer((request) => {
    if (new URL(request.url).pathname === "/login") {
      return new Response(null, {
        status: 303,
        headers: { location: "/home", "set-cookie": "sid=s1; Path=/" },
      });
    }
    return new Response(request.headers.get("cookie") ?? "none");
  }, async (url) => {
    const ctx = context({ cookieJar: true });
    const input = stepInput(
      `name: f\nsteps:\n  - name: s\n    request: {url: "${url}/login"}\n    options: {follow_redirects: true}\n`,
    );
    const a = await attempt(input, ctx, 1);
    ctx.deadlines?.close();
    assert.equal(a.response?.text, "sid=s1");
    a.response?.close();
  });
});
