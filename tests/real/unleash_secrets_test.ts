/**
 * Masking on a real server (issue 53, item 15): a flow creates an Unleash client token with the
 * admin token, captures it (and, under names that look secret, the whole answer and the token
 * list; then through an include's output and a `foreach` element so named), sends it raw in
 * `authorization` (`default:development.<hash>`, no scheme) and reads the projects and
 * environments. Every artifact is read back: the issued token and the admin
 * token are masked in every encoding the artifacts use, while `default`, `development`,
 * `production`, `client` and the timestamps of the answers and of the run stay readable.
 * Before the fix the captures named like secrets made those words *** in every report, and the
 * token's `createdAt` every timestamp of its minute.
 */
import assert from "node:assert/strict";
import { prepare, realTest, start } from "./servers.ts";
import { postgresMissing, UNLEASH, UNLEASH_ADMIN_TOKEN, withUnleash } from "./unleash.ts";
import { assertMasked, assertReadable, runFlow } from "../secrets/unleash_artifacts.ts";

const postgres = postgresMissing();
const unleash = postgres ? { ignoredBecause: postgres } : await prepare([UNLEASH]);
const ignoredBecause = unleash.ignoredBecause;

realTest(
  "an Unleash client token is masked in every artifact, and the words and times of Unleash's answers are not",
  ignoredBecause,
  async (dir) => {
    await withUnleash(unleash.install!.prefix, start, async (instance) => {
      const runs = [];
      for (const flow of ["unleash_client_token.yaml", "unleash_token_lists.yaml"]) {
        await Deno.mkdir(`${dir}/${flow}`);
        runs.push(await runFlow(flow, instance.origin, UNLEASH_ADMIN_TOKEN, `${dir}/${flow}`));
      }
      // The tokens the server issued, read from the server itself (the flows' reports mask them).
      const listed = await fetch(`${instance.origin}/api/admin/api-tokens`, {
        headers: { authorization: UNLEASH_ADMIN_TOKEN },
      });
      assert.equal(listed.status, 200);
      const { tokens } = await listed.json() as { tokens: { secret: string; type: string }[] };
      const issued = tokens.filter((t) => t.type === "client").map((t) => t.secret);
      assert.equal(issued.length, 2, JSON.stringify(tokens));
      for (const secret of issued) assert.match(secret, /^default:development\.[0-9a-f]{16,}$/);
      const own = [["ci-client-2"], []];
      runs.forEach((artifacts, i) => {
        assertMasked(artifacts, [...issued, UNLEASH_ADMIN_TOKEN]);
        assertReadable(artifacts, own[i]);
      });
    });
  },
);
