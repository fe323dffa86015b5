/**
 * A variable the collection, its environment or its globals define as empty (`"value": ""`) and
 * no script sets, used where a credential goes (a cookie, an API key header, a body's password, a
 * query key, a bearer token), and an auth whose fields are left empty. Newman sends the empty
 * value (a Basic auth of `:`, `token=`, `?key=`) and leaves out a bearer header with no token;
 * flowrun asked for each under "Set before running" and, run as printed, sent nothing at all.
 * What the collection defines, even empty, is now the collection's value: each is still named
 * (an empty credential is how a shared collection leaves a key to fill), as "empty unless set",
 * and the run as printed sends it empty. What the server received is what Newman 6.2.1 sent, checked by
 * hand on the same collection.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const empty = (keys: string[]) => keys.map((key) => ({ key, value: "", type: "string" }));

Deno.test("postman empty value: what the collection defines as empty is sent empty, as Newman does", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const h = (name: string) => req.headers.get(name);
    const url = new URL(req.url);
    seen.push(
      JSON.stringify([
        url.pathname + url.search,
        h("authorization"),
        h("cookie"),
        h("x-api-key"),
        h("x-key"),
        await req.text(),
      ]),
    );
    return Response.json({});
  });
  const dir = await Deno.makeTempDir();
  try {
    const get = (name: string, path: string, auth: object) => ({
      name,
      request: { auth, method: "GET", url: `{{baseUrl}}${path}` },
    });
    const { files, summary } = convertPostman(
      JSON.stringify({
        info: { name: "Empty", schema: V21 },
        auth: { type: "basic", basic: empty(["username", "password"]) },
        variable: [{ key: "authToken", value: "" }, { key: "bearerTok", value: "" }],
        item: [
          {
            name: "Update",
            request: {
              method: "PUT",
              url: "{{baseUrl}}/booking/1?key={{qKey}}",
              header: [
                { key: "Cookie", value: "token={{authToken}}" },
                { key: "X-Api-Key", value: "{{apiKey}}" },
                { key: "Content-Type", value: "application/json" },
              ],
              body: { mode: "raw", raw: '{"user":"a","password":"{{pw}}"}' },
            },
          },
          get("Bearer literal", "/b1", { type: "bearer", bearer: empty(["token"]) }),
          get("Bearer var", "/b2", {
            type: "bearer",
            bearer: [{ key: "token", value: "{{bearerTok}}" }],
          }),
          get("Key", "/k", {
            type: "apikey",
            apikey: [{ key: "key", value: "X-Key" }, { key: "value", value: "" }],
          }),
        ],
      }),
      JSON.stringify({
        name: "Local",
        values: [
          { key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}`, enabled: true },
          { key: "apiKey", value: "", type: "secret", enabled: true },
        ],
      }),
      JSON.stringify({
        name: "Globals",
        values: [{ key: "pw", value: "", enabled: true }, {
          key: "qKey",
          value: "",
          enabled: true,
        }],
      }),
    );
    const text = formatPostmanSummary(summary, dir);
    const asked = text.match(/Set before running: (.*)/)?.[1] ?? "";
    // A credential left empty may be set (it is how a shared collection leaves a key to fill),
    // and is sent empty when it is not: named, never required.
    assert.match(asked, /AUTH_TOKEN .*BASIC_PASSWORD .*PW .*Q_KEY /, text);
    for (const need of asked.split(/, (?=[A-Z_0-9]+ \()/)) {
      assert.match(need, /^BASE_URL|empty unless set\)\.?$/, text);
    }
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    // What Newman 6.2.1 sent to the same collection, environment and globals.
    assert.deepEqual(seen.map((s) => JSON.parse(s)), [
      ["/booking/1?key=", "Basic Og==", "token=", "", null, '{"user":"a","password":""}'],
      ["/b1", null, null, null, null, ""],
      ["/b2", null, null, null, null, ""],
      ["/k", null, null, null, "", ""],
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
