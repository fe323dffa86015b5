/**
 * Values that are never secrets of their own, whatever header or key holds them. Seen on a real
 * server (LoopBack 4): `Access-Control-Allow-Credentials: true`, a header named like a
 * credential, made `true` a secret, so every `true` of every report was `***` and the JSON
 * report's coverage (`"exercised": ***`) was no longer JSON.
 */
import assert from "node:assert/strict";
import { Redactor } from "../../lib/secrets/redactor.ts";
import { isSecretHeader } from "../../lib/secrets/names.ts";
import { runCli } from "../support/cli.ts";
import { reportOptions } from "../support/run_reports.ts";

Deno.test("CORS headers are policy, not credentials; JSON literals are never registered", () => {
  for (const name of ["Access-Control-Allow-Credentials", "access-control-allow-headers"]) {
    assert.equal(isSecretHeader(name), false, name);
  }
  assert.ok(isSecretHeader("authorization") && isSecretHeader("x-credentials"));
  const r = new Redactor();
  for (const literal of ["true", "false", "null", " TRUE ", "Null"]) r.add(literal);
  r.add("s3cr3t-value");
  assert.equal(
    r.redact('{"a":true,"b":false,"c":null,"d":"s3cr3t-value"}'),
    '{"a":true,"b":false,"c":null,"d":"***"}',
  );
});

Deno.test("a server that allows credentials by CORS: every report stays valid and readable", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      Response.json({ count: 1, done: true }, {
        headers: {
          "access-control-allow-credentials": "true",
          "access-control-allow-origin": "http://app.test",
        },
      }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-cors-" });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(
      `${dir}/doc.yaml`,
      "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n" +
        "  /todos/count: {get: {responses: {'200': {description: ok}}}}\n" +
        "  /other: {get: {responses: {'200': {description: ok}}}}\n",
    );
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: c\nsteps:\n  - name: c\n    request: {url: "${base}/todos/count"}\n` +
        "    assert: {status: 200, json: [{path: $.json.done, equals: true}]}\n",
    );
    const cli = await runCli([
      "run",
      `${dir}/f.yaml`,
      "-v",
      "--openapi",
      `${dir}/doc.yaml`,
      ...reportOptions(dir),
    ]);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /< access-control-allow-credentials: true\n/);
    assert.match(cli.stdout, /\{"count":1,"done":true\}/);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const items = report.openapi_coverage[0].items;
    assert.deepEqual(
      items.map((i: { path: string; exercised: boolean }) => [i.path, i.exercised]),
      [["/todos/count", true], ["/other", false]],
    );
    for (const name of ["r.xml", "r.html", "r.log"]) {
      assert.ok(!(await Deno.readTextFile(`${dir}/${name}`)).includes("***"), name);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a response's ordinary word under a key named like a secret is the API's data, not a secret", async () => {
  // Seen on a real product (issue 53, item 15): a schema listing held ordinary words of the API
  // under keys ending in `key`, so every report masked them: `access to field "***" in ***`.
  const { secretsInResponse } = await import("../../lib/secrets/discover.ts");
  const found: string[] = [];
  const value = {
    fields: [{ api_key: "articles", sort_key: "title", group_key: "author_id" }],
    access_token: "tok-9f8e7d6c5b4a",
    session_key: "xKpQzRtYvWmNaBcDeF",
    pin: 482913,
  };
  secretsInResponse({
    headers: {
      "content-type": "application/json",
      "set-cookie": "theme=dark; Path=/, sid=s3ss10n-8f2a; Path=/",
    },
    text: JSON.stringify(value),
    json: { ok: true, value },
  }, (v) => void found.push(v));
  for (const word of ["articles", "title", "author_id", "dark"]) {
    assert.ok(!found.includes(word), `${word} in ${found}`);
  }
  for (const secret of ["tok-9f8e7d6c5b4a", "xKpQzRtYvWmNaBcDeF", "s3ss10n-8f2a", "482913"]) {
    assert.ok(found.includes(secret), `${secret} not in ${found}`);
  }
});

Deno.test("a secret that is an ordinary word is masked as a value, never as the key it also names", () => {
  // Seen (issue 53, item 15): a password `password` turned the JSON key "password" into "***" in
  // the printed curl line.
  const r = new Redactor();
  r.add("password");
  r.add("s3cr3t-9f2a");
  assert.equal(r.redact('{"password":"password"}'), '{"password":"***"}');
  assert.equal(r.redact('curl -d \'{"password": "password"}\''), 'curl -d \'{"password": "***"}\'');
  assert.equal(r.redact("password=password"), "password=***");
  assert.equal(r.redact("password: password"), "password: ***");
  // The value itself stays masked wherever it stands, and a secret that is no word everywhere.
  assert.equal(r.redact('{"user":"password"}'), '{"user":"***"}');
  assert.equal(r.redact('{"s3cr3t-9f2a": 1}'), '{"***": 1}');
});
