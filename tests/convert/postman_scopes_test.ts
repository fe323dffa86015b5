/**
 * Newman's variable scopes, proven against Newman itself: a collection written here sets one
 * variable in every combination of the four scopes a script writes (global, collection,
 * environment, local), the lowest precedence last, and a later request sends what each getter
 * reads of each. Newman (its sandbox, test-only) and the converted flow each send it to a server
 * the test starts, which records the query: the two must be the same. What Newman does, run here:
 * `{{x}}` and `pm.variables.get` read by precedence (local > data > environment > collection >
 * global); `pm.environment.get`, `pm.collectionVariables.get`, `pm.globals.get` and the legacy
 * `postman.getEnvironmentVariable`/`getGlobalVariable` read their own scope only (`undefined`
 * when only another scope holds the value), in the script that set it as in later ones.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const SCOPES = ["local", "environment", "collection", "global"] as const;
const SETTERS: Record<string, string> = {
  global: "pm.globals.set",
  collection: "pm.collectionVariables.set",
  environment: "pm.environment.set",
  local: "pm.variables.set",
};
const GETTERS: Record<string, string> = {
  any: "pm.variables.get",
  env: "pm.environment.get",
  coll: "pm.collectionVariables.get",
  glob: "pm.globals.get",
  legacyEnv: "postman.getEnvironmentVariable",
  legacyGlob: "postman.getGlobalVariable",
};

/** Every non-empty combination of the scopes, as a variable name (`v_local_global`). */
const NAMES = Array.from(
  { length: 15 },
  (_, m) => "v_" + SCOPES.filter((_, i) => (m + 1) & (1 << i)).join("_"),
);
/** A variable only the collection file gives, which a script also sets as a global. */
const FILED = "f_collection_global";

/**
 * Each read of each name, set as a local in two forms flowrun folds apart: `"=" + get(n)` (a
 * value held: `s_eq_env_v_global`) and `get(n) || "none"` (`undefined`: `s_or_env_v_global`).
 */
const reads = (prefix: string) =>
  [...NAMES, FILED].flatMap((n) =>
    Object.entries(GETTERS).flatMap(([g, fn]) => [
      `pm.variables.set("${prefix}_eq_${g}_${n}", "=" + ${fn}("${n}"));`,
      `pm.variables.set("${prefix}_or_${g}_${n}", ${fn}("${n}") || "none");`,
    ])
  );

/** Each read `reads` makes, without its form (`s_env_v_global`). */
const READS = [...NAMES, FILED].flatMap((n) =>
  ["s", "r"].flatMap((p) => Object.keys(GETTERS).map((g) => [p, `${g}_${n}`]))
);

function collection(): unknown {
  // The lowest precedence last: a flow that kept the last value set would send the global.
  const sets = NAMES.flatMap((n) =>
    SCOPES.filter((s) => n.includes(s)).map((s) => `${SETTERS[s]}("${n}", "${s}");`)
  );
  const query = [
    ...[...NAMES, FILED].map((n) => `${n}={{${n}}}`),
    ...READS.flatMap((
      [p, r],
    ) => [`${p}_eq_${r}={{${p}_eq_${r}}}`, `${p}_or_${r}={{${p}_or_${r}}}`]),
  ];
  const script = (listen: string, exec: string[]) => [{ listen, script: { exec } }];
  return {
    info: {
      name: "scopes",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    variable: [{ key: FILED, value: "collection" }],
    item: [
      {
        name: "set",
        event: script("prerequest", [
          ...sets,
          `pm.globals.set("${FILED}", "global");`,
          ...reads("s"),
        ]),
        request: { method: "GET", url: "{{baseUrl}}/set" },
      },
      {
        name: "read",
        event: script("prerequest", reads("r")),
        request: { method: "GET", url: `{{baseUrl}}/read?${query.join("&")}` },
      },
    ],
  };
}

/** A server that answers `{}` and keeps each query `/read` got, decoded. */
function recorder() {
  const seen: Record<string, string>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/read") seen.push(Object.fromEntries(url.searchParams));
    return Response.json({});
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("convert postman: each getter and {{x}} read the scope Newman reads, by its precedence", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-scopes-" });
  const server = recorder();
  try {
    const file = `${dir}/scopes.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection()));
    await runNewman(file, { baseUrl: server.url });
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const run = await runCli(["run", `${dir}/flows`, "--jobs", "1"], {
      env: { BASE_URL: server.url },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(server.seen.length, 2);
    const [byNewman, byFlowrun] = server.seen;
    // What Newman's precedence gives, as run: the highest scope holding the value wins.
    assert.equal(byNewman.v_local_global, "local");
    assert.equal(byNewman.r_eq_env_v_collection_global, "=undefined");
    // `{{x}}` as Newman sends it, every one.
    const sent = [...NAMES, FILED].filter((n) => byNewman[n] !== byFlowrun[n])
      .map((n) => `${n}: Newman ${byNewman[n]}, flowrun ${byFlowrun[n]}`);
    assert.deepEqual(sent, []);
    // Each read as Newman's, in one form at least; the other sent as written (a chain broken
    // loudly: the summary names it), never another value.
    const wrong = READS.flatMap(([p, r]) => {
      const forms = [`${p}_eq_${r}`, `${p}_or_${r}`];
      const same = forms.filter((k) => byNewman[k] === byFlowrun[k]);
      const other = forms.filter((k) =>
        byNewman[k] !== byFlowrun[k] && byFlowrun[k] !== `{{${k}}}`
      );
      return same.length === 0 || other.length > 0
        ? [forms.map((k) => `${k}: Newman ${byNewman[k]}, flowrun ${byFlowrun[k]}`).join("; ")]
        : [];
    });
    assert.deepEqual(wrong, []);
    assert.match(converted.stderr, /^Not translated: .* read by read\.$/m);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
