/**
 * An operation whose method flowrun cannot send (TRACE: the HTTP client
 * forbids it) is left out of the flows and named in the summary and in its
 * flow's header, as one that stops the server is: a step with it made the
 * whole flow fail to load (httpbin.org's document in APIs.guru's directory,
 * docs/real-servers.md "Real documents at scale").
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const DOC = `openapi: 3.0.3
info: {title: Echo}
paths:
  /echo:
    get:
      tags: [echo]
      responses: {'200': {description: ok}}
    trace:
      tags: [echo]
      summary: Echo the request back
      responses: {'200': {description: ok}}
  /only:
    trace:
      responses: {'200': {description: ok}}
`;

Deno.test("convert openapi: a TRACE operation is left out and named, and the flows load", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-unsendable-" });
  try {
    await Deno.writeTextFile(`${dir}/api.yaml`, DOC);
    const converted = await runCli(["convert", "openapi", `${dir}/api.yaml`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /^Converted Echo: 3 operations into 1 flow/m);
    assert.match(
      converted.stderr,
      /^Left out 2 operations flowrun cannot send \(the HTTP client forbids TRACE; test them with another tool\): TRACE \/echo, TRACE \/only$/m,
    );
    const validated = await runCli(["validate", "--no-env", `${dir}/out`]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    const flow = await Deno.readTextFile(`${dir}/out/echo.yaml`);
    assert.doesNotMatch(flow, /method: TRACE/);
    assert.match(
      flow,
      /^# Left out: TRACE \/echo — Echo the request back \(flowrun cannot send TRACE\)\.$/m,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
