/**
 * `convert openapi` on httpbin 0.7.0 (Debian's `python3-httpbin`, Python,
 * started by httpbin.ts): httpbin's own Swagger 2.0 document (78 operations,
 * no security scheme, most path parameters typed `int`; the one 0.9.2
 * serves, since 0.7.0 serves none: fixtures/httpbin/README.md) is
 * converted with default options and run as the summary prints it, with
 * only the variables it asks for (`BASE_URL`, and `API_TOKEN` for
 * `GET /bearer`, which its words say takes a bearer token), on a fresh
 * instance.
 *
 * Accepted: a 2xx; for an operation whose document names no 2xx but a
 * redirect (`GET /redirect/{n}`: `302` only), that redirect, which the
 * step gets unfollowed and checks. Each refused operation is one the
 * document gives no way to make pass, or one 0.7.0 lacks, named with why
 * (docs/real-servers.md); any other refusal fails the test. A second run on
 * another fresh instance gets as far. `REAL_KEEP=DIR` keeps the flows and
 * the report.
 */
import assert from "node:assert/strict";
import {
  accepted,
  convertAndRunAsPrinted,
  knownOnly,
  type Operation,
  operationsOf,
  type ReportStep,
} from "./measure.ts";
import { HTTPBIN_DOCUMENT, httpbinMissing, withHttpbin } from "./httpbin.ts";
import { realTest, start } from "./servers.ts";

const missing = httpbinMissing();

/** What each operation no suite made from this document gets a 2xx (or its redirect) for got, and why. */
const DOCUMENT_GAPS: Record<string, string> = {
  // The HTTP client refuses TRACE (Fetch forbids it): left out, named in the summary.
  "TRACE /anything": "never",
  "TRACE /anything/{anything}": "never",
  "TRACE /delay/{delay}": "never",
  "TRACE /redirect-to": "never",
  "TRACE /status/{codes}": "never",
  // 0.7.0 answers GET only here and has no /json (0.9.2's document names them).
  "DELETE /delay/{delay}": "405",
  "PATCH /delay/{delay}": "405",
  "POST /delay/{delay}": "405",
  "PUT /delay/{delay}": "405",
  "GET /json": "404",
  // 0.7.0 reads `url` from the query only; 0.9.2's document puts it in the form: a 500.
  "POST /redirect-to": "500",
  "PUT /redirect-to": "500",
};

/**
 * Accepted on 2026-11-26: 66 (39 before that day's fixes: `type: int` was the text `string`, a
 * documented redirect was unchecked, `/status/{codes}` was sent `codes-1a2b3c4d`; 54 before the
 * Basic, Digest and bearer auth its words say, the redirect its cookie words say, the image's
 * `Accept`; 64 before DELETE and PATCH `/redirect-to` sent the `url` their GET requires).
 */
const FLOOR = 66;

/**
 * The token `GET /bearer` asks for ("… using bearer authentication", an `Authorization` header):
 * the summary asks for `API_TOKEN`, which the user sets; httpbin accepts any.
 */
const TOKEN = "a-token-of-the-users-own";

/** The auth flow sends the run's own user and password (Basic, Digest) and the token's variable. */
async function assertNoLiteralCredential(file: string) {
  const text = await Deno.readTextFile(file);
  assert.match(text, /basic:\s+username: \$\{vars\.username\}\s+password: \$\{vars\.password\}/);
  assert.match(text, /digest:\s+username: \$\{vars\.username\}\s+password: \$\{vars\.password\}/);
  assert.match(text, /bearer:\s+token: \$\{ENV\.API_TOKEN\}/);
  assert.match(text, /password: Pw-\$\{RANDOM\.HEX_16\}/);
  assert.doesNotMatch(text, new RegExp(TOKEN));
}

/** The redirects an operation documents when it documents no 2xx (Swagger 2.0's `responses`). */
function redirectsOf(doc: { paths: Record<string, Record<string, { responses?: object }>> }) {
  const out = new Map<string, number[]>();
  for (const op of operationsOf(doc)) {
    const codes = Object.keys(doc.paths[op.path][op.method.toLowerCase()].responses ?? {});
    if (codes.some((c) => c.startsWith("2"))) continue;
    out.set(`${op.method} ${op.path}`, codes.filter((c) => /^3\d\d$/.test(c)).map(Number));
  }
  return out;
}

/** `accepted`, with a documented redirect counting as a 2xx where the document names no 2xx. */
function measured(doc: Parameters<typeof redirectsOf>[0], steps: ReportStep[]) {
  const only = redirectsOf(doc);
  const ops: Operation[] = operationsOf(doc);
  const result = accepted(ops, steps);
  const refused = result.refused.filter((op) => {
    const codes = only.get(`${op.method} ${op.path}`) ?? [];
    return !codes.some((code) => op.got.split(", ").some((g) => g.startsWith(`${code} `)));
  });
  return { operations: ops.length, accepted: ops.length - refused.length, refused };
}

realTest(
  `httpbin's own Swagger 2.0 document, converted and run on a fresh Debian httpbin 0.7.0, gets a 2xx or its documented redirect on at least ${FLOOR} of its 78 operations`,
  missing,
  async (dir) => {
    const doc = JSON.parse(await Deno.readTextFile(HTTPBIN_DOCUMENT));
    assert.equal(doc.swagger, "2.0");
    await Deno.writeTextFile(`${dir}/spec.json`, JSON.stringify(doc, null, 2));
    for (const round of [1, 2]) {
      const result = await withHttpbin(start, async (b) => {
        const trial = await convertAndRunAsPrinted(
          ["convert", "openapi", `${dir}/spec.json`, "-o", `${dir}/flows-${round}`],
          `${dir}/report-${round}.json`,
          knownOnly({ BASE_URL: b.origin, API_TOKEN: TOKEN }),
        );
        assert.equal(trial.converted.code, 0, trial.converted.stderr);
        assert.deepEqual(Object.keys(trial.env).sort(), ["API_TOKEN", "BASE_URL"]);
        await assertNoLiteralCredential(`${dir}/flows-${round}/auth.yaml`);
        assert.ok(trial.report, `no report:\n${trial.run.stdout}\n${trial.run.stderr}`);
        return { trial, ...measured(doc, trial.report.steps) };
      });
      console.error(
        `httpbin 0.7.0 (run ${round}): ${result.accepted} of ${result.operations} operations accepted; refused:\n  ${
          result.refused.map((op) => `${op.method} ${op.path}: ${op.got}`).join("\n  ")
        }`,
      );
      assert.equal(result.operations, 78);
      assert.ok(result.accepted >= FLOOR, `${result.accepted} < ${FLOOR}`);
      const refused = Object.fromEntries(
        result.refused.map((op) => [`${op.method} ${op.path}`, op.got.split(" ")[0]]),
      );
      assert.deepEqual(refused, DOCUMENT_GAPS, result.trial.run.stdout.slice(0, 6000));
    }
  },
);
