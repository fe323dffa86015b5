/**
 * `sse:` steps end to end: the CLI runs flows against real SSE servers the
 * test starts on 127.0.0.1 (tests/kinds/sse/server.ts), and the JSON report
 * is read back field by field. One run holds every flow (one CLI start):
 * job progress whose capture feeds a later HTTP step, a stream dropped
 * mid-way and resumed with Last-Event-ID (nothing lost, nothing doubled),
 * streams that never end (stopped by count and by wait), an `until` that
 * never holds, a huge event, a 401, a POST that streams its answer,
 * `loop.until` polling and `options.retry`.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { startSseServer } from "./server.ts";

const FLOWS: Record<string, string> = {
  "01_progress.yaml": `name: progress
steps:
  - name: start
    request: {method: POST, url: "\${ENV.BASE}/start"}
    capture: {id: $.json.id}
  - name: watch
    sse:
      url: "\${ENV.BASE}/jobs/\${steps.start.capture.id}/events"
      until: "$[?@.event == 'done']"
    capture: {result: "$.json.events[-1].data.result"}
    assert:
      status: 200
      headers: {content-type: text/event-stream}
      json:
        - {path: "$.json.events[-1].data.state", equals: finished}
        - {path: $.json.stopped, equals: until}
        - path: $.json.events
          equals:
            - {event: progress, data: {state: running, pct: 10}, id: "1"}
            - {event: progress, data: {state: running, pct: 60}, id: "2"}
            - {event: message, data: "plain text, not JSON", id: "3"}
            - {event: done, data: {state: finished, result: r-42}, id: "4"}
  - name: use
    request: {url: "\${ENV.BASE}/use?result=\${steps.watch.capture.result}"}
    assert: {status: 200}
`,
  "02_resume.yaml": `name: resume
steps:
  - name: ticks
    sse: {url: "\${ENV.BASE}/drop", until: "$[?@.event == 'done']", reconnects: 2}
    assert:
      json:
        - {path: "$.json.events[*].data.n", equals: [1, 2, 3, 4, 5, 6]}
        - {path: "$.json.events[*].id", equals: ["1", "2", "3", "4", "5", "6"]}
`,
  "03_resume_first.yaml": `name: resume first
steps:
  - name: ticks
    sse: {url: "\${ENV.BASE}/drop", last_event_id: "4"}
    assert:
      json:
        - {path: "$.json.events[*].data.n", equals: [5, 6]}
        - {path: $.json.stopped, equals: end}
`,
  "04_count.yaml": `name: count
steps:
  - name: five
    sse: {url: "\${ENV.BASE}/forever", count: 5}
    assert:
      json:
        - {path: $.json.events, length: 5}
        - {path: $.json.stopped, equals: count}
`,
  "05_wait.yaml": `name: wait
steps:
  - name: some
    sse: {url: "\${ENV.BASE}/forever", wait: 2s}
    assert:
      json:
        - {path: $.json.stopped, equals: wait}
`,
  "06_never.yaml": `name: never
steps:
  - name: minus one
    sse: {url: "\${ENV.BASE}/forever", until: "$[?@.data.n == -1]", count: 3}
`,
  "07_silent.yaml": `name: silent
steps:
  - name: nothing
    sse: {url: "\${ENV.BASE}/silent", until: "$[?@.event == 'done']", wait: 2s}
`,
  "08_huge.yaml": `name: huge
steps:
  - name: big
    sse: {url: "\${ENV.BASE}/huge"}
`,
  "09_private.yaml": `name: private
steps:
  - name: no token
    sse: {url: "\${ENV.BASE}/private"}
    assert:
      status: 401
      headers: {www-authenticate: Bearer}
      json:
        - {path: $.json.error, equals: unauthorized}
`,
  "10_chat.yaml": `name: chat
steps:
  - name: ask
    sse:
      url: "\${ENV.BASE}/chat"
      method: POST
      body: {prompt: "hello big world"}
      until: "$[?@.data == '[DONE]']"
    assert:
      json:
        - {path: "$.json.events[*].data.delta", equals: [hello, big, world]}
        - {path: "$.json.events[-1].data", equals: "[DONE]"}
`,
  "11_poll.yaml": `name: poll
steps:
  - name: counter
    sse: {url: "\${ENV.BASE}/counter"}
    loop:
      max_attempts: 5
      sleep_ms: 10
      until:
        json:
          - {path: "$.json.events[0].data.n", equals: 3}
`,
  "12_retry.yaml": `name: retry
steps:
  - name: flaky
    sse: {url: "\${ENV.BASE}/flaky", until: "$[?@.event == 'done']"}
    options: {retry: {count: 2, on: [503], delay: 10ms}}
    assert:
      status: 200
      json:
        - {path: "$.json.events[0].data.try", equals: 2}
`,
  "14_until_var.yaml": `name: until var
vars: {stop: "4"}
steps:
  - name: to four
    sse: {url: "\${ENV.BASE}/forever", until: "$[?@.data.n == \${vars.stop}]"}
    assert:
      json:
        - {path: $.json.stopped, equals: until}
        - {path: "$.json.events[-1].data.n", equals: 4}
        - {path: $.json.events, length: 5}
`,
  "13_refused.yaml": `name: refused
steps:
  - name: nobody
    sse: {url: "\${ENV.CLOSED}/events"}
`,
};

/** The URL of a port nothing listens on: one just closed. */
function closedUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  listener.close();
  return `http://127.0.0.1:${listener.addr.port}`;
}

