/**
 * `flowrun export artillery` of a flow with a WebSocket, an SSE and an HTTP
 * step (tests/fixtures/export/kinds.yaml), run by Artillery itself (2.0.34,
 * installed once into the real servers' cache by tests/real/servers.ts, as
 * tests/export/artillery_real_test.ts does) against a server the test starts
 * on 127.0.0.1 (tests/export/kinds_server.ts: Deno's own WebSocket server,
 * an event stream, an HTTP endpoint), which records what each run id (one
 * per virtual user) sent.
 *
 * The reference is `flowrun run` of the same flow: each virtual user must
 * send the same WebSocket messages in the same order and read the same
 * events, the ticket the WebSocket gave flowing into the SSE URL and the
 * result the stream gave into the HTTP step (the server answers 400
 * otherwise); the processor's metrics count what was sent and received; a
 * deliberately failing check and a refused handshake fail the virtual users
 * in Artillery's JSON report as in `flowrun run`. The processor finds the
 * `ws` client among Artillery's own dependencies: nothing is installed
 * beside the script. Slow (three Artillery runs, about 15 CPU-seconds).
 */
import assert from "node:assert/strict";
import { type ArtilleryRun, exportAndRun as exportAndRunIn } from "./artillery_cli.ts";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { startKindsServer } from "./kinds_server.ts";

const ARTILLERY = { name: "artillery", version: "2.0.34" };
const installed = await prepare([ARTILLERY]);
const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;
const TOKEN = "kinds-token-only-in-the-environment-4b7c";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Exports `flow` for `users` users, runs Artillery on it (killed after 120 s) with `env` only. */
const exportAndRun = (flow: string, users: number, env: Record<string, string>) =>
  exportAndRunIn(installed.install!.prefix, `${FIXTURES}${flow}`, users, env, TOKEN, [
    "artillery.yml",
    "flowrun-processor.js",
  ]);

/** The server's URLs and the token, as both runs read them. */
function envOf(server: ReturnType<typeof startKindsServer>, token = TOKEN): Record<string, string> {
  return { WS_URL: server.wsUrl, HTTP_URL: server.httpUrl, KINDS_TOKEN: token };
}

