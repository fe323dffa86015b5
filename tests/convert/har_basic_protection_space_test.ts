/**
 * `convert har` behind HTTP Basic where the browser was challenged again on a second folder, as
 * Nagios 4's web UI is (docs/real-servers-har.md): its pages live under `/nagios4/` and its CGIs
 * under `/cgi-bin/nagios4/`. A browser keeps Basic credentials for the folder it was challenged
 * on and deeper (RFC 7617 §2.2, the protection space), so the first request into another folder is
 * sent without them, answered 401, and sent again with them; the recording keeps that first try
 * with the final answer (200), and every later request into that folder carries the credentials.
 * The flow sent the first CGI without them, was refused 401, and every later step was skipped.
 * The evidence: a later request at or under that request's folder took the origin's one Basic
 * credential, and no earlier one whose folder covers it had (the browser would have sent them).
 */
import assert from "node:assert/strict";
import { harOf } from "../support/har_records.ts";
import { convertHar, passesTwiceWithBasic } from "./har_convert.ts";

const AT = "http://127.0.0.1:8044";
const page = "<html><body><a href='status'>status</a></body></html>";

/** A stand-in that refuses every request without the Basic credentials it was set up with. */
function standIn(password: string) {
  const wanted = `Basic ${btoa(`admin:${password}`)}`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.headers.get("authorization") !== wanted) {
      return new Response("<h1>Unauthorized</h1>", {
        status: 401,
        headers: { "www-authenticate": 'Basic realm="ops"', "content-type": "text/html" },
      });
    }
    const ok = req.method === "POST" ? "<p>Submitted.</p>" : page;
    return new Response(ok, { headers: { "content-type": "text/html" } });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Each folder's first request without the credentials (a hidden challenge), the rest with them. */
function recording(password: string, also: { url: string; basic: boolean }[] = []): string {
  const basic: [string, string] = ["Authorization", `Basic ${btoa(`admin:${password}`)}`];
  const get = (url: string, sent: boolean) => ({
    url,
    headers: sent
      ? [["Accept", "text/html"], basic] as [string, string][]
      : [["Accept", "text/html"]] as [string, string][],
    html: page,
  });
  return harOf([
    get(`${AT}/ops/`, false),
    get(`${AT}/ops/side.php`, true),
    get(`${AT}/cgi-bin/ops/status.cgi?host=web1`, false),
    get(`${AT}/cgi-bin/ops/extinfo.cgi?host=web1`, true),
    {
      method: "POST",
      url: `${AT}/cgi-bin/ops/cmd.cgi`,
      headers: [basic, ["Content-Type", "application/x-www-form-urlencoded"]],
      mime: "application/x-www-form-urlencoded",
      body: "cmd_typ=1&host=web1&com_data=Harbour+check",
      html: "<p>Submitted.</p>",
    },
    ...also.map((a) => get(a.url, a.basic)),
  ]);
}

Deno.test("convert har: the first request into another folder of a Basic origin, its challenge hidden, is sent with the credentials that folder took later, and the flow passes twice", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-basic-space-" });
  const app = standIn("Ridge-Wren-27");
  try {
    const converted = await convertHar(dir, recording("Kettle-Amber-41"));
    await passesTwiceWithBasic(converted, dir, "Kettle-Amber-41", app.origin, "Ridge-Wren-27");
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a request without Basic credentials is sent as recorded when its folder already had them, or none of its folder took them later", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-basic-space-bare-" });
  try {
    const { flow } = await convertHar(
      dir,
      recording("Kettle-Amber-41", [
        // Covered by /cgi-bin/ops/ already: the browser chose to send it bare (a public probe).
        { url: `${AT}/cgi-bin/ops/health.cgi`, basic: false },
        // A folder no credentialed request reached, after the origin's first credentials.
        { url: `${AT}/public/about`, basic: false },
      ]),
    );
    for (const path of ["/cgi-bin/ops/health.cgi", "/public/about"]) {
      const at = flow.indexOf(`url: \${vars.base_url}${path}`);
      assert.ok(at > 0, flow);
      const step = flow.slice(flow.lastIndexOf("- name:", at), at);
      assert.ok(!step.includes("auth:"), step);
    }
    const status = flow.indexOf("url: ${vars.base_url}/cgi-bin/ops/status.cgi");
    assert.ok(flow.slice(flow.lastIndexOf("- name:", status), status).includes("auth:"), flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
