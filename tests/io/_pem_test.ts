/** What a PEM text holds, said from its block labels. */
import assert from "node:assert/strict";
import { blocks, holds, isCertificate, isKey } from "../../lib/io/_pem.ts";

Deno.test("block labels are read in order and named in words", () => {
  const pem = "-----BEGIN CERTIFICATE-----\nA\n-----END CERTIFICATE-----\n" +
    "-----BEGIN EC PRIVATE KEY-----\nB\n-----END EC PRIVATE KEY-----\n";
  assert.deepEqual(blocks(pem), ["CERTIFICATE", "EC PRIVATE KEY"]);
  assert.deepEqual(blocks("no pem"), []);
  assert.ok(isCertificate("CERTIFICATE") && !isCertificate("TRUSTED CERTIFICATE"));
  assert.ok(isKey("PRIVATE KEY") && isKey("RSA PRIVATE KEY") && !isKey("PUBLIC KEY"));
  assert.equal(holds(["CERTIFICATE", "PRIVATE KEY"]), "holds a private key, not a certificate");
  assert.equal(holds(["CERTIFICATE"]), "holds a certificate, not a private key");
  assert.equal(holds(["ENCRYPTED PRIVATE KEY"]), "holds an encrypted private key");
  assert.equal(
    holds(["PUBLIC KEY", "X"]),
    'holds "PUBLIC KEY", "X", neither a certificate nor a key',
  );
});
