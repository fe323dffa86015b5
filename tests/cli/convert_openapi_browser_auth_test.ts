/**
 * An OAuth2 scheme whose only flows a person completes at a browser
 * (`implicit`, `authorizationCode`: Swagger Petstore v3's `petstore_auth`)
 * is a bearer token from `API_TOKEN`, got beforehand. The summary asked for
 * it with no hint how (issue 52); now its variable line and the flows'
 * comment above `auth:` say where: the flow's `authorizationUrl` (and, for
 * authorizationCode, the `tokenUrl` the code is exchanged at), a relative
 * one resolved against the document's first server, and the scopes the
 * operations' requirements list: every operation's, since the one token the
 * variable holds serves the whole suite. A clientCredentials scheme, whose token the run gets
 * itself, is said as before. A requirement of two schemes at once, whose
 * credentials are written into the request, says the same. The suite still runs, each request with the
 * token the user set.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withConverted } from "../support/openapi_converted.ts";

const ok = { "200": { description: "ok", content: { "application/json": { schema: {} } } } };

/** An operation under `tag` with these security requirements. */
const op = (id: string, tag: string, security: unknown[]) => ({
  operationId: id,
  tags: [tag],
  security,
  responses: ok,
});

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Shop", version: "1" },
  servers: [{ url: "https://shop.test/v1" }],
  paths: {
    "/pets": {
      get: op("listPets", "pets", [{ petstore_auth: ["read:pets"] }]),
      post: op("addPet", "pets", [{ petstore_auth: ["write:pets", "read:pets"] }]),
    },
    // Its first alternative is the key: the token's scopes are not asked for it.
    "/pets/{petId}": {
      get: {
        ...op("getPet", "pets", [{ api_key: [] }, { petstore_auth: ["admin:pets"] }]),
        parameters: [{
          name: "petId",
          in: "path",
          required: true,
          schema: { type: "integer", example: 7 },
        }],
      },
    },
    "/orders": { get: op("listOrders", "orders", [{ partner: ["orders:read"] }]) },
    "/stock": { get: op("listStock", "stock", [{ machine: ["stock"] }]) },
    // Two schemes at once: their credentials written into the request, the token's hint beside.
    "/reports": { get: op("listReports", "reports", [{ partner: ["orders:read"], api_key: [] }]) },
  },
  components: {
    securitySchemes: {
      api_key: { type: "apiKey", in: "header", name: "api_key" },
      petstore_auth: {
        type: "oauth2",
        flows: {
          implicit: {
            authorizationUrl: "https://idp.test/oauth/authorize",
            scopes: { "write:pets": "modify pets", "read:pets": "read pets", "admin:pets": "all" },
          },
        },
      },
      partner: {
        type: "oauth2",
        flows: {
          implicit: { authorizationUrl: "/never", scopes: {} },
          authorizationCode: {
            authorizationUrl: "/oauth/authorize",
            tokenUrl: "/oauth/token",
            scopes: { "orders:read": "read orders" },
          },
        },
      },
      machine: {
        type: "oauth2",
        flows: { clientCredentials: { tokenUrl: "/oauth/machine-token", scopes: { stock: "s" } } },
      },
    },
  },
};

const IMPLICIT =
  'an access token of "petstore_auth" (OAuth2 implicit flow: get one at https://idp.test/oauth/authorize, scopes read:pets write:pets)';
const CODE =
  'an access token of "partner" (OAuth2 authorizationCode flow: sign in at https://shop.test/oauth/authorize, then exchange the code at https://shop.test/oauth/token, scopes orders:read)';

Deno.test("convert openapi: a browser's OAuth2 flow says where to get the token and its scopes", async () => {
  await withConverted(DOCUMENT, async ({ out, mock, converted }) => {
    const summary = converted.stderr;
    assert.ok(summary.includes(`\n  API_TOKEN: ${IMPLICIT}\n`), summary);
    assert.ok(summary.includes(`\n  PARTNER_API_TOKEN: ${CODE}\n`), summary);
    // A grant the run performs itself is said as before: no sign-in to point at.
    assert.match(
      summary,
      /\n {2}CLIENT_ID: the OAuth2 client id of "machine" \(client_credentials grant\)\n/,
    );
    assert.equal(summary.match(/get one at|sign in at/g)?.length, 2, summary);

    const pets = await Deno.readTextFile(`${out}/pets.yaml`);
    // Above each step of the token: the same hint (one token serves every step).
    const said = pets.match(
      /# "petstore_auth" is oauth2 \(implicit: a person signs in at a browser, which a run cannot do\): API_TOKEN holds a token got beforehand \(OAuth2 implicit flow: get one at https:\/\/idp\.test\/oauth\/authorize, scopes read:pets write:pets\)\n/g,
    );
    assert.equal(said?.length, 2, pets);
    assert.doesNotMatch(pets, /admin:pets/, "the key, not the token, is getPet's credential");
    const orders = await Deno.readTextFile(`${out}/orders.yaml`);
    assert.match(
      orders,
      /^# "partner" is oauth2 \(implicit, authorizationCode: a person signs in at a browser, which a run cannot do\): PARTNER_API_TOKEN holds a token got beforehand \(OAuth2 authorizationCode flow: sign in at https:\/\/shop\.test\/oauth\/authorize, then exchange the code at https:\/\/shop\.test\/oauth\/token, scopes orders:read\)\nauth:\n {2}bearer:\n {4}token: \$\{ENV\.PARTNER_API_TOKEN\}\n/m,
    );
    const reports = await Deno.readTextFile(`${out}/reports.yaml`);
    assert.match(
      reports,
      /# "partner" is oauth2: PARTNER_API_TOKEN holds a token got beforehand \(OAuth2 authorizationCode flow: sign in at https:\/\/shop\.test\/oauth\/authorize, then exchange the code at https:\/\/shop\.test\/oauth\/token, scopes orders:read\)\n/,
    );
    assert.match(reports, /Authorization: Bearer \$\{ENV\.PARTNER_API_TOKEN\}/);
    const stock = await Deno.readTextFile(`${out}/stock.yaml`);
    assert.doesNotMatch(stock, /signs in at a browser|get one at|sign in at/);

    const env = {
      BASE_URL: mock.base,
      API_TOKEN: "pets-token",
      PARTNER_API_TOKEN: "partner-token",
      API_KEY: "key-1",
      CLIENT_ID: "client-1",
      CLIENT_SECRET: "secret-1",
    };
    const run = await runCli(["run", `${out}`], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(mock.refused, []);
    assert.ok(mock.tokens.has("pets-token") && mock.tokens.has("partner-token"));
    assert.deepEqual(mock.tokenRequests, ["/oauth/machine-token"]);
  });
});