Deno.test(
  `each Artillery virtual user makes flowrun run's WebSocket and SSE exchanges, captures flowing${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const server = startKindsServer(TOKEN);
    try {
      const env = envOf(server);
      const run = await runCli(["run", `${FIXTURES}kinds.yaml`, "--run-id", "flowrun-run"], {
        env,
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const reference = server.seen.get("flowrun-run")!;
      assert.deepEqual(reference.at(-1), "use ok", "the captures flowed in flowrun run");
      server.seen.delete("flowrun-run");
      const artillery = await exportAndRun("kinds.yaml", 3, env);
      assert.equal(artillery.code, 0, artillery.output);
      assert.equal(server.seen.size, 3, [...server.seen.keys()].join());
      for (const [runId, seen] of server.seen) {
        assert.match(runId, UUID, "each user's run id is its own");
        assert.deepEqual(seen, reference, `user ${runId}`);
      }
      const c = artillery.counters;
      assert.equal(c["vusers.completed"], 3, artillery.output);
      assert.equal(c["vusers.failed"] ?? 0, 0);
      // flowrun run's: 4 messages sent and 5 received (its check of the count passed), 3 events.
      assert.equal(c["flowrun.websocket.chat.sent"], 3 * 4);
      assert.equal(c["flowrun.websocket.chat.received"], 3 * 5);
      assert.equal(c["flowrun.sse.progress.received"], 3 * 3);
      // Seven checks of the chat, three of the stream, for each user.
      assert.equal(c["flowrun.checks.ok"], 3 * 10);
      assert.equal(c["flowrun.checks.failed"] ?? 0, 0);
      assert.equal(c["plugins.expect.ok.statusCode"], 3, "the HTTP step's status check");
      assert.equal(artillery.summaries["flowrun.websocket.chat"]?.count, 3, "a time per exchange");
      assert.equal(artillery.summaries["flowrun.sse.progress"]?.count, 3);
    } finally {
      await server.close();
    }
  },
);

/** A flow that fails in flowrun run at its WebSocket step, then in Artillery for two users. */
async function failing(flow: string, token: string): Promise<ArtilleryRun> {
  const server = startKindsServer(TOKEN);
  try {
    const env = envOf(server, token);
    const run = await runCli(["run", `${FIXTURES}${flow}`, "--run-id", "flowrun-run"], { env });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const reference = server.seen.get("flowrun-run") ?? [];
    server.seen.delete("flowrun-run");
    const artillery = await exportAndRun(flow, 2, env);
    assert.notEqual(artillery.code, 0, artillery.output);
    assert.equal(artillery.counters["vusers.failed"], 2, artillery.output);
    assert.equal(artillery.counters["vusers.completed"] ?? 0, 0);
    assert.equal(artillery.counters["errors.Failed checks for request chat"], 2);
    // As in flowrun run, the user stops at the failed step: no stream, no HTTP call.
    for (const seen of server.seen.values()) assert.deepEqual(seen, reference);
    return artillery;
  } finally {
    await server.close();
  }
}

Deno.test(
  `a failing WebSocket check and a refused handshake fail the virtual users in Artillery's report${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const [check, refused] = await Promise.all([
      failing("kinds_failing.yaml", TOKEN),
      failing("kinds.yaml", "a-wrong-token"),
    ]);
    assert.equal(check.counters["flowrun.checks.failed"], 2, check.output);
    assert.match(
      check.output,
      /not ok chat: \$\.json\.messages\[1\]\.got equals "hullo": got "hello"/,
    );
    // The server's 401 is the step's response: its status check and until fail, as in flowrun run.
    assert.match(refused.output, /not ok chat: [^\n]*\$\.status anyOf \[101\]: got 401/);
    assert.match(
      refused.output,
      /until "\$\[\?@\.type == 'done'\]" did not hold in the 0 messages that arrived \(the server refused the upgrade with 401\)/,
    );
  },
);

Deno.test(
  `the flow's auth authorises the WebSocket handshake in Artillery as in flowrun run${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const server = startKindsServer(TOKEN);
    try {
      const env = envOf(server);
      const run = await runCli(["run", `${FIXTURES}kinds_auth.yaml`, "--run-id", "flowrun-run"], {
        env,
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const reference = server.seen.get("flowrun-run")!;
      server.seen.delete("flowrun-run");
      // The chat refuses a handshake without the bearer token (401): the users' pass shows it sent.
      const artillery = await exportAndRun("kinds_auth.yaml", 2, env);
      assert.equal(artillery.code, 0, artillery.output);
      assert.equal(artillery.counters["vusers.completed"], 2, artillery.output);
      assert.equal(server.seen.size, 2);
      for (const seen of server.seen.values()) assert.deepEqual(seen, reference);
    } finally {
      await server.close();
    }
  },
);

Deno.test(
  `with a cookie jar, WebSocket and SSE steps send and keep the user's cookies in Artillery${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const server = startKindsServer(TOKEN);
    try {
      const env = envOf(server);
      const run = await runCli(["run", `${FIXTURES}kinds_cookies.yaml`], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      // The login's session cookie on the stream's request and the handshake, and the stream's
      // cookie on the handshake after it: the flow's checks pass only then.
      const artillery = await exportAndRun("kinds_cookies.yaml", 2, env);
      assert.equal(artillery.code, 0, artillery.output);
      assert.equal(artillery.counters["vusers.completed"], 2, artillery.output);
      assert.equal(artillery.counters["flowrun.checks.ok"], 2 * 2, artillery.output);
    } finally {
      await server.close();
    }
  },
);
