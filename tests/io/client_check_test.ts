/**
 * The client settings are checked before anything is sent, each part on its
 * own, so the message names the option at fault. (With real certificates:
 * tests/http/ and the CLI's TLS tests.)
 */
import assert from "node:assert/strict";
import { clientProblem } from "../../lib/io/client_check.ts";

const names = {
  ca: (i: number) => `--cacert #${i + 1}`,
  cert: '--cert "c.pem"',
  key: '--key "k.pem"',
  proxy: '--proxy "http://u:***@h"',
};
const CERT = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
const KEY = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";

Deno.test("a CA file without a certificate is named by its place", () => {
  const problem = clientProblem({ caCerts: [CERT.replace("AAAA", "MIIB"), "hello"] }, names);
  assert.equal(problem?.part, "ca");
  assert.equal(problem?.index !== undefined, true);
  const second = clientProblem({ caCerts: ["hello"] }, names);
  assert.deepEqual([second?.part, second?.index, second?.message], [
    "ca",
    0,
    "--cacert #1 holds no PEM block.",
  ]);
});

Deno.test("a certificate and key given the wrong way round are said to be swapped", () => {
  const problem = clientProblem({ cert: KEY, key: CERT }, names);
  assert.equal(problem?.part, "cert");
  assert.match(problem!.message, /the two are swapped/);
  assert.match(problem!.hint, /certificate goes to --cert, its key to --key/);
});

Deno.test("an encrypted key is named as such", () => {
  const encrypted = KEY.replaceAll("PRIVATE KEY", "ENCRYPTED PRIVATE KEY");
  const problem = clientProblem({ cert: CERT, key: encrypted }, names);
  assert.equal(problem?.part, "key");
  assert.match(problem!.message, /encrypted with a passphrase/);
});

Deno.test("proxy URLs: not a URL, a path, another scheme, no host, insecure through socks", () => {
  const cases: [string, boolean, RegExp][] = [
    ["not a url", false, /is not a URL/],
    ["http://u:12/pw@host:3128", false, /has a path, query or fragment/],
    ["ftp://127.0.0.1:21", false, /"ftp:\/\/" URL, which is no proxy/],
    ["socks5://127.0.0.1:1080", true, /through http:\/\/ proxies only/],
  ];
  for (const [proxy, insecure, message] of cases) {
    const problem = clientProblem({ proxy, insecure }, names);
    assert.equal(problem?.part, "proxy", proxy);
    assert.match(problem!.message, message, proxy);
    assert.ok(
      problem!.message.startsWith(names.proxy),
      "the option is named as the caller names it",
    );
  }
  assert.equal(clientProblem({ proxy: "socks5://127.0.0.1:1080" }, names), undefined);
  assert.equal(clientProblem({}, names), undefined);
});
