/**
 * The flow run's cookie jar (`--cookie-jar`) and `sse:` steps, end to end:
 * a stream behind a session cookie gets the cookie a login step received,
 * and a cookie the stream's answer sets goes with the next HTTP request.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { startSseServer } from "./server.ts";

const FLOW = `name: cookies
steps:
  - name: login
    request: {url: "\${ENV.BASE}/login"}
  - name: stream
    sse: {url: "\${ENV.BASE}/session-events", until: "$[?@.event == 'done']"}
    assert: {status: 200}
  - name: after
    request: {url: "\${ENV.BASE}/use"}
`;

Deno.test("an sse step sends the jar's cookies and keeps the ones its answer sets", async () => {
  const server = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-cookies-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
    const run = await runCli(["run", `${dir}/flow.yaml`, "--cookie-jar"], {
      env: { BASE: server.url },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const stream = server.seen.find((s) => s.path === "/session-events")!;
    assert.equal(stream.headers.cookie, "sid=s-1");
    const after = server.seen.find((s) => s.path === "/use")!;
    assert.equal(after.headers.cookie, "sid=s-1; seen=yes");
    // Without the jar, nothing is kept or sent: the stream answers 401.
    const bare = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE: server.url } });
    assert.equal(bare.code, 1, bare.stdout + bare.stderr);
    assert.match(bare.stdout, /session-events → 401/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
