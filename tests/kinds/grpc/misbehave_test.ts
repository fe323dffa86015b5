/**
 * grpc: steps against a server that misbehaves on purpose: bytes that do
 * not decode as the response type, a stream that never ends (stopped by
 * max_messages, by the step's timeout, by --max-body), a message larger
 * than --max-body, and SIGINT in the middle of a stream. Each is a
 * sentence in the report, never a crash or a hang.
 */
import assert from "node:assert/strict";
import { runBounded } from "../../support/cli.ts";
import type { BadMode } from "../../fixtures/grpc/atlas_server.ts";
import { flowDir, runReport } from "./support.ts";
import { servedAtlas } from "./served.ts";

const flow = (method: string, rest = "") =>
  `name: bad\nvars: { port: "0" }\nsteps:\n  - name: call\n    grpc:\n` +
  `      target: "127.0.0.1:\${vars.port}"\n      proto: protos/atlas.proto\n` +
  `      method: atlas.Atlas/${method}\n      message: {}\n${rest}`;

interface Step {
  status: string;
  message?: string;
  response?: { status: number };
  assertions: { path: string; passed: boolean; message: string }[];
}

async function run(mode: BadMode, text: string, args: string[] = []) {
  const server = await servedAtlas({ bad: mode });
  try {
    const { cli, steps } = await runReport<Step>(text, server.port, args);
    return { cli, step: steps[0] };
  } finally {
    await server.close();
  }
}

Deno.test("a response that does not decode as the response type fails the step with protobuf's words", async () => {
  const { cli, step } = await run("garbage", flow("GetPlace"));
  assert.equal(cli.code, 1, cli.stdout);
  assert.equal(step.status, "failed");
  const failure = step.assertions.find((a) => !a.passed);
  assert.equal(failure?.path, "response message");
  assert.match(
    failure!.message,
    /^Message 1 from atlas\.Atlas\/GetPlace does not decode as atlas\.Place: field 1 \("name"\) came as wire type 0, not as a string; flowrun cancelled the call\.$/,
  );
});

Deno.test("a never-ending stream stops at max_messages: those messages are the response, the step fails", async () => {
  const { cli, step } = await run(
    "unavailable-twice",
    flow(
      "ListPlaces",
      "      max_messages: 5\n    assert: { json: [{ path: $.json, length: 5 }] }\n",
    ),
  );
  assert.equal(cli.code, 1, cli.stdout);
  assert.equal(step.status, "failed");
  const checks = step.assertions.map((a) => [a.path, a.passed]).sort();
  assert.deepEqual(checks, [["$.json", true], ["max_messages", false]]);
  assert.match(
    step.assertions.find((a) => a.path === "max_messages")!.message,
    /brought more than 5 messages \(max_messages\); flowrun cancelled the call and kept the first 5\./,
  );
});

Deno.test("a never-ending stream stops at the step's timeout with a timeout error", async () => {
  const { cli, step } = await run(
    "unavailable-twice",
    flow("ListPlaces", "      max_messages: 100000\n    options: { timeout: 400ms }\n"),
  );
  assert.equal(cli.code, 1, cli.stdout);
  assert.equal(step.status, "error");
  assert.match(
    step.message ?? "",
    /No end of atlas\.Atlas\/ListPlaces within 400 ms, the step's timeout \(\d+ messages? had arrived\)/,
  );
});

Deno.test("--max-body bounds one huge message and a stream's messages together", async () => {
  const huge = await run("huge", flow("GetPlace"), ["--max-body", "1MiB"]);
  assert.equal(huge.cli.code, 1, huge.cli.stdout);
  assert.equal(huge.step.status, "error");
  assert.match(
    huge.step.message ?? "",
    /The response of atlas\.Atlas\/GetPlace held more than 1048576 bytes \(--max-body\)/,
  );
  const stream = await run(
    "unavailable-twice",
    flow("ListPlaces", "      max_messages: 100000\n"),
    ["--max-body", "2KiB"],
  );
  assert.equal(stream.step.status, "error");
  assert.match(
    stream.step.message ?? "",
    /held more than 2048 bytes \(--max-body\); flowrun cancelled the call \(\d+ messages had arrived\)/,
  );
});

Deno.test("SIGINT during a stream ends the run at once: exit 130, the reports written", async () => {
  const server = await servedAtlas({ bad: "unavailable-twice" });
  const dir = await flowDir(
    flow("ListPlaces", "      max_messages: 100000\n    options: { timeout: 60s }\n"),
  );
  try {
    const run = await runBounded(
      [
        "run",
        `${dir}/flow.yaml`,
        "--var",
        `port=${server.port}`,
        "--report-json",
        `${dir}/r.json`,
        "--report-junit",
        `${dir}/j.xml`,
      ],
      { interruptOn: server.reached("ListPlaces"), ms: 30_000 },
    );
    assert.equal(run.killed, false);
    assert.equal(run.code, 130, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const step = report.flows[0].steps[0];
    // An interrupted step is "skipped" with why, as an interrupted HTTP step is.
    assert.deepEqual([step.status, step.failure_kind], ["skipped", "interrupted"]);
    assert.equal(
      step.request.url,
      `grpc://127.0.0.1:${server.port}/atlas.Atlas/ListPlaces`,
    );
    assert.match(await Deno.readTextFile(`${dir}/j.xml`), /<testsuites/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
