/**
 * `convert openapi`: an operation that switches the server's authentication off (etcd's `POST
 * /v3/auth/disable`, "AuthDisable disables authentication.") is left out and named, as one that
 * stops the server is: once it ran, the server refuses the credential every other step sends
 * (etcd: "invalid auth token", 401), in its flow after it and in the flows beside it, so what the
 * suite measured depended on which flow got there first (tests/real/etcd_openapi_test.ts).
 * Switching authentication on, or off for one user, is no such switch.
 *
 * The stand-in takes its key until authentication is switched off, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const KEY = "the-users-own-token";

/** A POST of the tag `Auth` that takes `{}`, with a summary. */
const post = (summary: string) => ({
  post: {
    tags: ["Auth"],
    summary,
    requestBody: { content: { "application/json": { schema: { type: "object" } } } },
    responses: { "200": { description: "done" } },
  },
});

const document = {
  openapi: "3.0.3",
  info: { title: "Keys", version: "1" },
  security: [{ ApiKey: [] }],
  components: {
    securitySchemes: { ApiKey: { type: "apiKey", name: "Authorization", in: "header" } },
  },
  paths: {
    "/v3/auth/disable": post("AuthDisable disables authentication."),
    "/v3/auth/enable": post("AuthEnable enables authentication."),
    "/v3/auth/role/list": post("RoleList gets lists of all roles."),
    "/v3/auth/user/disable": post("Disables the authentication of one user."),
    "/v3/auth/user/list": post("UserList gets a list of all users."),
  },
};

Deno.test("convert openapi: an operation that switches authentication off is left out and named; the steps after it keep their credential", async () => {
  let on = true;
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    seen.push(path);
    // etcd's: a token once authentication is off is an invalid one.
    if (!on || req.headers.get("Authorization") !== KEY) {
      return Response.json({ error: "invalid auth token" }, { status: 401 });
    }
    if (path === "/v3/auth/disable") on = false;
    return Response.json({});
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-auth-off-" });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    const summary = converted.stderr;
    assert.equal(converted.code, 0, summary);
    assert.match(summary, /API_KEY/);
    assert.match(summary, /Left out 1 operation .*POST \/v3\/auth\/disable/);
    const line = /^Run: flowrun (.*)$/m.exec(summary)![1].split(" ");
    const run = await runCli(line, { env: { BASE_URL: server.base, API_KEY: KEY } });
    assert.equal(run.code, 0, run.stdout + summary);
    assert.ok(!seen.includes("/v3/auth/disable"));
    assert.ok(seen.includes("/v3/auth/user/disable"), seen.join());
    assert.match(await Deno.readTextFile(`${dir}/flows/auth.yaml`), /POST \/v3\/auth\/disable/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
