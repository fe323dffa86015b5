/**
 * `convert har` on `207 Multi-Status` answers (WebDAV: Radicale's web UI,
 * tests/real/radicale_har_test.ts): the answer's own status says only that
 * several statuses follow, one per resource or property, in the XML body.
 * A `PROPPATCH` the server refuses on replay (a property now read-only, a
 * locked resource) is answered 207 with `HTTP/1.1 403 Forbidden` inside,
 * and the converted step checked only `status: 207`, so the run passed while
 * nothing changed. Now a 207 answer whose recorded inner statuses were all
 * 2xx gets a check that none is anything else on replay; one whose
 * recording held others (a `PROPFIND` asking for a property a resource
 * lacks: 404 inside) gets none, as that is how it answered then too.
 * Widened to the class: a `DELETE` answered 207 with a per-resource status
 * (`<response><status>`), namespace prefixes on the elements.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const multistatus = (statuses: string[], prefix = "") => {
  const p = prefix ? `${prefix}:` : "";
  const ns = prefix ? `xmlns:${prefix}="DAV:"` : 'xmlns="DAV:"';
  const items = statuses.map((s) =>
    `<${p}response><${p}href>/c/</${p}href><${p}propstat><${p}prop/><${p}status>HTTP/1.1 ${s}</${p}status></${p}propstat></${p}response>`
  );
  return `<?xml version="1.0" encoding="utf-8"?>\n<${p}multistatus ${ns}>${
    items.join("")
  }</${p}multistatus>`;
};

const deleted = (status: string) =>
  `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/c/x</d:href><d:status>HTTP/1.1 ${status}</d:status></d:response></d:multistatus>`;

/** A stand-in whose PROPPATCH and DELETE answer `inner` inside their 207 (as recorded: 200 / 204). */
function standIn(inner: { proppatch: string; remove: string }) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    const xml = (text: string) =>
      new Response(text, { status: 207, headers: { "content-type": "text/xml; charset=utf-8" } });
    if (req.method === "PROPFIND") return xml(multistatus(["200 OK", "404 Not Found"]));
    if (req.method === "PROPPATCH") return xml(multistatus([inner.proppatch], "D"));
    return xml(deleted(inner.remove));
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, close: () => server.shutdown() };
}

function entry(method: string, body: string, answer: string) {
  return {
    startedDateTime: "2026-11-26T17:00:00.000Z",
    request: {
      method,
      url: "http://127.0.0.1:5232/c/",
      headers: [{ name: "Depth", value: "1" }],
      postData: { mimeType: "text/plain;charset=UTF-8", text: body },
    },
    response: { status: 207, headers: [], content: { mimeType: "text/xml", text: answer } },
    _resourceType: "xhr",
  };
}

function recording(): string {
  const entries = [
    entry("PROPFIND", "<propfind/>", multistatus(["200 OK", "404 Not Found"])),
    entry("PROPPATCH", "<propertyupdate/>", multistatus(["200 OK", "200 OK"], "D")),
    entry("DELETE", "", deleted("204 No Content")),
  ];
  return JSON.stringify({ log: { entries } });
}

Deno.test("convert har: a 207 Multi-Status answer whose recorded inner statuses were all 2xx is checked for the same on replay, so a refusal inside a 207 fails the step", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-multistatus-" });
  const refusing = standIn({ proppatch: "403 Forbidden", remove: "423 Locked" });
  const agreeing = standIn({ proppatch: "200 OK", remove: "204 No Content" });
  const lockedOne = standIn({ proppatch: "200 OK", remove: "423 Locked" });
  try {
    const { flow } = await convertHar(dir, recording());
    // The PROPFIND's recording held a 404 inside: no such check there.
    assert.equal(flow.match(/xpath: /g)?.length, 2, flow);
    const refused = await runCli(["run", `${dir}/flow.yaml`], {
      env: { BASE_URL: refusing.origin },
    });
    assert.equal(refused.code, 1, `${refused.stdout}\n${flow}`);
    assert.match(refused.stdout, /✔ propfind_c/);
    assert.match(refused.stdout, /✘ proppatch_c[\s\S]*✘ xpath count\(/);
    // A DELETE of a collection a member of which is locked: 207, with 423 for that member.
    const locked = await runCli(["run", `${dir}/flow.yaml`], {
      env: { BASE_URL: lockedOne.origin },
    });
    assert.equal(locked.code, 1, `${locked.stdout}\n${flow}`);
    assert.match(locked.stdout, /✔ proppatch_c[\s\S]*✘ delete_c[\s\S]*✘ xpath count\(/);
    const passed = await runCli(["run", `${dir}/flow.yaml`], {
      env: { BASE_URL: agreeing.origin },
    });
    assert.equal(passed.code, 0, `${passed.stdout}\n${flow}`);
  } finally {
    await refusing.close();
    await agreeing.close();
    await lockedOne.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har --verify: the 207 check is evaluated against the live server (its XPath engine loaded as a run loads it), so the verified steps pass", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-multistatus-" });
  const agreeing = standIn({ proppatch: "200 OK", remove: "204 No Content" });
  try {
    await Deno.writeTextFile(`${dir}/r.har`, recording());
    const verified = await runCli([
      "convert",
      "har",
      `${dir}/r.har`,
      "--verify",
      agreeing.origin,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stderr, /Verified 3 steps against \S+: all pass\./);
    assert.equal((await Deno.readTextFile(`${dir}/flow.yaml`)).match(/xpath: /g)?.length, 2);
  } finally {
    await agreeing.close();
    await Deno.remove(dir, { recursive: true });
  }
});
