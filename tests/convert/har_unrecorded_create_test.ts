/**
 * `convert har` on a recording that holds no answer for a create: Playwright's
 * HAR often keeps no body for a request the page navigated away from (the
 * admin UI that creates a flag opens the flag's page at once). The read of
 * the new resource that follows held structured fields the server attaches a
 * moment after the create (a `lifecycle`, its `environments`); with the
 * create's answer missing there is no evidence they were there from the
 * start, so they are not checked, and a replay that reads sooner passes.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { fullRequest } from "../support/har_records.ts";

/** A HAR entry; `text` undefined is an answer whose body was not recorded. */
function entry(method: string, url: string, at: string, text?: string, sent?: unknown) {
  const body = sent === undefined ? undefined : JSON.stringify(sent);
  return {
    startedDateTime: at,
    time: 1,
    request: fullRequest(method, url, body),
    response: {
      status: method === "POST" ? 201 : 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      headers: [{ name: "content-type", value: "application/json" }],
      cookies: [],
      content: { size: 180, mimeType: "application/json", ...(text ? { text } : {}) },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

const FEATURES = "http://127.0.0.1:4242/api/admin/projects/default/features";

/** A stand-in that makes what is posted and, read at once, answers it without what comes later. */
function standIn() {
  const made = new Map<string, Record<string, unknown>>();
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST") {
      const { name } = await req.json();
      const feature = { name, project: "default", stale: false };
      made.set(name, feature);
      return Response.json(feature, { status: 201 });
    }
    const feature = made.get(path.slice(path.lastIndexOf("/") + 1));
    return feature
      ? Response.json(feature)
      : Response.json({ error: "not found" }, { status: 404 });
  });
}

async function convertAndRun(entries: unknown[]) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-unrecorded-create-" });
  const server = standIn();
  try {
    const har = { log: { version: "1.2", creator: { name: "test", version: "1" }, entries } };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/ui.yaml`);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(["run", `${dir}/ui.yaml`], {
      env: { BASE_URL: `http://127.0.0.1:${port}` },
    });
    return { flow, run };
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

const READ = JSON.stringify({
  name: "checkout",
  project: "default",
  stale: false,
  environments: [{ name: "production" }],
  lifecycle: { stage: "initial" },
});

Deno.test("convert har: when the create's answer was not recorded, the read of what it made checks no structured field, and a replay that reads sooner passes", async () => {
  const { flow, run } = await convertAndRun([
    entry("POST", FEATURES, "2026-01-01T00:00:00.000Z", undefined, { name: "checkout" }),
    entry("GET", `${FEATURES}/checkout`, "2026-01-01T00:00:01.000Z", READ),
  ]);
  assert.doesNotMatch(flow, /\$\.json\.(lifecycle|environments)/, flow);
  // The scalar fields are still checked.
  assert.match(flow, /path: \$\.json\.stale, equals: false/, flow);
  assert.equal(run.code, 0, run.stdout + run.stderr + flow);
});

Deno.test("convert har: a create whose answer was recorded and held the structured fields keeps them checked on the read", async () => {
  const { flow } = await convertAndRun([
    entry("POST", FEATURES, "2026-01-01T00:00:00.000Z", READ, { name: "checkout" }),
    entry("GET", `${FEATURES}/checkout`, "2026-01-01T00:00:01.000Z", READ),
  ]);
  assert.match(flow, /\$\.json\.lifecycle/, flow);
  assert.match(flow, /\$\.json\.environments/, flow);
});
