/**
 * `auth:` on `sse:` steps, end to end through the CLI: the flow's bearer
 * token and a step's API key (in a header, and in the query) reach the SSE
 * server as they would an HTTP step's, and are masked in every artifact.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { startSseServer } from "./server.ts";

const TOKEN = "flow-bearer-6b5a4c3d2e1f";
const KEY = "step-key-1f2e3d4c5b6a";

const FLOW = `name: auth
auth:
  bearer: {token: "\${ENV.TOKEN}"}
steps:
  - name: flow auth
    sse: {url: "\${ENV.BASE}/jobs/job-7/events", until: "$[?@.event == 'done']"}
  - name: key in a header
    auth:
      api_key: {name: x-api-key, value: "\${ENV.KEY}"}
    sse: {url: "\${ENV.BASE}/jobs/job-7/events", until: "$[?@.event == 'done']"}
  - name: key in the query
    auth:
      api_key: {name: key, value: "\${ENV.KEY}", in: query}
    sse: {url: "\${ENV.BASE}/jobs/job-7/events?from=0", until: "$[?@.event == 'never']", count: 1}
`;

Deno.test("a flow's and a step's auth reach the SSE server and are masked everywhere", async () => {
  const server = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-auth-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
    const run = await runCli(["run", `${dir}/flow.yaml`, "--out-dir", `${dir}/out`, "-v"], {
      env: { BASE: server.url, TOKEN, KEY },
    });
    // The last step fails on purpose (its until never holds): its request is shown in full.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const streams = server.seen.filter((s) => s.path === "/jobs/job-7/events");
    assert.equal(streams.length, 3);
    assert.equal(streams[0].headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(streams[1].headers["x-api-key"], KEY);
    assert.equal(
      streams[1].headers.authorization,
      undefined,
      "the step's auth replaces the flow's",
    );
    assert.equal(streams[2].search, `?from=0&key=${KEY}`);
    const report = JSON.parse(Deno.readTextFileSync(`${dir}/out/report.json`));
    assert.deepEqual(report.flows[0].steps.map((s: { status: string }) => s.status), [
      "passed",
      "passed",
      "failed",
    ]);
    const texts: Record<string, string> = { console: run.stdout + run.stderr };
    for (const name of ["report.json", "junit.xml", "report.html", "run.log.ndjson"]) {
      texts[name] = Deno.readTextFileSync(`${dir}/out/${name}`);
    }
    for (const [name, text] of Object.entries(texts)) {
      assert.ok(!text.includes(TOKEN), `${name} holds the bearer token`);
      assert.ok(!text.includes(KEY), `${name} holds the API key`);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
