/**
 * The converted suite sends what Newman sends: the blog collection written
 * here (tests/fixtures/postman/blog.postman_collection.json: legacy
 * `tests[…]` checks, globals chaining the token, slug and comment id, `pm.*`
 * tests) run by Newman itself (Postman's runner, test-only) and, once
 * converted, by flowrun, each against a fresh in-memory server of
 * tests/apps/conduit: the same 31 requests in the same order, Newman's 278
 * assertions and flowrun's translated checks all passing. This also proves
 * the collection: Postman's own sandbox runs its scripts green on the
 * server's answers, so they say what Postman would. The four echo
 * collections written here are run alike against an echo server, every
 * check of theirs passing under Newman.
 */
import assert from "node:assert/strict";
import { startConduit } from "../apps/conduit/server.ts";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { ECHO_HOST, ECHOED, echoEnv, startEcho } from "../support/postman_echo.ts";

const BLOG = new URL("../fixtures/postman/blog.postman_collection.json", import.meta.url).pathname;
const ROOT = new URL("../..", import.meta.url).pathname;

/** The collection's variables: a writer made up for this run. */
function users(tag: string) {
  const name = `${tag}${crypto.randomUUID().slice(0, 8)}`;
  return { writer: name, writerEmail: `${name}@example.test`, writerPassword: "pw-12345678" };
}

Deno.test("convert postman: Newman and the converted suite send the blog server the same 31 requests, all passing", async () => {
  const byNewman = await startConduit();
  let newman: {
    requests: number;
    failedRequests: number;
    assertions: number;
    failedAssertions: number;
  };
  try {
    newman = await runNewman(BLOG, { apiRoot: `${byNewman.origin}/api`, ...users("newman") });
  } finally {
    await byNewman.close();
  }
  assert.deepEqual(
    newman,
    { requests: 31, failedRequests: 0, assertions: 278, failedAssertions: 0 },
    "Newman itself passes the collection against the server",
  );

  const byFlowrun = await startConduit();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-newman-" });
  try {
    const converted = await runCli(["convert", "postman", BLOG, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const { writer, writerEmail, writerPassword } = users("flowrun");
    const run = await runCli(
      [
        "run",
        `${dir}/flows`,
        "--jobs",
        "1",
        "--var",
        `writer=${writer}`,
        "--var",
        `writerEmail=${writerEmail}`,
      ],
      { env: { API_ROOT: `${byFlowrun.origin}/api`, WRITER_PASSWORD: writerPassword } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /31 steps: 31 passed/);
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
  assert.equal(byFlowrun.calls.length, 31, byFlowrun.calls.join("\n"));
  assert.deepEqual(shape(byFlowrun.calls), shape(byNewman.calls));
});

Deno.test("convert postman: the four echo collections written here, Newman and the converted flows send the same requests", async () => {
  const echo = startEcho();
  const origin = await echo.origin;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-newman-echo-" });
  try {
    for (const [name, requests] of ECHOED) {
      // Newman runs the collection as written, its echo host pointed at the echo server.
      const text = await Deno.readTextFile(
        `${ROOT}tests/fixtures/postman/${name}.postman_collection.json`,
      );
      await Deno.writeTextFile(
        `${dir}/${name}.json`,
        text.replaceAll(ECHO_HOST, origin),
      );
      const before = echo.calls.length;
      // The environment inherited-auth's checks read (the others read none of it).
      const newman = await runNewman(`${dir}/${name}.json`, {
        "env-label": "set in the environment",
        "overridden-label": "from the environment",
      });
      const byNewman = echo.calls.slice(before);
      assert.equal(newman.requests, requests, name);
      // Postman's own sandbox passes every check the collection holds: they say what Postman would.
      assert.ok(
        newman.assertions > 0 && newman.failedAssertions === 0,
        `${name}: ${JSON.stringify(newman)}`,
      );
      assert.equal(byNewman.length, requests, name);
      const converted = await runCli([
        "convert",
        "postman",
        `${dir}/${name}.json`,
        "-o",
        `${dir}/${name}`,
      ]);
      assert.equal(converted.code, 0, converted.stderr);
      const at = echo.calls.length;
      const run = await runCli(["run", `${dir}/${name}`, "--jobs", "1"], {
        env: echoEnv(origin),
      });
      assert.equal(run.code, 0, `${name}: ${converted.stderr}${run.stdout}`);
      assert.deepEqual(echo.calls.slice(at), byNewman, `${name}: the requests Newman sent`);
    }
  } finally {
    await echo.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
