/**
 * `convertPostman` on collections written for each rule: variables, auth at
 * every level, bodies in every mode, flows per folder and their merging,
 * the bounds (folder depth, linear time on a big collection).
 */
import assert from "node:assert/strict";
import { assertLinear } from "../support/timing.ts";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { UsageError } from "../../lib/model/errors.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const collection = (item: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ info: { name: "T", schema: V21 }, item, ...extra });
// deno-lint-ignore no-explicit-any
const flow = (text: string): any => parse(text);

Deno.test("postman convert: variables become vars, ENV for secrets and base URLs, captures where a step set them", () => {
  const { files, summary } = convertPostman(
    collection([
      {
        name: "Login",
        request: {
          method: "POST",
          url: "{{baseUrl}}/login",
          body: { mode: "raw", raw: '{"u": "{{user}}", "p": "{{password}}", "n": {{count}}}' },
        },
        event: [{
          listen: "test",
          script: { exec: ["pm.environment.set('tok', pm.response.json().token);"] },
        }],
      },
      {
        name: "Me",
        request: {
          method: "GET",
          url: "{{baseUrl}}/me",
          header: [{ key: "Authorization", value: "Bearer {{tok}}" }],
        },
      },
    ], { variable: [{ key: "user", value: "ann" }, { key: "count", value: "2" }] }),
  );
  const f = flow(files[0].text);
  assert.deepEqual(f.vars, { user: "ann", count: "2" });
  assert.equal(f.steps[0].request.url, "${ENV.BASE_URL}/login");
  // `{{count}}` outside a string: Postman puts the text "2" there, a number to the server, so the
  // body is sent as its text (postman_bare_placeholder_test.ts).
  assert.equal(
    f.steps[0].request.body,
    '{"u": "${vars.user}", "p": "${ENV.PASSWORD}", "n": ${vars.count}}',
  );
  assert.deepEqual(f.steps[0].capture, { tok: "$.json.token" });
  assert.equal(f.steps[1].request.headers.Authorization, "Bearer ${steps.login.capture.tok}");
  assert.deepEqual(summary.env.map((e) => e.name), ["BASE_URL", "PASSWORD"]);
  // Both are to be set in the environment, not with --var.
  assert.deepEqual(summary.unset, []);
});

Deno.test("postman convert: auth at collection, folder and request level, inherit and noauth", () => {
  const { files } = convertPostman(
    collection([
      {
        name: "F",
        auth: {
          type: "apikey",
          apikey: [{ key: "key", value: "X-Key" }, { key: "value", value: "k-123" }, {
            key: "in",
            value: "header",
          }],
        },
        item: [
          { name: "a", request: { url: "https://api.test/a", auth: { type: "inherit" } } },
          { name: "b", request: { url: "https://api.test/b", auth: { type: "noauth" } } },
          {
            name: "c",
            request: {
              url: "https://api.test/c",
              auth: { type: "basic", basic: { username: "u", password: "p" } },
            },
          },
        ],
      },
      { name: "d", request: { url: "https://api.test/d" } },
    ], { auth: { type: "bearer", bearer: [{ key: "token", value: "{{token}}" }] } }),
  );
  const [folder, loose] = files.map((f) => flow(f.text));
  assert.equal(folder.steps[0].request.headers["X-Key"], "${ENV.API_KEY}");
  assert.equal(folder.steps[1].request.headers, undefined);
  // Basic is the flow format's own auth: the user as written, the password from the environment.
  assert.deepEqual(folder.steps[2].auth, {
    basic: { username: "u", password: "${ENV.BASIC_PASSWORD}" },
  });
  assert.equal(folder.steps[2].request.headers, undefined);
  assert.equal(loose.steps[0].request.headers.Authorization, "Bearer ${ENV.TOKEN}");
  assert.ok(!files.some((f) => f.text.includes("k-123")));
});

