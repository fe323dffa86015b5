/**
 * A client token that begins with words, on a real server (issue 53, residual): Unleash issues
 * `default:development.<hash>`, and a flow writes `default` and `development` itself, joined as
 * the token joins them, in a query, a step name and a flag's description that the server answers
 * back. Every artifact is read back: the words are readable, the token and every 8 characters of
 * its hash are not. Before the fix the token's pieces masked `default:development` everywhere.
 */
import assert from "node:assert/strict";
import { prepare, realTest, start } from "./servers.ts";
import { postgresMissing, UNLEASH, UNLEASH_ADMIN_TOKEN, withUnleash } from "./unleash.ts";
import { assertMasked, runFlow } from "../secrets/unleash_artifacts.ts";

const postgres = postgresMissing();
const unleash = postgres ? { ignoredBecause: postgres } : await prepare([UNLEASH]);
const ignoredBecause = unleash.ignoredBecause;

realTest(
  "the words an Unleash client token begins with stay readable, its hash does not",
  ignoredBecause,
  async (dir) => {
    await withUnleash(unleash.install!.prefix, start, async (instance) => {
      const flow = "unleash_token_words.yaml";
      const artifacts = await runFlow(flow, instance.origin, UNLEASH_ADMIN_TOKEN, dir);
      // The token the server issued, read from the server itself (the reports mask it).
      const listed = await fetch(`${instance.origin}/api/admin/api-tokens`, {
        headers: { authorization: UNLEASH_ADMIN_TOKEN },
      });
      assert.equal(listed.status, 200);
      const { tokens } = await listed.json() as { tokens: { secret: string; type: string }[] };
      const [issued] = tokens.filter((t) => t.type === "client").map((t) => t.secret);
      assert.match(issued, /^default:development\.[0-9a-f]{16,}$/);
      const hash = issued.split(".")[1];
      assertMasked(artifacts, [UNLEASH_ADMIN_TOKEN]);
      for (const [name, text] of Object.entries(artifacts)) {
        for (let i = 0; i + 8 <= hash.length; i++) {
          assert.ok(
            !text.includes(hash.slice(i, i + 8)),
            `${name} holds ${hash.slice(i, i + 8)}`,
          );
        }
      }
      for (const name of ["report.json", "report.html", "run.har"]) {
        const text = artifacts[name].replaceAll("\\", "");
        for (
          const shown of ["?scope=default:development", '"description":"default:development"']
        ) {
          assert.ok(text.includes(shown), `${name} lacks ${shown}`);
        }
      }
      assert.match(artifacts["junit.xml"], /<testcase [^>]*name="flag for default:development"/);
      assert.match(artifacts.stdout, /equals "default:development" holds/);
    });
  },
);