Deno.test("sse steps run against real SSE servers, each bound and each check as documented", async () => {
  const server = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sse-run-" });
  try {
    for (const [name, text] of Object.entries(FLOWS)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    const run = await runCli(
      ["run", dir, "--jobs", "1", "--max-body", "1MiB", "--report-json", `${dir}/r.json`],
      { env: { BASE: server.url, CLOSED: closedUrl() } },
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const flow = (name: string) => report.flows.find((f: { name: string }) => f.name === name);
    const failed = report.flows.filter((f: { status: string }) => f.status !== "passed")
      .map((f: { name: string }) => f.name);
    assert.deepEqual(failed.sort(), ["huge", "never", "refused", "silent"], run.stdout);

    // The capture of an event fed the next HTTP step.
    assert.equal(server.seen.find((s) => s.path === "/use")?.search, "?result=r-42");
    const watch = flow("progress").steps[1];
    assert.equal(watch.request.method, "GET");
    assert.equal(watch.response.status, 200);

    // The reconnection sent the last id seen; each connection's Last-Event-ID as sent.
    const drops = server.seen.filter((s) => s.path === "/drop").map((s) =>
      s.headers["last-event-id"]
    );
    assert.deepEqual(drops, [undefined, "3", "4"]);
    assert.ok(
      server.seen.every((s) => s.path !== "/drop" || s.headers.accept === "text/event-stream"),
    );

    const never = flow("never").steps[0].assertions.find((a: { path: string }) =>
      a.path === "until"
    );
    assert.equal(
      never.message,
      `until "$[?@.data.n == -1]" did not hold in the 3 events that arrived (the "count" limit).`,
    );
    const silent = flow("silent").steps[0].assertions.find((a: { path: string }) =>
      a.path === "until"
    );
    assert.equal(
      silent.message,
      `until "$[?@.event == 'done']" did not hold in the 0 events that arrived within 2 s.`,
    );
    const huge = flow("huge").steps[0];
    assert.match(
      JSON.stringify(huge),
      /more than 1048576 bytes \(the --max-body limit\) after 0 events/,
    );

    assert.match(
      JSON.stringify(flow("refused").steps[0]),
      /GET http:\/\/127.0.0.1:\d+\/events failed: connection refused\./,
    );

    const chat = server.seen.find((s) => s.path === "/chat")!;
    assert.equal(chat.method, "POST");
    assert.deepEqual(JSON.parse(chat.body), { prompt: "hello big world" });
    assert.equal(chat.headers["content-type"], "application/json");

    assert.equal(server.seen.filter((s) => s.path === "/counter").length, 3, "polled until n = 3");
    assert.equal(flow("poll").steps[0].attempts, 3);
    assert.equal(server.seen.filter((s) => s.path === "/flaky").length, 2, "retried once on 503");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
