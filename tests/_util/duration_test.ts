/**
 * Durations take units wherever a time is taken: `sleep_ms: 250ms` in a
 * loop, `--timeout 150ms` on the command line; a unit flowrun does not know
 * is a positioned problem or a usage error with the fix.
 */
import assert from "node:assert/strict";
import { formatDuration, parseDuration } from "../../lib/_util/duration.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

Deno.test("durations: numbers are milliseconds, units ms, s, m and h", () => {
  const cases: [string, number | undefined][] = [
    ["0", 0],
    ["1500", 1500],
    ["500ms", 500],
    ["1.5s", 1500],
    ["0.25 s", 250],
    ["2m", 120_000],
    ["1h", 3_600_000],
    ["1 second", undefined],
    ["-5s", undefined],
    ["5 min", undefined],
    ["", undefined],
  ];
  for (const [text, ms] of cases) assert.equal(parseDuration(text), ms, text);
  assert.equal(formatDuration(90_000), "90 s");
});

Deno.test("a loop's sleep_ms takes a unit; a bad one is a positioned problem", () => {
  const flow = (sleep: string) =>
    `name: f\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    loop: {max_attempts: 3, sleep_ms: ${sleep}, until: {status: 200}}\n`;
  assert.equal(loadFlow(flow("250ms"), "f.yaml").flow?.steps[0].loop?.sleepMs, 250);
  assert.equal(loadFlow(flow("2s"), "f.yaml").flow?.steps[0].loop?.sleepMs, 2000);
  assert.equal(loadFlow(flow("100"), "f.yaml").flow?.steps[0].loop?.sleepMs, 100);
  const [tooLong] = loadFlow(flow("2h"), "f.yaml").problems;
  assert.equal(`${tooLong.line}:${tooLong.column} ${tooLong.code}`, "5:39 out-of-range");
  assert.equal(
    tooLong.message,
    'Expected "sleep_ms" of step "s" to be from 0 ms to 1 h, got 2 h.',
  );
});

Deno.test("--timeout takes a unit, and a slow response times out after it", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await new Promise((r) => setTimeout(r, 1000));
    return new Response("late");
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-duration-" });
  try {
    await Deno.writeTextFile(
      `${dir}/slow.yaml`,
      `name: slow\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:${server.addr.port}/"}\n`,
    );
    // The deadline's own message says it fired at 150 ms, whatever the machine's load.
    const run = await runCli(["run", `${dir}/slow.yaml`, "--timeout", "150ms"]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /No complete response within 150 ms\./);
    const bad = await runCli(["run", `${dir}/slow.yaml`, "--timeout", "1 minute"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Expected --timeout to be a positive duration, got "1 minute"/);
    assert.match(bad.stderr, /hint: Write milliseconds \(30000\) or a number with a unit/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
