/**
 * An OAuth2 grant flowrun fetches itself (client credentials, password) whose client secret or
 * password the collection defines as empty: a public client has no secret, and the Postman app
 * sends it empty (`client_id:` in the Basic header). flowrun asked for it as required, so the run
 * as printed refused to start. Now it is named "empty unless set" and sent empty; one the user
 * sets is sent instead, and one the collection leaves out altogether is still required.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const pairs = (o: Record<string, string>) =>
  Object.entries(o).map(([key, value]) => ({ key, value }));

Deno.test("postman oauth2 empty secret: a secret defined empty is sent empty, not required", async () => {
  const tokenRequests: [string | null, string][] = [];
  const api: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (new URL(req.url).pathname === "/token") {
      tokenRequests.push([req.headers.get("authorization"), await req.text()]);
      return Response.json({ access_token: "tok", token_type: "Bearer", expires_in: 3600 });
    }
    api.push(req.headers.get("authorization"));
    return Response.json({});
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const oauth2 = (over: Record<string, string>) => ({
      type: "oauth2",
      oauth2: pairs({ accessTokenUrl: `${base}/token`, clientId: "app", ...over }),
    });
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Open client", schema: V21 },
      item: [
        {
          name: "Client",
          request: {
            method: "GET",
            url: `${base}/a`,
            auth: oauth2({ grant_type: "client_credentials", clientSecret: "" }),
          },
        },
        {
          name: "User",
          request: {
            method: "GET",
            url: `${base}/b`,
            auth: oauth2({
              grant_type: "password",
              username: "ann",
              password: "",
              clientSecret: "",
              client_authentication: "body",
            }),
          },
        },
      ],
    }));
    const text = formatPostmanSummary(summary, dir);
    const asked = text.match(/Set before running: (.*)/)?.[1] ?? "";
    assert.match(asked, /OAUTH2_CLIENT_SECRET \([^)]*, empty unless set\)/, text);
    assert.match(asked, /OAUTH2_PASSWORD \([^)]*, empty unless set\)/, text);
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(tokenRequests, [
      [`Basic ${btoa("app:")}`, "grant_type=client_credentials"],
      [null, "grant_type=password&username=ann&password=&client_id=app&client_secret="],
    ]);
    assert.deepEqual(api, ["Bearer tok", "Bearer tok"]);
    // A secret the user sets is the one sent.
    tokenRequests.length = 0;
    const again = await runConverted(files, dir, { OAUTH2_CLIENT_SECRET: "shh" });
    assert.equal(again.run.code, 0, again.run.stdout + again.run.stderr);
    assert.equal(tokenRequests[0][0], `Basic ${btoa("app:shh")}`);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman oauth2 empty secret: a secret the collection leaves out is still required", () => {
  const { summary } = convertPostman(JSON.stringify({
    info: { name: "Closed", schema: V21 },
    item: [{
      name: "Client",
      request: {
        method: "GET",
        url: "http://127.0.0.1:1/a",
        auth: {
          type: "oauth2",
          oauth2: pairs({
            grant_type: "password",
            accessTokenUrl: "http://127.0.0.1:1/token",
            clientId: "app",
            username: "ann",
          }),
        },
      },
    }],
  }));
  const text = formatPostmanSummary(summary, "out");
  assert.match(text, /OAUTH2_PASSWORD \(the OAuth2 password of the request auth\)/, text);
});
