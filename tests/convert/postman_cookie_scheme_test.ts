/**
 * A literal credential in a secret header is read from the environment, an Authorization
 * scheme kept in front of it (`Token ${ENV.AUTHORIZATION}`). A cookie named like a scheme and
 * written with spaces around its `=` (`Cookie: token = 38814a9b`, as a project's collection
 * wrote it) was read as the scheme `token` and the rest, so the flow sent
 * `token ${ENV.COOKIE}` and the summary asked for "the token Cookie header": set to the cookie's
 * value, as it says, the flow sent `token 38814a9b`, a cookie with no name. A scheme is one only in
 * front of a credential, never in front of `=`, and a Cookie header holds `name=value` pairs,
 * never a scheme: the whole value is the secret, and the flow sends what Newman sends.
 *
 * Newman 6.2.1 (by hand, against a server that printed the headers) sent
 * `cookie: token = 38814a9b` and `authorization: Token 5f2c9e`.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** Two requests, each with a credential written out in a secret header. */
function collection(base: string) {
  const request = (name: string, key: string, value: string) => ({
    name,
    request: { method: "GET", url: `${base}/${name}`, header: [{ key, value }] },
  });
  return {
    info: { name: "Written credentials", schema: V21 },
    item: [
      request("cookie", "Cookie", "token = 38814a9b"),
      request("auth", "Authorization", "Token 5f2c9e"),
    ],
  };
}

Deno.test("postman secret header: a cookie named like a scheme is the whole secret, sent as Newman", async () => {
  const seen = new Map<string, string | null>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.set(path, req.headers.get(path === "/cookie" ? "cookie" : "authorization"));
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const { files, summary } = convertPostman(JSON.stringify(collection(base)));
    const text = formatPostmanSummary(summary, dir);
    const all = text + files.map((f) => f.text).join("");
    assert.doesNotMatch(all, /38814a9b|5f2c9e/, all);
    assert.match(text, /COOKIE \(the Cookie header written in the collection, a secret\)/, text);
    assert.match(text, /AUTHORIZATION \(the Token Authorization header written/, text);
    // Each set to the header's value the summary names (the scheme apart where it keeps one).
    const env = { COOKIE: "token = 38814a9b", AUTHORIZATION: "5f2c9e" };
    const { run, flow } = await runConverted(files, dir, env);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(Object.fromEntries(seen), {
      "/cookie": "token = 38814a9b",
      "/auth": "Token 5f2c9e",
    });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
