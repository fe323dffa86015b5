/**
 * `convert har` on apps served by PHP's built-in server (phpLDAPadmin, by
 * hand in docs/real-servers-har.md): every response carries a `Host` header
 * echoing where the browser reached it (`Host: 127.0.0.1:33263`). A
 * response header shaped like a token was taken for one the server handed
 * out, so the instance's own address became a secret: the summary and every
 * step's comment read `http://***`, and the `BASE_URL` line hid the default
 * the flow uses.
 *
 * What the converter does (correlate/header_producers.ts): a response header
 * naming the request's own host (with or without its port) is no secret,
 * but still evidence: a later request that sends that address whole inside
 * a value (Adminer's `Referer`, Tiny Tiny RSS's `return=` URL, stored under
 * tests/real/fixtures/) takes it from the answer as before, so the run
 * follows the instance it reaches. A token in another header is still a
 * secret (`X-CSRF-Next`).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:33263";

/** Two pages whose answers echo the host, one also handing out a token sent back later. */
function recording(): string {
  const entry = (i: number, path: string, headers: { name: string; value: string }[]) => ({
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 5,
    request: { method: "GET", url: `${ORIGIN}${path}`, headers, cookies: [] },
    response: {
      status: 200,
      headers: [
        { name: "Host", value: "127.0.0.1:33263" },
        { name: "X-Served-Host", value: "127.0.0.1" },
        { name: "X-CSRF-Next", value: "9f2c41d0a7be3385" },
        { name: "Content-Type", value: "application/json" },
      ],
      content: { mimeType: "application/json", text: '{"ok":true}' },
    },
  });
  return JSON.stringify({
    log: {
      entries: [
        entry(0, "/api/entries", []),
        entry(1, "/api/entries/7", [{ name: "X-CSRF-Token", value: "9f2c41d0a7be3385" }]),
        entry(2, "/login?return=http%3A%2F%2F127.0.0.1%3A33263%2Fapi%2Fentries", []),
      ],
    },
  });
}

Deno.test("convert har: a response header echoing the request's host is no secret, so the summary shows the base URL", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, recording());
    const got = await runCli(["convert", "har", `${dir}/a.har`]);
    assert.equal(got.code, 0, got.stderr);
    assert.doesNotMatch(got.stdout, /http:\/\/\*\*\*/, got.stdout);
    assert.match(got.stdout, /BASE_URL +the API's base URL \(http:\/\/127\.0\.0\.1:33263\)/);
    assert.match(got.stdout, /# GET http:\/\/127\.0\.0\.1:33263\/api\/entries → 200/);
    // The token in another header is still handed out: captured, never written.
    assert.doesNotMatch(got.stdout, /9f2c41d0a7be3385/, got.stdout);
    assert.match(got.stdout, /\{ header: x-csrf-next \}/, got.stdout);
    // The address inside a value is still taken from an answer that echoed it.
    assert.match(got.stdout, /return=http:\/\/\$\{steps\.\w+\.capture\.host\}\/api\/entries/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
