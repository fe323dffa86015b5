/**
 * The OAuth2 device flow (RFC 8628) that ends without a token stops the step in flowrun's words
 * around what it quotes: `The OAuth2 device authorization was denied: the token request to <url>
 * answered 400 access_denied (<description>) after 1 poll over 1 s: the person asked to approve
 * the device refused it.` With short secrets that are those very words (passwords `denied`,
 * `person`, `device`) and URLs and answers that quote them, the values (the URLs, the status, the
 * server's `error` and `error_description`) are masked where the message is made and flowrun's
 * words are not, in every artifact.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";

/**
 * A provider whose person denies every device (/device, then /token), never approves it
 * (/pending), and a device endpoint that gives no device code (/nodevice); each answer quotes
 * the tenant the URL asked for.
 */
function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const tenant = url.searchParams.get("tenant");
    if (url.pathname === "/device") {
      return Response.json({
        device_code: "dc-4f1e9a7c2b",
        user_code: "AB-CD",
        verification_uri: `${url.origin}/verify`,
        interval: 1,
        expires_in: Number(url.searchParams.get("expires") ?? 60),
      });
    }
    if (url.pathname === "/pending") {
      return Response.json({ error: "authorization_pending" }, { status: 400 });
    }
    const error = url.pathname === "/token" ? "access_denied" : "invalid_scope";
    return Response.json({ error, error_description: `tenant ${tenant} said no` }, {
      status: url.pathname === "/token" ? 400 : 200,
    });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** A flow whose token comes from the device flow at `device` (a path of the provider). */
const flow = (device: string, token = "token") =>
  `name: ${device}${token}
vars: {known: "\${ENV.PASSWORD_3}"}
auth:
  oauth2:
    grant_type: device_code
    device_authorization_url: "\${ENV.BASE}/${device}tenant=\${ENV.PASSWORD_1}"
    token_url: "\${ENV.BASE}/${token}?tenant=\${ENV.PASSWORD_1}"
    client_id: app
    client_secret: "\${ENV.PASSWORD_2}"
steps:
  - name: get
    request: {url: "\${ENV.BASE}/items"}
`;

const ENV = { PASSWORD_1: "denied", PASSWORD_2: "person", PASSWORD_3: "device" };

Deno.test("the device flow's errors keep their words from a short secret", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-device-" });
  try {
    const files = [`${dir}/a.yaml`, `${dir}/b.yaml`, `${dir}/c.yaml`];
    await Deno.writeTextFile(files[0], flow("device?"));
    await Deno.writeTextFile(files[1], flow("nodevice?"));
    await Deno.writeTextFile(files[2], flow("device?expires=1&", "pending"));
    const w = await runWritten(files, dir, { ...ENV, BASE: srv.base });
    assert.equal(w.code, 1, w.console);
    const steps = w.report.flows.flatMap((f) => f.steps);
    // How long the person took is a count of seconds, the same in every artifact of the run.
    const messages = steps.map((s) => s.message).join("\n");
    const over = / over (\d+) s: /.exec(messages)?.[1];
    const waited = / (\d+ times? over \d+) s, until/.exec(messages)?.[1];
    const said = [
      "The OAuth2 device authorization was denied: the token request to " +
      `${srv.base}/token?tenant=*** answered 400 access_denied (tenant *** said no) after 1 poll ` +
      `over ${over} s: the person asked to approve the device refused it.`,
      `The OAuth2 device authorization request to ${srv.base}/nodevice?tenant=*** failed: it ` +
      "answered 200 without a device_code invalid_scope (tenant *** said no).",
      "The OAuth2 device code was not approved in time: flowrun polled " +
      `${srv.base}/pending?tenant=*** ${waited} s, until the device code's ` +
      `expires_in of 1 s ran out, and it never gave a token. Approve the device at ` +
      `${srv.base}/verify (code AB-CD) within that time.`,
    ];
    const failed = steps.filter((s) => s.message !== undefined).map((s) => s.message);
    assert.deepEqual([...new Set(failed)].sort(), [...said].sort(), JSON.stringify(steps));
    saidEverywhere(w, said, { console: false, artifacts: 4 });
    // The line that tells the person where to approve, on the console: the token URL masked.
    const notice = `OAuth2 device authorization: to approve, open ${srv.base}/verify and enter ` +
      `the code AB-CD; flowrun polls ${srv.base}/token?tenant=*** every 1 s for up to 60 s.`;
    assert.ok(w.console.includes(notice), w.console);
    noLeak(w, ["tenant=denied", "tenant denied"], /was \*\*\*|the \*\*\*|\*\*\* asked/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
