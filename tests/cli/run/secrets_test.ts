import assert from "node:assert/strict";
import { flowEnv, learnSecrets } from "../../../cli/run/secrets.ts";
import { UsageError } from "../../../lib/model/errors.ts";

const sink = () => {
  const learned: string[] = [];
  return { learned, add: (value: string) => void learned.push(value) };
};

Deno.test("--secret takes its value from --var, else the environment, else an --env-file", () => {
  const s = sink();
  const secrets = learnSecrets({
    secretNames: new Set(["A", "B", "C"]),
    params: new Map([["A", "from-var"]]),
    envFile: new Map([["B", "from-file"], ["C", "from-file-c"]]),
    env: (name) => name === "B" ? "from-env" : undefined,
    sink: s,
  });
  assert.deepEqual(s.learned, ["from-var", "from-env", "from-file-c", "from-var"]);
  assert.deepEqual(
    secrets.variables,
    new Map([["from-var", "A"], ["from-env", "B"], ["from-file-c", "C"]]),
  );
  assert.ok(secrets.isSecret("A") && secrets.isSecret("API_TOKEN") && !secrets.isSecret("USER"));
});

Deno.test("a --secret that nothing sets is a usage error", () => {
  assert.throws(
    () =>
      learnSecrets({
        secretNames: new Set(["NOPE"]),
        params: new Map(),
        envFile: new Map(),
        env: () => undefined,
        sink: sink(),
      }),
    (error) =>
      error instanceof UsageError && error.code === "bad-secret" &&
      error.message === "--secret NOPE: no --var or environment variable of that name is set.",
  );
});

Deno.test("the flows' environment: each name read once, recorded, its secret learned once", () => {
  const s = sink();
  let reads = 0;
  const variables = new Map([["known", "OTHER"]]);
  const { env, read } = flowEnv({
    env: (name) => {
      reads++;
      return { API_TOKEN: "tok-123456", OTHER_TOKEN: "known" }[name];
    },
    envFile: new Map([["API_TOKEN", "file-loses"], ["BASE", "http://x"]]),
    secrets: { variables, isSecret: (name) => name.endsWith("TOKEN") },
    sink: s,
  });
  assert.equal(env("API_TOKEN"), "tok-123456");
  assert.equal(env("API_TOKEN"), "tok-123456");
  assert.equal(env("BASE"), "http://x");
  assert.equal(env("OTHER_TOKEN"), "known");
  assert.equal(env("UNSET"), undefined);
  assert.equal(env("UNSET"), undefined);
  assert.equal(reads, 4);
  assert.deepEqual([...read], ["API_TOKEN", "BASE", "OTHER_TOKEN", "UNSET"]);
  assert.deepEqual(s.learned, ["tok-123456", "known"]);
  // A value already known keeps the variable it was first known by.
  assert.equal(variables.get("known"), "OTHER");
  assert.equal(variables.get("tok-123456"), "API_TOKEN");
});
