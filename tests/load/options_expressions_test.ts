/**
 * No request option takes an expression: each `${…}` in a flow's or a
 * step's `options` is one problem at the expression, which says that no
 * option takes one and what to write instead (the value, or the run-wide
 * option), under `validate` and `run` alike, before anything is sent. None
 * is taken as written (a `no_proxy` host, a `retry.on` status).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const FLOW = `name: opts
vars: {t: 5s, on: true, p: "http://proxy.test:3128", n: 2}
options: {timeout: "\${vars.t}"}
steps:
  - name: a
    options: {follow_redirects: "\${vars.on}", cookie_jar: "\${ENV.JAR}", insecure: "\${vars.on}"}
    request: {url: "http://x.test"}
  - name: b
    options:
      omit_empty_headers: "\${on}"
      delay: "\${vars.t}"
      retry: {count: "\${vars.n}", on: ["\${vars.code}", 502], delay: "\${vars.t}"}
      proxy: "\${vars.p}"
      no_proxy: [localhost, "\${vars.host}"]
    request: {url: "http://x.test"}
  - name: c
    options: {retry: "\${vars.n}", ca_cert: "\${ENV.CA}", no_proxy: "localhost,\${vars.host}"}
    request: {url: "http://x.test"}
  - name: d
    options: {client_cert: "certs/\${vars.who}.pem", client_key: "\${vars.key}"}
    request: {url: "http://x.test"}
`;

/** Every problem: its position (each at its "${") and the option it names. */
const EXPECTED = [
  '3:21 "timeout" of the flow',
  '6:34 "follow_redirects" of step "a"',
  '6:60 "cookie_jar" of step "a"',
  '6:84 "insecure" of step "a"',
  '10:28 "omit_empty_headers" of step "b"',
  '11:15 "delay" of step "b"',
  '12:23 "retry.count" of step "b"',
  '12:41 "retry.on" of step "b"',
  '12:70 "retry.delay" of step "b"',
  '13:15 "proxy" of step "b"',
  '14:30 "no_proxy" of step "b"',
  '17:23 "retry" of step "c"',
  '17:45 "ca_cert" of step "c"',
  '17:78 "no_proxy" of step "c"',
  '20:35 "client_cert" of step "d"',
  '20:66 "client_key" of step "d"',
];

Deno.test("an expression in any option is one positioned problem that says no option takes one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-option-expr-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    for (const command of ["validate", "run"]) {
      const run = await runCli([command, "f.yaml"], {
        cwd: dir,
        env: { JAR: "true", CA: "ca.pem" },
      });
      assert.equal(run.code, 2, run.stdout + run.stderr);
      const out = run.stdout + run.stderr;
      const problems = out.split("\n").filter((l) => / error\[/.test(l));
      assert.deepEqual(
        problems.map((l) =>
          l.replace(
            /^f\.yaml:(\d+:\d+) error\[expression-not-allowed\]: (".*?" of (?:step ".*?"|the flow)) .*$/,
            "$1 $2",
          )
        ),
        EXPECTED,
        command,
      );
      const hints = out.split("\n").filter((l) => l.startsWith("  hint: "));
      assert.equal(hints.length, EXPECTED.length);
      for (const hint of hints) {
        assert.equal(
          hint,
          "  hint: No option takes an expression: options are read when the flow loads. Write the " +
            "value itself (timeout: 5s), or set it for the whole run with --timeout, --proxy, " +
            "--no-proxy, --cacert, --cert/--key or --insecure.",
        );
      }
      assert.match(out, /nothing was sent|1 file checked/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
