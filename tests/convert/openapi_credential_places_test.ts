/**
 * Where a security scheme sends its credential, nothing else is sent
 * (found on real documents at scale, docs/real-servers.md "Real documents
 * at scale"): a parameter the document also declares at that place (the
 * API key's own header, query parameter or cookie) is left out, so the
 * flow neither writes the document's example as a literal credential nor
 * gives one key twice (a flow that does not load); and of schemes required
 * together that fill one place (http basic and oauth2 both in
 * `Authorization`, @readme/oas-examples' security-multiple.json), the
 * first is sent and the others are named in a comment.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const DOC = `openapi: 3.0.3
info: {title: Places}
servers: [{url: "https://api.example.com"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-API-Key}
    q: {type: apiKey, in: query, name: api_key}
    c: {type: apiKey, in: cookie, name: sid}
    basic: {type: http, scheme: basic}
    oauth: {type: oauth2, flows: {implicit: {authorizationUrl: "https://a.test/o", scopes: {}}}}
paths:
  /header:
    get:
      security: [{key: []}]
      parameters:
        - {name: x-api-key, in: header, required: true, schema: {type: string}, example: hdr-literal-1}
      responses: {'200': {description: ok}}
  /query:
    get:
      security: [{q: []}]
      parameters:
        - {name: api_key, in: query, required: true, schema: {type: string}, example: qry-literal-2}
      responses: {'200': {description: ok}}
  /all:
    get:
      security: [{q: [], key: [], c: []}]
      parameters:
        - {name: api_key, in: query, required: true, schema: {type: string}, example: qry-literal-3}
        - {name: X-API-Key, in: header, required: true, schema: {type: string}, example: hdr-literal-4}
        - {name: sid, in: cookie, required: true, schema: {type: string}, example: ck-literal-5}
      responses: {'200': {description: ok}}
  /together:
    get:
      security: [{basic: [], oauth: []}]
      responses: {'200': {description: ok}}
  /either:
    get:
      security: [{key: []}, {q: []}]
      parameters:
        - {name: api_key, in: query, required: true, schema: {type: string}, example: qry-literal-6}
      responses: {'200': {description: ok}}
`;

/**
 * Apideck's: the operations require the API key alone, and declare the
 * app id header its \`applicationId\` scheme sends, with a real-looking
 * example (as Trello's \`token\`: the query parameter of the scheme of
 * the other alternative).
 */
const OTHER_SCHEME = `openapi: 3.0.3
info: {title: Other}
components:
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: Authorization}
    applicationId: {type: apiKey, in: header, name: x-apideck-app-id}
paths:
  /crm/companies:
    post:
      security: [{apiKey: []}]
      parameters:
        - {name: x-apideck-app-id, in: header, required: true, schema: {type: string}, example: dSBdXd2H6Mqwfg0atXHXYcysLJE9qyn1VwBtXHX}
      responses: {'201': {description: made}}
`;

Deno.test("convert openapi: a parameter where a scheme sends its credential, or two schemes in one place, give a flow that loads with each credential once, from the environment", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-places-" });
  try {
    await Deno.writeTextFile(`${dir}/api.yaml`, DOC);
    const converted = await runCli(["convert", "openapi", `${dir}/api.yaml`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    const validated = await runCli(["validate", "--no-env", `${dir}/out`]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    const flow = await Deno.readTextFile(`${dir}/out/places.yaml`);
    assert.doesNotMatch(flow, /literal-\d/, "no example written where a credential goes");
    // Each credential once, from the environment.
    // In /all (the scheme's own) and /either (the other alternative's place).
    assert.equal(flow.match(/^ {8}api_key: \$\{ENV\.Q_API_KEY\}$/gm)?.length, 2);
    assert.equal(flow.match(/^ {8}X-API-Key: \$\{ENV\.API_KEY\}$/gm)?.length, 1);
    assert.equal(flow.match(/^ {8}sid: \$\{ENV\.C_API_KEY\}$/gm)?.length, 1);
    // The one scheme left is sent as its own block.
    assert.match(
      flow,
      /basic:\n +username: \$\{ENV\.API_USERNAME\}\n +password: \$\{ENV\.API_PASSWORD\}/,
    );
    assert.doesNotMatch(flow, /Authorization:/);
    assert.match(
      flow,
      /# "oauth" sends its credential in header Authorization too, which "basic" fills: left out/,
    );
    // Of two alternatives, the first is sent; the other's place gets its variable, not the example.
    assert.match(
      flow,
      /- name: get_either\n {4}auth:\n {6}api_key:\n {8}name: X-API-Key\n[^]*?query:\n {8}api_key: \$\{ENV\.Q_API_KEY\}\n/,
    );
    assert.match(flow, /# query api_key is where "q" sends its key: read from Q_API_KEY/);
    assert.match(
      flow,
      /# cookie sid is where "c" sends its credential: the document's value is left out/,
    );
    assert.match(
      flow,
      /# header x-api-key is where "key" sends its credential: the document's value is left out/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert openapi: a required parameter where a scheme the operation does not use sends its key reads that scheme's variable, never the document's example", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-places-" });
  try {
    await Deno.writeTextFile(`${dir}/api.yaml`, OTHER_SCHEME);
    const converted = await runCli(["convert", "openapi", `${dir}/api.yaml`, "-o", `${dir}/out`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(
      converted.stderr,
      /^ {2}APPLICATION_ID_API_KEY: the API key of "applicationId" \(header x-apideck-app-id\)$/m,
    );
    const validated = await runCli(["validate", "--no-env", `${dir}/out`]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    const flow = await Deno.readTextFile(`${dir}/out/other.yaml`);
    assert.doesNotMatch(flow, /dSBdXd2H6/);
    assert.match(flow, /^ {8}x-apideck-app-id: \$\{ENV\.APPLICATION_ID_API_KEY\}$/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
