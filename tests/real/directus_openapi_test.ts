/**
 * `convert openapi` on Directus 10.13.4 (npm `directus`, the headless CMS,
 * started by directus.ts on a throwaway PostgreSQL): a user who has made a
 * collection (`articles`: a title, a body, a published flag) downloads the
 * OpenAPI document their instance serves them (`/server/specs/oas`, with
 * the admin's token: the document lists what its reader may call, and the
 * collection's item endpoints), converts it with default options, and runs
 * the summary's command, with only the variables it asks for, on another
 * fresh instance with the same collection. Measured: the operations that
 * got a 2xx; today's count is the floor (docs/real-servers.md names why the
 * others are refused). `REAL_KEEP=DIR` keeps the document, flows and report.
 */
import assert from "node:assert/strict";
import { acceptedSaid, convertAndRunAsPrinted, knownOnly, operationsOf } from "./measure.ts";
import { prepare, realTest } from "./servers.ts";
import {
  DIRECTUS,
  DIRECTUS_DOCUMENT,
  directusMissing,
  directusToken,
  withDirectus,
} from "./directus.ts";

const postgres = directusMissing();
const prepared = postgres ? { ignoredBecause: postgres } : await prepare([DIRECTUS]);

/** The collection the user made in the data model before downloading the document. */
const ARTICLES = {
  collection: "articles",
  meta: { icon: "article", note: "News articles" },
  schema: {},
  fields: [
    {
      field: "id",
      type: "integer",
      meta: { hidden: true, readonly: true, interface: "input" },
      schema: { is_primary_key: true, has_auto_increment: true },
    },
    { field: "title", type: "string", meta: { interface: "input", required: true }, schema: {} },
    { field: "body", type: "text", meta: { interface: "input-multiline" }, schema: {} },
    { field: "published", type: "boolean", meta: { interface: "boolean" }, schema: {} },
  ],
};

/** Makes {@linkcode ARTICLES} on the instance at `baseUrl` as its admin (`token`). */
async function makeArticles(baseUrl: string, token: string): Promise<void> {
  const response = await fetch(`${baseUrl}/collections`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(ARTICLES),
  });
  assert.equal(response.status, 200, await response.text());
}

/**
 * The operations accepted on 2026-11-29: 83 of 136, 77 before a create's
 * optional relations (`oneOf` an id and the related item) were left out and
 * one marked `nullable: false` sent the flow's own item (the operations': its
 * create, read, updates and deletes); 72 before a delete of many that
 * the document describes with nothing to select sends the list its path's
 * update of many selects by, holding an item of the flow's own: the roles',
 * folders', presets', users' and flows'). On 2026-11-28: 72 of 136 (a PATCH of one item
 * sends one change, not each optional member's example: the user's, the
 * flow's and the folder's updates, and the folder's update of many and
 * delete that read its answer). On 2026-11-26: 67 (7 before the fixes of
 * that day: the login signs in as the user's account, from variables, 10;
 * the bare operations of a document with a login and bare writes send its
 * token, 58; an update of many sends the flow's own item and a change, 62;
 * a parameter named for another collection reads that collection's listing,
 * 64; the refresh token the login answers is sent back, 65; an update of a
 * list of items sends the flow's own item keyed and a change, 66; a hash
 * one call answers is sent back by its sibling under the same path, 67).
 */
const FLOOR = 83;

realTest(
  `Directus's own OpenAPI document, converted and run on a fresh instance, gets a 2xx on at least ${FLOOR} of its operations`,
  prepared.ignoredBecause,
  async (dir) => {
    const prefix = prepared.install!.prefix;
    const doc = await withDirectus({ prefix }, async (a) => {
      const token = await directusToken(a.baseUrl, a.adminEmail, a.adminPassword);
      await makeArticles(a.baseUrl, token);
      const response = await fetch(`${a.baseUrl}${DIRECTUS_DOCUMENT}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 200);
      return await response.json();
    });
    await Deno.writeTextFile(`${dir}/directus.json`, JSON.stringify(doc, null, 2));
    await withDirectus({ prefix }, async (b) => {
      const token = await directusToken(b.baseUrl, b.adminEmail, b.adminPassword);
      await makeArticles(b.baseUrl, token);
      const trial = await convertAndRunAsPrinted(
        ["convert", "openapi", `${dir}/directus.json`, "-o", `${dir}/flows`],
        `${dir}/report.json`,
        // The admin's account: the user set it up at the bootstrap.
        knownOnly({
          BASE_URL: b.baseUrl,
          LOGIN_EMAIL: b.adminEmail,
          LOGIN_PASSWORD: b.adminPassword,
        }),
      );
      console.error(trial.converted.stderr);
      assert.equal(trial.converted.code, 0, trial.converted.stderr);
      // The account is asked for, not the document's example sent (it is the admin's email here).
      assert.deepEqual(Object.keys(trial.env).sort(), [
        "BASE_URL",
        "LOGIN_EMAIL",
        "LOGIN_PASSWORD",
      ]);
      assert.ok(trial.report, `no report:\n${trial.run.stdout}\n${trial.run.stderr}`);
      const ops = operationsOf(doc);
      const result = acceptedSaid(`directus@${DIRECTUS.version}`, ops, trial.report.steps);
      assert.ok(result.accepted.length >= FLOOR, `${result.accepted.length} < ${FLOOR}`);
      const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
        .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
      assert.ok(!flows.includes(b.adminPassword), "no literal credential");
    });
  },
);
