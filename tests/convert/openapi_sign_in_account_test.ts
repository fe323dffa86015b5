/**
 * `convert openapi` on a document whose sign-in (a password in, a token out) asks for the
 * document's credential itself, so it is not the suite's login (the flows send the `API_KEY` the
 * summary asks for): etcd's `POST /v3/auth/authenticate {name, password}` under its global
 * `ApiKey`, generated from proto3, which requires nothing. It was sent `{}` (400,
 * tests/real/etcd_openapi_test.ts). It now signs in as the account the user gives, as a login no
 * sign-up precedes does (`login_account.ts`): its identity and password are the environment
 * variables the summary asks for (`LOGIN_USERNAME`, `LOGIN_PASSWORD`), never literal; a create
 * taking a name and a password that answers no token (a user's add) still makes its own.
 *
 * The stand-in runs on 127.0.0.1 and accepts only the account the test gives the run.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };

/** A POST of the tag `Auth` taking `properties`, none required, answering `answer`. */
const post = (properties: object, answer: object) => ({
  post: {
    tags: ["Auth"],
    requestBody: json({ type: "object", properties }),
    responses: {
      "200": {
        description: "A successful response.",
        ...json({ type: "object", properties: answer }),
      },
    },
  },
});

const document = {
  openapi: "3.0.3",
  info: { title: "Store", version: "1" },
  security: [{ ApiKey: [] }],
  components: {
    securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "Authorization" } },
  },
  paths: {
    "/v3/auth/authenticate": post({ name: text, password: text }, {
      token: { type: "string", title: "token is an authorized token" },
    }),
    "/v3/auth/user/add": post({ name: text, password: text }, { header: { type: "object" } }),
  },
};

const ACCOUNT = { name: "root", password: "s3cret-Root-pass" };
const KEY = "key-123";

/** Accepts the key; signs in only {@linkcode ACCOUNT}; adds any user with a name. */
function standIn(added: string[]) {
  return serveStandIn(async (req) => {
    if (req.headers.get("authorization") !== KEY) {
      return Response.json({ error: "invalid auth token" }, { status: 401 });
    }
    const body = await req.json();
    const { pathname } = new URL(req.url);
    if (pathname === "/v3/auth/authenticate") {
      if (body.name !== ACCOUNT.name || body.password !== ACCOUNT.password) {
        return Response.json({ error: "authentication failed" }, { status: 400 });
      }
      return Response.json({ token: "tok" });
    }
    if (typeof body.name !== "string" || body.name === "") {
      return Response.json({ error: "user name is empty" }, { status: 400 });
    }
    added.push(body.name);
    return Response.json({ header: {} });
  });
}

Deno.test("convert openapi: a sign-in that needs the document's key signs in as the account the summary asks for", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-sign-in-" });
  const added: string[] = [];
  const stand = standIn(added);
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /^ {2}LOGIN_USERNAME: .*POST \/v3\/auth\/authenticate/m);
    assert.match(converted.stderr, /^ {2}LOGIN_PASSWORD: .*POST \/v3\/auth\/authenticate/m);
    const flow = Deno.readTextFileSync(`${dir}/flows/auth.yaml`);
    assert.match(flow, /name: \$\{ENV\.LOGIN_USERNAME\}\n\s+password: \$\{ENV\.LOGIN_PASSWORD\}/);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const env = {
      BASE_URL: stand.base,
      API_KEY: KEY,
      LOGIN_USERNAME: ACCOUNT.name,
      LOGIN_PASSWORD: ACCOUNT.password,
    };
    const run = await runCli([...line.split(" "), "--report-json", `${dir}/report.json`], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // The user's add still makes its own user, not the account signed in with.
    assert.equal(added.length, 1);
    assert.notEqual(added[0], ACCOUNT.name);
    assert.ok(!Deno.readTextFileSync(`${dir}/report.json`).includes(ACCOUNT.password));
  } finally {
    await stand.close();
    await Deno.remove(dir, { recursive: true });
  }
});
