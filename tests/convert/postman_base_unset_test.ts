/**
 * A collection whose requests start with `{{server}}` and whose files give it no value (a
 * project's README says "set a variable named server to localhost:3000"). Newman sends
 * `localhost:3000/api/…` with `http://`, as Postman does; the flow reads `${ENV.SERVER}` and its
 * runner sends only an absolute URL, so a user who gave the README's value had every step refused
 * ("is not an absolute http or https URL", 0 of 5 sent on the project measured by hand). The
 * summary asked for `SERVER ({{server}})` and said nothing of the form. It now says the value is
 * a URL with its scheme; given so, the flow sends what Newman sends, on a server the test starts.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const COLLECTION = {
  info: { name: "Unset base", schema: V21 },
  item: [
    { name: "List", request: { method: "GET", url: "{{server}}/api/v1/users" } },
    { name: "One", request: { method: "GET", url: "{{server}}/api/v1/users/A1" } },
  ],
};

Deno.test("postman: a URL's start the files give no value is asked for with its scheme", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    return Response.json([]);
  });
  const dir = await Deno.makeTempDir();
  const host = `127.0.0.1:${server.addr.port}`;
  try {
    const file = `${dir}/c.json`;
    await Deno.writeTextFile(file, JSON.stringify(COLLECTION));
    // Newman, with the host as Postman users write it.
    const counts = await runNewman(file, { server: host });
    assert.equal(counts.requests, 2);
    const newman = seen.splice(0);
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    const asked = /^Set before running: (.*)$/m.exec(converted.stderr)?.[1] ?? "";
    assert.match(asked, /^SERVER \([^)]*scheme[^)]*http:\/\/[^)]*\)\.$/, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
    const run = await runCli(line.split(" "), { env: { SERVER: `http://${host}` } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, newman);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
