/**
 * `flowrun convert openapi` writes `securitySchemes` as the flow format's
 * `auth:` blocks, and the converted flows authorise themselves against a
 * real server: a document whose oauth2 scheme has a clientCredentials flow
 * at the demo API's token endpoint (examples/demo_oauth2.ts), beside http
 * basic, an apiKey in the query and an operation with `security: []`, runs
 * green against the demo API with only the environment variables the
 * summary names: one token request for the run (two flows use the block),
 * the scopes the requirement lists reach the IdP, the token masked in the
 * JSON report. A password flow with a relative tokenUrl (resolved against
 * the document's server, so under `${ENV.BASE_URL}`) runs there too, the
 * resource owner's user reaching the IdP. And the shape of the OpenAPI Initiative's
 * non-oauth-scopes example (tests/fixtures/openapi/written/bearer-roles.yaml, written here;
 * no npm package holds that example): an http bearer requirement listing
 * roles becomes a flow-level `bearer` block (the roles said, not sent), and
 * its step sends the token to a server that checks it.
 */
import assert from "node:assert/strict";
import { startDemoApi } from "../../examples/demo_api.ts";
import {
  DEMO_API_KEY,
  OAUTH2_CLIENT_ID,
  OAUTH2_CLIENT_SECRET,
  OAUTH2_PASSWORD,
  OAUTH2_USER,
} from "../../examples/demo_oauth2.ts";
import { root, runCli } from "../support/cli.ts";

/** The document, its token endpoint the running demo API's. */
const demoDocument = (tokenUrl: string) =>
  `openapi: 3.1.0
info: {title: Demo, version: '1'}
servers: [{url: 'https://demo.example'}]
tags: [{name: me}, {name: probes}]
security: [{machine: [read, write]}]
paths:
  /oauth2/me:
    get:
      tags: [me]
      operationId: whoAmI
      responses:
        '200':
          description: the token's client and scope, as the IdP granted them
          content:
            application/json:
              schema:
                type: object
                required: [client_id, scope]
                properties:
                  client_id: {const: ${OAUTH2_CLIENT_ID}}
                  scope: {const: read write}
    head:
      tags: [probes]
      operationId: probeToken
      responses: {'200': {description: a live token}}
  /basic/me:
    get:
      tags: [probes]
      operationId: basicMe
      security: [{basic: []}]
      responses: {'200': {description: the user}}
  /api-key/me:
    get:
      tags: [probes]
      operationId: keyMe
      security: [{key: []}]
      responses: {'200': {description: the key's owner}}
  /health:
    get:
      tags: [probes]
      operationId: health
      security: []
      responses: {'200': {description: up}}
components:
  securitySchemes:
    machine:
      type: oauth2
      flows:
        authorizationCode: {authorizationUrl: /authorize, tokenUrl: /never, scopes: {read: r, write: w}}
        clientCredentials: {tokenUrl: '${tokenUrl}', scopes: {read: r, write: w}}
    basic: {type: http, scheme: basic}
    key: {type: apiKey, in: query, name: api_key}
`;

interface ReportStep {
  name: string;
  status: string;
  request?: { method: string; url: string; headers?: Record<string, string> };
  response?: { status: number };
  assertions: { operator: string; passed: boolean; message: string }[];
}

