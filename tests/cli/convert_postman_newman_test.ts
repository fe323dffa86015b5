/**
 * The converted suite sends what Newman sends: the RealWorld Conduit
 * collection run by Newman itself (Postman's runner, test-only) and, once
 * converted, by flowrun, each against a fresh Conduit stand-in: the same 32
 * requests in the same order, Newman's 311 assertions and flowrun's
 * translated checks all passing. This also proves the stand-in: the
 * collection's own scripts, run by Postman's sandbox, accept its answers.
 */
import assert from "node:assert/strict";
import { startConduit } from "../apps/conduit/server.ts";
import { runCli } from "../support/cli.ts";

const CONDUIT =
  new URL("../fixtures/postman/realworld-conduit.postman_collection.json", import.meta.url)
    .pathname;
const ROOT = new URL("../..", import.meta.url).pathname;

/** The collection's variables: a user made up for this run. */
function users(tag: string) {
  const name = `${tag}${crypto.randomUUID().slice(0, 8)}`;
  return { USERNAME: name, EMAIL: `${name}@example.test`, PASSWORD: "pw-12345678" };
}

Deno.test("convert postman: Newman and the converted suite send Conduit the same 32 requests, all passing", async () => {
  const byNewman = await startConduit();
  let newman: {
    requests: number;
    failedRequests: number;
    assertions: number;
    failedAssertions: number;
  };
  try {
    const vars = { APIURL: `${byNewman.origin}/api`, ...users("newman") };
    const child = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${ROOT}tests/support/newman_run.ts`,
        CONDUIT,
        ...Object.entries(vars).map(([k, v]) => `${k}=${v}`),
      ],
      cwd: ROOT,
      stdin: "null",
    }).output();
    const out = new TextDecoder().decode(child.stdout);
    assert.equal(child.code, 0, out + new TextDecoder().decode(child.stderr));
    newman = JSON.parse(out.trim().split("\n").at(-1)!);
  } finally {
    await byNewman.close();
  }
  assert.deepEqual(
    newman,
    { requests: 32, failedRequests: 0, assertions: 311, failedAssertions: 0 },
    "Newman itself passes the collection against the stand-in",
  );

  const byFlowrun = await startConduit();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-newman-" });
  try {
    const converted = await runCli(["convert", "postman", CONDUIT, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const { PASSWORD, USERNAME, EMAIL } = users("flowrun");
    const run = await runCli(
      [
        "run",
        `${dir}/flows`,
        "--jobs",
        "1",
        "--var",
        `USERNAME=${USERNAME}`,
        "--var",
        `EMAIL=${EMAIL}`,
      ],
      { env: { APIURL: `${byFlowrun.origin}/api`, PASSWORD } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /32 steps: 32 passed/);
  } finally {
    await byFlowrun.close();
    await Deno.remove(dir, { recursive: true });
  }
  // The same requests, in the same order (ids and names differ by run, so compare the shape).
  const shape = (calls: string[]) =>
    calls.map((c) =>
      c.replace(/\/articles\/[^/]+/, "/articles/:slug").replace(
        /\/profiles\/[^/]+/,
        "/profiles/:name",
      )
    );
  assert.equal(byFlowrun.calls.length, 32, byFlowrun.calls.join("\n"));
  assert.deepEqual(shape(byFlowrun.calls), shape(byNewman.calls));
});
