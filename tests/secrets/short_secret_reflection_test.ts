/**
 * A `grpc:` step whose method comes from the server's reflection, which fails, says why in
 * flowrun's words around what it quotes: `The server at <target> knows no service "<service>";
 * it offers <the server's services>.`, `The server at <target> ended server reflection with
 * UNAUTHENTICATED: <the server's details>.` With short secrets that are those very words
 * (passwords `knows`, `server`, `ended`) and the server's details that quote one (`token`), the
 * values (the target, the services the server lists, the server's details) are masked where the
 * message is made and flowrun's words and the flow's service name are not, in every artifact.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";
import { flowDir } from "../kinds/grpc/support.ts";
import { servedOfficial } from "../kinds/grpc/served.ts";

/** Asks the open server for a service it does not have, and the guarded one for any. */
const FLOW = `name: reflection
vars:
  open: "0"
  guarded: "0"
  known: "\${ENV.PASSWORD_1} \${ENV.PASSWORD_2} \${ENV.PASSWORD_3} \${ENV.PASSWORD_4}"
steps:
  - name: unknown
    grpc:
      target: "127.0.0.1:\${vars.open}"
      method: atlas.Nope/GetPlace
      message: {}
  - name: refused
    always: true
    grpc:
      target: "127.0.0.1:\${vars.guarded}"
      method: atlas.Atlas/GetPlace
      message: {}
`;

const ENV = { PASSWORD_1: "knows", PASSWORD_2: "server", PASSWORD_3: "token", PASSWORD_4: "ended" };

Deno.test("a grpc step's reflection errors keep their words from a short secret", async () => {
  const open = await servedOfficial();
  const guarded = await servedOfficial({ authorization: "Bearer reflection-only" });
  const dir = await flowDir(FLOW);
  try {
    const ports = ["--var", `open=${open.port}`, "--var", `guarded=${guarded.port}`];
    const w = await runWritten([`${dir}/flow.yaml`], dir, ENV, ports);
    assert.equal(w.code, 1, w.console);
    const steps = w.report.flows[0].steps;
    const offers = /; it offers (.*)\.$/.exec(steps[0].message ?? "")?.[1];
    assert.ok(offers?.includes("atlas.Atlas"), steps[0].message);
    const said = [
      `The server at ${open.target} knows no service "atlas.Nope"; it offers ${offers}.`,
      `The server at ${guarded.target} ended server reflection with UNAUTHENTICATED: a *** is ` +
      "required.",
    ];
    assert.deepEqual(steps.map((s) => s.message), said);
    saidEverywhere(w, said, { console: false, artifacts: 4 });
    noLeak(w, ["a token is"], /The \*\*\*|\*\*\* no service|\*\*\* server/);
  } finally {
    await open.close();
    await guarded.close();
    await Deno.remove(dir, { recursive: true });
  }
});
