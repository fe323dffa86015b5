import assert from "node:assert/strict";
import { reproducer } from "../../../cli/run/reproduce.ts";

type ReproducerOptions = Parameters<typeof reproducer>[0];

/**
 * The reproducer of a run with no option given (run id `x`, started as
 * `flowrun`, nothing secret); `over` changes what a test is about.
 */
function minimalReproducer(over: Partial<ReproducerOptions> = {}) {
  return reproducer({
    plan: {
      params: new Map(),
      setup: [],
      varsFiles: [],
      envFiles: [],
      secretNames: new Set(),
      network: { caFiles: [], insecure: false },
    },
    isSecret: () => false,
    runId: "x",
    self: () => ["flowrun"],
    redact: (text) => text,
    ...over,
  });
}

Deno.test("the rerun command repeats every option that changes what a flow does", () => {
  let asked = 0;
  const reproduce = reproducer({
    plan: {
      params: new Map([["user", "ann lee"], ["db-password", "pw"]]),
      setup: ["set up.yaml"],
      teardown: ["down.yaml"],
      tags: "smoke and not slow",
      filter: ["login", "a*"],
      varsFiles: ["vars.yaml"],
      envFiles: [".env"],
      secretNames: new Set(["API_KEY"]),
      timeoutMs: 3000,
      maxBody: "1MiB",
      maxBodyMemory: "2MiB",
      trace: true,
      cookieJar: true,
      network: {
        caFiles: ["ca.pem"],
        cert: "c.pem",
        key: "c.key",
        proxy: "http://u:secret@proxy.example:3128",
        noProxy: "localhost, .local",
        insecure: true,
      },
    },
    isSecret: (name) => name.includes("password"),
    runId: "r-1",
    self: () => (asked++, ["flowrun"]),
    redact: (text) => text.replaceAll("proxy.example", "***"),
  });
  assert.equal(asked, 0, "how flowrun started is asked only for a command");
  assert.equal(
    reproduce("flows/a b.yaml"),
    "flowrun run 'flows/a b.yaml' --run-id r-1 --setup 'set up.yaml' --teardown down.yaml " +
      "--tag 'smoke and not slow' --filter login --filter 'a*' --var 'user=ann lee' " +
      '--var db-password="$DB_PASSWORD" --vars-file vars.yaml --env-file .env --secret API_KEY ' +
      "--timeout 3000 --max-body 1MiB --max-body-memory 2MiB --trace --cookie-jar " +
      "--cacert ca.pem --cert c.pem --key c.key --proxy 'http://u:***@***:3128' " +
      "--no-proxy 'localhost, .local' --insecure",
  );
  assert.equal(asked, 1);
});

Deno.test("the rerun command of a minimal run, and of a file named like an option", () => {
  const reproduce = minimalReproducer();
  assert.equal(reproduce("a.yaml"), "flowrun run a.yaml --run-id x");
  assert.equal(reproduce("-a.yaml"), "flowrun run ./-a.yaml --run-id x");
});

Deno.test("the rerun command gives a value that starts with - as --name=value", () => {
  const reproduce = reproducer({
    plan: {
      params: new Map(),
      setup: ["-setup.yaml"],
      tags: "-x",
      filter: ["-f"],
      varsFiles: ["-v.yaml"],
      envFiles: ["-e env"],
      secretNames: new Set(),
      maxBody: "-1",
      network: { caFiles: ["-ca.pem"], insecure: false },
    },
    isSecret: () => false,
    runId: "-r",
    self: () => ["flowrun"],
    redact: (text) => text,
  });
  assert.equal(
    reproduce("a.yaml"),
    "flowrun run a.yaml --run-id=-r --setup=-setup.yaml --tag=-x --filter=-f " +
      "--vars-file=-v.yaml '--env-file=-e env' --max-body=-1 --cacert=-ca.pem",
  );
});

Deno.test("the words that start flowrun are quoted for a shell", () => {
  const reproduce = minimalReproducer({
    self: () => ["/opt/my deno/deno", "run", "--v8-flags=--no-lazy", "it's/cli.ts"],
  });
  assert.equal(
    reproduce("a.yaml"),
    `'/opt/my deno/deno' run --v8-flags=--no-lazy 'it'\\''s/cli.ts' run a.yaml --run-id x`,
  );
});
