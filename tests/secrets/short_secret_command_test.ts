/**
 * A bearer token command that fails stops the step in flowrun's words around what it quotes:
 * `The bearer token command "<program>" exited with code 3: <stderr's last line>`. With short
 * secrets that are those very words (passwords `found`, `exited`, `printed`, `token`) and a
 * program path or a stderr that quote them, the values (the program as rendered, its exit code,
 * what it printed on stderr, the runtime's reason) are masked where the message is made and
 * flowrun's words are not, in every artifact, also when the flows run on worker threads.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";

const DENO = Deno.execPath();

/** A flow whose bearer token comes from `command` (YAML flow sequence items). */
const flow = (name: string, command: string) =>
  `name: ${name}
auth:
  bearer:
    command: [${command}]
steps:
  - name: get
    request: {url: "http://127.0.0.1:9/items"}
`;

const ENV = {
  PASSWORD_1: "found",
  PASSWORD_2: "exited",
  PASSWORD_3: "printed",
  PASSWORD_4: "token",
};

/** Each flow, and the message its step ends with (`<deno>` for Deno's own path). */
const CASES: [string, string, string][] = [
  [
    "exit",
    `"${DENO}", eval, "const [a] = Deno.args; const pct = [...a].map((c) => '%' + c.charCodeAt(0).toString(16)).join(''); console.error('tenant', a, btoa(a), pct); Deno.exit(3)", "\${ENV.PASSWORD_2}"`,
    'The bearer token command "<deno>" exited with code 3: tenant *** *** ***',
  ],
  [
    "missing",
    '"${ENV.DIR}/no-${ENV.PASSWORD_1}"',
    'The bearer token command "<dir>/no-***" failed: it was not found (not on PATH, nor a file ' +
    "at that path).",
  ],
  [
    "empty",
    `"${DENO}", eval, "0", "\${ENV.PASSWORD_3}"`,
    'The bearer token command "<deno>" printed no token (its stdout was empty).',
  ],
  [
    "words",
    `"${DENO}", eval, "console.log('two words')", "\${ENV.PASSWORD_4}"`,
    'The bearer token command "<deno>" printed more than one line or word; a token is one word ' +
    "on one line (print only the token, e.g. gh auth token, gcloud auth print-access-token, " +
    "az account get-access-token --query accessToken -o tsv).",
  ],
];

for (const workers of ["1", "2"]) {
  Deno.test(`a bearer token command's errors keep their words from a short secret (--workers ${workers})`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-short-command-" });
    try {
      const files = CASES.map(([name]) => `${dir}/${name}.yaml`);
      for (const [i, [name, command]] of CASES.entries()) {
        await Deno.writeTextFile(files[i], flow(name, command));
      }
      // With two workers, flows run on worker threads and the token's error comes back over the wire.
      const args = ["--allow-commands", "--workers", workers, "--jobs", "2"];
      const w = await runWritten(files, dir, { ...ENV, DIR: dir }, args, ["--allow-run"]);
      assert.equal(w.code, 1, w.console);
      const said = CASES.map(([, , message]) =>
        message.replace("<deno>", DENO).replace("<dir>", dir)
      );
      const steps = w.report.flows.flatMap((f) => f.steps);
      assert.deepEqual(steps.map((s) => s.message).sort(), [...said].sort());
      saidEverywhere(w, said, { console: false, artifacts: 4 });
      noLeak(
        w,
        ["tenant exited", "no-found", btoa("exited"), "%65%78%69"],
        /bearer \*\*\*|\*\*\* with code|\*\*\* no token/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