Deno.test("postman convert: bodies in every mode use the flow format's spelling", () => {
  const { files, summary } = convertPostman(collection([
    {
      name: "raw",
      request: {
        method: "POST",
        url: "https://a.test/r",
        body: { mode: "raw", raw: "hello {{x}}", options: { raw: { language: "text" } } },
      },
    },
    {
      name: "url",
      request: {
        method: "POST",
        url: "https://a.test/u",
        body: {
          mode: "urlencoded",
          urlencoded: [{ key: "a", value: "1" }, { key: "a", value: "2" }, {
            key: "b",
            value: "3",
            disabled: true,
          }],
        },
      },
    },
    {
      name: "form",
      request: {
        method: "POST",
        url: "https://a.test/f",
        header: [{ key: "Content-Type", value: "multipart/form-data" }],
        body: {
          mode: "formdata",
          formdata: [{ key: "t", value: "x" }, { key: "f", type: "file", src: "/home/me/pic.png" }],
        },
      },
    },
    {
      name: "bin",
      request: {
        method: "PUT",
        url: "https://a.test/b",
        body: { mode: "file", file: { src: "data.bin" } },
      },
    },
    {
      name: "gql",
      request: {
        method: "POST",
        url: "https://a.test/g",
        body: { mode: "graphql", graphql: { query: "query { me { id } }", variables: '{"a": 1}' } },
      },
    },
  ]));
  const steps = flow(files[0].text).steps;
  assert.equal(steps[0].request.body, "hello ${vars.x}");
  assert.equal(steps[0].request.headers["Content-Type"], "text/plain");
  assert.deepEqual(steps[1].request.form, { a: ["1", "2"] });
  assert.deepEqual(steps[2].request.multipart, { t: "x", f: { file: "files/pic.png" } });
  assert.equal(steps[2].request.headers, undefined);
  assert.equal(steps[3].request.body_file, "files/data.bin");
  assert.deepEqual(steps[4].request.graphql, { query: "query { me { id } }", variables: { a: 1 } });
  assert.deepEqual(summary.placeholders, ["files/data.bin", "files/pic.png"]);
  assert.ok(files.some((f) => f.path === "files/pic.png" && f.placeholder));
});

