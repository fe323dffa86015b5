/**
 * `sse:` steps against a third-party SSE server: better-sse (a maintained,
 * spec-following implementation nobody here wrote) on node:http, installed
 * from the npm registry at a pinned version by tests/real/servers.ts. Its
 * stream ends after event 3 and resumes from `Last-Event-ID`: the step
 * reconnects after better-sse's `retry` and gets every event once; its
 * keep-alive comments are skipped; text data stays text.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { prepare, start } from "../../real/servers.ts";

const PACKAGES = [{ name: "better-sse", version: "0.16.1" }];
const prepared = await prepare(PACKAGES);
const SERVER = new URL("../../fixtures/sse/better_sse_server.cjs", import.meta.url).pathname;

const FLOW = `name: better-sse
steps:
  - name: progress
    sse: {url: "\${ENV.BASE}/progress", until: "$[?@.event == 'done']", reconnects: 2}
    assert:
      json:
        - {path: "$.json.events[*].data.step", equals: [1, 2, 3, 4, 5, 6]}
        - {path: "$.json.events[*].id", equals: ["1", "2", "3", "4", "5", "6"]}
        - {path: "$.json.events[-1].data.state", equals: finished}
  - name: text
    sse: {url: "\${ENV.BASE}/text", until: "$[?@.event == 'done']"}
    assert:
      json:
        - {path: "$.json.events[0]", equals: {event: text, data: "ready to go", id: t-1}}
        - {path: "$.json.events[1]", equals: {event: done, data: "end", id: t-2}}
`;

Deno.test({
  name:
    `sse steps read better-sse's streams, resuming with Last-Event-ID${prepared.ignoredBecause}`,
  ignore: prepared.install === undefined,
  fn: async () => {
    const server = await start({
      command: ["node", SERVER, "PORT"],
      env: { BETTER_SSE_PREFIX: prepared.install!.prefix, PATH: Deno.env.get("PATH") ?? "" },
      origin: (output, port) =>
        output.includes(`listening on http://127.0.0.1:${port}`)
          ? `http://127.0.0.1:${port}`
          : undefined,
    });
    const dir = await Deno.makeTempDir({ prefix: "flowrun-better-sse-" });
    try {
      await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
      const run = await runCli(["run", `${dir}/flow.yaml`, "--report-json", `${dir}/r.json`], {
        env: { BASE: server.origin },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr + server.log());
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      assert.deepEqual(report.flows[0].steps.map((s: { status: string }) => s.status), [
        "passed",
        "passed",
      ]);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
