import assert from "node:assert/strict";
import { insecureWarning, loadWarnings } from "../../../cli/run/warnings.ts";
import type { Flow } from "../../../lib/model/flow.ts";

Deno.test("load warnings: every kind is written, an unused variable only when --var gave it", () => {
  const warnings = [
    { code: "unused-var", name: "from_file", message: "from_file is unused.", hint: "h1" },
    { code: "unused-var", name: "given", message: "given is unused.", hint: "h2" },
    { code: "slow-schema", message: "A schema is slow.", hint: "h3" },
  ];
  assert.deepEqual(loadWarnings(warnings, new Map([["given", "1"]])), [
    "warning[unused-var]: given is unused.\n  hint: h2\n",
    "warning[slow-schema]: A schema is slow.\n  hint: h3\n",
  ]);
});

Deno.test("turned-off certificate checks are named: by --insecure, or by the flows that set it", () => {
  const flow = (file: string, flowInsecure: boolean, stepInsecure: boolean) =>
    ({
      file,
      name: file,
      ...(flowInsecure ? { options: { insecure: true } } : {}),
      steps: [{
        name: "s",
        request: { method: "GET", url: "https://x" },
        ...(stepInsecure ? { options: { insecure: true } } : {}),
      }],
    }) as unknown as Flow;
  assert.equal(insecureWarning(false, [flow("a.yaml", false, false)]), undefined);
  const one = insecureWarning(false, [flow("a.yaml", true, false), flow("b.yaml", false, false)]);
  assert.ok(
    one?.startsWith("warning[insecure]: a.yaml sets insecure: true: TLS certificates"),
    one,
  );
  const two = insecureWarning(false, [flow("a.yaml", true, false), flow("b.yaml", false, true)]);
  assert.ok(two?.startsWith("warning[insecure]: a.yaml, b.yaml set insecure: true: "), two);
  const all = insecureWarning(true, [flow("a.yaml", true, false)]);
  assert.ok(all?.startsWith("warning[insecure]: --insecure is on: "), all);
  assert.ok(all?.endsWith("(or ca_cert in the flow's options).\n"), all);
});
