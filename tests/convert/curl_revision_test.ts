/**
 * `convertCurl`: a document store's guide (measured by hand) creates a
 * document, prints the answer `{"ok":true,"id":"6e12…","rev":"1-2902191555"}`,
 * then updates it sending `"_rev":"1-2902191555"` in the body, and later
 * deletes or attaches with `?rev=…` and `If-Match: …`. The revision was sent
 * as written: a fresh server mints its own, and answered each later write 409
 * "Document update conflict". A value a command sends that an earlier
 * answer printed is that answer's, whatever its key: the letters-and-digits
 * rule for ids let digit groups joined by a dash through as a word. A
 * string of digit groups joined by `-` or `_`, ten characters or more and no
 * date, printed by an answer and sent later, is captured now, in a body, a
 * query or a header. Run against a server started here that mints revisions
 * and refuses a stale one.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const GUIDE = [
  'curl -X PUT http://HOST/albums/6e12 -d \'{"title":"Blackened Sky"}\'',
  "",
  "The server replies:",
  "",
  '{"ok":true,"id":"6e12","rev":"1-2902191555"}',
  "",
  'curl -X PUT http://HOST/albums/6e12 -d \'{"_rev":"1-2902191555","title":"Blackened Sky","year":"2002"}\'',
  "",
  '{"ok":true,"id":"6e12","rev":"2-7738129001"}',
  "",
  'curl -X PUT http://HOST/albums/6e12/notes -H "If-Match: 2-7738129001" -d "liner notes"',
  "",
  '{"ok":true,"id":"6e12","rev":"3-1160093458"}',
  "",
  "curl -X DELETE 'http://HOST/albums/6e12?rev=3-1160093458'",
  "",
  '{"ok":true,"id":"6e12","rev":"4-9980012237"}',
  "",
].join("\n");

Deno.test("a revision an answer printed is captured wherever a later command sends it", () => {
  const { yaml } = convertCurl(GUIDE.replaceAll("HOST", "127.0.0.1:5984"));
  // A step's comment names the command's URL as written; what is sent is below it.
  const sent = yaml.split("\n").filter((line) => !line.trimStart().startsWith("#")).join("\n");
  for (const rev of ["1-2902191555", "2-7738129001", "3-1160093458"]) {
    assert.ok(!sent.includes(rev), `${rev} sent as written:\n${yaml}`);
  }
  assert.equal([...yaml.matchAll(/capture:\n\s+rev: \$\.json\.rev/g)].length, 3, yaml);
});

Deno.test("digits the commands chose or a date are sent as written", () => {
  const text = [
    'curl -X POST http://a.test/calls -d \'{"phone":"555-0100-2233","day":"2026-11-28"}\'',
    '{"id":"c1","phone":"555-0100-2233","day":"2026-11-28"}',
    'curl -X POST http://a.test/calls -d \'{"phone":"555-0100-2233","day":"2026-11-28"}\'',
    "",
  ].join("\n");
  const { yaml } = convertCurl(text);
  assert.equal([...yaml.matchAll(/phone: "555-0100-2233"/g)].length, 2, yaml);
  assert.equal([...yaml.matchAll(/day: "2026-11-28"/g)].length, 2, yaml);
});

Deno.test("run against a server that mints revisions: every write is accepted", async () => {
  let rev = 0;
  let current: string | undefined;
  // Digits only, as the guide's: the capture must not lean on a revision's hex letters.
  const mint = () => (current = `${++rev}-${Math.floor(Math.random() * 9e9 + 1e9)}`);
  await using s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const url = new URL(req.url);
    const sent = url.searchParams.get("rev") ?? req.headers.get("if-match") ??
      (body.startsWith("{") ? JSON.parse(body)._rev : undefined);
    if (current !== undefined && sent !== current) {
      return Response.json({ error: "conflict", reason: "Document update conflict." }, {
        status: 409,
      });
    }
    return Response.json({ ok: true, id: "6e12", rev: mint() }, { status: 201 });
  });
  const guide = GUIDE.replaceAll("HOST", `127.0.0.1:${s.addr.port}`);
  await withCurlFlow(guide, async ({ runFlow }) => {
    const run = await runFlow();
    assert.equal(run.code, 0, `${run.stdout}${run.stderr}`);
    assert.equal(rev, 4);
  }, { docs: "guide.sh" });
});