Deno.test("postman convert: folders are flows, nested ones flattened, and merged when one reads another's capture", () => {
  const set = (
    name: string,
  ) => [{
    listen: "test",
    script: { exec: [`pm.environment.set('${name}', pm.response.json().v);`] },
  }];
  const { files, summary } = convertPostman(collection([
    {
      name: "A",
      item: [{
        name: "A1",
        item: [{ name: "deep", request: "https://a.test/1", event: set("x") }],
      }],
    },
    { name: "B", item: [{ name: "b", request: "https://a.test/{{x}}" }] },
    { name: "C", item: [{ name: "c", request: "https://a.test/c" }] },
  ]));
  assert.deepEqual(summary.flows.map((f) => [f.file, f.steps]), [["1_t_a_b.yaml", 2], [
    "2_c.yaml",
    1,
  ]]);
  assert.match(files[0].text, /# A › A1 › deep/);
  assert.match(files[0].text, /\/\$\{steps\.deep\.capture\.x\}/);
});

Deno.test("postman convert: folders nested past the bound are one clear error", () => {
  let item: unknown = { name: "r", request: "https://a.test" };
  for (let i = 0; i < 40; i++) item = { name: `f${i}`, item: [item] };
  assert.throws(
    () => convertPostman(collection([item])),
    (e: unknown) => e instanceof UsageError && /nested more than 32/.test(e.message),
  );
});

Deno.test("postman convert: time grows linearly with the collection, and the output is the same each time", () => {
  const make = (n: number) =>
    collection(Array.from({ length: n / 10 }, (_, f) => ({
      name: `Folder ${f}`,
      item: Array.from({ length: 10 }, (_, r) => ({
        name: `Request ${r}`,
        request: {
          method: "POST",
          url: "{{base}}/items/{{id}}",
          body: { mode: "raw", raw: '{"n": "{{name}}"}' },
        },
        event: [{
          listen: "test",
          script: {
            exec: [
              "pm.test('ok', () => pm.response.to.have.status(200));",
              "pm.environment.set('id', pm.response.json().id);",
            ],
          },
        }],
      })),
    })));
  const texts = new Map([200, 2000].map((n) => [n, make(n)]));
  // Ten times the requests: well under a hundred times the time (quadratic would be ~100x).
  assertLinear("postman convert", (n) => convertPostman(texts.get(n)!), 200, 10);
  const big = texts.get(2000)!;
  assert.deepEqual(convertPostman(big).files, convertPostman(big).files);
});

Deno.test("postman convert: a literal ${ in a URL, header or body is sent as written, not read as an expression", () => {
  const { files } = convertPostman(collection([{
    name: "lit",
    request: {
      method: "POST",
      url: "https://a.test/x?q=${HOME}",
      header: [{ key: "X-T", value: "${USER}" }],
      body: { mode: "raw", raw: '{"a": "${PATH} {{v}}"}' },
    },
  }]));
  const step = flow(files[0].text).steps[0];
  assert.equal(step.request.url, "${ENV.A_TEST_URL:-https://a.test}/x?q=$${HOME}");
  assert.equal(step.request.headers["X-T"], "$${USER}");
  assert.deepEqual(step.request.body, { a: "$${PATH} ${vars.v}" });
  const keyed = convertPostman(collection([{
    name: "k",
    request: {
      method: "POST",
      url: "https://a.test/k",
      body: { mode: "raw", raw: '{"{{field}}": {"${x}": 1}}' },
    },
  }]));
  assert.deepEqual(flow(keyed.files[0].text).steps[0].request.body, {
    "${vars.field}": { "$${x}": 1 },
  });
});

Deno.test("postman convert: a collection wrapped as the Postman API exports it ({collection: …}) is read", () => {
  const wrapped = JSON.stringify({
    collection: JSON.parse(collection([{ name: "p", request: "https://a.test/p" }])),
  });
  assert.equal(convertPostman(wrapped).summary.requests, 1);
});

Deno.test("postman convert: an OAuth2 grant that runs unattended is the flow's own oauth2 auth", () => {
  const oauth = {
    type: "oauth2",
    oauth2: [
      { key: "grant_type", value: "client_credentials" },
      { key: "accessTokenUrl", value: "{{authUrl}}/token" },
      { key: "clientId", value: "my-client" },
      { key: "clientSecret", value: "s3cr3t-value" },
      { key: "client_authentication", value: "body" },
      { key: "scope", value: "read" },
    ],
  };
  const { files, summary } = convertPostman(collection([
    { name: "a", request: "https://api.test/a" },
    { name: "b", request: "https://api.test/b" },
  ], { auth: oauth }));
  const f = flow(files[0].text);
  assert.deepEqual(f.steps.map((s: { name: string; auth?: unknown }) => [s.name, s.auth]), [[
    "a",
    undefined,
  ], ["b", undefined]]);
  // Every step has it alike: it is the flow's.
  assert.deepEqual(f.auth, {
    oauth2: {
      grant_type: "client_credentials",
      token_url: "${ENV.AUTH_URL}/token",
      client_id: "my-client",
      client_secret: "${ENV.OAUTH2_CLIENT_SECRET}",
      scope: "read",
      client_auth: "body",
    },
  });
  assert.equal(summary.oauth2Tokens, 1);
  assert.ok(!files[0].text.includes("s3cr3t-value"));
});

Deno.test("postman convert: a polling setNextRequest is a bounded loop; a stop and a jump leave requests out as Newman does", () => {
  const script = (line: string) => [{ listen: "test", script: { exec: [line] } }];
  const { files, summary } = convertPostman(collection([
    {
      name: "Poll",
      request: "https://a.test/job",
      event: script("if (!pm.response.json().done) postman.setNextRequest(pm.info.requestName);"),
    },
    {
      name: "Jump",
      request: "https://a.test/j",
      event: script("postman.setNextRequest('Target');"),
    },
    { name: "Skipped", request: "https://a.test/s" },
    { name: "Target", request: "https://a.test/t", event: script("postman.setNextRequest(null);") },
    { name: "After", request: "https://a.test/a" },
  ]));
  const steps = flow(files[0].text).steps;
  assert.deepEqual(steps.map((s: { name: string }) => s.name), ["poll", "jump", "target"]);
  assert.deepEqual(steps[0].loop, {
    max_attempts: 30,
    sleep_ms: 500,
    // Until `done` is truthy, as JavaScript reads it.
    until: {
      json: [{ path: "$.json.done", truthy: true }],
    },
  });
  assert.deepEqual(summary.notSent, ["Skipped", "After"]);
});

Deno.test("postman convert: globals are the lowest defaults, path variables are filled, bad header names and methods are named", () => {
  const globals = JSON.stringify({
    name: "g",
    values: [{ key: "tenant", value: "acme" }, { key: "user", value: "g" }],
  });
  const { files, summary } = convertPostman(
    collection([
      {
        name: "one",
        request: {
          method: "GET",
          url: {
            raw: "https://a.test/t/{{tenant}}/u/:id",
            variable: [{ key: "id", value: "{{user}}" }],
          },
          header: [{ key: "Bad Header", value: "x" }, { key: "X-Multi", value: "a\nb" }],
        },
      },
      { name: "trace", request: { method: "TRACE", url: "https://a.test/t" } },
    ], { variable: [{ key: "user", value: "c" }] }),
    undefined,
    globals,
  );
  const f = flow(files[0].text);
  assert.deepEqual(f.vars, { tenant: "acme", user: "c" });
  assert.equal(
    f.steps[0].request.url,
    "${ENV.A_TEST_URL:-https://a.test}/t/${vars.tenant}/u/${vars.user}",
  );
  assert.deepEqual(f.steps[0].request.headers, { "X-Multi": "a b" });
  assert.match(files[0].text, /the header "Bad Header" is left out/);
  assert.equal(f.steps.length, 1);
  assert.deepEqual(summary.unsendable, [`trace (flowrun cannot send the method "TRACE")`]);
});

Deno.test("postman convert: a URL the collection gives is the fallback of its environment variable; the environment's is not", () => {
  const item = [{ name: "a", request: "{{api}}/a" }, { name: "b", request: "{{other}}/b" }];
  const env = JSON.stringify({
    name: "dev",
    values: [{ key: "other", value: "https://dev.test" }],
  });
  const { files, summary } = convertPostman(
    collection(item, { variable: [{ key: "api", value: "https://api.test/v1" }] }),
    env,
  );
  const steps = flow(files[0].text).steps;
  assert.equal(steps[0].request.url, "${ENV.API:-https://api.test/v1}/a");
  assert.equal(steps[1].request.url, "${ENV.OTHER}/b");
  assert.ok(files.some((f) => f.path === "dev.env" && f.text === "OTHER=https://dev.test\n"));
  assert.deepEqual(summary.env.map((e) => e.hint), [
    "https://api.test/v1 unless set",
    "https://dev.test",
  ]);
});

Deno.test("postman convert: a step's first schema check is its assert.schema; more are counted untranslated", () => {
  const { files, summary } = convertPostman(collection([{
    name: "s",
    request: "https://a.test/s",
    event: [{
      listen: "test",
      script: {
        exec: [
          "pm.response.to.have.jsonSchema({ type: 'object', required: ['id'] });",
          "pm.response.to.have.jsonSchema({ type: 'object' });",
          "pm.response.to.have.status(200);",
        ],
      },
    }],
  }]));
  const step = flow(files[0].text).steps[0];
  assert.deepEqual(step.assert.schema, { type: "object", required: ["id"] });
  assert.deepEqual(step.assert.json, [{ path: "$.status", equals: 200 }]);
  assert.deepEqual([summary.reports[0].translated, summary.reports[0].untranslated], [2, 1]);
});

Deno.test("postman convert: a value a pre-request script makes is a flow var made once per run; one copied from another variable is its expression", () => {
  const { files } = convertPostman(collection([
    {
      name: "Register",
      request: {
        method: "POST",
        url: "https://a.test/users",
        body: { mode: "raw", raw: '{"email": "{{email}}", "id": "{{rid}}", "copy": "{{copy}}"}' },
      },
      event: [{
        listen: "prerequest",
        script: {
          exec: [
            "pm.environment.set('email', 'user-' + Date.now() + '@example.com');",
            "pm.variables.set('rid', pm.variables.replaceIn('{{$guid}}'));",
            "pm.collectionVariables.set('copy', pm.collectionVariables.get('plan'));",
          ],
        },
      }],
    },
    {
      name: "Login",
      request: {
        method: "POST",
        url: "https://a.test/login",
        body: { mode: "raw", raw: '{"email": "{{email}}"}' },
      },
    },
  ], { variable: [{ key: "plan", value: "gold" }] }));
  const f = flow(files[0].text);
  assert.deepEqual(f.vars, {
    email: "user-${NOW.UNIX_MS}@example.com",
    rid: "${RANDOM.UUID}",
    plan: "gold",
  });
  assert.deepEqual(f.steps[0].request.body, {
    email: "${vars.email}",
    id: "${vars.rid}",
    copy: "${vars.plan}",
  });
  assert.deepEqual(f.steps[1].request.body, { email: "${vars.email}" });
});

Deno.test("postman convert: a made number (random arithmetic) is not translated into text; its line stays for a person", () => {
  const { files } = convertPostman(collection([{
    name: "Rate",
    request: {
      method: "POST",
      url: "https://a.test/rate",
      body: { mode: "raw", raw: '{"rate": {{rate}}, "tag": "{{tag}}"}' },
    },
    event: [{
      listen: "prerequest",
      script: {
        exec: [
          "pm.collectionVariables.set('rate', Math.round(Math.random() * 4 + 1));",
          "pm.collectionVariables.set('tag', 't-' + Math.random());",
        ],
      },
    }],
  }]));
  const text = files[0].text;
  // Found on Gravitee's collection: "<hex>1" was sent where a rating from 1 to 5 belongs.
  assert.ok(!/RANDOM\.HEX_8\}1/.test(text), text);
  assert.match(
    text,
    /# {3}pm\.collectionVariables\.set\('rate', Math\.round\(Math\.random\(\) \* 4 \+ 1\)\);/,
  );
  assert.equal(
    flow(text).vars.tag,
    "t-${RANDOM.HEX_8}",
    "text around a made value is still made text",
  );
});

