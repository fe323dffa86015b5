/** The client pool: one client per distinct set of options, closed at the end of a run. */
import assert from "node:assert/strict";
import { closeHttpClients, httpClient, httpClientError } from "../../lib/io/http_client.ts";

Deno.test("one client per distinct set of options, new ones after closeHttpClients", () => {
  try {
    const a = httpClient({ proxy: "http://127.0.0.1:3128" });
    assert.equal(httpClient({ proxy: "http://127.0.0.1:3128" }), a);
    assert.notEqual(httpClient({ proxy: "http://127.0.0.1:3129" }), a);
    assert.notEqual(httpClient({}), a);
    closeHttpClients();
    assert.notEqual(
      httpClient({ proxy: "http://127.0.0.1:3128" }),
      a,
      "a closed client is not reused",
    );
  } finally {
    closeHttpClients();
  }
});

Deno.test("httpClientError gives the runtime's refusal, and undefined for usable options", () => {
  assert.equal(httpClientError({}), undefined);
  // A space in a proxy password is percent-encoded before the runtime sees it.
  assert.equal(httpClientError({ proxy: "http://u:pa ss@127.0.0.1:3128" }), undefined);
  assert.ok(httpClientError({ proxy: "http://127.0.0.1:99999" }) instanceof Error);
  assert.ok(
    httpClientError({
      caCerts: ["-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n"],
    }),
  );
});
