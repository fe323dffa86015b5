/**
 * The redactor's half of masking by provenance (issue 53, item 15): a request text the runner
 * masked where it substituted a secret is shown; inside it, wherever an output writes it (raw,
 * JSON- or XML-escaped, a console's pretty-printed JSON), an ordinary-word secret is the flow's
 * own text; anywhere else, and inside a text as sent with the secret in it, the word is masked.
 */
import assert from "node:assert/strict";
import { Redactor } from "../../lib/secrets/redactor.ts";

function redactor(): Redactor {
  const r = new Redactor();
  r.add("admin");
  r.add("tok-12345678");
  return r;
}

Deno.test("a shown request text keeps its ordinary words in every form an output writes it", () => {
  const r = redactor();
  const url = "http://h.test/admin/fail?t=tok-12345678&q='x'";
  const shown = r.shown(url);
  assert.equal(shown, "http://h.test/admin/fail?t=***&q='x'");
  assert.equal(r.redact(`GET ${shown} → 500`), `GET ${shown} → 500`);
  assert.equal(r.redact(JSON.stringify({ url: shown })), JSON.stringify({ url: shown }));
  const xml = shown.replaceAll("&", "&amp;").replaceAll("'", "&apos;");
  assert.equal(r.redact(`<x>${xml}</x>`), `<x>${xml}</x>`);
  // Anywhere else, and a response repeating the word: masked.
  assert.equal(r.redact('{"role":"admin"}'), '{"role":"***"}');
  assert.equal(r.redact("http://h.test/admin/other"), "http://h.test/***/other");
  // The request as sent (the token in it) is not the shown text: its word is masked too.
  assert.equal(r.redact(`${url} again`), "http://h.test/***/fail?t=***&q='x' again");
});

Deno.test("a header shown as written keeps its value in a record and as a line; alone it does not", () => {
  const r = redactor();
  assert.equal(r.shown("admin", "x-role"), "admin");
  assert.deepEqual(r.redactValue({ "x-role": "admin", other: "admin" }), {
    "x-role": "admin",
    other: "***",
  });
  assert.equal(r.redact("> x-role: admin\n> x-other: admin"), "> x-role: admin\n> x-other: ***");
  assert.equal(r.redact("admin"), "***");
});

Deno.test("a shown JSON body keeps its words pretty-printed; a body as sent with the secret does not", () => {
  const r = redactor();
  const body = '{"kind":"admin","note":"an admin here","sent":"***"}';
  r.shown(body);
  const pretty = '  {\n    "kind": "admin",\n    "note": "an admin here",\n    "sent": "***"\n  }';
  assert.equal(r.redact(pretty), pretty);
  // The same URL shown by one flow and sent with the secret by another: masked wherever it stands.
  r.shown("http://h.test/admin/own");
  assert.equal(r.redact("GET http://h.test/admin/own"), "GET http://h.test/admin/own");
  r.shown("http://h.test/***/own", undefined, "http://h.test/admin/own");
  assert.equal(r.redact("GET http://h.test/admin/own"), "GET http://h.test/***/own");
  r.shown("admin", "x-cap");
  r.shown("***", "x-cap", "admin");
  assert.deepEqual(r.redactValue({ "x-cap": "admin" }), { "x-cap": "***" });
});

Deno.test("past the size kept for shown texts, nothing is shown any more: every word masked by value", () => {
  const r = redactor();
  const first = "GET http://h.test/admin/first";
  r.shown(first);
  assert.equal(r.redact(first), first);
  const filler = "x".repeat(60_000);
  for (let i = 0; i < 80; i++) r.shown(`${filler}${i} admin`);
  assert.equal(r.redact(first), "GET http://h.test/***/first");
  // A text as sent too long to keep stops showing at once.
  const s = redactor();
  s.shown(first);
  s.shown("short ***", undefined, `${"y".repeat(70_000)} admin`);
  assert.equal(s.redact(first), "GET http://h.test/***/first");
});
