/**
 * Runs a Postman collection with Newman, Postman's own command-line runner
 * (a test-only package), and prints what it did as one JSON line: each
 * request in order with its assertions, for the tests of tests/real/ to
 * compare with flowrun's JSON report. Run in a process of its own, since
 * Newman keeps timers and sockets of its own:
 * `deno run -A tests/real/postman_newman.ts COLLECTION.json WORKING_DIR NAME=VALUE...`
 * (WORKING_DIR is where a form's file `src` is read from, as Newman's
 * `--working-dir`; each pair an environment variable, which Postman lets
 * override a collection variable).
 *
 * @module
 */
import newman from "newman";

/** One request Newman sent, as the JSON line holds it. */
export interface NewmanRequest {
  /** The item's name. */
  name: string;
  method: string;
  url: string;
  /** The status it got; 0 when no response came. */
  status: number;
  /** Each `pm.test` of the item's scripts, with whether it passed. */
  assertions: { name: string; passed: boolean; error?: string }[];
}

/** Newman's run summary, as far as these tests read it. */
interface Summary {
  run: {
    executions: {
      item: { name: string };
      request?: { method: string; url: { toString(): string } };
      response?: { code: number };
      assertions?: { assertion: string; error?: { message: string } }[];
    }[];
  };
}

if (import.meta.main) {
  const [collection, workingDir, ...vars] = Deno.args;
  const envVar = vars.map((pair) => {
    const at = pair.indexOf("=");
    return { key: pair.slice(0, at), value: pair.slice(at + 1) };
  });
  const summary = await new Promise<Summary>((resolve, reject) =>
    newman.run(
      {
        collection: JSON.parse(Deno.readTextFileSync(collection)),
        envVar,
        workingDir,
        reporters: [],
      },
      (error: unknown, summary: Summary) => error ? reject(error) : resolve(summary),
    )
  );
  const requests: NewmanRequest[] = summary.run.executions.map((e) => ({
    name: e.item.name,
    method: e.request?.method ?? "",
    url: e.request?.url.toString() ?? "",
    status: e.response?.code ?? 0,
    assertions: (e.assertions ?? []).map((a) => ({
      name: a.assertion,
      passed: !a.error,
      ...(a.error ? { error: a.error.message } : {}),
    })),
  }));
  console.log(JSON.stringify(requests));
  Deno.exit(0);
}
