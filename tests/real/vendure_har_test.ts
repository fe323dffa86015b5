/**
 * `convert har` on a journey through Vendure's admin UI (tests/real/vendure.ts, recorded in
 * Chromium by tests/real/vendure_journey.ts): log in, create a product with a variant, rename
 * it, create a facet, create a customer and edit it, delete the facet, log out; every call is
 * GraphQL `POST /admin-api`, the session token answered in the `vendure-auth-token` header and
 * sent as `Authorization: Bearer`. Both HAR forms are stored in tests/real/fixtures/vendure/
 * (the app's script and style bodies left out), converted with the default options and run
 * twice on one fresh server with only the variables the flow asks for (the password the user
 * typed): every step passes both times, and the second run acts on its own rows, as the
 * admin API shows afterwards: two products, each renamed and with its own variant, two
 * customers, each edited, no facet left.
 *
 * Before 2026-11-27 (docs/real-servers.md) the second run failed at its 18th step: the ids
 * the creates answered (GraphQL `ID`s, strings of digits: `{"createProduct": {"id": "1",
 * "__typename": "Product"}}`) were sent as recorded in `productId`, `id` and `ids`, so it
 * added a variant to the first run's product, which Vendure refused with a 200 and `errors`
 * (tests/convert/har_graphql_typed_ids_test.ts).
 */
import assert from "node:assert/strict";
import { passesAsUser } from "./passes_as_user.ts";
import { convertStored } from "./har_login_app.ts";
import type { Instance } from "./servers.ts";
import { prepare, realTest } from "./servers.ts";
import { SUPERADMIN, VENDURE, withVendure } from "./vendure.ts";
import { NAMES } from "./vendure_journey.ts";

const vendure = await prepare(VENDURE);
const FIXTURES = new URL("./fixtures/vendure/", import.meta.url).pathname;

/** Runs the flow once on `server` with what it asks; every step must pass. */
function runOn(server: Instance, flowPath: string, flow: string, label: string) {
  return passesAsUser("vendure HAR", SUPERADMIN.password, server.origin, flowPath, flow, label);
}

/** The admin API's answer to `query`, as the superadmin. */
async function adminQuery(origin: string, query: string): Promise<Record<string, unknown>> {
  const call = (body: unknown, token?: string) =>
    fetch(`${origin}/admin-api`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const { username, password } = SUPERADMIN;
  const login = await call({
    query:
      "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { __typename } }",
    variables: { u: username, p: password },
  });
  await login.body?.cancel();
  const token = login.headers.get("vendure-auth-token") ?? "";
  return (await (await call({ query }, token)).json()).data;
}

/** The rows after two runs: each run's product renamed with its own variant, each customer edited. */
async function ownRows(server: Instance): Promise<void> {
  const data = await adminQuery(
    server.origin,
    "{ products { items { name variants { sku } } } customers { items { lastName } } facets { totalItems } }",
  );
  const message = JSON.stringify(data);
  const product = { name: NAMES.renamed, variants: [{ sku: NAMES.sku }] };
  assert.deepEqual(data.products, { items: [product, product] }, message);
  const customer = { lastName: NAMES.lastName };
  assert.deepEqual(data.customers, { items: [customer, customer] }, message);
  assert.deepEqual(data.facets, { totalItems: 0 }, message);
}

for (const form of ["pw", "cdp"]) {
  realTest(
    `Vendure's admin UI recorded in Chromium (${form} HAR: log in, a product and its variant, a facet, a customer, edits, a delete, log out) passes every step twice on one fresh server with only the password asked, the second run on its own rows`,
    vendure.ignoredBecause,
    async (dir) => {
      const har = `${FIXTURES}journey.${form}.har`;
      const { flowPath, flow } = await convertStored({ password: SUPERADMIN.password }, har, dir);
      await withVendure(vendure.install!.prefix, async (server) => {
        await runOn(server, flowPath, flow, `${form} 1`);
        await runOn(server, flowPath, flow, `${form} 1, again`);
        await ownRows(server);
      });
    },
  );
}
