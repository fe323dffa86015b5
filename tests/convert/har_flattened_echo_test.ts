/**
 * `convert har` on chrome-har's recording of a JSON save whose answer is
 * what was saved (Homebridge UI's config editor, tests/real/
 * homebridge_har_test.ts): chrome-har keeps only the top-level pairs, so
 * `{"bridge": {…}, "accessories": [], "platforms": [{…}]}` came back with
 * no `accessories` and `platforms` as its one object, and the flow saved a
 * config of another shape (the server took it; the config it wrote was
 * broken). The answer holds every member the pairs kept, with the same
 * values, `platforms` as a list of that object and `accessories` as an
 * empty list: read in the answer's shape, the body has the size the
 * browser sent, so it is sent so. An answer that differs in a value, or a
 * shape that misses the size sent, restores nothing.
 */
import assert from "node:assert/strict";
import { repairFlattenedJson } from "../../lib/convert/har_input.ts";
import { runCli } from "../support/cli.ts";
import { jsonAnswer } from "../support/har_records.ts";

const SAVED = {
  bridge: { name: "Living Room", port: 51826 },
  accessories: [],
  platforms: [{ platform: "config", port: 8581 }],
};

/** chrome-har's entry for a JSON POST of `sent` answered with `answer`: one pair per list item. */
function entry(url: string, sent: Record<string, unknown>, answer: unknown) {
  const text = JSON.stringify(answer);
  const params = Object.entries(sent).flatMap(([name, v]) =>
    (Array.isArray(v) ? v : [v]).map((value) => ({ name, value }))
  );
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method: "POST",
      url,
      httpVersion: "HTTP/1.1",
      headers: [{ name: "Content-Type", value: "application/json" }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: JSON.stringify(sent).length,
      postData: { mimeType: "application/json", params },
    },
    ...jsonAnswer(201, "Created", [{ name: "Content-Type", value: "application/json" }], text),
  };
}

Deno.test("convert har: a flattened JSON save is read in the shape of the answer that echoes it (an empty list back, a one-object list again), and the server takes it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flattened-echo-" });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const config = await req.json();
    const ok = Array.isArray(config.accessories) && Array.isArray(config.platforms);
    return ok ? Response.json(config, { status: 201 }) : Response.json({}, { status: 400 });
  });
  try {
    const har = {
      log: {
        version: "1.2",
        creator: { name: "chrome-har", version: "1" },
        entries: [entry("http://127.0.0.1:8581/api/config-editor", SAVED, SAVED)],
      },
    };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /lose JSON lists/, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/ui.yaml`);
    assert.match(flow, /accessories: \[\]/, flow);
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

Deno.test("convert har: an answer that differs in a value, or a shape that misses the size sent, restores nothing", () => {
  const flat = JSON.stringify({ bridge: SAVED.bridge, platforms: SAVED.platforms[0] });
  const size = JSON.stringify(SAVED).length;
  const echoed = repairFlattenedJson(flat, size, SAVED);
  assert.equal(echoed.text, JSON.stringify(SAVED));
  assert.deepEqual(echoed.restored.sort(), ["accessories", "platforms"]);
  const other = { ...SAVED, bridge: { name: "Kitchen", port: 51826 } };
  assert.ok(repairFlattenedJson(flat, size, other).lost);
  assert.ok(repairFlattenedJson(flat, size + 1, SAVED).lost);
});
