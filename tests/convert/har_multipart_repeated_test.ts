/**
 * `convert har` on a multipart form that sends a field twice. A checkbox written the way PHP and
 * Rails forms write one (a hidden `off` or `0`, then the box's `on` or `1` under the same name)
 * sends both parts when ticked, and the server reads the last. DAViCal's web admin
 * (docs/real-servers-har.md) creates a user with `user_active` so; the flow kept only the first
 * part, `off`, so the user it made was inactive, missing from the user list the next step read,
 * and every step after it was skipped. A multipart field sent more than once is now a list
 * (`user_active: ["off", "on"]`), one part per value in the recorded order, as `form:` writes one.
 * The stand-in reads the last part as PHP does and lists active users only.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8874";
const BOUNDARY = "----WebKitFormBoundaryq7Rx2hTcY1bN0aZe";

/** How the form writes its checkbox: PHP's `off`/`on`, Rails' `0`/`1`. */
const SHAPES = { php: ["off", "on"], rails: ["0", "1"] } as const;

/** A multipart body of `fields` in order, as Chromium frames one. */
function multipart(fields: [string, string][]): string {
  return fields.map(([name, value]) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  ).join("") + `--${BOUNDARY}--\r\n`;
}

const page = (body: string) => `<html><body>${body}</body></html>`;

/** A users admin that reads a repeated field's last part and lists active users only. */
function standIn(on: string) {
  const users: { name: string; active: boolean }[] = [];
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "POST") {
      const form = await req.formData();
      const name = String(form.get("username"));
      users.push({ name, active: form.getAll("user_active").at(-1) === on });
      return html(page("Created"));
    }
    const active = users.filter((u) => u.active).map((u) => `<li>${u.name}</li>`).join("");
    return html(page(`<ul>${active}</ul>`));
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, users, close: () => server.shutdown() };
}

function journey(off: string, on: string): string {
  return harOf([
    {
      method: "POST",
      url: `${AT}/admin.php?action=edit&t=principal`,
      headers: [["Content-Type", `multipart/form-data; boundary=${BOUNDARY}`]],
      mime: `multipart/form-data; boundary=${BOUNDARY}`,
      body: multipart([["username", "harbourmaster"], ["user_active", off], [
        "user_active",
        on,
      ], ["submit", "Create"]]),
      html: page("Created"),
    },
    { url: `${AT}/admin.php?action=browse`, html: page("<ul><li>harbourmaster</li></ul>") },
  ]);
}

for (const [shape, [off, on]] of Object.entries(SHAPES)) {
  Deno.test(`convert har: a multipart field sent twice (${shape}'s checkbox, ${off} then ${on}) sends both parts, the last read`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-multipart-repeated-" });
    const server = standIn(on);
    try {
      const { flow } = await convertHar(dir, journey(off, on));
      assert.match(flow, new RegExp(`user_active: \\["${off}", "${on}"\\]`), flow);
      const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
      assert.equal(out.code, 0, `${out.stdout}\n${flow}`);
      assert.deepEqual(server.users, [{ name: "harbourmaster", active: true }], flow);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
