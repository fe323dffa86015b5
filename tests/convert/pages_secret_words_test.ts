/**
 * `pageValues`: a hidden field or a link's parameter named for a token (`csrf_token`, `_wpnonce`)
 * hands back what the server made, captured from a fresh page and treated as a secret whatever it
 * holds. The name was read by letters anywhere in it (`csrf`, `xsrf`, `token`, `nonce`), so a
 * search page's `<input type="hidden" name="tokenizer" value="standard">` was such a token: the
 * word `standard` was captured and masked in every output. A name says so by a whole word now
 * (split at every character that is no letter or digit and at camelCase), a word that is or ends
 * with the marker (`_wpnonce`, `csrfmiddlewaretoken`), never another word that holds its letters.
 */
import assert from "node:assert/strict";
import { pageValues } from "../../lib/convert/pages.ts";

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${name}" value="${value}">`;

Deno.test("a hidden field named with a word that only holds a token's letters is no token", () => {
  const html = `<form>${hidden("tokenizer", "standard")}${hidden("detokenize", "never")}</form>` +
    `<a href="/search?tokenizer=whitespace&amp;page=2">next</a>`;
  const values = pageValues(html);
  assert.deepEqual(values.filter((v) => v.secret), [], JSON.stringify(values));
  assert.ok(!values.some((v) => v.value === "standard"), JSON.stringify(values));
});

Deno.test("a token named by a whole word is still captured as a secret", () => {
  const names = [
    "csrf_token",
    "_wpnonce",
    "csrfmiddlewaretoken",
    "__RequestVerificationToken",
    "authenticity_token",
    "_csrf",
    "xsrfToken",
    "nonceStr",
    "form_key",
  ];
  const html = `<form>${names.map((n, i) => hidden(n, `448664:18019${i}`)).join("")}</form>`;
  const secret = pageValues(html).filter((v) => v.secret).map((v) => v.name);
  assert.deepEqual(secret.sort(), [...names].sort());
});
