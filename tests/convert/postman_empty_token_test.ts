/**
 * A bearer token that is empty when the request is sent: a literal the collection leaves empty,
 * a variable it defines as empty, one a later request's test script sets (read before it is
 * set), and an OAuth2 token saved empty. Newman 6.2.1 sends no `Authorization` header for each
 * (checked by hand against the same collection); flowrun sent `Bearer ` for the one set later,
 * and for the literal gave the user no variable through which to send a token at all. Now each
 * header is left out while its token renders empty (`omit_empty_headers`), and the literal is
 * named "empty unless set": run as printed, the server receives what Newman sent; with the token
 * set, the header carries it.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const bearer = (token: string) => ({ type: "bearer", bearer: [{ key: "token", value: token }] });
const get = (name: string, path: string, auth?: object, header?: object[]) => ({
  name,
  request: { method: "GET", url: `{{baseUrl}}${path}`, ...(auth ? { auth } : {}), header },
});

Deno.test("postman empty token: a bearer header whose token is empty is not sent, as Newman", async () => {
  const seen: [string, string | null, string | null][] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push([
      new URL(req.url).pathname,
      req.headers.get("authorization"),
      req.headers.get("x-k"),
    ]);
    return Response.json({ token: "abc" });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(
      JSON.stringify({
        info: { name: "Tokens", schema: V21 },
        variable: [{ key: "token", value: "" }, { key: "shared", value: "" }],
        item: [
          get("Before login", "/before", bearer("{{token}}")),
          {
            name: "Login",
            event: [{
              listen: "test",
              script: { exec: ["pm.collectionVariables.set('token', pm.response.json().token);"] },
            }],
            request: { method: "POST", url: "{{baseUrl}}/login" },
          },
          get("After login", "/after", bearer("{{token}}")),
          get("Literal", "/literal", bearer("")),
          get("Shared", "/shared", bearer("{{shared}}")),
          get("Saved", "/saved", {
            type: "oauth2",
            oauth2: [{ key: "grant_type", value: "authorization_code" }, {
              key: "accessToken",
              value: "",
            }],
          }),
          // An empty header Newman sends empty on the same step: the step keeps it, so the
          // bearer header, which the step can no longer leave out alone, goes (Newman's at run).
          get("Both", "/both", bearer(""), [{ key: "X-K", value: "" }]),
        ],
      }),
      JSON.stringify({
        name: "Local",
        values: [{ key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}`, enabled: true }],
      }),
    );
    const text = formatPostmanSummary(summary, dir);
    const asked = text.match(/Set before running: (.*)/)?.[1] ?? "";
    assert.match(
      asked,
      /API_TOKEN \(the bearer token of the request auth, empty unless set\)/,
      text,
    );
    for (const need of asked.split(/, (?=[A-Z_0-9]+ \()/)) {
      assert.match(need, /^BASE_URL|empty unless set\)\.?$/, text);
    }
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    // What Newman 6.2.1 sent to the same collection.
    assert.deepEqual(seen.splice(0), [
      ["/before", null, null],
      ["/login", null, null],
      ["/after", "Bearer abc", null],
      ["/literal", null, null],
      ["/shared", null, null],
      ["/saved", null, null],
      ["/both", null, ""],
    ]);
    // Each token the user sets is sent, the one the login gave whatever the environment says.
    const envNames = [...asked.matchAll(/([A-Z_0-9]+) \(/g)].map((m) => m[1]);
    const set = Object.fromEntries(envNames.filter((n) => n !== "BASE_URL").map((n) => [n, "t1"]));
    const again = await runConverted(files, dir, set);
    assert.equal(again.run.code, 0, again.run.stdout + again.run.stderr);
    assert.deepEqual(seen.map(([path, auth]) => [path, auth]), [
      ["/before", null],
      ["/login", null],
      ["/after", "Bearer abc"],
      ["/literal", "Bearer t1"],
      ["/shared", "Bearer t1"],
      ["/saved", "Bearer t1"],
      ["/both", null],
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
