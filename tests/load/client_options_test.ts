/** TLS and proxy options (lib/load/client_options.ts). */
import assert from "node:assert/strict";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";

Deno.test("a proxy URL and no_proxy hosts, as a list or comma-separated", () => {
  const options = stepOf([
    'options: {proxy: "http://proxy.test:3128", no_proxy: "localhost, .internal"}',
  ]).options;
  assert.equal(options?.proxy, "http://proxy.test:3128");
  assert.deepEqual(options?.noProxy, ["localhost", ".internal"]);
});

Deno.test("a proxy that is not a URL is refused with its password masked", () => {
  const [p] = loadStepFlow(['options: {proxy: "ftp://me:s3cret@proxy.test"}']).problems;
  assert.equal(p.code, "bad-url");
  assert.ok(!p.message.includes("s3cret") && !p.excerpt?.includes("s3cret"), p.excerpt);
  assert.deepEqual(codesOf(["options: {no_proxy: []}"]), ["wrong-type"]);
});

Deno.test("a client certificate needs its key; PEM files are read when the flow loads", () => {
  assert.deepEqual(codesOf(["options: {client_key: k.pem}"]), ["missing-key"]);
  const [p] = loadStepFlow(["options: {ca_cert: ca.pem}"]).problems;
  assert.equal(
    p.message,
    'Could not use "ca.pem" for "ca_cert" of step "s": this flow was loaded from its text alone.',
  );
  const notPem = { readFile: () => ({ bytes: new TextEncoder().encode("hello") }) };
  assert.match(
    loadStepFlow(["options: {ca_cert: [a.pem]}"], notPem).problems[0].message,
    /it is not PEM text/,
  );
});
