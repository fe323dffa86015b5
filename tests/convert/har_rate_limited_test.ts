/**
 * `convert har` on an endpoint the server throttles and says so: Unleash
 * answers its feature search with `RateLimit-Policy: 15;w=60` (15 a minute),
 * and the admin UI searches 8 times a journey, so a second run within the
 * minute got 429. The recorded answers' own rate-limit headers are the
 * evidence: such a step retries on 429, waiting in all at least the window
 * the policy declares (1 s, doubled each time); a step whose answers declare
 * no limit gets no retry.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { jsonAnswer } from "../support/har_records.ts";

const WINDOW_S = 2;
const LIMIT = 3;

function entry(url: string, limited: boolean) {
  const text = JSON.stringify({ features: [], total: 0 });
  const headers = [{ name: "Content-Type", value: "application/json" }];
  if (limited) {
    headers.push(
      { name: "RateLimit-Policy", value: `${LIMIT};w=${WINDOW_S}` },
      { name: "RateLimit-Limit", value: String(LIMIT) },
      { name: "RateLimit-Remaining", value: "2" },
    );
  }
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method: "GET",
      url,
      httpVersion: "HTTP/1.1",
      headers: [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    ...jsonAnswer(200, "OK", headers, text),
  };
}

Deno.test("convert har: a step whose recorded answers declare a rate limit retries on 429 for the declared window, so a second run at once passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-rate-limited-" });
  // A fixed window: LIMIT searches per WINDOW_S seconds, counted from the window's first one.
  let windowStart = 0;
  let used = 0;
  let refused = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname.endsWith("/config")) {
      return Response.json({ features: [], total: 0 });
    }
    const now = Date.now();
    if (now - windowStart >= WINDOW_S * 1000) [windowStart, used] = [now, 0];
    if (++used > LIMIT) {
      refused++;
      return new Response("Too many requests", { status: 429 });
    }
    return Response.json({ features: [], total: 0 });
  });
  try {
    const search = "http://127.0.0.1:4242/api/search/features";
    const har = {
      log: {
        version: "1.2",
        creator: { name: "test", version: "1" },
        entries: [
          entry(`${search}?page=1`, true),
          entry(`${search}?page=2`, true),
          entry("http://127.0.0.1:4242/api/config", false),
          entry(`${search}?page=3`, true),
        ],
      },
    };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/ui.yaml`);
    // 1 s + 2 s of waiting covers the 2 s window; the unthrottled step retries nothing.
    const retried = [
      ...flow.matchAll(/- name: (\w+)\n(?:(?! {2}- name).*\n)*? +retry:\n((?: {8}.*\n){3})/g),
    ].map((m) => `${m[1]} ${m[2].replace(/\s+/g, " ").trim()}`);
    assert.deepEqual(retried, [
      'list_features count: 2 "on": [429] delay: "1s"',
      'list_features_2 count: 2 "on": [429] delay: "1s"',
      'list_features_3 count: 2 "on": [429] delay: "1s"',
    ], flow);
    const { port } = server.addr as Deno.NetAddr;
    const env = { BASE_URL: `http://127.0.0.1:${port}` };
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/ui.yaml`], { env });
      assert.equal(run.code, 0, `run ${n}: ${run.stdout}${run.stderr}\n${flow}`);
    }
    // The second run was throttled, and waited it out.
    assert.ok(refused >= 1, `refused ${refused}`);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
