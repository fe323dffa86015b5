/**
 * Secrets of `sse:` steps, end to end through the CLI: a token sent in an
 * `authorization` header, and a token that arrives in an event's data and
 * is then sent in a secret place, are masked in the console, the JSON,
 * JUnit and HTML reports and the log — also where a failed step shows the
 * events that carried it.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { EVENT_TOKEN, startSseServer } from "./server.ts";

const TOKEN = "hdr-tok-0a1b2c3d4e5f";

const FLOW = `name: secrets
steps:
  - name: listen
    sse:
      url: "\${ENV.BASE}/secret-events"
      headers: {authorization: "Bearer \${ENV.TOKEN}"}
      until: "$[?@.event == 'done']"
    capture: {token: "$.json.events[0].data.token"}
  - name: use
    request:
      url: "\${ENV.BASE}/use"
      headers: {authorization: "Bearer \${steps.listen.capture.token}"}
  - name: shown
    sse:
      url: "\${ENV.BASE}/secret-events"
      headers: {authorization: "Bearer \${ENV.TOKEN}"}
      until: "$[?@.event == 'never']"
    assert:
      json:
        - {path: "$.json.events[0].data.token", equals: "something else"}
`;

Deno.test("a header token and a token from an event's data are masked in every artifact", async () => {
  const server = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-mask-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, FLOW);
    const har = ["--report-har", `${dir}/out/run.har`];
    const run = await runCli(["run", `${dir}/flow.yaml`, "--out-dir", `${dir}/out`, ...har, "-v"], {
      env: { BASE: server.url, TOKEN },
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    // The values really went out and came back: the test would find them if they leaked.
    const uses = server.seen.filter((s) => s.path === "/use");
    assert.equal(uses[0].headers.authorization, `Bearer ${EVENT_TOKEN}`);
    assert.equal(server.seen[0].headers.authorization, `Bearer ${TOKEN}`);
    // The failed step shows its events (with the masked token) and its until sentence.
    assert.match(run.stdout, /until "\$\[\?@\.event == 'never'\]" did not hold in the 2 events/);
    assert.match(run.stdout, /"token":\s*"\*+"/);
    const read = (name: string) => Deno.readTextFileSync(`${dir}/out/${name}`);
    const artifacts: Record<string, string> = {
      console: run.stdout + run.stderr,
      "report.json": read("report.json"),
      "junit.xml": read("junit.xml"),
      "report.html": read("report.html"),
      "run.log.ndjson": read("run.log.ndjson"),
      "run.har": read("run.har"),
    };
    for (const [name, text] of Object.entries(artifacts)) {
      assert.ok(!text.includes(TOKEN), `${name} holds the header token`);
      assert.ok(!text.includes(EVENT_TOKEN), `${name} holds the event's token`);
    }
    const report = JSON.parse(artifacts["report.json"]);
    const shown = report.flows[0].steps[2];
    assert.equal(shown.status, "failed");
    const checks = shown.assertions.map((
      a: { path: string; passed: boolean },
    ) => [a.path, a.passed]);
    assert.deepEqual(checks, [["until", false], ["$.json.events[0].data.token", false]]);
    assert.match(artifacts["junit.xml"], /did not hold in the 2 events/);
    assert.match(artifacts["report.html"], /did not hold in the 2 events/);
    for (const line of artifacts["run.log.ndjson"].trim().split("\n")) JSON.parse(line);
    // The HAR holds the sse steps' exchanges too, in order, each answered with its events as a stream.
    const entries = JSON.parse(artifacts["run.har"]).log.entries as {
      request: { url: string };
      response: { status: number; content: { text?: string } };
    }[];
    assert.deepEqual(
      entries.map((e) => new URL(e.request.url).pathname),
      ["/secret-events", "/use", "/secret-events"],
    );
    assert.match(entries[0].response.content.text ?? "", /^data: \{"token":/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