Deno.test("an oauth2 clientCredentials scheme becomes an auth: block whose flows pass against the demo API's IdP", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/api.yaml`, demoDocument(`${api.url}/oauth2/token`));
    const converted = await runCli(["convert", "openapi", "api.yaml", "-o", "flows"], {
      cwd: dir,
    });
    assert.equal(converted.code, 0, converted.stderr);
    const env = converted.stderr.split("Set these environment variables:\n")[1]
      .split(/\n(?! )/)[0];
    assert.equal(
      env,
      [
        "  BASE_URL: the API's origin (the document's first server is https://demo.example; the flows add no path)",
        '  CLIENT_ID: the OAuth2 client id of "machine" (client_credentials grant)',
        '  CLIENT_SECRET: the OAuth2 client secret of "machine" (client_credentials grant)',
        '  API_USERNAME: the user name of "basic" (http basic)',
        '  API_PASSWORD: the password of "basic" (http basic)',
        '  API_KEY: the API key of "key" (query api_key)',
      ].join("\n"),
    );
    const me = await Deno.readTextFile(`${dir}/flows/me.yaml`);
    assert.match(
      me,
      new RegExp(
        `^auth:\\n {2}oauth2:\\n {4}grant_type: client_credentials\\n {4}token_url: "?${api.url}/oauth2/token"?\\n` +
          " {4}client_id: \\$\\{ENV\\.CLIENT_ID\\}\\n {4}client_secret: \\$\\{ENV\\.CLIENT_SECRET\\}\\n" +
          " {4}scope: read write\\nsteps:\\n",
        "m",
      ),
    );
    const probes = await Deno.readTextFile(`${dir}/flows/probes.yaml`);
    assert.doesNotMatch(probes, /^auth:/m, "three different blocks: each step has its own");
    assert.match(probes, /- name: health\n {4}request:/, "security: [] and no flow block: nothing");
    assert.match(probes, /- name: key_me\n {4}auth:\n {6}api_key:\n {8}name: api_key\n/);

    const values = {
      BASE_URL: api.url,
      CLIENT_ID: OAUTH2_CLIENT_ID,
      CLIENT_SECRET: OAUTH2_CLIENT_SECRET,
      API_USERNAME: OAUTH2_USER,
      API_PASSWORD: OAUTH2_PASSWORD,
      API_KEY: DEMO_API_KEY,
    };
    const valid = await runCli(["validate", "flows"], { cwd: dir, env: values });
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    const run = await runCli(
      ["run", "flows", "-v", "--jobs", "2", "--report-json", "report.json"],
      { cwd: dir, env: values },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const text = await Deno.readTextFile(`${dir}/report.json`);
    const report = JSON.parse(text);
    const steps: ReportStep[] = report.flows.flatMap((f: { steps: ReportStep[] }) => f.steps);
    assert.deepEqual(
      steps.filter((s) => s.name.startsWith("auth › ")).map((s) => `${s.name} ${s.status}`),
      ["auth › oauth2 token passed"],
      "one token for the run, though two flows use the block",
    );
    const byName = new Map(steps.map((s) => [s.name, s]));
    for (const name of ["who_am_i", "probe_token", "basic_me", "key_me", "health"]) {
      assert.equal(byName.get(name)?.status, "passed", name);
      assert.equal(byName.get(name)?.response?.status, 200, name);
    }
    // The IdP's answer names the scope the requirement listed: the openapi: check's const.
    const check = byName.get("who_am_i")!.assertions.find((a) => a.operator === "openapi");
    assert.equal(check?.passed, true);
    const sent = byName.get("who_am_i")!.request!.headers!;
    const authorization = Object.entries(sent).find(([k]) => k.toLowerCase() === "authorization");
    assert.ok(authorization && !/at-[0-9a-f]/.test(authorization[1]), JSON.stringify(sent));
    assert.doesNotMatch(text, /at-[0-9a-f]{8}-/, "no access token anywhere in the report");
    assert.ok(!text.includes(OAUTH2_CLIENT_SECRET) && !text.includes(OAUTH2_PASSWORD));
    assert.ok(!text.includes(DEMO_API_KEY));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A password flow whose relative tokenUrl is resolved against the server, so under BASE_URL. */
const PASSWORD_DOCUMENT = `openapi: 3.1.0
info: {title: Owner, version: '1'}
servers: [{url: 'https://demo.example/'}]
security: [{owner: [profile]}]
paths:
  /oauth2/me:
    get:
      operationId: whoAmI
      responses:
        '200':
          description: the token's user and scope
          content:
            application/json:
              schema:
                type: object
                required: [username, scope]
                properties: {username: {const: ${OAUTH2_USER}}, scope: {const: profile}}
components:
  securitySchemes:
    owner:
      type: oauth2
      flows:
        implicit: {authorizationUrl: /authorize, scopes: {profile: p}}
        password: {tokenUrl: oauth2/token, scopes: {profile: p}}
`;

Deno.test("an oauth2 password flow with a relative tokenUrl runs against the demo API's IdP under BASE_URL", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/api.yaml`, PASSWORD_DOCUMENT);
    const converted = await runCli(["convert", "openapi", "api.yaml", "-o", "flows"], {
      cwd: dir,
    });
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/flows/owner.yaml`);
    assert.match(
      flow,
      /^auth:\n {2}oauth2:\n {4}grant_type: password\n {4}token_url: \$\{ENV\.BASE_URL\}\/oauth2\/token\n {4}client_id: \$\{ENV\.CLIENT_ID\}\n {4}client_secret: \$\{ENV\.CLIENT_SECRET\}\n {4}username: \$\{ENV\.OAUTH2_USERNAME\}\n {4}password: \$\{ENV\.OAUTH2_PASSWORD\}\n {4}scope: profile\n/m,
    );
    for (const name of ["CLIENT_ID", "CLIENT_SECRET", "OAUTH2_USERNAME", "OAUTH2_PASSWORD"]) {
      assert.match(
        converted.stderr,
        new RegExp(`\\n {2}${name}: .*"owner" \\(password grant\\)\\n`),
      );
    }
    const run = await runCli(["run", "flows", "--report-json", "report.json"], {
      cwd: dir,
      env: {
        BASE_URL: api.url,
        CLIENT_ID: OAUTH2_CLIENT_ID,
        CLIENT_SECRET: OAUTH2_CLIENT_SECRET,
        OAUTH2_USERNAME: OAUTH2_USER,
        OAUTH2_PASSWORD,
      },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow);
    const text = await Deno.readTextFile(`${dir}/report.json`);
    const steps: ReportStep[] = JSON.parse(text).flows[0].steps;
    assert.deepEqual(steps.map((s) => `${s.name} ${s.status}`), [
      "auth › oauth2 token passed",
      "who_am_i passed",
    ]);
    assert.ok(steps[1].assertions.some((a) => a.operator === "openapi" && a.passed));
    assert.doesNotMatch(text, /at-[0-9a-f]{8}-/);
    assert.ok(!text.includes(OAUTH2_PASSWORD) && !text.includes(OAUTH2_CLIENT_SECRET));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bearer requirement listing roles (as OAI's non-oauth-scopes example) is a flow-level bearer block", async () => {
  const dir = await Deno.makeTempDir();
  const seen: (string | null)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(req.headers.get("authorization"));
    const ok = req.headers.get("authorization") === "Bearer jwt-for-leads";
    return Response.json(ok ? [] : { error: "unauthorized" }, { status: ok ? 200 : 401 });
  });
  try {
    const doc = `${root}tests/fixtures/openapi/written/bearer-roles.yaml`;
    const converted = await runCli(["convert", "openapi", doc, "-o", dir]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /\n {2}API_TOKEN: the bearer token of "staffToken"\n/);
    const flow = await Deno.readTextFile(`${dir}/shift_roster.yaml`);
    assert.match(
      flow,
      /^# the requirement names shifts:read, team-lead for "staffToken": roles its credentials must carry, not sent\nauth:\n {2}bearer:\n {4}token: \$\{ENV\.API_TOKEN\}\nsteps:\n/m,
    );
    const base = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
    const env = { BASE_URL: base, API_TOKEN: "jwt-for-leads" };
    const run = await runCli(["run", dir, "--report-json", `${dir}/r.json`], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, ["Bearer jwt-for-leads"]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.equal(report.flows[0].steps[0].response.status, 200);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
