/**
 * A request kept in a variable and sent again: a Restful Booker collection's login keeps the
 * request itself (`pm.collectionVariables.set("req", pm.request)`), and the collection's
 * pre-request script sends what the variable holds before every request
 * (`pm.sendRequest(pm.collectionVariables.get("req"), …)`), keeping the fresh token. The
 * converter took `{{req}}` for the side request's URL, asked for `REQ` as a base URL, and the
 * run as printed was refused before sending. Now the kept request is the login's own (its
 * method, URL, headers, body), sent again where Newman sends it; before the login kept it, the
 * variable holds no request and Newman sends nothing, nor does the flow. Each scope a script
 * keeps it in. A server issues a new token at each login and serves the booking only with the
 * last one; the requests it gets from Newman and from the flow must be the same.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** The collection, keeping and reading the request in `scope` (`collectionVariables`, …). */
function collection(scope: string) {
  const status = (code: number) => ({
    listen: "test",
    script: { exec: [`pm.test('${code}', () => pm.response.to.have.status(${code}));`] },
  });
  const booking = (name: string) => ({
    name,
    event: [status(200)],
    request: {
      method: "GET",
      url: "{{baseUrl}}/booking",
      header: [{ key: "Authorization", value: "Bearer {{NewToken}}" }],
    },
  });
  return {
    info: { name: "Kept request", schema: V21 },
    event: [{
      listen: "prerequest",
      script: {
        exec: [
          `pm.sendRequest(pm.${scope}.get("req"), function (err, res) {`,
          "  jsonData = res.json();",
          `  pm.${scope}.set("NewToken", jsonData.token);`,
          "});",
        ],
      },
    }],
    item: [
      { name: "Health check", request: { method: "GET", url: "{{baseUrl}}/ping" } },
      {
        name: "Create Auth token",
        event: [{ listen: "test", script: { exec: [`pm.${scope}.set("req", pm.request)`] } }],
        request: {
          method: "POST",
          url: "{{baseUrl}}/auth",
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"username": "admin", "password": "password123"}' },
        },
      },
      booking("Get booking"),
      booking("Get booking again"),
    ],
    // Declared in the collection only for its own scope: a global is read under them.
    variable: scope === "collectionVariables"
      ? [{ key: "req", value: "" }, { key: "NewToken", value: "" }]
      : [],
  };
}

Deno.test("postman: a request kept from pm.request in a variable is sent again where Newman sends it", async () => {
  const seen: string[] = [];
  let issued = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.text();
    seen.push(`${req.method} ${path} ${body.replace(/\s+/g, "")}`);
    if (path === "/auth") {
      const ok = body.includes('"password": "password123"') ||
        body.includes('"password":"password123"');
      return ok ? Response.json({ token: `t-${++issued}` }) : Response.json({}, { status: 400 });
    }
    if (path === "/ping") return new Response("Created", { status: 201 });
    const ok = req.headers.get("authorization") === `Bearer t-${issued}`;
    return Response.json({ ok }, { status: ok ? 200 : 403 });
  });
  const dir = await Deno.makeTempDir();
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const scope of ["collectionVariables", "environment", "globals"]) {
      const file = `${dir}/${scope}.json`;
      await Deno.writeTextFile(file, JSON.stringify(collection(scope)));
      const counts = await runNewman(file, { baseUrl: origin });
      assert.equal(counts.failedAssertions, 0, scope);
      const byNewman = seen.splice(0);
      // The login, then the login again before each booking: none before it was kept.
      assert.deepEqual(byNewman.map((s) => s.split(" ").slice(0, 2).join(" ")), [
        "GET /ping",
        "POST /auth",
        "POST /auth",
        "GET /booking",
        "POST /auth",
        "GET /booking",
      ], scope);

      const converted = await runCli(["convert", "postman", file, "-o", `${dir}/${scope}`]);
      assert.equal(converted.code, 0, converted.stderr);
      assert.doesNotMatch(converted.stderr, /REQ|cannot express/, converted.stderr);
      const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
      const run = await runCli(line.split(" "), { env: { BASE_URL: origin } });
      assert.equal(run.code, 0, scope + run.stdout + run.stderr);
      assert.deepEqual(seen.splice(0), byNewman, scope);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
