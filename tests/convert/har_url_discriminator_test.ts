/**
 * `convert har` on a list element told apart by an absolute URL: Parse Dashboard's
 * `parse-dashboard-config.json` (tests/real/parse_har_test.ts) lists its apps, each with its
 * `serverURL` (`http://127.0.0.1:39113/parse`), its `appId` and its `masterKey`, which every
 * later call sends. The capture picked the app by `serverURL`, the recording's host and port,
 * so on a fresh instance at another base URL it matched nothing and every later step was skipped.
 *
 * What the converter does (lib/convert/correlate/captures.ts): an absolute URL names where the
 * recording ran, never an element a fresh instance lists again; another field (the app's name)
 * tells the element apart. Run on a stand-in server whose config lists its own URLs.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { fullExchange } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

/** One recorded JSON exchange. */
function entry(method: string, path: string, body: unknown, answer: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return fullExchange(method, `http://api.test${path}`, text, JSON.stringify(answer));
}

const KEY = "mk-Ember-Lantern-9431";

/** The config as a server at `origin` answers it: two apps, each at its own URL. */
const config = (origin: string) => ({
  apps: [
    { serverURL: `${origin}/parse`, appName: "Journal", masterKey: KEY },
    { serverURL: `${origin}/other`, appName: "Ledger", masterKey: "mk-Other-Quill-7712" },
  ],
});

Deno.test("convert har: a list element is not picked by an absolute URL of the recorded instance", async () => {
  const dir = await Deno.makeTempDir();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const origin = new URL(req.url).origin;
    if (req.method === "GET") return Response.json(config(origin));
    const ok = (await req.json())._MasterKey === KEY;
    return Response.json({ ok }, { status: ok ? 200 : 403 });
  });
  try {
    const har = JSON.stringify({
      log: {
        version: "1.2",
        creator: { name: "t", version: "1" },
        entries: [
          entry("GET", "/config.json", undefined, config("http://api.test")),
          entry("POST", "/parse/serverInfo", { _MasterKey: KEY, _method: "GET" }, { ok: true }),
        ],
      },
    });
    const { converted, flow } = await convertHar(dir, har);
    assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
    assert.ok(!flow.includes(KEY), flow);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const run = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
