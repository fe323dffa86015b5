/**
 * Data columns named like secrets (`password`, `apiKey`) are secrets, as
 * vars of those names from --vars-file and --env-file are: inline rows and
 * rows from CSV and JSON files, masked in every artifact in every encoding.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const SECRETS = [
  "Pw inline/7f3a1x",
  "Ak-inline-9c2e5q",
  "Pw csv/4d8e2b",
  "ak-c-1x9",
  "pw-j-1z7",
  "Ak-json-0d6f1f4e",
];

/** The forms a value may be written in: raw, URL-encoded (both spaces), JSON-escaped, base64. */
function forms(secret: string): string[] {
  return [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replaceAll("%20", "+"),
    JSON.stringify(secret).slice(1, -1),
    btoa(secret).replace(/=+$/, ""),
  ];
}

const flow = (url: string, data: string) =>
  `name: sign in
vars: { user: x, password: none, apiKey: none }
data: ${data}
steps:
  - name: login
    request:
      method: POST
      url: "${url}/login?user=\${vars.user}&p=\${vars.password}"
      headers: { x-note: "\${vars.apiKey}" }
      body: { user: "\${vars.user}", pw: "\${vars.password}", key: "\${vars.apiKey}" }
    assert:
      status: 201
`;

Deno.test("data columns with secret names are masked in every artifact, inline and from CSV and JSON", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) =>
    // Echoed back, so the value is in the response body of the failing step too.
    new Response(JSON.stringify({ got: await req.text(), url: req.url }), {
      status: 401,
      headers: { "content-type": "application/json" },
    }));
  const url = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-data-secrets-" });
  try {
    await Deno.writeTextFile(
      `${dir}/inline.yaml`,
      flow(url, `[{ user: ann, password: "${SECRETS[0]}", apiKey: "${SECRETS[1]}" }]`),
    );
    await Deno.writeTextFile(
      `${dir}/rows.csv`,
      `user,password,apiKey\nbo,${SECRETS[2]},${SECRETS[3]}\n`,
    );
    await Deno.writeTextFile(`${dir}/csv.yaml`, flow(url, "{ file: rows.csv }"));
    await Deno.writeTextFile(
      `${dir}/rows.json`,
      JSON.stringify([{ user: "cy", password: SECRETS[4], apiKey: SECRETS[5] }]),
    );
    await Deno.writeTextFile(`${dir}/json.yaml`, flow(url, "{ file: rows.json }"));
    const out = `${dir}/out`;
    const result = await runCli([
      "run",
      `${dir}/inline.yaml`,
      `${dir}/csv.yaml`,
      `${dir}/json.yaml`,
      "-v",
      "--report-json",
      `${out}/report.json`,
      "--report-junit",
      `${out}/junit.xml`,
      "--report-html",
      `${out}/report.html`,
      "--log-file",
      `${out}/run.log`,
      "--manifest",
      `${out}/manifest.json`,
    ]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const artifacts: Record<string, string> = { console: result.stdout + result.stderr };
    for (const name of ["report.json", "junit.xml", "report.html", "run.log", "manifest.json"]) {
      artifacts[name] = await Deno.readTextFile(`${out}/${name}`);
    }
    // The steps did run with the rows' values: the non-secret ones are there to see.
    for (const user of ["ann", "bo", "cy"]) {
      assert.match(artifacts["report.json"], new RegExp(`user=${user}`));
    }
    for (const [name, text] of Object.entries(artifacts)) {
      for (const secret of SECRETS) {
        for (const form of forms(secret)) {
          assert.ok(!text.includes(form), `${name} holds ${secret} as ${form}`);
        }
      }
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
