/**
 * `convert curl` on `-E client.pem` without `--key`, found by
 * tests/convert/curl_fuzz_test.ts (`-gELETE` reads as `-g -E LETE`): curl
 * reads the private key from the certificate's own file then (a PEM file may
 * hold both), but the flow named the certificate alone, and a flow's
 * `client_cert` needs its `client_key`: it did not load. The key is read
 * from the same file now, as curl reads it.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";

Deno.test("curl: -E without --key names the certificate's file as the key too; the flow loads", () => {
  const { yaml } = convertCurl("curl -E client.pem https://api.test/items");
  assert.match(yaml, /client_cert: client\.pem\n\s+client_key: client\.pem/);
  // One PEM file holding the certificate and its key, as curl takes it.
  const tls = new URL("../fixtures/schema/tls/", import.meta.url);
  const pem = Deno.readTextFileSync(new URL("client.pem", tls)) +
    Deno.readTextFileSync(new URL("client.key", tls));
  const readFile = () => ({ bytes: new TextEncoder().encode(pem) });
  assert.deepEqual(loadFlow(yaml, "flow.yaml", { env: () => "1", readFile }).problems, []);
});
