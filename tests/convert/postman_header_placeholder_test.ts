/**
 * A header that is secret only by its name, written out in the collection as a type placeholder or
 * a word, is sent as written, as Newman sends it. Postman's importer (`openapi-to-postmanv2`)
 * writes every header parameter a document declares with its type as the value: Adyen's Checkout
 * API gives `Idempotency-Key: <string>` on 25 requests, Amazon S3's `X-Amz-Security-Token:
 * <string>` on 97. Each was taken for a credential written out and asked for as a secret
 * (`IDEMPOTENCY_KEY (the Idempotency-Key header written in the collection, a secret)`), a variable
 * with no default: the flow did not run as the summary printed it until the user made one up. An
 * `Authorization` or `Cookie` header is a credential by what HTTP says it carries, so a placeholder
 * there (`Bearer <token>`) is still asked for, and so is a random value under any secret name.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const KEY = "k_77a9d0c2e4f6b8a1";

Deno.test("postman placeholder headers: a type placeholder under a secret-looking name is sent as written", async () => {
  const seen: Record<string, string | null>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const names = ["idempotency-key", "x-amz-security-token", "pass", "authorization", "x-api-key"];
    seen.push(Object.fromEntries(names.map((n) => [n, req.headers.get(n)])));
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const collection = {
      info: { name: "Imported", schema: V21 },
      item: [{
        name: "orders",
        request: {
          method: "POST",
          url: `http://127.0.0.1:${server.addr.port}/orders`,
          header: [
            { key: "Idempotency-Key", value: "<string>" },
            { key: "X-Amz-Security-Token", value: "<string>" },
            { key: "Pass", value: "all" },
            { key: "Authorization", value: "Bearer <token>" },
            { key: "X-Api-Key", value: KEY },
          ],
        },
      }],
    };
    const { files, summary } = convertPostman(JSON.stringify(collection));
    const text = formatPostmanSummary(summary, dir);
    const asked = text.match(/^Set before running: (.*)$/m)?.[1] ?? "";
    assert.doesNotMatch(asked, /IDEMPOTENCY|AMZ|PASS/, text);
    assert.match(asked, /AUTHORIZATION \(the Bearer Authorization header written/, text);
    assert.match(asked, /X_API_KEY \(the X-Api-Key header written/, text);
    const { run, flow } = await runConverted(files, dir, {
      AUTHORIZATION: "tok-5d1e0c9b",
      X_API_KEY: KEY,
      N_127_0_0_1_URL: `http://127.0.0.1:${server.addr.port}`,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, [{
      "idempotency-key": "<string>",
      "x-amz-security-token": "<string>",
      pass: "all",
      authorization: "Bearer tok-5d1e0c9b",
      "x-api-key": KEY,
    }]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
