/**
 * `convert har` on a resource whose response gains a field a moment after
 * it is made, as Unleash's feature does (tests/real/unleash_har_test.ts):
 * the admin UI read the new flag twice, the first answer without
 * `lifecycle` (the server fills it in the background), the second with it.
 * The flow checked `$.json.lifecycle` on the second read, and a replay that
 * read it before the server had filled it failed there, skipping every
 * step after it. A field an earlier recorded answer of the same request
 * lacked is not checked; one every answer held still is. When the one read
 * already held it, the answer that created the flag is the evidence: a
 * structured field it lacked (`lifecycle`, `environments`) may still be in
 * the making when a replay reads it.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { jsonAnswer } from "../support/har_records.ts";

function entry(url: string, response: unknown, at: string, method = "GET", sent?: unknown) {
  const json = [{ name: "content-type", value: "application/json" }];
  const text = JSON.stringify(response);
  return {
    startedDateTime: at,
    time: 1,
    request: {
      method,
      url,
      httpVersion: "HTTP/1.1",
      headers: sent ? [{ name: "content-type", value: "application/json" }] : [],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: sent ? JSON.stringify(sent).length : 0,
      ...(sent ? { postData: { mimeType: "application/json", text: JSON.stringify(sent) } } : {}),
    },
    ...jsonAnswer(200, "OK", json, text),
  };
}

Deno.test("convert har: a field an earlier answer of the same request lacked is not checked, so a replay that reads it before the server fills it passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sometimes-" });
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(new URL(req.url).pathname);
    if (new URL(req.url).pathname.endsWith("/ui-config")) return Response.json({ version: "8" });
    // The replay reads before the server has filled `lifecycle`.
    return Response.json({ name: "checkout", project: "default", stale: false });
  });
  try {
    const url = "http://127.0.0.1:4242/api/admin/projects/default/features/checkout";
    const har = {
      log: {
        version: "1.2",
        creator: { name: "test", version: "1" },
        entries: [
          entry(
            url,
            { name: "checkout", project: "default", stale: false },
            "2026-01-01T00:00:00.000Z",
          ),
          entry(
            "http://127.0.0.1:4242/api/admin/ui-config",
            { version: "8" },
            "2026-01-01T00:00:00.500Z",
          ),
          entry(
            url,
            { name: "checkout", project: "default", stale: false, lifecycle: { stage: "initial" } },
            "2026-01-01T00:00:01.000Z",
          ),
        ],
      },
    };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/ui.yaml`);
    assert.doesNotMatch(flow, /\$\.json\.lifecycle/, flow);
    // What every answer held is still checked.
    assert.equal(flow.match(/path: \$\.json\.stale, equals: false/g)?.length, 2, flow);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(["run", `${dir}/ui.yaml`], {
      env: { BASE_URL: `http://127.0.0.1:${port}` },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow);
    assert.equal(seen.length, 3);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a structured field the answer that created the resource lacked is not checked on its read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-sometimes-" });
  // The flag is named as the create sent it (the run's own name, har_client_named_test.ts).
  let name = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "POST") name = (await req.json()).name;
    const feature = { name, project: "default", stale: false };
    if (req.method === "POST") return Response.json(feature);
    // Read at once: the server has not attached the environments nor the lifecycle yet.
    return Response.json(feature);
  });
  try {
    const features = "http://127.0.0.1:4242/api/admin/projects/default/features";
    const har = {
      log: {
        version: "1.2",
        creator: { name: "test", version: "1" },
        entries: [
          entry(
            features,
            { name: "checkout", project: "default", stale: false },
            "2026-01-01T00:00:00.000Z",
            "POST",
            { name: "checkout" },
          ),
          entry(`${features}/checkout`, {
            name: "checkout",
            project: "default",
            stale: false,
            environments: [{ name: "production" }],
            lifecycle: { stage: "initial" },
          }, "2026-01-01T00:00:01.000Z"),
        ],
      },
    };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/ui.yaml`);
    assert.doesNotMatch(flow, /\$\.json\.(lifecycle|environments)/, flow);
    // The read still checks what the creation answered too.
    assert.equal(flow.match(/path: \$\.json\.stale, equals: false/g)?.length, 2, flow);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(["run", `${dir}/ui.yaml`], {
      env: { BASE_URL: `http://127.0.0.1:${port}` },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
