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
    assert.equal(flow.match(/^ {8}api_key: \$\{ENV\.Q_API_KEY\}$/gm)?.length, 1);
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
    assert.match(
      flow,
      /# header x-api-key is where "key" sends its credential: the document's value is left out/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
