/**
 * `convert har` on a servlet container's pages, which name the session in a path parameter
 * until the browser has shown it keeps the cookie (`/manager/html/add;jsessionid=F74A…?…`, as
 * Tomcat's Host Manager wrote its first page's links; docs/real-servers-har.md). A form posted
 * from the page such a link opened sends that URL as its `Referer`. The Referer's path was
 * written as recorded unless a whole segment was a value an answer handed out, so the session
 * id inside `add;jsessionid=…` was masked as a recorded secret: the flow asked for
 * `RECORDED_SECRET`, a value no user has.
 *
 * The step that opened such a link was named by its whole segment, the session id in it too
 * (`open_edit_jsessionid_f74_a8_dab0…`, Tomcat's `upload_jsessionid_5_e2_cbb9_e484628219`): part
 * of a recorded secret written into the flow as a step's name.
 *
 * What the converter does (lib/convert/correlate/referer_header.ts): a segment's path
 * parameters (`;name=value`) are read like segments; a value an answer handed out there sends the
 * base URL's root as the Referer, as a segment does. A step is named by its segments without
 * their parameters (lib/convert/correlate/steps.ts). Widened: the parameter first or after
 * another (`;lang=en;jsessionid=…`); run twice on one instance with only `BASE_URL`.
 */
import assert from "node:assert/strict";
import { runCli, runCliTwice } from "../support/cli.ts";
import { pagesHar } from "../support/form_pages.ts";

const AT = "http://127.0.0.1:8080";
const HTML = { "content-type": "text/html;charset=utf-8" };
const RECORDED = "F74A8DAB0D31D3BB6EAF7E2B54AC53E0";

/** A container that writes the session into its first page's links, and wants the cookie after. */
function standIn(params: (id: string) => string) {
  const sessions = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const path = url.pathname.split(";")[0];
    const session = /JSESSIONID=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1];
    if (path === "/host/html") {
      const id = crypto.randomUUID().replaceAll("-", "").toUpperCase();
      sessions.add(id);
      return new Response(`<a href="/host/html/edit${params(id)}">Edit</a>`, {
        headers: { ...HTML, "set-cookie": `JSESSIONID=${id}; Path=/host; HttpOnly` },
      });
    }
    if (!session || !sessions.has(session)) {
      return new Response("<h1>403</h1>", { status: 403, headers: HTML });
    }
    const body = path.endsWith("/edit")
      ? '<form method="POST" action="/host/html/save"><input name="alias"></form>'
      : "<pre>OK - saved</pre>";
    return new Response(body, { headers: HTML });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** The journey: the first page (the session set), the editor its link opened, the save from it. */
function recording(params: (id: string) => string): string {
  const cookie = { name: "Cookie", value: `JSESSIONID=${RECORDED}` };
  const har = JSON.parse(pagesHar(AT, [
    {
      method: "GET",
      path: "/host/html",
      text: `<a href="/host/html/edit${params(RECORDED)}">E</a>`,
    },
    {
      method: "GET",
      path: `/host/html/edit${params(RECORDED)}`,
      headers: [cookie, { name: "Referer", value: `${AT}/host/html` }],
      text: '<form method="POST" action="/host/html/save"><input name="alias"></form>',
    },
    {
      method: "POST",
      path: "/host/html/save",
      headers: [
        cookie,
        { name: "Content-Type", value: "application/x-www-form-urlencoded" },
        { name: "Origin", value: AT },
        { name: "Referer", value: `${AT}/host/html/edit${params(RECORDED)}` },
      ],
      postData: { mimeType: "application/x-www-form-urlencoded", text: "alias=ebb.example" },
      text: "<pre>OK - saved</pre>",
    },
  ]));
  har.log.entries[0].response.headers.push({
    name: "Set-Cookie",
    value: `JSESSIONID=${RECORDED}; Path=/host; HttpOnly`,
  });
  return JSON.stringify(har);
}

const SPELLINGS: [string, (id: string) => string][] = [
  ["alone", (id) => `;jsessionid=${id}`],
  ["after another", (id) => `;lang=en;jsessionid=${id}`],
];

for (const [said, params] of SPELLINGS) {
  Deno.test(`convert har: a path that names the session in a path parameter (${said}) asks for nothing, names no step, and the flow passes twice`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-path-parameter-" });
    const app = standIn(params);
    try {
      await Deno.writeTextFile(`${dir}/r.har`, recording(params));
      const converted = await runCli(["convert", "har", `${dir}/r.har`, "-o", `${dir}/flow.yaml`]);
      assert.equal(converted.code, 0, converted.stderr);
      const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
      assert.doesNotMatch(converted.stderr, /Set before running/, `${converted.stderr}\n${flow}`);
      assert.ok(!flow.includes(RECORDED), flow);
      // Named by its path, never by the session id in its parameter (`open_edit_jsessionid_f74_a8…`).
      assert.match(flow, /- name: open_edit\n/, flow);
      assert.doesNotMatch(flow, /name: \w*jsessionid/i, flow);
      await runCliTwice(`${dir}/flow.yaml`, app.origin, flow);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