Deno.test("postman convert: a check list several steps repeat is written once, as an anchor each step names", () => {
  const script = [{
    listen: "test",
    script: {
      exec: [
        "var j = pm.response.json();",
        "tests['a'] = j.hasOwnProperty('a');",
        "tests['b'] = j.b === 1;",
        "tests['c'] = Array.isArray(j.c);",
      ],
    },
  }];
  const { files } = convertPostman(collection([
    { name: "one", request: "https://a.test/1", event: script },
    { name: "two", request: "https://a.test/2", event: script },
    {
      name: "three",
      request: "https://a.test/3",
      event: [{ listen: "test", script: { exec: ["tests['a'] = responseCode.code === 200;"] } }],
    },
  ]));
  const text = files[0].text;
  assert.match(text, /^x-checks-1: &checks_1$/m);
  assert.equal(text.match(/json: \[\*checks_1\]/g)?.length, 2);
  const f = flow(text);
  assert.equal(f["x-checks-1"].length, 3);
  assert.deepEqual(f.steps[0].assert.json, [f["x-checks-1"]]);
  assert.deepEqual(f.steps[2].assert.json, [{ path: "$.status", equals: 200, name: "a" }]);
});

Deno.test("postman convert: a JSON body with a number a parse would change is sent as its text", () => {
  const raw = '{"id": 12345678901234567890, "big": 1e400, "ok": 1.5}';
  const { files } = convertPostman(
    collection([{
      name: "n",
      request: { method: "POST", url: "https://a.test/n", body: { mode: "raw", raw } },
    }]),
  );
  const step = flow(files[0].text).steps[0];
  assert.equal(step.request.body, raw);
  assert.equal(step.request.headers["Content-Type"], "application/json");
});

Deno.test("postman convert: a raw JSON body nested past any sensible depth is sent as its text, without a crash", () => {
  const deep = "[".repeat(200_000) + "]".repeat(200_000);
  const { files } = convertPostman(
    collection([{
      name: "d",
      request: { method: "POST", url: "https://a.test/d", body: { mode: "raw", raw: deep } },
    }]),
  );
  assert.equal(flow(files[0].text).steps[0].request.body, deep);
});
