/**
 * `convert har` on a form field named like a credential whose value the
 * page offered as one of a `<select>`'s options: Cacti's device form
 * (tests/real/cacti_har_test.ts) sends `snmp_auth_protocol=MD5`, picked
 * from `<select name='snmp_auth_protocol'>` (MD5, SHA, …). Its name ends in
 * AUTH's word, so the value was taken for a credential and asked of the
 * user (`HOST_PHP_SNMP_AUTH_PROTOCOL`); an option the page lists is the
 * page's own, as a checkbox's declared value is (choice_fields.ts), and is
 * sent as recorded. A value typed into a text field of the same kind of
 * name (`snmp_auth_passphrase`) is still asked.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const FORM = `<html><body><form method="post" action="/host.php">` +
  `<select id='snmp_auth_protocol' name='snmp_auth_protocol'>` +
  `<option value='MD5' selected>MD5</option><option value='SHA'>SHA</option></select>` +
  `<input type='text' name='snmp_auth_passphrase'><input type='text' name='description'>` +
  `</form></body></html>`;

/** One recorded exchange. */
function entry(i: number, method: string, answer: string, body?: string) {
  const form = "application/x-www-form-urlencoded";
  return {
    startedDateTime: new Date(Date.UTC(2026, 10, 27, 14, 0, i)).toISOString(),
    request: {
      method,
      url: "http://127.0.0.1:8080/host.php",
      headers: body ? [{ name: "content-type", value: form }] : [],
      ...(body ? { postData: { mimeType: form, text: body } } : {}),
    },
    response: {
      status: 200,
      headers: [{ name: "content-type", value: "text/html" }],
      cookies: [],
      content: { mimeType: "text/html", text: answer },
    },
  };
}

const BODY = "description=Harbour+Router&snmp_auth_protocol=MD5&snmp_auth_passphrase=Quay7Lantern";

Deno.test("convert har: a credential-named field's value the page offered as a select option is sent as recorded, not asked", async () => {
  const dir = await Deno.makeTempDir();
  const sent: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "POST") {
      sent.push(new URLSearchParams(await req.text()).get("snmp_auth_protocol") ?? "");
    }
    return new Response(FORM, { headers: { "content-type": "text/html" } });
  });
  try {
    const har = JSON.stringify({
      log: { entries: [entry(0, "GET", FORM), entry(1, "POST", FORM, BODY)] },
    });
    const { converted, flow } = await convertHar(dir, har);
    assert.match(converted.stderr, /Set before running: HOST_PHP_SNMP_AUTH_PASSPHRASE\./);
    assert.ok(!flow.includes("Quay7Lantern"), flow);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    const run = await runCli(["run", `${dir}/flow.yaml`], {
      env: { ...env, HOST_PHP_SNMP_AUTH_PASSPHRASE: "Pier9Beacon" },
    });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(sent, ["MD5"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
