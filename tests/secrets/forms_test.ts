/** The forms of a secret the redactor registers, and the parts of an Authorization value. */
import assert from "node:assert/strict";
import { authParts, base64Forms, formEncoded, literalForms } from "../../lib/secrets/forms.ts";

Deno.test("a plain token has one literal form", () => {
  assert.deepEqual([...literalForms("tok-1234_abc")], ["tok-1234_abc"]);
});

Deno.test("a value with spaces, quotes and slashes gets every form a writer produces", () => {
  const forms = literalForms('a "b"/c d');
  for (
    const f of [
      'a "b"/c d',
      'a \\"b\\"/c d',
      'a \\"b\\"\\/c d',
      "a%20%22b%22%2Fc%20d",
      "a+%22b%22%2Fc+d",
      "a%20%22b%22%2fc%20d",
    ]
  ) assert.ok(forms.has(f), f);
  assert.ok(literalForms("it's").has("it'\\''s"), "shell quoting");
  assert.equal(formEncoded("a b!~é"), "a+b%21%7E%C3%A9");
});

Deno.test("base64 forms find the secret inside a larger blob at any alignment", () => {
  for (const before of ["", "x", "xy"]) {
    const blob = btoa(`${before}user:hunter22-secret;rest`);
    assert.ok(base64Forms("hunter22-secret").some((run) => blob.includes(run)), before);
  }
  const json = btoa(JSON.stringify({ pw: 'q"uote' }));
  assert.ok(base64Forms('q"uote').some((run) => json.includes(run)), "its JSON form too");
});

Deno.test("authParts: the credential, and for Basic the password", () => {
  assert.deepEqual(authParts("Bearer abc"), { credential: "abc" });
  assert.deepEqual(authParts("basic " + btoa("u:p:w")), {
    credential: btoa("u:p:w"),
    decoded: "u:p:w",
    password: "p:w",
  });
  assert.deepEqual(authParts("Basic " + btoa("nocolon")), { credential: btoa("nocolon") });
  assert.equal(authParts("Bearer a b"), undefined);
  assert.equal(authParts("abc"), undefined);
});
