/**
 * `convert har` on a field named `key` that a query compares, not a credential: Parse
 * Dashboard (tests/real/parse_har_test.ts) reads its saved settings with
 * `{"where": {"appId": "…", "key": "browser.panels.settings"}, "_method": "GET"}`, and the
 * summary asked for `DASHBOARD_CONFIG_KEY` because a bare `key` is taken for a credential.
 *
 * What the converter does (lib/convert/correlate/lookup_fields.ts): a bare `key` inside a
 * query's criteria (an object sent as `where`, `filter` or `query`) whose value is words is a
 * lookup, sent as recorded. A bare `key` sent alone with a random value is still asked for (the
 * second test). Run on a stand-in server that answers only the recorded lookup.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { fullExchange } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

/** One recorded JSON exchange. */
const entry = (path: string, body: unknown, answer: unknown) =>
  fullExchange("POST", `http://api.test${path}`, JSON.stringify(body), JSON.stringify(answer));

const recording = (...entries: unknown[]) =>
  JSON.stringify({ log: { version: "1.2", creator: { name: "t", version: "1" }, entries } });

const LOOKUP = {
  where: { key: "browser.panels.settings", owner: "ops" },
  limit: 1,
  _method: "GET",
};

Deno.test("convert har: a bare key a query's where compares, words, is sent as recorded, not asked", async () => {
  const dir = await Deno.makeTempDir();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const sent = await req.json();
    const ok = sent.where?.key === LOOKUP.where.key;
    return Response.json({ results: [] }, { status: ok ? 200 : 404 });
  });
  try {
    const har = recording(entry("/classes/Settings", LOOKUP, { results: [] }));
    const { converted, flow } = await convertHar(dir, har);
    assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a bare key sent alone with a random value is still asked for", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const har = recording(entry("/session", { key: "k9f2c7e1a55b0d3" }, { ok: true }));
    const { converted, flow } = await convertHar(dir, har);
    assert.match(converted.stderr, /Set before running: \w+_KEY\./, converted.stderr);
    assert.ok(!flow.includes("k9f2c7e1a55b0d3"), flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
