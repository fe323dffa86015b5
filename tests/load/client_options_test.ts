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

Deno.test("a proxy password written in a flow is a literal credential, masked in its excerpt", () => {
  // Issue 53, item 8: `convert curl -x http://user:PASS@proxy` wrote the password literally and the
  // loader raised no literal-credential problem for it.
  const problems = loadStepFlow(['options: {proxy: "http://me:s3cret@proxy.test:3128"}']).problems;
  assert.deepEqual(problems.map((p) => p.code), ["literal-credential"]);
  assert.ok(!JSON.stringify(problems).includes("s3cret"), JSON.stringify(problems));
  assert.match(problems[0].hint ?? "", /--proxy "http:\/\/user:\$PROXY_PASSWORD@host:port"/);
  assert.deepEqual(codesOf(['options: {proxy: "http://proxy.test:3128"}']), []);
});
