/**
 * A secret can stand in a name a request sends or a server answers, not only in a value: a header
 * name `x-${ENV.PIN}`, a query parameter `?${ENV.PIN}=1`, a form or multipart field `f-${…}`, a
 * cookie a server names after what it got. The URL and the body that carried them were masked,
 * but the names were kept as flowrun's own: the step's headers map kept its keys (a long token as
 * a header name was written in clear in the JSON and HTML reports, a short one in the console too)
 * and the HAR report's pairs (`headers`, `queryString`, `cookies`, `params`) their `name`. A name
 * is what was sent: every secret in it masked; an ordinary word (a password `admin`) where the
 * runner substituted it in a request's header name, as in its values, and kept in a response's
 * names and the HAR's, where it cannot be told from HTTP's own words (`step`, `date`), as a JSON
 * key keeps it.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowWithHar } from "./short_secret_artifacts.ts";

const ENV = { PIN: "q7~z", API_TOKEN: "tok_9fK2mQ7rX4vB8nL3pW6s", PASSWORD: "admin" };

/** Sets a cookie named after `q`; answers 200. */
function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    const q = new URL(req.url).searchParams.get("q") ?? "";
    return Response.json({ ok: true }, {
      headers: { "set-cookie": `c-${q}=1; Path=/`, [`x-echo-${q}`]: "1" },
    });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** A step sending `env` in every kind of name, then one sending it in a multipart field's name. */
const steps = (env: string) =>
  `  - name: names ${env.toLowerCase()}
    always: true
    request:
      method: POST
      url: "\${ENV.BASE_URL}/n?\${ENV.${env}}=1&q=\${ENV.${env}}"
      headers: {"x-\${ENV.${env}}": "1", x-kind: admin}
      form: {"f-\${ENV.${env}}": "v"}
    assert: {status: 201}
  - name: parts ${env.toLowerCase()}
    always: true
    request:
      method: POST
      url: "\${ENV.BASE_URL}/m"
      multipart: {"m-\${ENV.${env}}": "v"}
    assert: {status: 201}
`;

Deno.test("a secret in a header, query, form, multipart or cookie name shows in no artifact", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-secret-names-" });
  try {
    const flow = `name: names\nsteps:\n${Object.keys(ENV).map(steps).join("")}`;
    const w = await runFlowWithHar(flow, dir, { ...ENV, BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    const har = w.har;
    const html = JSON.stringify(w.html);
    noLeak({ ...w, texts: [...w.texts, har, html] }, ["q7~z", "q7%7Ez", "9fK2mQ7rX4vB8nL3"]);
    // The HAR masks by value, not by provenance: a pair's name keeps an ordinary word (HTTP's).
    for (const text of [w.console, JSON.stringify(w.report)]) {
      // A response's names keep an ordinary word, as a JSON key does: `x-echo-admin`, `c-admin`.
      const own = /x-kind[": ]+admin|x-echo-admin|c-admin/g;
      assert.ok(!/[-"]admin\b/.test(text.replace(own, "")), text);
    }
    // The names are still there, the secret in them masked; the flow's own words readable.
    assert.match(w.console, /> x-\*\*\*: 1\n/);
    assert.match(w.console, /> x-kind: admin\n/);
    assert.match(w.console, /< x-echo-\*\*\*: 1\n/);
    const step = w.report.flows[0].steps[0] as unknown as { request: { headers: object } };
    assert.deepEqual(Object.keys(step.request.headers).slice(0, 2), ["x-***", "x-kind"]);
    const entry = JSON.parse(har).log.entries[0];
    assert.deepEqual(entry.request.queryString.map((p: { name: string }) => p.name), ["***", "q"]);
    assert.equal(entry.request.postData.params[0].name, "f-***");
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
