/**
 * `convertCurl`: a login whose pasted `-i` answer shows headers before the token's that merely
 * contain a token-ish word: a CORS header (`Access-Control-Allow-Origin`, where "access" was read
 * as an access token's), or a word that only begins like one (`X-Authored-By`: "auth" inside
 * "authored"; `X-Accessibility-Mode`: "access" inside "accessibility"). The first of them was
 * taken for the header the login answers its token in, so the flow captured
 * `access-control-allow-origin` and sent `*` as the bearer token. A header says it carries a token
 * by a whole word of its name, or a word's ending (`Token`, `X-Auth-Token`, `X-Subject-Token`,
 * `MMAUTHTOKEN`, `X-Session`), never by letters inside another word, and a CORS header states a
 * policy, never a credential. Run against a server started here that hands out a fresh token.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const DOCS_TOKEN = "hyr5dmb1mbb49c44qmx4whniso";
const LOGIN =
  `curl -i -d '{"login_id":"ann@example.com","password":"d0cs-pa55"}' http://HOST/api/login`;
const ME = `curl -H "Authorization: Bearer $TOKEN" http://HOST/api/me`;
/** Headers printed before the token's, each with a token-ish word inside another word or a policy. */
const BEFORE = [
  "Access-Control-Allow-Origin: *",
  "Access-Control-Allow-Credentials: true",
  "Access-Control-Expose-Headers: X-Auth-Token",
  "X-Authored-By: docs-team",
  "X-Accessibility-Mode: high-contrast",
];
/** Names the token header is printed under, each a whole word of the name. */
const TOKEN_HEADERS = ["Token", "X-Auth-Token", "X-Subject-Token", "X-Session"];

function text(tokenHeader: string): string {
  const head = ["HTTP/1.1 200 OK", "Content-Type: application/json", ...BEFORE];
  return `$ ${LOGIN}\n${
    [...head, `${tokenHeader}: ${DOCS_TOKEN}`].join("\n")
  }\n\n{"id":"u1"}\n\n$ ${ME}\n`;
}

Deno.test("a CORS header or a word that only contains a token's name is not the login's token header", () => {
  for (const name of TOKEN_HEADERS) {
    const { yaml, summary } = convertCurl(text(name));
    const why = `${name}\n${yaml}\n${summary.notes.join("\n")}`;
    assert.match(yaml, new RegExp(`\\{ header: ${name.toLowerCase()} \\}`), why);
    assert.doesNotMatch(yaml, /access-control|x-authored-by|x-accessibility/i, why);
    assert.ok(!yaml.includes(DOCS_TOKEN), why);
  }
});

/** A login answering a fresh token under `name` beside CORS headers; `me` wants that one. */
function server(name: string) {
  let current = "";
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    await req.arrayBuffer();
    if (req.method === "POST" && path === "/api/login") {
      current = crypto.randomUUID().replaceAll("-", "");
      const headers = {
        "access-control-allow-origin": "*",
        "x-authored-by": "docs-team",
        "x-accessibility-mode": "high-contrast",
        [name]: current,
      };
      return Response.json({ id: "u1" }, { headers });
    }
    const ok = current !== "" && req.headers.get("authorization") === `Bearer ${current}`;
    return ok ? Response.json({ id: "u1" }) : Response.json({ error: "stale" }, { status: 401 });
  });
}

Deno.test("run against a server: the flow sends the token the login answered in its own header", async () => {
  for (const name of TOKEN_HEADERS) {
    await using s = server(name);
    const doc = text(name).replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
    await withCurlFlow(doc, async ({ runFlow, readFlow }) => {
      const run = await runFlow({ LOGIN_PASSWORD: "pw" });
      assert.equal(run.code, 0, `${name}\n${await readFlow()}\n${run.stdout}${run.stderr}`);
    });
  }
});
