import assert from "node:assert/strict";
import { curlCommand, shellQuote, shellWord } from "../../lib/http/curl.ts";

Deno.test("words a shell would expand are single-quoted, others left as they are", () => {
  assert.equal(shellWord("https://a.test/x"), "https://a.test/x");
  assert.equal(shellWord("a b"), "'a b'");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});

Deno.test("a request becomes a curl command, a known secret as its variable", () => {
  const command = curlCommand(
    {
      method: "POST",
      url: "https://a.test/x",
      headers: { authorization: "Bearer t0k3n" },
      body: "{}",
    },
    new Map([["t0k3n", "API_TOKEN"]]),
    (text) => text,
  );
  assert.match(command, /^curl /);
  assert.match(command, /-X POST/);
  assert.match(command, /\$API_TOKEN/);
  assert.doesNotMatch(command, /t0k3n/);
});
