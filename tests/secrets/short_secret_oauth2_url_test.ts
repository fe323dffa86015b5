/**
 * An OAuth2 endpoint URL that an expression makes unusable (not absolute http or https, or with
 * a user name and password in it) stops the step in flowrun's words around the URL it quotes:
 * `The OAuth2 token_url "<url>" is not an absolute http or https URL.` With short secrets that
 * are those very words (passwords `https`, `holds`) in the URL, the URL is masked where the
 * message is made and flowrun's words are not, in every artifact.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";

/** A flow whose token URL is `url` (YAML, within double quotes). */
const flow = (name: string, url: string) =>
  `name: ${name}
auth:
  oauth2:
    grant_type: client_credentials
    token_url: "${url}"
    client_id: app
    client_secret: "\${ENV.PASSWORD_2}"
steps:
  - name: get
    request: {url: "http://127.0.0.1:9/items"}
`;

const ENV = {
  PASSWORD_1: "https",
  PASSWORD_2: "holds",
  ORIGIN: "nohttp",
  CRED_URL: "http://app:holds@127.0.0.1:9/token?tenant=https",
};

Deno.test("an OAuth2 endpoint URL's errors keep their words from a short secret", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-oauth2-url-" });
  try {
    const files = [`${dir}/a.yaml`, `${dir}/b.yaml`];
    await Deno.writeTextFile(files[0], flow("a", "${ENV.ORIGIN}/token?tenant=${ENV.PASSWORD_1}"));
    // Given whole by an expression: a URL written so in the flow is refused when it loads.
    await Deno.writeTextFile(files[1], flow("b", "${ENV.CRED_URL}"));
    const w = await runWritten(files, dir, ENV);
    assert.equal(w.code, 1, w.console);
    const said = [
      'The OAuth2 token_url "nohttp/token?tenant=***" is not an absolute http or https URL.',
      'The OAuth2 token_url "http://app:***@127.0.0.1:9/token?tenant=***" holds a user name and ' +
      "password: write the client's credentials as client_id and client_secret (sent as HTTP " +
      "Basic, or in the form with client_auth: body) and the URL without them.",
    ];
    const steps = w.report.flows.flatMap((f) => f.steps);
    assert.deepEqual(steps.map((s) => s.message).sort(), [...said].sort());
    saidEverywhere(w, said, { console: false, artifacts: 4 });
    noLeak(w, ["tenant=https", ":holds@"], /or \*\*\* URL|\*\*\* a user/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
